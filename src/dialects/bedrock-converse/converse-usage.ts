// Converse's `usage` and `metrics`. `inputTokens` is the part of the prompt neither read from nor
// written to the prompt cache; the cache members carry the rest, and `totalTokens` is all of them
// with the output (reasoning included). `latencyMs` comes from the answer's pacing when it is
// paced (time to first event, then the gaps between events), else 0: an encoder reads no clock,
// and an unpaced answer is written at once.

import type { Pacing, Usage } from '../../core/model.js';

export function converseUsageJson(usage: Usage): string {
  const read = usage.cachedInputTokens;
  const write = usage.cacheWriteTokens ?? 0;
  const input = usage.inputTokens - read - write;
  const output = usage.outputTokens + usage.reasoningTokens;
  return (
    `{"inputTokens":${input},"outputTokens":${output},"totalTokens":${input + output + read + write},` +
    `"cacheReadInputTokens":${read},"cacheWriteInputTokens":${write}}`
  );
}

/** `{"latencyMs":n}` for an answer written in `events` events (1 for a JSON body). */
export function converseMetricsJson(pacing: Pacing | undefined, events: number): string {
  let ms = 0;
  if (pacing) {
    ms = pacing.ttftMs ?? 0;
    if (pacing.chunksPerSecond && events > 1) ms += ((events - 1) * 1000) / pacing.chunksPerSecond;
  }
  return `{"latencyMs":${Math.round(ms)}}`;
}

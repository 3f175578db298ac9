// What Bedrock reports of an invocation besides the model's own answer: the token counts and
// latencies in the InvokeModel response headers, and the same in the
// `amazon-bedrock-invocationMetrics` member of a stream's last chunk. The latencies are those of the
// answer's pacing (its time to first event, and its gaps), 0 when it is unpaced, so the same
// request gives the same bytes.

import type { Pacing, Usage } from '../../core/model.js';

export interface Latency {
  firstByte: number;
  invocation: number;
}

/** The latencies of an answer written in `events` pieces with `pacing`. */
export function latencyOf(pacing: Pacing | undefined, events: number): Latency {
  const firstByte = Math.round(pacing?.ttftMs ?? 0);
  const rate = pacing?.chunksPerSecond;
  const rest = rate && events > 1 ? Math.round(((events - 1) * 1000) / rate) : 0;
  return { firstByte, invocation: firstByte + rest };
}

/** The prompt tokens neither read from nor written to the prompt cache. */
export function uncachedInput(usage: Usage): number {
  return usage.inputTokens - usage.cachedInputTokens - (usage.cacheWriteTokens ?? 0);
}

/** The answer's tokens, reasoning included. */
export function outputTokenCount(usage: Usage): number {
  return usage.outputTokens + usage.reasoningTokens;
}

/** `,"amazon-bedrock-invocationMetrics":{…}`, to close a stream's last chunk with. */
export function invocationMetricsMember(usage: Usage, latency: Latency): string {
  const cache =
    usage.cachedInputTokens > 0 || (usage.cacheWriteTokens ?? 0) > 0
      ? `,"cacheReadInputTokenCount":${usage.cachedInputTokens},"cacheWriteInputTokenCount":${usage.cacheWriteTokens ?? 0}`
      : '';
  return (
    `,"amazon-bedrock-invocationMetrics":{"inputTokenCount":${uncachedInput(usage)},"outputTokenCount":${outputTokenCount(usage)},` +
    `"invocationLatency":${latency.invocation},"firstByteLatency":${latency.firstByte}${cache}}`
  );
}

/** The InvokeModel response headers: the request id, and the invocation's counts and latency. */
export function invocationHeaders(requestId: string, usage: Usage, pacing: Pacing | undefined): Record<string, string> {
  // One object per answer, built as a literal: this is on every InvokeModel answer's path.
  const headers: Record<string, string> = {
    'x-amzn-requestid': requestId,
    'x-amzn-bedrock-input-token-count': String(uncachedInput(usage)),
    'x-amzn-bedrock-output-token-count': String(outputTokenCount(usage)),
    'x-amzn-bedrock-invocation-latency': String(Math.round(pacing?.ttftMs ?? 0)),
  };
  if (usage.cachedInputTokens > 0) headers['x-amzn-bedrock-cache-read-input-token-count'] = String(usage.cachedInputTokens);
  if ((usage.cacheWriteTokens ?? 0) > 0) headers['x-amzn-bedrock-cache-write-input-token-count'] = String(usage.cacheWriteTokens);
  return headers;
}

// The statistics the last object of every answer carries: token counts from the neutral usage, and
// durations in nanoseconds. A paced answer reports its pacing: the time to first token as the
// prompt's evaluation, the gaps between its lines as the generation. Otherwise (and for what pacing
// leaves unset) the durations come from the counts at fixed nominal rates, so the same request
// gives the same bytes (docs/dialects/ollama.md lists the rates). The session clock gives `created_at`.

import type { Pacing, Usage } from '../../core/model.js';

/** Nanoseconds a model "takes" to load: the same for every answer. */
export const LOAD_NS = 1_000_000;
/** Nanoseconds per prompt token read. */
export const PROMPT_TOKEN_NS = 200_000;
/** Nanoseconds per token generated. */
const EVAL_TOKEN_NS = 20_000_000;

/** `,"total_duration":…,"eval_duration":…` — the members after `done_reason`, in the server's order.
 * `lines`: how many lines the answer is written in (1 for a JSON body). */
export function metricsJson(usage: Usage, pacing: Pacing | undefined, lines: number): string {
  const promptCount = usage.inputTokens;
  const evalCount = usage.outputTokens + usage.reasoningTokens;
  const promptNs = pacing?.ttftMs !== undefined ? Math.round(pacing.ttftMs * 1e6) : promptCount * PROMPT_TOKEN_NS;
  const evalNs =
    pacing?.chunksPerSecond && lines > 1 ? Math.round(((lines - 1) * 1e9) / pacing.chunksPerSecond) : evalCount * EVAL_TOKEN_NS;
  return (
    `,"total_duration":${LOAD_NS + promptNs + evalNs},"load_duration":${LOAD_NS}` +
    `,"prompt_eval_count":${promptCount},"prompt_eval_duration":${promptNs}` +
    `,"eval_count":${evalCount},"eval_duration":${evalNs}`
  );
}

/** `created_at` as Go writes a time.Time (RFC 3339, fractional seconds only when there are some). */
export function createdAt(created: number): string {
  return JSON.stringify(new Date(created * 1000).toISOString().replace('.000Z', 'Z'));
}

// The statistics the last object of every answer carries: token counts from the neutral usage, and
// durations in nanoseconds made from those counts at fixed nominal rates, so the same request gives
// the same bytes (docs/dialects/ollama.md lists the rates). The session clock gives `created_at`.

import type { Usage } from '../../core/model.js';

/** Nanoseconds a model "takes" to load: the same for every answer. */
const LOAD_NS = 1_000_000;
/** Nanoseconds per prompt token read. */
const PROMPT_TOKEN_NS = 200_000;
/** Nanoseconds per token generated. */
const EVAL_TOKEN_NS = 20_000_000;

/** `,"total_duration":…,"eval_duration":…` — the members after `done_reason`, in the server's order. */
export function metricsJson(usage: Usage): string {
  const promptCount = usage.inputTokens;
  const evalCount = usage.outputTokens + usage.reasoningTokens;
  const promptNs = promptCount * PROMPT_TOKEN_NS;
  const evalNs = evalCount * EVAL_TOKEN_NS;
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

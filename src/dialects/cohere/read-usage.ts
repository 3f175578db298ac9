// Cohere's token counts read back, the same in both Chat APIs (usage.ts writes them): `tokens`
// (what the model read and wrote, thinking included) and `billed_units` (the answer without its
// thinking: the difference is the reasoning count), with `cached_tokens`.

import type { Usage } from '../../core/model.js';
import { isObject } from '../wire-kit/values.js';

/** v2's `usage` or v1's `meta`; undefined when it holds no counts. */
export function readCohereUsage(value: unknown): Usage | undefined {
  if (!isObject(value)) return undefined;
  const tokens = isObject(value.tokens) ? value.tokens : {};
  const billed = isObject(value.billed_units) ? value.billed_units : {};
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
  const input = num(tokens.input_tokens) ?? num(billed.input_tokens);
  const written = num(tokens.output_tokens) ?? num(billed.output_tokens);
  if (input === undefined || written === undefined) return undefined;
  const output = Math.min(num(billed.output_tokens) ?? written, written);
  return { inputTokens: input, outputTokens: output, cachedInputTokens: num(value.cached_tokens) ?? 0, reasoningTokens: written - output };
}

// Cohere's `usage`: `billed_units` (what is charged) and `tokens` (what the model read and wrote),
// and `cached_tokens`, the part of the prompt read from the cache. Thinking is counted in the
// output tokens the model wrote, not in the billed ones.

import type { Usage } from '../../core/model.js';

export function cohereUsageJson(usage: Usage): string {
  return (
    `{"billed_units":{"input_tokens":${usage.inputTokens - usage.cachedInputTokens},"output_tokens":${usage.outputTokens}},` +
    `"tokens":{"input_tokens":${usage.inputTokens},"output_tokens":${usage.outputTokens + usage.reasoningTokens}},` +
    `"cached_tokens":${usage.cachedInputTokens}}`
  );
}

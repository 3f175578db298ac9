// Cohere's token counts, the same in both Chat APIs: `billed_units` (what is charged: the prompt
// less its cached part, and the answer without its thinking) and `tokens` (what the model read and
// wrote, thinking included). v2 puts them in `usage`, v1 in `meta`.

import type { Usage } from '../../core/model.js';

export function billedUnitsJson(usage: Usage): string {
  return `{"input_tokens":${usage.inputTokens - usage.cachedInputTokens},"output_tokens":${usage.outputTokens}}`;
}

export function tokensJson(usage: Usage): string {
  return `{"input_tokens":${usage.inputTokens},"output_tokens":${usage.outputTokens + usage.reasoningTokens}}`;
}

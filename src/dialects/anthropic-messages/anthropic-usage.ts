// Anthropic's `usage` object. `input_tokens` is the part of the prompt neither read from nor
// written to the cache; the cache fields carry the rest (cache_control marks what is cached).

import type { Usage } from '../../core/model.js';

/** Output tokens as Anthropic counts them: thinking included. */
export function anthropicOutputTokens(usage: Usage): number {
  return usage.outputTokens + usage.reasoningTokens;
}

function details(usage: Usage): string {
  return usage.reasoningTokens > 0 ? `,"output_tokens_details":{"thinking_tokens":${usage.reasoningTokens}}` : '';
}

/** The full usage object of a message, as JSON text (built without an intermediate object). */
function uncached(usage: Usage): number {
  return usage.inputTokens - usage.cachedInputTokens - (usage.cacheWriteTokens ?? 0);
}

export function anthropicUsageJson(usage: Usage, outputTokens = anthropicOutputTokens(usage)): string {
  const write = usage.cacheWriteTokens ?? 0;
  return (
    `{"input_tokens":${uncached(usage)},"cache_creation_input_tokens":${write},"cache_read_input_tokens":${usage.cachedInputTokens},` +
    `"cache_creation":{"ephemeral_5m_input_tokens":${write},"ephemeral_1h_input_tokens":0},` +
    `"output_tokens":${outputTokens}${details(usage)},"service_tier":"standard"}`
  );
}

/** `message_delta.usage`: cumulative for the whole message. */
export function anthropicDeltaUsageJson(usage: Usage): string {
  return (
    `{"input_tokens":${uncached(usage)},"cache_creation_input_tokens":${usage.cacheWriteTokens ?? 0},"cache_read_input_tokens":${usage.cachedInputTokens},` +
    `"output_tokens":${anthropicOutputTokens(usage)}${details(usage)}}`
  );
}

// Anthropic's `usage` object. Prompt caching is not reported yet: both cache fields are 0 and
// `input_tokens` is the whole prompt (a later issue maps the prompt-cache identity onto them).

import type { Usage } from '../../core/model.js';

/** Output tokens as Anthropic counts them: thinking included. */
export function anthropicOutputTokens(usage: Usage): number {
  return usage.outputTokens + usage.reasoningTokens;
}

function details(usage: Usage): string {
  return usage.reasoningTokens > 0 ? `,"output_tokens_details":{"thinking_tokens":${usage.reasoningTokens}}` : '';
}

/** The full usage object of a message, as JSON text (built without an intermediate object). */
export function anthropicUsageJson(usage: Usage, outputTokens = anthropicOutputTokens(usage)): string {
  return (
    `{"input_tokens":${usage.inputTokens},"cache_creation_input_tokens":0,"cache_read_input_tokens":0,` +
    `"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},` +
    `"output_tokens":${outputTokens}${details(usage)},"service_tier":"standard"}`
  );
}

/** `message_delta.usage`: cumulative for the whole message. */
export function anthropicDeltaUsageJson(usage: Usage): string {
  return (
    `{"input_tokens":${usage.inputTokens},"cache_creation_input_tokens":0,"cache_read_input_tokens":0,` +
    `"output_tokens":${anthropicOutputTokens(usage)}${details(usage)}}`
  );
}

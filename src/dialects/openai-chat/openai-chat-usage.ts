import type { Usage } from '../../core/model.js';

export function openaiChatUsage(usage: Usage) {
  const completion = usage.outputTokens + usage.reasoningTokens;
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: completion,
    total_tokens: usage.inputTokens + completion,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoningTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** The same object as JSON text, without building it (hot path). */
export function openaiChatUsageJson(usage: Usage): string {
  const completion = usage.outputTokens + usage.reasoningTokens;
  return (
    `{"prompt_tokens":${usage.inputTokens},"completion_tokens":${completion},"total_tokens":${usage.inputTokens + completion},` +
    `"prompt_tokens_details":{"cached_tokens":${usage.cachedInputTokens},"audio_tokens":0},` +
    `"completion_tokens_details":{"reasoning_tokens":${usage.reasoningTokens},"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}`
  );
}

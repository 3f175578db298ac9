// A resolved reply in the AI SDK's terms: generate-result content, usage and finish reason, and
// the stream parts a provider's doStream emits for the same reply.

import type {
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import type { FinishReason, ResolvedReply, Usage } from '../../core/model.js';

const UNIFIED: Record<FinishReason, LanguageModelV3FinishReason['unified']> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool-calls',
  content_filter: 'content-filter',
};

export function finishReasonOf(reply: ResolvedReply): LanguageModelV3FinishReason {
  return { unified: UNIFIED[reply.finishReason], raw: reply.finishReason };
}

export function usageOf(usage: Usage): LanguageModelV3Usage {
  return {
    inputTokens: {
      total: usage.inputTokens,
      noCache: usage.inputTokens - usage.cachedInputTokens,
      cacheRead: usage.cachedInputTokens,
      cacheWrite: usage.cacheWriteTokens,
    },
    outputTokens: { total: usage.outputTokens, text: usage.outputTokens - usage.reasoningTokens, reasoning: usage.reasoningTokens },
  };
}

export function contentOf(reply: ResolvedReply): LanguageModelV3Content[] {
  const content: LanguageModelV3Content[] = [];
  if (reply.reasoning !== null) content.push({ type: 'reasoning', text: reply.reasoning });
  if (reply.content !== null) content.push({ type: 'text', text: reply.content });
  for (const call of reply.toolCalls)
    content.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.argumentsText });
  return content;
}

/** The reply's stream parts after `stream-start` and the response metadata: reasoning, the text in
 * the reply's chunks, each tool call's input whole, then `finish` (left to the caller). */
export function streamPartsOf(reply: ResolvedReply): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [];
  if (reply.reasoning !== null) {
    parts.push({ type: 'reasoning-start', id: 'reasoning-0' });
    parts.push({ type: 'reasoning-delta', id: 'reasoning-0', delta: reply.reasoning });
    parts.push({ type: 'reasoning-end', id: 'reasoning-0' });
  }
  if (reply.content !== null) {
    parts.push({ type: 'text-start', id: 'text-0' });
    for (const chunk of reply.chunks.length > 0 ? reply.chunks : [reply.content])
      parts.push({ type: 'text-delta', id: 'text-0', delta: chunk });
    parts.push({ type: 'text-end', id: 'text-0' });
  }
  for (const call of reply.toolCalls) {
    parts.push({ type: 'tool-input-start', id: call.id, toolName: call.name });
    parts.push({ type: 'tool-input-delta', id: call.id, delta: call.argumentsText });
    parts.push({ type: 'tool-input-end', id: call.id });
    parts.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.argumentsText });
  }
  return parts;
}

// A resolved reply as LangChain's AI message, whole or as the stream of chunks a provider model
// yields: the reasoning, the script's text chunks, one tool call chunk per call (its whole
// arguments), then a last chunk with the finish reason and usage.

import { AIMessage, AIMessageChunk, type UsageMetadata } from '@langchain/core/messages';
import type { InProcessAnswer } from '../../index.js';
import type { ResolvedReply } from '../../core/model.js';

export function replyMessage(answer: InProcessAnswer, model: string): AIMessage {
  const { reply } = answer;
  const calls = toolCalls(reply);
  return new AIMessage({
    id: answer.responseId,
    content: reply.content ?? '',
    tool_calls: calls.valid,
    invalid_tool_calls: calls.invalid,
    additional_kwargs: reply.reasoning ? { reasoning_content: reply.reasoning } : {},
    usage_metadata: usageMetadata(reply),
    response_metadata: responseMetadata(answer, model),
  });
}

/** The chunks of a streamed reply, before the last one (`finalChunk`). */
export function replyChunks(answer: InProcessAnswer): AIMessageChunk[] {
  const { reply, responseId: id } = answer;
  const chunks: AIMessageChunk[] = [];
  if (reply.reasoning) chunks.push(new AIMessageChunk({ id, content: '', additional_kwargs: { reasoning_content: reply.reasoning } }));
  const pieces = reply.chunks.length > 0 || reply.content === null ? reply.chunks : [reply.content];
  for (const piece of pieces) chunks.push(new AIMessageChunk({ id, content: piece }));
  reply.toolCalls.forEach((call, index) => {
    chunks.push(
      new AIMessageChunk({
        id,
        content: '',
        tool_call_chunks: [{ type: 'tool_call_chunk', id: call.id, name: call.name, args: call.argumentsText, index }],
      }),
    );
  });
  return chunks;
}

export function finalChunk(answer: InProcessAnswer, model: string): AIMessageChunk {
  return new AIMessageChunk({
    id: answer.responseId,
    content: '',
    usage_metadata: usageMetadata(answer.reply),
    response_metadata: responseMetadata(answer, model),
  });
}

function toolCalls(reply: ResolvedReply) {
  const valid: { type: 'tool_call'; id: string; name: string; args: Record<string, unknown> }[] = [];
  const invalid: { type: 'invalid_tool_call'; id: string; name: string; args: string; error: string }[] = [];
  for (const call of reply.toolCalls) {
    const args = parsedObject(call.argumentsText);
    if (args) valid.push({ type: 'tool_call', id: call.id, name: call.name, args });
    else
      invalid.push({
        type: 'invalid_tool_call',
        id: call.id,
        name: call.name,
        args: call.argumentsText,
        error: 'the arguments are not a JSON object',
      });
  }
  return { valid, invalid };
}

function parsedObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function usageMetadata(reply: ResolvedReply): UsageMetadata {
  const { usage } = reply;
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    input_token_details: {
      cache_read: usage.cachedInputTokens,
      ...(usage.cacheWriteTokens !== undefined && { cache_creation: usage.cacheWriteTokens }),
    },
    output_token_details: { reasoning: usage.reasoningTokens },
  };
}

function responseMetadata(answer: InProcessAnswer, model: string) {
  return {
    model_name: model,
    finish_reason: answer.reply.finishReason,
    request_id: answer.requestId,
    id: answer.responseId,
    created: answer.created,
  };
}

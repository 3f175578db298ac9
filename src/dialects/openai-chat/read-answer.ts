// An OpenAI Chat Completions answer read back (wire-kit/recorded-answer.ts): a JSON body, or a
// stream's SSE events — content deltas in order, each tool call assembled from its name and its
// argument fragments by index, the finish reason, and the usage of the JSON body or of the stream's
// usage chunk. The inverse of encode-response.ts and encode-stream.ts.

import type { FinishReason, Usage } from '../../core/model.js';
import { sseData, type RecordedAnswer } from '../wire-kit/recorded-answer.js';
import { isObject } from '../wire-kit/values.js';

const FINISH: readonly string[] = ['stop', 'length', 'tool_calls', 'content_filter'];

function finishOf(value: unknown): FinishReason | null {
  return typeof value === 'string' && FINISH.includes(value) ? (value as FinishReason) : null;
}

function usageOf(value: unknown): Usage | undefined {
  if (!isObject(value) || typeof value.prompt_tokens !== 'number' || typeof value.completion_tokens !== 'number') return undefined;
  const cached = isObject(value.prompt_tokens_details) ? value.prompt_tokens_details.cached_tokens : undefined;
  const reasoning = isObject(value.completion_tokens_details) ? value.completion_tokens_details.reasoning_tokens : undefined;
  const reasoningTokens = typeof reasoning === 'number' ? reasoning : 0;
  return {
    inputTokens: value.prompt_tokens,
    outputTokens: value.completion_tokens - reasoningTokens,
    cachedInputTokens: typeof cached === 'number' ? cached : 0,
    reasoningTokens,
  };
}

/** A `chat.completion` body; a string saying what is wrong when it is not one. */
export function readChatAnswer(body: unknown): RecordedAnswer | string {
  if (!isObject(body) || !Array.isArray(body.choices) || !isObject(body.choices[0])) return 'expected a chat.completion with choices';
  const choice = body.choices[0];
  const message = isObject(choice.message) ? choice.message : {};
  const content = typeof message.content === 'string' ? message.content : null;
  const toolCalls = (Array.isArray(message.tool_calls) ? message.tool_calls : []).filter(isObject).map((call) => {
    const fn = isObject(call.function) ? call.function : {};
    return { id: String(call.id ?? ''), name: String(fn.name ?? ''), argumentsText: String(fn.arguments ?? '') };
  });
  return {
    content,
    chunks: content === null ? [] : [content],
    toolCalls,
    reasoning: null,
    finishReason: finishOf(choice.finish_reason),
    usage: usageOf(body.usage),
  };
}

/** A stream's text (`data: {…}` events, `data: [DONE]` last); a string saying what is wrong. */
export function readChatStream(text: string): RecordedAnswer | string {
  const chunks: string[] = [];
  const calls: { id: string; name: string; argumentsText: string }[] = [];
  let finishReason: FinishReason | null = null;
  let usage: Usage | undefined;
  let done = false;
  for (const data of sseData(text)) {
    if (data === '[DONE]') {
      done = true;
      continue;
    }
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      return `an event is not JSON: ${data.slice(0, 80)}`;
    }
    if (!isObject(chunk)) return 'an event is not a chat.completion.chunk';
    usage = usageOf(chunk.usage) ?? usage;
    const choice = Array.isArray(chunk.choices) && isObject(chunk.choices[0]) ? chunk.choices[0] : undefined;
    if (!choice) continue;
    finishReason = finishOf(choice.finish_reason) ?? finishReason;
    const delta = isObject(choice.delta) ? choice.delta : {};
    if (typeof delta.content === 'string' && delta.content !== '') chunks.push(delta.content);
    for (const part of Array.isArray(delta.tool_calls) ? delta.tool_calls.filter(isObject) : []) {
      const index = typeof part.index === 'number' ? part.index : calls.length;
      const call = (calls[index] ??= { id: '', name: '', argumentsText: '' });
      if (typeof part.id === 'string') call.id = part.id;
      const fn = isObject(part.function) ? part.function : {};
      if (typeof fn.name === 'string') call.name += fn.name;
      if (typeof fn.arguments === 'string') call.argumentsText += fn.arguments;
    }
  }
  if (!done) return 'the stream ended without data: [DONE]';
  return {
    content: chunks.length > 0 ? chunks.join('') : null,
    chunks,
    toolCalls: calls.filter(Boolean),
    reasoning: null,
    finishReason,
    usage,
  };
}

// An OpenAI Responses answer read back (wire-kit/recorded-answer.ts): a `response` object, or a
// stream's named events — reasoning summary and output_text deltas, each function call assembled
// from its item and argument deltas (its `call_id` is the call's id, not the item's `fc_` id), and
// the terminal response.completed / response.incomplete for the status and usage. The inverse of
// encode-response.ts and encode-stream.ts.

import type { FinishReason, Usage } from '../../core/model.js';
import { sseData, type RecordedAnswer } from '../wire-kit/recorded-answer.js';
import { isObject } from '../wire-kit/values.js';

type Call = RecordedAnswer['toolCalls'][number];

function num(value: unknown): number {
  return typeof value === 'number' ? value : 0;
}

function usageOf(value: unknown): Usage | undefined {
  if (!isObject(value) || typeof value.input_tokens !== 'number' || typeof value.output_tokens !== 'number') return undefined;
  const input = isObject(value.input_tokens_details) ? value.input_tokens_details : {};
  const output = isObject(value.output_tokens_details) ? value.output_tokens_details : {};
  const reasoningTokens = num(output.reasoning_tokens);
  const write = num(input.cache_write_tokens);
  return {
    inputTokens: value.input_tokens,
    outputTokens: value.output_tokens - reasoningTokens,
    cachedInputTokens: num(input.cached_tokens),
    reasoningTokens,
    ...(write > 0 && { cacheWriteTokens: write }),
  };
}

/** The finish reason of a finished response: incomplete for its reason, else tool_calls when it
 * called a function (the wire has no other sign of it); a string for a response that failed. */
function finishOf(response: Record<string, unknown>, calls: number): { reason: FinishReason | null } | string {
  if (response.status === 'failed') return `the response failed: ${JSON.stringify(response.error ?? null).slice(0, 120)}`;
  if (response.status === 'incomplete') {
    const reason = isObject(response.incomplete_details) ? response.incomplete_details.reason : undefined;
    return { reason: reason === 'content_filter' ? 'content_filter' : 'length' };
  }
  if (response.status === 'completed') return { reason: calls > 0 ? 'tool_calls' : 'stop' };
  return { reason: null };
}

function summaryText(item: Record<string, unknown>): string {
  const parts = [...(Array.isArray(item.summary) ? item.summary : []), ...(Array.isArray(item.content) ? item.content : [])];
  return parts
    .filter(isObject)
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .join('');
}

function messageText(item: Record<string, unknown>): string {
  return (Array.isArray(item.content) ? item.content : [])
    .filter(isObject)
    .map((part) => (part.type === 'output_text' && typeof part.text === 'string' ? part.text : ''))
    .join('');
}

function callOf(item: Record<string, unknown>): Call {
  return { id: String(item.call_id ?? ''), name: String(item.name ?? ''), argumentsText: String(item.arguments ?? '') };
}

/** A `response` object; a string saying what is wrong when it is not one. */
export function readResponsesAnswer(body: unknown): RecordedAnswer | string {
  if (!isObject(body) || body.object !== 'response' || !Array.isArray(body.output)) return 'expected a response with output';
  const texts: string[] = [];
  const reasoning: string[] = [];
  const toolCalls: Call[] = [];
  let message = false;
  for (const item of body.output.filter(isObject)) {
    if (item.type === 'message') {
      message = true;
      texts.push(messageText(item));
    } else if (item.type === 'reasoning') reasoning.push(summaryText(item));
    else if (item.type === 'function_call') toolCalls.push(callOf(item));
  }
  const finish = finishOf(body, toolCalls.length);
  if (typeof finish === 'string') return finish;
  const content = message ? texts.join('') : null;
  return {
    content,
    chunks: content === null ? [] : [content],
    toolCalls,
    reasoning: reasoning.length > 0 ? reasoning.join('') : null,
    finishReason: finish.reason,
    usage: usageOf(body.usage),
    ...(typeof body.id === 'string' && { responseId: body.id }),
  };
}

/** What a stream's events built so far. */
interface Assembly {
  chunks: string[];
  /** Text of each message item by item id (its deltas, then its done text). */
  messages: Map<string, string>;
  reasoning: Map<string, string>;
  calls: Map<string, Call>;
}

function itemId(event: Record<string, unknown>, item?: Record<string, unknown>): string {
  return String(item?.id ?? event.item_id ?? `#${String(event.output_index)}`);
}

function take(event: Record<string, unknown>, into: Assembly): void {
  const item = isObject(event.item) ? event.item : undefined;
  const id = itemId(event, item);
  const delta = typeof event.delta === 'string' ? event.delta : '';
  switch (event.type) {
    case 'response.output_item.added':
    case 'response.output_item.done':
      if (item?.type === 'message') into.messages.set(id, into.messages.get(id) ?? '');
      else if (item?.type === 'reasoning') into.reasoning.set(id, into.reasoning.get(id) ?? '');
      else if (item?.type === 'function_call') {
        const call = into.calls.get(id) ?? callOf({ ...item, arguments: '' });
        if (event.type === 'response.output_item.done' && typeof item.arguments === 'string') call.argumentsText = item.arguments;
        into.calls.set(id, call);
      }
      break;
    case 'response.output_text.delta':
      if (delta !== '') into.chunks.push(delta);
      into.messages.set(id, (into.messages.get(id) ?? '') + delta);
      break;
    case 'response.output_text.done':
      if (typeof event.text === 'string') into.messages.set(id, event.text);
      break;
    case 'response.reasoning_summary_text.delta':
    case 'response.reasoning_text.delta':
      into.reasoning.set(id, (into.reasoning.get(id) ?? '') + delta);
      break;
    case 'response.function_call_arguments.delta': {
      const call = into.calls.get(id);
      if (call) call.argumentsText += delta;
      break;
    }
    case 'response.function_call_arguments.done': {
      const call = into.calls.get(id);
      if (call && typeof event.arguments === 'string') call.argumentsText = event.arguments;
      break;
    }
  }
}

/** A stream's text (`event:` and `data:` lines, no [DONE]); a string saying what is wrong. */
export function readResponsesStream(text: string): RecordedAnswer | string {
  const into: Assembly = { chunks: [], messages: new Map(), reasoning: new Map(), calls: new Map() };
  let final: Record<string, unknown> | undefined;
  for (const data of sseData(text)) {
    let event: unknown;
    try {
      event = JSON.parse(data);
    } catch {
      return `an event is not JSON: ${data.slice(0, 80)}`;
    }
    if (!isObject(event)) return 'an event is not an object';
    if (event.type === 'error') return `the stream carried an error event: ${data.slice(0, 120)}`;
    if (event.type === 'response.completed' || event.type === 'response.incomplete' || event.type === 'response.failed') {
      final = isObject(event.response) ? event.response : {};
    } else take(event, into);
  }
  if (final === undefined) return 'the stream ended without response.completed or response.incomplete';
  const calls = [...into.calls.values()];
  const finish = finishOf(final, calls.length);
  if (typeof finish === 'string') return finish;
  return {
    content: into.messages.size > 0 ? [...into.messages.values()].join('') : null,
    chunks: into.chunks,
    toolCalls: calls,
    reasoning: into.reasoning.size > 0 ? [...into.reasoning.values()].join('') : null,
    finishReason: finish.reason,
    usage: usageOf(final.usage),
    ...(typeof final.id === 'string' && { responseId: final.id }),
  };
}

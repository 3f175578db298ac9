// A Cohere v2 Chat answer read back (wire-kit/recorded-answer.ts): a chat response, or its SSE
// events — the tool plan's deltas, each tool call from its start and argument deltas by index, the
// content items' deltas (thinking or text, by the type their content-start gave), and message-end's
// finish reason and usage. The inverse of encode-response.ts and encode-stream.ts. The reasoning
// is the thinking item, or else the tool plan; citations are not read (a recorded answer has
// none). ERROR without an error message reads as content_filter, what the encoder writes it for.

import type { FinishReason } from '../../core/model.js';
import { readCohereUsage } from '../cohere/read-usage.js';
import { sseData, type RecordedAnswer } from '../wire-kit/recorded-answer.js';
import { isObject } from '../wire-kit/values.js';

type Call = RecordedAnswer['toolCalls'][number];

const FINISH: Record<string, FinishReason> = {
  COMPLETE: 'stop',
  STOP_SEQUENCE: 'stop',
  TOOL_CALL: 'tool_calls',
  MAX_TOKENS: 'length',
  ERROR: 'content_filter',
};

function finishOf(value: unknown): FinishReason | null {
  return typeof value === 'string' ? (FINISH[value] ?? null) : null;
}

function callOf(value: Record<string, unknown>): Call {
  const fn = isObject(value.function) ? value.function : {};
  return { id: String(value.id ?? ''), name: String(fn.name ?? ''), argumentsText: typeof fn.arguments === 'string' ? fn.arguments : '' };
}

function reasoningOf(thinking: string[], plan: string): string | null {
  if (thinking.length > 0) return thinking.join('');
  return plan !== '' ? plan : null;
}

/** A v2 chat response; a string saying what is wrong when it is not one. */
export function readCohereChatAnswer(body: unknown): RecordedAnswer | string {
  if (!isObject(body) || !isObject(body.message) || typeof body.finish_reason !== 'string')
    return 'expected a chat response with a message';
  const message = body.message;
  const texts: string[] = [];
  const thinking: string[] = [];
  for (const item of (Array.isArray(message.content) ? message.content : []).filter(isObject)) {
    if (item.type === 'text' && typeof item.text === 'string') texts.push(item.text);
    else if (item.type === 'thinking' && typeof item.thinking === 'string') thinking.push(item.thinking);
  }
  const content = texts.length > 0 ? texts.join('') : null;
  return {
    content,
    chunks: content === null ? [] : [content],
    toolCalls: (Array.isArray(message.tool_calls) ? message.tool_calls : []).filter(isObject).map(callOf),
    reasoning: reasoningOf(thinking, typeof message.tool_plan === 'string' ? message.tool_plan : ''),
    finishReason: finishOf(body.finish_reason),
    usage: readCohereUsage(body.usage),
  };
}

function deltaMessage(event: Record<string, unknown>): Record<string, unknown> {
  const delta = isObject(event.delta) ? event.delta : {};
  return isObject(delta.message) ? delta.message : {};
}

/** A v2 chat stream's text; a string saying what is wrong. */
export function readCohereChatStream(text: string): RecordedAnswer | string {
  const chunks: string[] = [];
  const thinking: string[] = [];
  let plan = '';
  const calls = new Map<number, Call>();
  const itemTypes = new Map<number, string>();
  let end: Record<string, unknown> | undefined;
  for (const data of sseData(text)) {
    if (data === '[DONE]') continue;
    let event: unknown;
    try {
      event = JSON.parse(data);
    } catch {
      return `an event is not JSON: ${data.slice(0, 80)}`;
    }
    if (!isObject(event)) return 'an event is not an object';
    const index = typeof event.index === 'number' ? event.index : -1;
    const message = deltaMessage(event);
    switch (event.type) {
      case 'tool-plan-delta':
        if (typeof message.tool_plan === 'string') plan += message.tool_plan;
        break;
      case 'tool-call-start':
        if (isObject(message.tool_calls)) calls.set(index, callOf(message.tool_calls));
        break;
      case 'tool-call-delta': {
        const call = calls.get(index);
        const part = isObject(message.tool_calls) ? callOf(message.tool_calls) : undefined;
        if (call && part) call.argumentsText += part.argumentsText;
        break;
      }
      case 'content-start': {
        const content = isObject(message.content) ? message.content : {};
        itemTypes.set(index, typeof content.type === 'string' ? content.type : 'text');
        break;
      }
      case 'content-delta': {
        const content = isObject(message.content) ? message.content : {};
        const type = itemTypes.get(index) ?? 'text';
        const piece = type === 'thinking' ? content.thinking : content.text;
        if (typeof piece === 'string' && piece !== '') (type === 'thinking' ? thinking : chunks).push(piece);
        break;
      }
      case 'message-end':
        end = isObject(event.delta) ? event.delta : {};
        break;
    }
  }
  if (end === undefined) return 'the stream ended without message-end';
  if (typeof end.error === 'string') return `the stream ended in an error: ${end.error.slice(0, 120)}`;
  return {
    content: chunks.length > 0 ? chunks.join('') : null,
    chunks,
    toolCalls: [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call),
    reasoning: reasoningOf(thinking, plan),
    finishReason: finishOf(end.finish_reason),
    usage: readCohereUsage(end.usage),
  };
}

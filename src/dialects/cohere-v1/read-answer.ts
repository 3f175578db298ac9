// A Cohere v1 Chat answer read back (wire-kit/recorded-answer.ts): a NonStreamedChatResponse, or
// the NDJSON events of a stream — text-generation pieces, the tool plan's and each call's
// tool-calls-chunk deltas (the whole calls of tool-calls-generation win when sent), and
// stream-end's finish reason and response `meta`. The inverse of encode-response.ts and
// encode-stream.ts. v1 calls carry no id: they read with id ''. A JSON answer's `text` beside
// tool calls is their plan (what the API answers there), so it reads as the reasoning.

import type { FinishReason } from '../../core/model.js';
import { readCohereUsage } from '../cohere/read-usage.js';
import type { RecordedAnswer } from '../wire-kit/recorded-answer.js';
import { isObject } from '../wire-kit/values.js';

type Call = RecordedAnswer['toolCalls'][number];

const FINISH: Record<string, FinishReason> = {
  COMPLETE: 'stop',
  MAX_TOKENS: 'length',
  ERROR_LIMIT: 'length',
  ERROR_TOXIC: 'content_filter',
};

function finishOf(value: unknown, calls: number): FinishReason | null {
  const reason = typeof value === 'string' ? (FINISH[value] ?? null) : null;
  return reason === 'stop' && calls > 0 ? 'tool_calls' : reason;
}

function parametersText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? {});
}

function callsOf(value: unknown): Call[] {
  return (Array.isArray(value) ? value : [])
    .filter(isObject)
    .map((call) => ({ id: '', name: String(call.name ?? ''), argumentsText: parametersText(call.parameters) }));
}

/** A v1 chat response; a string saying what is wrong when it is not one. */
export function readCohereV1ChatAnswer(body: unknown): RecordedAnswer | string {
  if (!isObject(body) || typeof body.text !== 'string' || typeof body.finish_reason !== 'string')
    return 'expected a v1 chat response with text';
  if (body.finish_reason === 'ERROR') return 'the answer says ERROR';
  const toolCalls = callsOf(body.tool_calls);
  const text = body.text === '' ? null : body.text;
  const content = toolCalls.length > 0 ? null : text;
  return {
    content,
    chunks: content === null ? [] : [content],
    toolCalls,
    reasoning: toolCalls.length > 0 ? text : null,
    finishReason: finishOf(body.finish_reason, toolCalls.length),
    usage: readCohereUsage(body.meta),
  };
}

/** A v1 chat stream's NDJSON text; a string saying what is wrong. */
export function readCohereV1ChatStream(text: string): RecordedAnswer | string {
  const chunks: string[] = [];
  let plan = '';
  const calls = new Map<number, Call>();
  let whole: Call[] | undefined;
  let end: Record<string, unknown> | undefined;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      return `a line is not JSON: ${line.slice(0, 80)}`;
    }
    if (!isObject(event)) return 'a line is not an object';
    switch (event.event_type) {
      case 'text-generation':
        if (typeof event.text === 'string' && event.text !== '') chunks.push(event.text);
        break;
      case 'tool-calls-chunk': {
        const delta = isObject(event.tool_call_delta) ? event.tool_call_delta : {};
        if (typeof delta.text === 'string') plan += delta.text;
        if (typeof delta.index !== 'number') break;
        const call = calls.get(delta.index) ?? { id: '', name: '', argumentsText: '' };
        calls.set(delta.index, call);
        if (typeof delta.name === 'string') call.name = delta.name;
        if (typeof delta.parameters === 'string') call.argumentsText += delta.parameters;
        break;
      }
      case 'tool-calls-generation':
        whole = callsOf(event.tool_calls);
        break;
      case 'stream-end':
        end = event;
        break;
    }
  }
  if (end === undefined) return 'the stream ended without stream-end';
  if (end.finish_reason === 'ERROR' || typeof end.error === 'string')
    return `the stream ended in an error: ${String(end.error ?? '').slice(0, 120)}`;
  const toolCalls = whole ?? [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
  const response = isObject(end.response) ? end.response : {};
  return {
    content: chunks.length > 0 ? chunks.join('') : null,
    chunks,
    toolCalls,
    reasoning: plan !== '' ? plan : null,
    finishReason: finishOf(end.finish_reason, toolCalls.length),
    usage: readCohereUsage(response.meta),
  };
}

// An InvokeModel answer read back (wire-kit/recorded-answer.ts), for each body family it answers,
// told by the answer's own shape since the reader is given no model id: Anthropic Claude's (a
// Messages `message`; streamed, its events as chunks, read by the Messages reader), Titan Text's
// (`results`; streamed, `outputText` chunks) and Nova's (Converse's shape; streamed, one keyed
// event per chunk, read by the Converse reader). Each stream chunk is an event-stream `chunk`
// message whose payload's `bytes` is the model's event, base64. Titan counts no cache and no
// reasoning apart: they read 0, the reasoning within the output count.

import type { FinishReason } from '../../core/model.js';
import { readMessageAnswer, readMessageStream } from '../anthropic-messages/read-answer.js';
import { readEventPayloads, type EventPayload } from '../bedrock/read-event-stream.js';
import { readConverseAnswer, readConverseEvents } from '../bedrock-converse/read-answer.js';
import type { RecordedAnswer } from '../wire-kit/recorded-answer.js';
import { isObject } from '../wire-kit/values.js';

const TITAN_FINISH: Record<string, FinishReason> = {
  FINISH: 'stop',
  STOP_CRITERIA_MET: 'stop',
  LENGTH: 'length',
  CONTENT_FILTERED: 'content_filter',
};

const NOVA_EVENTS = new Set(['messageStart', 'contentBlockStart', 'contentBlockDelta', 'contentBlockStop', 'messageStop', 'metadata']);

/** An InvokeModel body of any answered family; a string saying what is wrong. */
export function readInvokeAnswer(body: unknown): RecordedAnswer | string {
  if (!isObject(body)) return 'expected an InvokeModel answer';
  if (body.type === 'message') return readMessageAnswer(body);
  if (Array.isArray(body.results)) return readTitanAnswer(body);
  if (isObject(body.output)) return readConverseAnswer(body);
  return 'expected an InvokeModel answer of Anthropic Claude, Titan Text or Nova';
}

function readTitanAnswer(body: Record<string, unknown>): RecordedAnswer | string {
  const result = (Array.isArray(body.results) ? body.results : []).find(isObject);
  if (!result) return 'expected a Titan answer with a result';
  const text = typeof result.outputText === 'string' && result.outputText !== '' ? result.outputText : null;
  return titanAnswer(text === null ? [] : [text], result.completionReason, body.inputTextTokenCount, result.tokenCount);
}

function titanAnswer(chunks: string[], reason: unknown, input: unknown, output: unknown): RecordedAnswer {
  const counted = typeof input === 'number' && typeof output === 'number';
  return {
    content: chunks.length > 0 ? chunks.join('') : null,
    chunks,
    toolCalls: [],
    reasoning: null,
    finishReason: typeof reason === 'string' ? (TITAN_FINISH[reason] ?? null) : null,
    ...(counted && { usage: { inputTokens: input, outputTokens: output, cachedInputTokens: 0, reasoningTokens: 0 } }),
  };
}

/** The model's events inside a stream's chunk messages. */
function modelEvents(text: string): Record<string, unknown>[] | string {
  const payloads = readEventPayloads(text);
  if (typeof payloads === 'string') return payloads;
  const events: Record<string, unknown>[] = [];
  for (const { type, value } of payloads) {
    if (typeof value.bytes !== 'string') return `a ${type} event carries no bytes`;
    let event: unknown;
    try {
      event = JSON.parse(Buffer.from(value.bytes, 'base64').toString('utf8'));
    } catch {
      return 'a chunk is not JSON';
    }
    if (!isObject(event)) return 'a chunk is not an object';
    events.push(event);
  }
  return events;
}

/** An InvokeModelWithResponseStream body (latin1 text of its frames); a string saying what is wrong. */
export function readInvokeStream(text: string): RecordedAnswer | string {
  const events = modelEvents(text);
  if (typeof events === 'string') return events;
  const first = events[0];
  if (first === undefined) return 'the stream holds no chunk';
  if (typeof first.type === 'string') return readMessageStream(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(''));
  if ('outputText' in first) return readTitanStream(events);
  const keyed: EventPayload[] = events.flatMap((event) =>
    Object.entries(event).flatMap(([type, value]) => (NOVA_EVENTS.has(type) && isObject(value) ? [{ type, value }] : [])),
  );
  return readConverseEvents(keyed);
}

function readTitanStream(events: Record<string, unknown>[]): RecordedAnswer | string {
  const chunks: string[] = [];
  let reason: unknown;
  let input: unknown;
  let output: unknown;
  for (const event of events) {
    if (typeof event.outputText === 'string' && event.outputText !== '') chunks.push(event.outputText);
    if (typeof event.inputTextTokenCount === 'number') input = event.inputTextTokenCount;
    if (typeof event.totalOutputTextTokenCount === 'number') output = event.totalOutputTextTokenCount;
    if (typeof event.completionReason === 'string') reason = event.completionReason;
  }
  if (reason === undefined) return 'the stream ended without a completionReason';
  return titanAnswer(chunks, reason, input, output);
}

// Responses SSE: named events (`event:` line and the same `type` in the JSON) with a
// `sequence_number` that starts at 0 and rises by one, in the order the SDK's accumulator needs:
// created, in_progress, then per output item added → its parts and deltas → done, then the
// terminal completed / incomplete event. No [DONE] sentinel. A scripted in-stream failure ends
// with `response.failed` or an `error` event instead.

import type { NeutralError } from '../../core/errors.js';
import type { ChatRequest, EncodeContext, ResolvedReply } from '../../core/model.js';
import type { EventSource, StreamEncoding } from '../dialect.js';
import { splitArguments } from '../openai/split-arguments.js';
import {
  functionCallItem,
  itemIds,
  messageItem,
  reasoningItem,
  responseObject,
  statusOf,
  textPart,
  usageObject,
} from './encode-response.js';

const CONTENT_TYPE = 'text/event-stream; charset=utf-8';

/** Codes `response.failed` may carry (the SDK types `response.error.code` as this closed list). */
const RESPONSE_ERROR_CODES = new Set([
  'server_error',
  'rate_limit_exceeded',
  'invalid_prompt',
  'data_residency_mismatch',
  'bio_policy',
  'vector_store_timeout',
  'invalid_image',
  'invalid_image_format',
  'invalid_base64_image',
  'invalid_image_url',
  'image_too_large',
  'image_too_small',
  'image_parse_error',
  'image_content_policy_violation',
  'invalid_image_mode',
  'image_file_too_large',
  'unsupported_image_media_type',
  'empty_image_file',
  'failed_to_download_image',
  'image_file_not_found',
]);

/** A run of events made when they are asked for: `count` of them, event `k` of the run made by
 * `make` with its stream-wide sequence number. */
interface Run {
  count: number;
  make(k: number, sequence: number): string;
}

function framed(type: string, fields: Record<string, unknown>, sequence: number): string {
  const data = JSON.stringify({ type, ...fields, sequence_number: sequence });
  return `event: ${type}\ndata: ${data}\n\n`;
}

/** A stream's events in order, kept as runs so that none is made before it is sent: a stream of a
 * long reply holds its plan and the reply's shared parts, not a string per event. */
class EventWriter {
  private readonly runs: Run[] = [];
  private total = 0;

  emit(type: string, fields: Record<string, unknown>): void {
    this.runs.push({ count: 1, make: (_k, sequence) => framed(type, fields, sequence) });
    this.total++;
  }

  /** One event per item, made from it when sent. */
  emitEach(items: readonly string[], type: string, fieldsOf: (item: string) => Record<string, unknown>): void {
    if (items.length === 0) return;
    this.runs.push({ count: items.length, make: (k, sequence) => framed(type, fieldsOf(items[k] as string), sequence) });
    this.total += items.length;
  }

  get events(): string[] {
    const source = this.source();
    return Array.from({ length: source.length }, (_, i) => source.at(i));
  }

  source(): EventSource {
    const runs = this.runs;
    // Events are asked for in order: the run of the last one is where the next is looked for first.
    let run = 0;
    let first = 0;
    return {
      length: this.total,
      at(i) {
        if (i < first) {
          run = 0;
          first = 0;
        }
        while (i >= first + (runs[run] as Run).count) first += (runs[run++] as Run).count;
        return (runs[run] as Run).make(i - first, i);
      },
    };
  }
}

// A scripted reply's non-empty deltas, found once per reply shape (not per request).
const deltasCache = new WeakMap<object, string[]>();

function nonEmptyChunks(reply: ResolvedReply): string[] {
  let deltas = reply.shape ? deltasCache.get(reply.shape) : undefined;
  if (deltas === undefined) {
    deltas = reply.chunks.filter((delta) => delta.length > 0);
    if (reply.shape) deltasCache.set(reply.shape, deltas);
  }
  return deltas;
}

function start(writer: EventWriter, request: ChatRequest, ctx: EncodeContext): void {
  const initial = responseObject(request, ctx, { status: 'in_progress', output: [], usage: null });
  writer.emit('response.created', { response: initial });
  writer.emit('response.in_progress', { response: initial });
}

function plan(reply: ResolvedReply, request: ChatRequest, ctx: EncodeContext): EventWriter {
  const writer = new EventWriter();
  const ids = itemIds(ctx.responseId);
  const { status, incomplete } = statusOf(reply.finishReason);
  const output: unknown[] = [];
  start(writer, request, ctx);

  if (reply.reasoning !== null) {
    const text = reply.reasoning;
    const at = output.length;
    const base = { item_id: ids.reasoning, output_index: at, summary_index: 0 };
    writer.emit('response.output_item.added', { output_index: at, item: reasoningItem(ids.reasoning, null) });
    writer.emit('response.reasoning_summary_part.added', { ...base, part: { type: 'summary_text', text: '' } });
    if (text.length > 0) writer.emit('response.reasoning_summary_text.delta', { ...base, delta: text });
    writer.emit('response.reasoning_summary_text.done', { ...base, text });
    writer.emit('response.reasoning_summary_part.done', { ...base, part: { type: 'summary_text', text } });
    const done = reasoningItem(ids.reasoning, text);
    writer.emit('response.output_item.done', { output_index: at, item: done });
    output.push(done);
  }

  if (reply.content !== null) {
    const text = reply.content;
    const at = output.length;
    const base = { item_id: ids.message, output_index: at, content_index: 0 };
    writer.emit('response.output_item.added', { output_index: at, item: messageItem(ids.message, 'in_progress', null) });
    writer.emit('response.content_part.added', { ...base, part: textPart('') });
    writer.emitEach(nonEmptyChunks(reply), 'response.output_text.delta', (delta) => ({ ...base, delta, logprobs: [] }));
    writer.emit('response.output_text.done', { ...base, text, logprobs: [] });
    writer.emit('response.content_part.done', { ...base, part: textPart(text) });
    const done = messageItem(ids.message, status === 'incomplete' ? 'incomplete' : 'completed', text);
    writer.emit('response.output_item.done', { output_index: at, item: done });
    output.push(done);
  }

  reply.toolCalls.forEach((call, i) => {
    const at = output.length;
    const id = ids.call(i);
    writer.emit('response.output_item.added', { output_index: at, item: functionCallItem(id, call, '', 'in_progress') });
    const fragments = reply.wholeToolCalls ? [call.argumentsText] : splitArguments(call.argumentsText);
    writer.emitEach(
      fragments.filter((delta) => delta.length > 0),
      'response.function_call_arguments.delta',
      (delta) => ({ item_id: id, output_index: at, delta }),
    );
    writer.emit('response.function_call_arguments.done', {
      item_id: id,
      output_index: at,
      name: call.name,
      arguments: call.argumentsText,
    });
    const done = functionCallItem(id, call, call.argumentsText, 'completed');
    writer.emit('response.output_item.done', { output_index: at, item: done });
    output.push(done);
  });

  const final = responseObject(request, ctx, { status, incomplete, output, usage: usageObject(reply.usage) });
  writer.emit(status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: final });
  return writer;
}

export function encodeResponsesStream(reply: ResolvedReply, request: ChatRequest, ctx: EncodeContext): StreamEncoding {
  return { contentType: CONTENT_TYPE, events: plan(reply, request, ctx).events };
}

/** encodeResponsesStream's events, each made when it is sent (large and paced streams). */
export function encodeResponsesStreamEvents(
  reply: ResolvedReply,
  request: ChatRequest,
  ctx: EncodeContext,
): { contentType: string; events: EventSource } {
  return { contentType: CONTENT_TYPE, events: plan(reply, request, ctx).source() };
}

/** A stream that fails after it started: created and in_progress, then `response.failed` (for the
 * codes a failed response can carry; `server_error` when the script names none) or else an
 * `error` event with the scripted code. The SDK yields both without throwing. */
export function encodeResponsesStreamFailure(error: NeutralError, request: ChatRequest, ctx: EncodeContext): StreamEncoding {
  const writer = new EventWriter();
  start(writer, request, ctx);
  const code = error.code ?? 'server_error';
  if (RESPONSE_ERROR_CODES.has(code)) {
    const failed = responseObject(request, ctx, {
      status: 'failed',
      output: [],
      usage: null,
      error: { code, message: error.message },
    });
    writer.emit('response.failed', { response: failed });
  } else {
    writer.emit('error', { code, message: error.message, param: error.param ?? null });
  }
  return { contentType: CONTENT_TYPE, events: writer.events };
}

/** The `error` event alone, for a fault after `eventsSent` events: it continues their sequence. */
export function encodeResponsesStreamErrorEvent(error: NeutralError, _ctx: EncodeContext, eventsSent: number): string {
  const data = JSON.stringify({
    type: 'error',
    code: error.code ?? 'server_error',
    message: error.message,
    param: error.param ?? null,
    sequence_number: eventsSent,
  });
  return `event: error\ndata: ${data}\n\n`;
}

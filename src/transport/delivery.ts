// The delivery stage: the engine's answer for a decoded request, written as JSON, as a stream, as
// a large answer at the client's pace, or paced and faulted on the scheduler's clock; the reserved
// step is consumed once the bytes were handed to the kernel, released if the client left first.

import { understudyConflict } from '../core/errors.js';
import type { Pacing, StreamFault } from '../core/model.js';
import { arraySource, type AnswerBytes, type DialectEncodeContext, type EventSource, type Flushable } from '../dialects/dialect.js';
import { answerRequest, type Answer } from '../engine/exchange.js';
import { jsonAnswer, streamAnswer } from './answer-bytes.js';
import type { Outcomes } from './outcomes.js';
import { faultEnding, plannedPieces, writePlanned, type WritePlan } from './paced-writer.js';
import { encodeContext, inputOnly, LEFT_EARLY, seedOf, waitConnected, type Exchange } from './provider-exchange.js';
import { closedAsStalled, DEFAULT_STALLED_READER_MS } from './stalled-reader.js';
import { writeStreamed } from './stream-writer.js';
import type { Recorder } from './recorder.js';

/** Templated bodies up to this size are written as strings (see deliver); node:http writes a string
 * of up to 16 KB, header included, from the stack straight to the socket. */
const SMALL_BODY = 8 * 1024;
/** What a body handed over as a copy tells its template: sent, the buffer free again. */
const COPIED: Flushable = { writableFinished: true, destroyed: false };

/** An answer's status line and headers: its kind's, and the dialect's own for this answer (e.g.
 * Anthropic's `request-id`). */
interface AnswerHead {
  status: number;
  headers: Record<string, string>;
  dialectHeaders?: Record<string, string>;
}

export class Delivery {
  constructor(
    private readonly outcomes: Outcomes,
    /** ServerOptions.stalledReaderMs. */
    private readonly stalledReaderMs: number | undefined,
    /** Record mode, when the server records (recorder.ts). */
    private readonly recorder?: Recorder,
  ) {}

  respond(exchange: Exchange, override?: { pacing?: Pacing; fault?: StreamFault }): Promise<void> | undefined {
    const recorder = this.recorder;
    const upstream = recorder?.upstreamOf(exchange);
    if (upstream !== undefined) return this.respondRecording(exchange, override, recorder!, upstream);
    return this.play(exchange, answerRequest(exchange.session, exchange.request, exchange.entry.requestId), override);
  }

  /** Record mode: what no script answers (everything, in mode `all`) goes to the upstream. Zero-config
   * answers are never given: a request they would answer is one to record. */
  private respondRecording(
    exchange: Exchange,
    override: { pacing?: Pacing; fault?: StreamFault } | undefined,
    recorder: Recorder,
    upstream: string,
  ): Promise<void> | undefined {
    const { session, request, entry } = exchange;
    if (recorder.modeOf(session) === 'missing') {
      const answer = answerRequest(session, request, entry.requestId, 'strict');
      const kind = answer.kind === 'error' ? answer.error.kind : undefined;
      if (kind !== 'no_match' && kind !== 'exhausted') return this.play(exchange, answer, override);
      if (kind === 'no_match') session.journal.counters.unmatched--;
      else session.journal.counters.exhausted--;
    }
    entry.stream = request.stream;
    return recorder.forward(exchange, upstream, exchange.bodyText ?? '');
  }

  private play(exchange: Exchange, answer: Answer, override?: { pacing?: Pacing; fault?: StreamFault }): Promise<void> | undefined {
    const { session, request, entry } = exchange;
    const generation = session.generation;
    if (override && answer.kind === 'reply') {
      answer.pacing = override.pacing ?? answer.pacing;
      answer.fault = override.fault ?? answer.fault;
    }
    entry.stream = request.stream;
    entry.script = answer.script;
    entry.step = answer.step;
    entry.source = answer.source;
    entry.nearMisses = answer.nearMisses;
    if (answer.kind === 'reply') {
      entry.pacing = answer.pacing;
      if (answer.fault) entry.fault = faultWords(answer.fault);
    }

    if (answer.delayMs > 0) {
      return waitConnected(answer.delayMs, exchange.res).then((connected) => {
        if (connected) return this.sendAnswer(exchange, answer, generation);
        answer.reservation?.release();
        this.outcomes.recordAborted(exchange.session, exchange.entry, LEFT_EARLY);
        return undefined;
      });
    }
    return this.sendAnswer(exchange, answer, generation);
  }

  private sendAnswer(exchange: Exchange, answer: Answer, generation: number): Promise<void> | undefined {
    const { session, dialect, request, res, entry } = exchange;
    if (session.generation !== generation) {
      answer.reservation?.release();
      const error = understudyConflict(
        'superseded',
        'request_superseded',
        'the session was reset or reloaded while this request was in flight; nothing was consumed',
      );
      this.outcomes.sendError(res, dialect, error, entry.requestId);
      return;
    }

    if (answer.kind === 'error' && answer.error.inStream && request.stream) {
      const ctx = encodeContext(exchange);
      const stream = dialect.encodeStreamFailure(answer.error, request, ctx);
      const headers = { 'content-type': stream.contentType, 'cache-control': 'no-cache', ...dialect.responseHeaders?.(ctx) };
      const body = stream.events.join('');
      this.deliver(exchange, answer, { status: 200, headers }, dialect.binaryStream ? { body, encoding: 'latin1' } : { body });
      entry.usage = inputOnly(answer.inputTokens);
      this.outcomes.recordError(session, { ...answer.error, status: 200 }, entry);
      return;
    }
    if (answer.kind === 'error') {
      const encoded = dialect.encodeError(answer.error, { requestId: entry.requestId, wire: exchange.wire });
      this.deliver(exchange, answer, encoded, encoded);
      entry.usage = inputOnly(answer.inputTokens);
      this.outcomes.recordError(session, answer.error, entry);
      return;
    }

    const ctx = encodeContext(exchange);
    if (answer.pacing || answer.fault) return this.sendPlanned(exchange, answer, ctx);
    const reply = answer.reply;
    const dialectHeaders = dialect.responseHeaders?.(ctx, reply);
    if (reply.large) return this.sendLarge(exchange, answer, ctx, dialectHeaders);
    let delivered: boolean;
    if (request.stream) {
      const stream = streamAnswer(dialect, reply, request, ctx);
      delivered = this.deliver(exchange, answer, { status: 200, headers: streamHeaders(stream.contentType), dialectHeaders }, stream);
    } else {
      const whole = jsonAnswer(dialect, reply, request, ctx);
      delivered = this.deliver(exchange, answer, { status: 200, headers: JSON_HEADERS, dialectHeaders }, whole);
    }
    if (delivered) this.recordReply(exchange, answer, ctx);
    else this.outcomes.recordAborted(session, entry, LEFT_EARLY);
    return undefined;
  }

  /** A large unpaced answer: a stream made and written a batch at a time, a JSON body written in
   * slices, as fast as the client reads; consumed once every byte was handed to the kernel,
   * released if the client leaves first. */
  private async sendLarge(
    exchange: Exchange,
    answer: Extract<Answer, { kind: 'reply' }>,
    ctx: DialectEncodeContext,
    dialectHeaders: Record<string, string> | undefined,
  ): Promise<void> {
    const { dialect, request, res, entry } = exchange;
    const reply = answer.reply;
    let events: EventSource;
    if (request.stream) {
      const stream = dialect.encodeStream(reply, request, ctx);
      res.writeHead(200, { ...streamHeaders(stream.contentType), ...dialectHeaders, 'x-request-id': entry.requestId });
      events = stream.events;
    } else {
      const body = dialect.encodeResponse(reply, request, ctx);
      res.writeHead(200, {
        ...JSON_HEADERS,
        ...dialectHeaders,
        'x-request-id': entry.requestId,
        'content-length': String(Buffer.byteLength(body)),
      });
      events = arraySource([body]);
    }
    const encoding = request.stream && dialect.binaryStream ? 'latin1' : 'utf8';
    entry.firstByteMs = Date.now() - entry.at;
    if (this.outcomes.keepBodies) entry.responseText = keptBody(events, exchange.session.journal.limits.entryBytes);
    const metrics = this.outcomes.metrics;
    if (metrics) metrics.openStreams++;
    const delivered = await writeStreamed(res, events, this.stalledReaderMs, encoding);
    if (metrics) metrics.openStreams--;
    this.settleWritten(exchange, answer, ctx, delivered);
  }

  /** After an answer written over time: consumed and journalled if it was delivered, released
   * and journalled as aborted if the client left first. */
  private settleWritten(
    exchange: Exchange,
    answer: Extract<Answer, { kind: 'reply' }>,
    ctx: DialectEncodeContext,
    delivered: boolean,
  ): void {
    if (!delivered) {
      answer.reservation?.release();
      this.outcomes.recordAborted(
        exchange.session,
        exchange.entry,
        closedAsStalled(exchange.res)
          ? `the client stopped reading its answer for ${this.stalledReaderMs ?? DEFAULT_STALLED_READER_MS} ms (stalledReaderMs): the server closed the connection`
          : LEFT_EARLY,
      );
      return;
    }
    answer.afterDelivery?.();
    answer.reservation?.commit();
    this.recordReply(exchange, answer, ctx);
  }

  /** A paced or faulted answer: written piece by piece on the scheduler's clock. */
  private async sendPlanned(exchange: Exchange, answer: Extract<Answer, { kind: 'reply' }>, ctx: DialectEncodeContext): Promise<void> {
    const { dialect, request, res, entry } = exchange;
    const reply = answer.reply;
    const encodeCtx = answer.pacing ? { ...ctx, pacing: answer.pacing } : ctx;
    let headers: Record<string, string>;
    let pieces: EventSource;
    if (request.stream) {
      const stream = dialect.encodeStream(reply, request, encodeCtx);
      headers = { 'content-type': stream.contentType, 'cache-control': 'no-cache', ...dialect.responseHeaders?.(encodeCtx, reply) };
      pieces = stream.events;
    } else {
      headers = { ...JSON_HEADERS, ...dialect.responseHeaders?.(encodeCtx, reply) };
      pieces = arraySource([dialect.encodeResponse(reply, request, encodeCtx)]);
    }
    const fault = answer.fault;
    const errorEvent =
      fault?.kind === 'error' && request.stream
        ? dialect.encodeStreamErrorEvent(
            {
              kind: 'scripted',
              status: fault.error?.status ?? 500,
              code: fault.error?.code ?? null,
              type: fault.error?.type,
              message: fault.error?.message ?? 'Internal error',
            },
            ctx,
            fault.afterChunks ?? 1,
          )
        : undefined;
    // Set, not written: node:http2's writeHead sends the headers at once, and a stall before the
    // first piece must send nothing (writePlanned flushes them otherwise).
    res.statusCode = 200;
    for (const name in headers) res.setHeader(name, headers[name]);
    res.setHeader('x-request-id', entry.requestId);
    const plan: WritePlan = {
      pieces,
      pacing: answer.pacing,
      fault,
      errorEvent,
      binary:
        request.stream && dialect.binaryStream ? { encoding: 'latin1', malformedFrame: dialect.binaryStream.malformedFrame } : undefined,
      seed: seedOf(entry.requestId),
      stalledReaderMs: this.stalledReaderMs,
      firstWrite: () => (entry.firstByteMs = Date.now() - entry.at),
    };
    // What the plan writes: a faulted answer's pieces before the cut, then its ending.
    if (this.outcomes.keepBodies) {
      entry.responseText = keptBody(plannedPieces(pieces, fault), exchange.session.journal.limits.entryBytes) + faultEnding(plan);
    }
    const metrics = this.outcomes.metrics;
    if (metrics) metrics.openStreams++;
    const delivered = await writePlanned(res, plan);
    if (metrics) metrics.openStreams--;
    this.settleWritten(exchange, answer, ctx, delivered);
  }

  private recordReply(exchange: Exchange, answer: Extract<Answer, { kind: 'reply' }>, ctx: DialectEncodeContext): void {
    const reply = answer.reply;
    if (exchange.dialect.delivered && !answer.fault && !exchange.res.destroyed) exchange.dialect.delivered(reply, exchange.request, ctx);
    exchange.entry.status = 200;
    exchange.entry.reply = reply;
    exchange.entry.usage = reply.usage;
    this.outcomes.journalAdd(exchange.session, exchange.entry, exchange.request);
  }

  /** Writes the whole response. Once the bytes are handed to the socket the reserved step is
   * consumed; if the client already left, it is released. Returns whether it was delivered. */
  private deliver(exchange: Exchange, answer: Answer, head: AnswerHead, bytes: AnswerBytes): boolean {
    const { res, entry } = exchange;
    const { status, headers, dialectHeaders } = head;
    const { body, sentBy } = bytes;
    const latin1 = bytes.encoding === 'latin1';
    const length = typeof body !== 'string' || latin1 ? body.length : Buffer.byteLength(body);
    const flat: string[] = ['x-request-id', entry.requestId, 'content-length', String(length)];
    for (const key in headers) flat.push(key, headers[key]);
    if (dialectHeaders) for (const key in dialectHeaders) flat.push(key, dialectHeaders[key]);
    res.writeHead(status, flat);
    if (this.outcomes.keepBodies) entry.responseText = typeof body === 'string' ? body : body.toString(latin1 ? 'latin1' : 'utf8');
    if (typeof body === 'string') {
      res.end(body, latin1 ? 'latin1' : 'utf8');
    } else if (body.length <= SMALL_BODY) {
      // A small body goes out as a latin1 string (one char per byte: the bytes on the wire are the
      // buffer's): node:http then sends header and body with one string write, where a Buffer
      // body costs a gathered write and a copy of the header on the C++ heap. Its buffer is free
      // again at once (docs/performance.md has its measure).
      res.end(body.toString('latin1'), 'latin1');
      if (sentBy) sentBy(COPIED);
    } else {
      res.end(body);
      if (sentBy) sentBy(res);
    }
    const delivered = !res.destroyed;
    if (delivered && answer.kind === 'reply') answer.afterDelivery?.();
    const reservation = answer.reservation;
    if (reservation) {
      if (delivered) reservation.commit();
      else reservation.release();
    }
    return delivered;
  }
}

const JSON_HEADERS = { 'content-type': 'application/json' };

/** A fault as the journal names it: `close after 2 chunks`. */
export function faultWords(fault: StreamFault): string {
  if (fault.afterBytes !== undefined) return `${fault.kind} after ${fault.afterBytes} bytes`;
  const chunks = fault.afterChunks ?? 1;
  return `${fault.kind} after ${chunks} ${chunks === 1 ? 'chunk' : 'chunks'}`;
}

/** An answer's pieces as one text for the journal (when the server keeps bodies), made only as far
 * as the journal keeps of one entry: a large answer is never built whole for it. */
function keptBody(pieces: EventSource, most: number): string {
  let text = '';
  for (let i = 0; i < pieces.length && text.length <= most; i++) text += pieces.at(i);
  return text;
}

// One header object per stream content type, shared by every answer (dialects use one or two).
const STREAM_HEADERS = new Map<string, Record<string, string>>();

function streamHeaders(contentType: string): Record<string, string> {
  let headers = STREAM_HEADERS.get(contentType);
  if (!headers) STREAM_HEADERS.set(contentType, (headers = { 'content-type': contentType, 'cache-control': 'no-cache' }));
  return headers;
}

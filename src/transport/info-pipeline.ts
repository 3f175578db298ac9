// An info route's way (InfoRouteSpec): the session's refusals, the body (text and JSON, or raw
// bytes for a multipart upload), injected chaos, the route's answer (synchronous or not), and its
// delivery — at once, or after the delay, with the pacing and the fault a fixture scripted for it. A journalled
// route's request becomes an entry once it is answered, or aborted when its client left first.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NeutralError } from '../core/errors.js';
import type { InfoAct, InfoAnswer, InfoAsk, InfoRouteSpec } from '../dialects/dialect.js';
import { arraySource } from '../dialects/dialect.js';
import { newRecord, type JournalRecord } from '../engine/journal.js';
import type { Session } from '../engine/session.js';
import { readBodyThen, readBytesThen } from './body.js';
import { chaosError, chaosFor, decideChaos, type ChaosDecision, type ChaosOptions } from './chaos.js';
import type { Outcomes } from './outcomes.js';
import { writePlanned } from './paced-writer.js';
import { LEFT_EARLY, seedOf, waitConnected } from './provider-exchange.js';
import type { RoutedRequest } from './provider-pipeline.js';
import { sessionRefusal, unreadBody } from './session-refusal.js';

/** The query of a URL without one (shared: it is never written to). */
const NO_QUERY = new URLSearchParams();

interface InfoRequest {
  req: IncomingMessage;
  res: ServerResponse;
  info: InfoRouteSpec;
  routed: RoutedRequest;
  session: Session;
}

export class InfoPipeline {
  constructor(
    private readonly stages: {
      bodyLimit: number;
      outcomes: Outcomes;
      /** ServerOptions.stalledReaderMs. */
      stalledReaderMs: number | undefined;
      internalError: (req: IncomingMessage, res: ServerResponse, error: unknown, requestId: string) => void;
      routeLabel: (method: string, path: string) => string;
    },
  ) {}

  handle(req: IncomingMessage, res: ServerResponse, info: InfoRouteSpec, routed: RoutedRequest): void {
    const { session, requestId } = routed;
    const refused = sessionRefusal(req, routed.route, session);
    if (refused) {
      req.resume();
      this.stages.outcomes.sendError(res, info.dialect, refused, requestId);
      return;
    }
    const live = session as Session;
    const params = 'notFound' in routed.route ? routed.route.params : undefined;
    const query = routed.queryText ? new URLSearchParams(routed.queryText) : NO_QUERY;
    const base = { state: live.dialectState, clock: live.clock, params, requestId, headers: req.headers, query };
    const go = (ask: InfoAsk) => this.answer({ req, res, info, routed, session: live }, ask);
    if (info.bodyAs === 'bytes') {
      readBytesThen(req, this.stages.bodyLimit, (body) => {
        if (!body.ok) return this.unread(res, info, routed, body.reason);
        go({ ...base, body: undefined, text: '', bytes: body.bytes });
      });
      return;
    }
    readBodyThen(req, this.stages.bodyLimit, (body) => {
      if (!body.ok && body.reason !== 'invalid_utf8') return this.unread(res, info, routed, body.reason);
      const text = body.ok ? body.text : '';
      let parsed: unknown;
      try {
        parsed = text === '' ? undefined : JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      go({ ...base, body: parsed, text });
    });
  }

  /** A body too large is refused in the route's shape; a client that left is gone. */
  private unread(res: ServerResponse, info: InfoRouteSpec, routed: RoutedRequest, reason: 'too_large' | 'aborted'): void {
    if (reason === 'aborted') return;
    this.stages.outcomes.sendError(res, info.dialect, unreadBody('too_large', this.stages.bodyLimit), routed.requestId);
  }

  private answer(request: InfoRequest, ask: InfoAsk): void {
    const { req, res, info, routed, session } = request;
    const chaos = chaosFor(session.chaos, req, ask.query ?? NO_QUERY);
    const decision = chaos && this.chaosDecision(request, chaos);
    const injected = decision && chaosError(decision, chaos);
    if (injected) {
      const refusal = info.dialect.encodeError(injected, { requestId: routed.requestId });
      this.send(request, { ...refusal, act: { delayMs: decision.delayMs }, journal: { error: injected } }, ask);
      return;
    }
    const withChaos = (answer: InfoAnswer): InfoAnswer => (decision?.kind === 'none' ? actedOn(answer, decision) : answer);
    let answered: InfoAnswer | Promise<InfoAnswer>;
    try {
      answered = info.answer(ask);
    } catch (error) {
      this.stages.internalError(req, res, error, routed.requestId);
      return;
    }
    if (answered instanceof Promise) {
      answered.then(
        (answer) => this.send(request, withChaos(answer), ask),
        (error: unknown) => this.stages.internalError(req, res, error, routed.requestId),
      );
      return;
    }
    this.send(request, withChaos(answered), ask);
  }

  /** Injected chaos (chaos.ts) as on a chat route: a status, a rate limit, latency, a malformed
   * answer; the request counts toward a rate limit when the journal records its route. */
  private chaosDecision(request: InfoRequest, chaos: ChaosOptions): ChaosDecision {
    const counted = request.session.journal.counters.requests + (request.info.journalAs ? 1 : 0);
    return decideChaos(chaos, { seed: seedOf(request.routed.requestId), requestNumber: counted, latestUser: undefined, stream: false });
  }

  private send(request: InfoRequest, scripted: InfoAnswer, ask: InfoAsk): void {
    const { req, res, routed, session } = request;
    const answer = oneBodyFault(scripted, request.info, routed.requestId);
    const entry = request.info.journalAs ? this.entryOf(request, answer, ask) : undefined;
    const delayMs = answer.act?.delayMs ?? 0;
    const write = () => {
      try {
        if (answer.events || answer.act?.pacing || answer.act?.fault) return this.writeActed(request, answer, entry);
        const body = answer.body;
        res.writeHead(answer.status, {
          ...answer.headers,
          'x-request-id': routed.requestId,
          'content-length': String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength),
        });
        res.end(body);
        this.settle(request, answer, entry, !res.destroyed);
      } catch (error) {
        this.stages.internalError(req, res, error, routed.requestId);
      }
    };
    if (delayMs <= 0) return write();
    void waitConnected(delayMs, res).then((connected) => {
      if (connected) return write();
      answer.onUndelivered?.();
      if (entry) this.stages.outcomes.recordAborted(session, entry, LEFT_EARLY);
    });
  }

  /** An answer with events, pacing or a fault: written piece by piece (paced-writer.ts). */
  private writeActed(request: InfoRequest, answer: InfoAnswer, entry: JournalRecord | undefined): void {
    const { res, routed } = request;
    const body = answer.body;
    const binary = typeof body !== 'string';
    const pieces = answer.events ? arraySource([...answer.events]) : arraySource([binary ? Buffer.from(body).toString('latin1') : body]);
    res.statusCode = answer.status;
    for (const name in answer.headers) res.setHeader(name, answer.headers[name]);
    res.setHeader('x-request-id', routed.requestId);
    void writePlanned(res, {
      pieces,
      pacing: answer.act?.pacing,
      fault: answer.act?.fault,
      errorEvent: answer.errorEvent,
      binary: binary && !answer.events ? { encoding: 'latin1', malformedFrame: '\u0000' } : undefined,
      seed: seedOf(routed.requestId),
      stalledReaderMs: this.stages.stalledReaderMs,
    }).then((delivered) => this.settle(request, answer, entry, delivered));
  }

  /** Once written: the answer's effect on the session, and its journal entry. */
  private settle(request: InfoRequest, answer: InfoAnswer, entry: JournalRecord | undefined, delivered: boolean): void {
    const { session } = request;
    if (delivered) answer.onDelivered?.();
    else answer.onUndelivered?.();
    if (!entry) return;
    if (!delivered) return this.stages.outcomes.recordAborted(session, entry, LEFT_EARLY);
    const error = answer.journal?.error;
    if (error) {
      if (error.kind === 'invalid_request') session.journal.counters.invalid++;
      else if (error.kind === 'mismatch') session.journal.counters.mismatched++;
      this.stages.outcomes.recordError(session, error, entry);
      return;
    }
    entry.status = answer.status;
    this.stages.outcomes.journalAdd(session, entry);
  }

  /** The request's journal entry, as the route's answer describes it. */
  private entryOf(request: InfoRequest, answer: InfoAnswer, ask: InfoAsk): JournalRecord {
    const { req, routed, session, info } = request;
    session.journal.counters.requests++;
    const entry = newRecord(
      routed.requestId,
      session.id,
      this.stages.routeLabel(req.method ?? 'GET', routed.path),
      info.journalAs as string,
    );
    entry.idNumber = routed.idNumber;
    // A body over the per-entry limit is kept as the journal keeps a chat body that large: a
    // preview, and no request. A byte body is never kept whole.
    const size = ask.bytes ? ask.bytes.length : ask.text.length;
    if (size > session.journal.limits.entryBytes) entry.requestText = ask.bytes ? `(${size} bytes)` : ask.text;
    else entry.request = answer.journal?.request;
    entry.usage = answer.journal?.usage;
    return entry;
  }
}

/** An answer with the latency and the fault injected chaos adds (its own fault first). */
function actedOn(answer: InfoAnswer, decision: Extract<ChaosDecision, { kind: 'none' }>): InfoAnswer {
  if (decision.delayMs <= 0 && !decision.fault) return answer;
  const act = answer.act;
  return {
    ...answer,
    act: { ...act, delayMs: (act?.delayMs ?? 0) + decision.delayMs, fault: act?.fault ?? decision.fault },
  };
}

/** A fault on an answer that is one body, not events: without `afterBytes` or `afterChunks` it
 * comes before the body's first byte (the whole body and then a stall would leave a client whose
 * timeout ends at the headers waiting for ever); kind `error`, which means an in-stream error
 * event, answers the fault's error as the route's HTTP error instead. */
function oneBodyFault(answer: InfoAnswer, info: InfoRouteSpec, requestId: string): InfoAnswer {
  const fault = answer.act?.fault;
  if (!fault || answer.events) return answer;
  if (fault.kind === 'error') {
    const error: NeutralError = {
      kind: 'scripted',
      status: fault.error?.status ?? 500,
      code: fault.error?.code ?? null,
      type: fault.error?.type,
      message: fault.error?.message ?? 'Internal error',
    };
    const { fault: _played, ...act } = answer.act as InfoAct;
    return { ...info.dialect.encodeError(error, { requestId }), act, journal: { ...answer.journal, error } };
  }
  if (fault.afterBytes !== undefined || fault.afterChunks !== undefined) return answer;
  return { ...answer, act: { ...answer.act, fault: { ...fault, afterBytes: 0 } } };
}

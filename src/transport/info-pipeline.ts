// An info route's way (InfoRouteSpec): the session's refusals, the body (text and JSON, or raw
// bytes for a multipart upload), the route's answer (synchronous or not), and its delivery — at
// once, or after the delay, with the pacing and the fault a fixture scripted for it. A journalled
// route's request becomes an entry once it is answered, or aborted when its client left first.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InfoAnswer, InfoAsk, InfoRouteSpec } from '../dialects/dialect.js';
import { arraySource } from '../dialects/dialect.js';
import { newRecord, type JournalRecord } from '../engine/journal.js';
import type { Session } from '../engine/session.js';
import { readBodyThen, readBytesThen } from './body.js';
import type { Outcomes } from './outcomes.js';
import { writePlanned } from './paced-writer.js';
import { LEFT_EARLY, seedOf, waitConnected } from './provider-exchange.js';
import type { RoutedRequest } from './provider-pipeline.js';
import type { EdgeSide } from './cluster-side.js';
import { sessionRefusal } from './session-refusal.js';

/** The query of a URL without one (shared: it is never written to). */
const NO_QUERY = new URLSearchParams();

interface InfoRequest {
  req: IncomingMessage;
  res: ServerResponse;
  info: InfoRouteSpec;
  routed: RoutedRequest;
  session: Session;
  /** The body's length in characters (text) or bytes, for the journal's entry limit. */
  bodyText: string;
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
      /** Under --workers, on an edge: the owner answers routes with `ownerState`. */
      edge?: EdgeSide;
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
    if (info.ownerState && this.stages.edge) return this.stages.edge.forward(req, res);
    const live = session as Session;
    const params = 'notFound' in routed.route ? routed.route.params : undefined;
    const query = routed.queryText ? new URLSearchParams(routed.queryText) : NO_QUERY;
    const base = { state: live.dialectState, clock: live.clock, params, requestId, headers: req.headers, query };
    const go = (ask: InfoAsk) => this.answer({ req, res, info, routed, session: live, bodyText: ask.text }, ask);
    if (info.bodyAs === 'bytes') {
      readBytesThen(req, this.stages.bodyLimit, (body) => {
        if (!body.ok) return this.unread(req, res, info, routed, body.reason);
        go({ ...base, body: undefined, text: '', bytes: body.bytes });
      });
      return;
    }
    readBodyThen(req, this.stages.bodyLimit, (body) => {
      if (!body.ok && body.reason !== 'invalid_utf8') return this.unread(req, res, info, routed, body.reason);
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
  private unread(
    req: IncomingMessage,
    res: ServerResponse,
    info: InfoRouteSpec,
    routed: RoutedRequest,
    reason: 'too_large' | 'aborted',
  ): void {
    if (reason === 'aborted') return;
    const limit = this.stages.bodyLimit;
    this.stages.outcomes.sendError(
      res,
      info.dialect,
      { kind: 'too_large', status: 413, code: 'request_too_large', message: `Request body exceeds the limit of ${limit} bytes.` },
      routed.requestId,
    );
    void req;
  }

  private answer(request: InfoRequest, ask: InfoAsk): void {
    const { req, res, info, routed } = request;
    let answered: InfoAnswer | Promise<InfoAnswer>;
    try {
      answered = info.answer(ask);
    } catch (error) {
      this.stages.internalError(req, res, error, routed.requestId);
      return;
    }
    if (answered instanceof Promise) {
      answered.then(
        (answer) => this.send(request, answer, ask),
        (error: unknown) => this.stages.internalError(req, res, error, routed.requestId),
      );
      return;
    }
    this.send(request, answered, ask);
  }

  private send(request: InfoRequest, answer: InfoAnswer, ask: InfoAsk): void {
    const { req, res, routed, session } = request;
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
    const size = ask.bytes ? ask.bytes.length : request.bodyText.length;
    if (size > session.journal.limits.entryBytes) entry.requestText = ask.bytes ? `(${size} bytes)` : request.bodyText;
    else entry.request = answer.journal?.request;
    entry.usage = answer.journal?.usage;
    return entry;
  }
}

// How a request ends, in the journal and on the wire when it ends in an error: answered with an
// error in its route's shape, aborted by its client, or answered (journalled by delivery).

import type { ServerResponse } from 'node:http';
import type { ErrorKind, NeutralError } from '../core/errors.js';
import type { ChatRequest } from '../core/model.js';
import { ABORTED_STATUS, type JournalRecord } from '../engine/journal.js';
import type { Session } from '../engine/session.js';
import type { ClusterSide } from './cluster-side.js';
import type { ErrorShape } from './front-door.js';
import type { RequestMetrics } from './metrics.js';
import type { RequestLogger } from './request-log.js';

/** A session's request being answered: where the answer goes and where it is journalled. */
export interface Answering {
  res: ServerResponse;
  session: Session;
  entry: JournalRecord;
}

export class Outcomes {
  constructor(
    private readonly cluster: ClusterSide | undefined,
    /** ServerOptions.requestLog: a line per request as it is journalled. */
    private readonly log: RequestLogger | undefined,
    /** ServerOptions.metrics: what /_understudy/metrics reports (metrics.ts). */
    readonly metrics: RequestMetrics | undefined,
    /** ServerOptions.journalBodies: answers' bodies are kept in the journal. */
    readonly keepBodies: boolean,
  ) {}

  /** Writes an error in the given shape (or drops the connection if an answer already began);
   * returns the body written. */
  sendError(res: ServerResponse, shape: ErrorShape, error: NeutralError, requestId: string): string | undefined {
    const encoded = shape.encodeError(error, { requestId });
    if (res.headersSent) {
      res.destroy();
      return undefined;
    }
    res.writeHead(encoded.status, { ...encoded.headers, 'x-request-id': requestId });
    res.end(encoded.body);
    return encoded.body;
  }

  /** Answers a session's request with an error and journals it. */
  finishError(to: Answering, shape: ErrorShape, error: NeutralError): void {
    const body = this.sendError(to.res, shape, error, to.entry.requestId);
    if (this.keepBodies) to.entry.responseText = body;
    this.recordError(to.session, error, to.entry);
  }

  recordError(session: Session, error: NeutralError, entry: JournalRecord): void {
    session.journal.counters.errorsReturned++;
    entry.status = error.status;
    entry.error = { code: error.code, message: error.message };
    this.journalAdd(session, entry, undefined, error.kind);
  }

  /** A request whose client went away before its answer was delivered: journalled, nothing consumed. */
  recordAborted(session: Session, entry: JournalRecord, message: string): void {
    session.journal.counters.aborted++;
    entry.status = ABORTED_STATUS;
    entry.error = { code: 'client_closed_request', message };
    this.journalAdd(session, entry);
  }

  journalAdd(session: Session, entry: JournalRecord, request?: ChatRequest, errorKind?: ErrorKind): void {
    const ms = Date.now() - entry.at;
    entry.ms = ms;
    if (entry.firstByteMs === undefined && entry.status !== ABORTED_STATUS) entry.firstByteMs = ms;
    const cluster = this.cluster;
    if (!cluster) session.journal.add(entry);
    else if (cluster.kind === 'edge') cluster.record(session, entry, request);
    else {
      entry.worker = 0;
      session.journal.add(entry);
    }
    if (this.log) this.log(entry);
    if (this.metrics) this.metrics.observe(entry, errorKind);
  }
}

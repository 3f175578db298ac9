// What the HTTP host asks of its worker role under `serve --workers N` (docs/workers.md). The
// roles live in src/cluster, above this folder; the host sees them only through these interfaces.

import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { ChatRequest } from '../core/model.js';
import type { JournalRecord } from '../engine/journal.js';
import type { Session } from '../engine/session.js';

/** A worker that answers what it can itself and forwards the rest to the owner. */
export interface EdgeSide {
  readonly kind: 'edge';
  /** Settles once the owner's sessions arrived: the public port opens after that. */
  readonly started: Promise<void>;
  close(): Promise<void>;
  /** Hands the request to the owner, with its body when it was already read. */
  forward(req: IncomingMessage, res: ServerResponse, body?: string): void;
  /** Whether this worker may answer requests of this session itself. */
  answers(session: Session): boolean;
  /** Whether this decoded request needs the owner's state after all. */
  needsOwner(session: Session, request: ChatRequest): boolean;
  /** Journals an answered request, to be delivered to the owner. */
  record(session: Session, entry: JournalRecord, request?: ChatRequest): void;
}

/** The worker that holds every session's state. */
export interface OwnerSide {
  readonly kind: 'owner';
  /** Opens the owner's private loopback port for edges, served by the same handler as the public one. */
  listenPrivate(onRequest: RequestListener): Promise<void>;
  closePrivate(): void;
}

export type ClusterSide = EdgeSide | OwnerSide;

// The owner worker: holds the real state of every session. Before any control request it waits
// until every edge has delivered what it answered (sync); after a control request that may have
// changed a session it tells the edges, and answers only once they all have (publish), so a test
// that loads a script and then sends a request sees the new script on whichever worker it lands.

import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ControlHooks, OwnerControl } from '../control/api.js';
import type { WireContext } from '../dialects/dialect.js';
import type { Registry } from '../engine/registry.js';
import { readBody } from '../transport/body.js';
import type { OwnerSide } from '../transport/cluster-side.js';
import { listenOn } from '../transport/http-host.js';
import type { LatenessSnapshot, LatenessStats } from '../transport/lateness.js';
import type { MetricsSnapshot } from '../transport/metrics.js';
import { decodeForJournal, stateAsOfArrival } from '../transport/request-decoder.js';
import { pacingStats, resetPacingStats } from '../transport/scheduler.js';
import { RECORDS_PATH, type ToPrimary, type ToWorker } from './protocol.js';
import { applyBatch, type PortableRecord, type SessionBatch } from './records.js';
import { PublishedSessions } from './replica.js';

export class OwnerLink implements OwnerSide, OwnerControl {
  readonly kind = 'owner';
  /** The loopback-only server edges forward requests and deliver records to. */
  private privateHttp: Server | undefined;
  private privatePort = 0;
  private readonly published = new PublishedSessions();
  private nextRequest = 1;
  private readonly waiting = new Map<number, () => void>();
  /** Every edge's paced-write lateness as of the last sync (one runs before every control request). */
  private edgePacing: LatenessSnapshot[] = [];
  /** Every edge's metrics as of the last sync. */
  private edgeCounts: MetricsSnapshot[] = [];
  readonly hooks: ControlHooks = {
    before: () => this.sync(),
    after: (method) => (method === 'GET' ? Promise.resolve() : this.publish()),
  };

  constructor(
    readonly index: number,
    readonly workers: number,
    private readonly registry: Registry,
  ) {
    process.on('message', (message: ToWorker) => {
      if (message.type === 'synced') {
        this.edgePacing = message.reports.map((r) => r.pacing);
        this.edgeCounts = message.reports.flatMap((r) => (r.metrics ? [r.metrics] : []));
      }
      if (message.type === 'synced' || message.type === 'published' || message.type === 'pacing-reset') {
        this.waiting.get(message.id)?.();
        this.waiting.delete(message.id);
      }
    });
    // Without the primary no connection reaches this worker any more: stop.
    process.once('disconnect', () => process.exit(1));
    // Edges deliver what they answered when asked; while someone watches the live feed, ask often.
    if (workers > 1) {
      let syncing = false;
      setInterval(() => {
        if (syncing || !registry.feed.listening) return;
        syncing = true;
        void this.sync().then(() => (syncing = false));
      }, FEED_SYNC_MS).unref();
    }
  }

  /** Opens the private port (exclusive: the owner's own, not shared with the workers like the
   * public one) and tells the primary, with every session as it starts. */
  async listenPrivate(onRequest: RequestListener): Promise<void> {
    this.privateHttp = createServer({ keepAliveTimeout: 65_000 }, onRequest);
    await listenOn(this.privateHttp, { port: 0, host: '127.0.0.1', exclusive: true });
    this.privatePort = (this.privateHttp.address() as AddressInfo).port;
    send({ type: 'owner-ready', privatePort: this.privatePort, descriptors: this.published.changes(this.registry) });
  }

  closePrivate(): void {
    if (!this.privateHttp?.listening) return;
    this.privateHttp.closeAllConnections();
    this.privateHttp.close();
  }

  /** Whether a control request is an edge's delivery of records: on the private port only, behind
   * the same token as the control API. */
  isRecordsDelivery(req: IncomingMessage, path: string): boolean {
    return path === RECORDS_PATH && this.privatePort !== 0 && req.socket.localPort === this.privatePort;
  }

  /** An edge's delivery of what it answered (records.ts). */
  async acceptRecords(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req, Number.MAX_SAFE_INTEGER);
    if (!body.ok) {
      res.writeHead(400).end();
      return;
    }
    this.applyRecords(JSON.parse(body.text) as { batches: SessionBatch[] });
    res.writeHead(204).end();
  }

  private ask(make: (id: number) => ToPrimary): Promise<void> {
    const id = this.nextRequest++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      send(make(id));
    });
  }

  /** Resolves once every edge has delivered what it answered so far. */
  sync(): Promise<void> {
    return this.workers > 1 ? this.ask((id) => ({ type: 'sync', id })) : Promise.resolve();
  }

  /** Resolves once every edge knows about every session change made so far. */
  publish(): Promise<void> {
    const descriptors = this.published.changes(this.registry);
    if (descriptors.length === 0 || this.workers === 1) return Promise.resolve();
    return this.ask((id) => ({ type: 'publish', id, descriptors }));
  }

  /** Paced-write lateness over every worker: the owner's own and the edges' as of the last sync. */
  pacingStats(): LatenessStats {
    return pacingStats(this.edgePacing);
  }

  edgeMetrics(): MetricsSnapshot[] {
    return this.edgeCounts;
  }

  /** Resets the pacing statistics of every worker; resolves once each has. */
  async resetPacing(): Promise<void> {
    if (this.workers > 1) await this.ask((id) => ({ type: 'reset-pacing', id }));
    resetPacingStats();
    this.edgePacing = [];
  }

  /** Folds an edge's delivery into the sessions. */
  applyRecords(body: { batches: SessionBatch[] }): void {
    for (const batch of body.batches) {
      const session = this.registry.get(batch.session);
      if (!session) continue;
      applyBatch(session, batch, (_text, wire) => edgeRecordDecoder(wire, this.registry, batch.session));
    }
  }

  describe(): { index: number; workers: number; role: 'owner' } {
    return { index: this.index, workers: this.workers, role: 'owner' };
  }
}

/** How often edges are asked for what they answered while the live feed has a listener. */
const FEED_SYNC_MS = 200;

function send(message: ToPrimary): void {
  process.send?.(message);
}

/** How the owner decodes, when the journal is read, a request an edge answered. */
function edgeRecordDecoder(wire: NonNullable<PortableRecord['wire']>, registry: Registry, session: string) {
  const live = (registry.get(session) ?? registry.defaultSession).dialectState;
  const { zeroConfig, ...rest } = wire;
  const state = stateAsOfArrival(live, zeroConfig);
  return { context: { ...rest, query: new URLSearchParams(wire.query), state } satisfies WireContext, decode: decodeForJournal };
}

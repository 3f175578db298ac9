// The owner worker: holds the real state of every session. Before any control request it waits
// until every edge has delivered what it answered (sync); after a control request that may have
// changed a session it tells the edges, and answers only once they all have (publish), so a test
// that loads a script and then sends a request sees the new script on whichever worker it lands.

import type { ControlHooks } from '../control/api.js';
import type { JournalRecord } from '../engine/journal.js';
import type { Registry } from '../engine/registry.js';
import type { LatenessSnapshot, LatenessStats } from '../transport/lateness.js';
import { pacingStats, resetPacingStats } from '../transport/scheduler.js';
import type { ToPrimary, ToWorker } from './protocol.js';
import { applyBatch, type PortableRecord, type SessionBatch } from './records.js';
import { PublishedSessions } from './replica.js';

export type JournalDecoder = (
  text: string,
  wire: NonNullable<PortableRecord['wire']>,
  registry: Registry,
  session: string,
) => {
  context: unknown;
  decode: JournalRecord['decodeRequest'];
};

export class OwnerLink {
  readonly kind = 'owner';
  private readonly published = new PublishedSessions();
  private nextRequest = 1;
  private readonly waiting = new Map<number, () => void>();
  /** Every edge's paced-write lateness as of the last sync (one runs before every control request). */
  private edgePacing: LatenessSnapshot[] = [];
  readonly hooks: ControlHooks = {
    before: () => this.sync(),
    after: (method) => (method === 'GET' ? Promise.resolve() : this.publish()),
  };

  constructor(
    readonly index: number,
    readonly workers: number,
    private readonly registry: Registry,
    private readonly decoder: JournalDecoder,
  ) {
    process.on('message', (message: ToWorker) => {
      if (message.type === 'synced') this.edgePacing = message.pacing;
      if (message.type === 'synced' || message.type === 'published' || message.type === 'pacing-reset') {
        this.waiting.get(message.id)?.();
        this.waiting.delete(message.id);
      }
    });
    // Without the primary no connection reaches this worker any more: stop.
    process.once('disconnect', () => process.exit(1));
  }

  /** Tells the primary the private port edges forward to, with every session as it starts. */
  ready(privatePort: number): void {
    send({ type: 'owner-ready', privatePort, descriptors: this.published.changes(this.registry) });
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
      applyBatch(session, batch, (text, wire) => this.decoder(text, wire, this.registry, batch.session));
    }
  }

  describe(): { index: number; workers: number; role: 'owner' } {
    return { index: this.index, workers: this.workers, role: 'owner' };
  }
}

function send(message: ToPrimary): void {
  process.send?.(message);
}

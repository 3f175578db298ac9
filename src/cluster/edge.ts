// An edge worker: answers the requests of sessions that any worker may answer (replica.ts) and
// forwards everything else — control requests, stateful sessions, chaos, prompts long enough to
// be cached — to the owner over loopback. What it answered reaches the owner whenever the owner is
// about to read or change a session (before every control request), and when the edge stops:
// nothing else reads it, so nothing is sent in between. Per session it keeps at most about two
// journals' worth of records (older ones are counted as evicted), so memory stays bounded.

import { Agent, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { ChatRequest } from '../core/model.js';
import type { JournalCounters, JournalRecord } from '../engine/journal.js';
import type { Registry } from '../engine/registry.js';
import type { Session } from '../engine/session.js';
import { NO_SCRIPTED_VECTORS, ScriptedVectors } from '../engine/scripted-vectors.js';
import { NO_SCRIPTED_IMAGES, ScriptedImages } from '../engine/scripted-images.js';
import { NO_SCRIPTED_AUDIO, ScriptedAudio } from '../engine/scripted-audio.js';
import { countInputTokens } from '../core/tokens.js';
import { pacingSnapshot, resetPacingStats } from '../transport/scheduler.js';
import { metricsSnapshot, type RequestMetrics } from '../transport/metrics.js';
import type { EdgeSide } from '../transport/cluster-side.js';
import { RECORDS_PATH, type SessionDescriptor, type ToPrimary, type ToWorker } from './protocol.js';
import { portableRecord, type PortableRecord, type SessionBatch } from './records.js';

/** Response headers that belong to one connection, not to the answer (HTTP/2 refuses them outright). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'date']);

interface Pending {
  records: PortableRecord[];
  dropped: number;
  counters: JournalCounters;
  /** Step uses already reported, per script. */
  used: Map<string, number[]>;
}

export class EdgeLink implements EdgeSide {
  readonly kind = 'edge';
  private ownerPort = 0;
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 512 });
  /** Sessions this worker answers itself, with the owner's generation they were copied at. */
  private readonly local = new WeakMap<Session, number>();
  private readonly pending = new Map<Session, Pending>();
  private flushing: Promise<void> = Promise.resolve();
  /** What this worker counts for the metrics (set by the server once it made it). */
  metrics: RequestMetrics | undefined;
  /** Resolves once the primary said where the owner is and what the sessions are. */
  readonly started: Promise<void>;

  constructor(
    readonly index: number,
    readonly workers: number,
    private readonly registry: Registry,
    /** The server's control token: the owner asks for it on deliveries, as on any control request. */
    private readonly controlToken?: string,
  ) {
    let begin: () => void = () => {};
    this.started = new Promise((resolve) => (begin = resolve));
    process.on('message', (message: ToWorker) => {
      switch (message.type) {
        case 'start':
          this.ownerPort = message.ownerPort;
          this.apply(message.descriptors);
          begin();
          break;
        case 'flush':
          void this.flush().then(() => {
            const metrics = this.metrics && metricsSnapshot(this.metrics);
            reply({ type: 'flushed', id: message.id, report: { pacing: pacingSnapshot(), ...(metrics && { metrics }) } });
          });
          break;
        case 'reset-pacing':
          resetPacingStats();
          reply({ type: 'pacing-reset', id: message.id });
          break;
        case 'descriptors':
          this.apply(message.descriptors);
          reply({ type: 'applied', id: message.id });
          break;
      }
    });
    // Without the primary there is no owner to forward to: stop.
    process.once('disconnect', () => process.exit(1));
    reply({ type: 'edge-hello' });
  }

  /** Brings the replicas in line with the owner. */
  apply(descriptors: SessionDescriptor[]): void {
    for (const d of descriptors) {
      const existing = this.registry.get(d.id);
      if (existing) this.pending.delete(existing);
      if (d.removed) {
        if (existing) this.registry.delete(d.id);
        continue;
      }
      let session: Session;
      if (existing && existing === this.registry.defaultSession) {
        session = existing;
        session.load({ scenarios: d.scenarios ?? [] }, true);
        session.fallback = d.fallback;
        session.clock = d.clock;
        session.pacing = d.pacing;
        session.streamFlavour = d.streamFlavour ?? 'plain';
        session.models = d.models;
      } else {
        if (existing) this.registry.delete(d.id, true);
        session = this.registry.create({
          id: d.id,
          apiKey: d.apiKey,
          fallback: d.fallback,
          clock: d.clock,
          // Ids stay unique in the session: every worker draws from its own sequence.
          seed: `${d.seed}@${this.index}`,
          requireApiKey: d.requireApiKey,
          pacing: d.pacing,
          streamFlavour: d.streamFlavour,
          models: d.models,
          promptCache: d.promptCache,
        });
        if (d.scenarios?.length) session.load({ scenarios: d.scenarios });
      }
      session.embeddings = d.embeddings ? new ScriptedVectors(d.embeddings) : NO_SCRIPTED_VECTORS;
      session.images = d.images ? new ScriptedImages(d.images) : NO_SCRIPTED_IMAGES;
      session.audio = d.speech || d.transcriptions ? new ScriptedAudio(d.speech ?? [], d.transcriptions ?? []) : NO_SCRIPTED_AUDIO;
      if (d.local) this.local.set(session, d.generation);
      else this.local.delete(session);
      // Deltas are counted from here: what the replica held before belongs to no batch.
      this.pending.set(session, snapshot(session));
    }
  }

  /** Whether this worker answers the session's requests itself. */
  answers(session: Session): boolean {
    return this.local.has(session);
  }

  /** Whether an otherwise local request must still go to the owner, now that it is decoded:
   * a prompt long enough to be cached depends on what the owner's prompt cache holds. */
  needsOwner(session: Session, request: ChatRequest): boolean {
    return request.promptCaching !== 'none' && session.promptCache.mayCache(countInputTokens(request));
  }

  /** Sends the request to the owner and its answer back, bytes and timing as they come. `body`:
   * the body when it was already read. */
  forward(req: IncomingMessage, res: ServerResponse, body?: string): void {
    const headers: Record<string, string | string[] | undefined> = { ...req.headers };
    // An HTTP/2 request's pseudo-headers are not headers on HTTP/1.1 (its :authority is already
    // its Host, http2-side.ts).
    if (req.httpVersionMajor === 2) for (const name in headers) if (name.startsWith(':')) delete headers[name];
    if (body !== undefined) {
      headers['content-length'] = String(Buffer.byteLength(body));
      delete headers['transfer-encoding'];
    }
    const upstream = request({ host: '127.0.0.1', port: this.ownerPort, method: req.method, path: req.url, headers, agent: this.agent });
    upstream.on('response', (answer) => {
      const raw = answer.rawHeaders;
      const kept: string[] = [];
      for (let i = 0; i < raw.length; i += 2) if (!HOP_BY_HOP.has(raw[i].toLowerCase())) kept.push(raw[i], raw[i + 1]);
      res.writeHead(answer.statusCode ?? 502, kept);
      answer.on('data', (chunk: Buffer) => {
        if (!res.write(chunk)) answer.pause();
      });
      res.on('drain', () => answer.resume());
      answer.on('end', () => (answer.complete ? res.end() : res.destroy()));
      answer.on('aborted', () => res.destroy());
      answer.on('error', () => res.destroy());
    });
    upstream.on('error', (error) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'understudy_owner_unreachable', message: `worker ${this.index}: ${error.message}` } }));
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    if (body !== undefined) upstream.end(body);
    else req.pipe(upstream);
  }

  /** A request this worker answered: kept for the next batch instead of a local journal. */
  record(session: Session, entry: JournalRecord, request?: ChatRequest): void {
    const pending = this.pendingFor(session);
    pending.records.push(portableRecord(entry, this.index, request));
    const limit = session.journal.limits.entries;
    if (pending.records.length > 2 * limit + 64) {
      const drop = pending.records.length - limit;
      pending.records.splice(0, drop);
      pending.dropped += drop;
    }
  }

  private pendingFor(session: Session): Pending {
    let pending = this.pending.get(session);
    if (!pending) this.pending.set(session, (pending = snapshot(session)));
    return pending;
  }

  /** Sends everything answered so far to the owner; resolves once the owner has applied it. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.send());
    return this.flushing;
  }

  private async send(): Promise<void> {
    const batches: SessionBatch[] = [];
    for (const [session, pending] of this.pending) {
      const generation = this.local.get(session);
      if (generation === undefined) continue;
      const batch = batchOf(session, pending, generation);
      if (batch) batches.push(batch);
    }
    if (batches.length === 0) return;
    const body = JSON.stringify({ worker: this.index, batches });
    await new Promise<void>((resolve) => {
      const post = request(
        {
          host: '127.0.0.1',
          port: this.ownerPort,
          method: 'POST',
          path: RECORDS_PATH,
          agent: this.agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            ...(this.controlToken !== undefined && { 'x-understudy-control-token': this.controlToken }),
          },
        },
        (answer) => {
          answer.resume();
          answer.on('end', resolve);
          answer.on('error', resolve);
        },
      );
      post.on('error', (error) => {
        process.stderr.write(`understudy worker ${this.index}: could not deliver records to the owner: ${error.message}\n`);
        resolve();
      });
      post.end(body);
    });
  }

  close(): Promise<void> {
    return this.flush().then(() => this.agent.destroy());
  }
}

function snapshot(session: Session): Pending {
  const used = new Map<string, number[]>();
  for (const script of session.scripts) used.set(script.name, [...script.used]);
  return { records: [], dropped: 0, counters: { ...session.journal.counters }, used };
}

/** Takes what is pending for a session: counter and step-use deltas, the newest records. */
function batchOf(session: Session, pending: Pending, generation: number): SessionBatch | undefined {
  const counters: Partial<JournalCounters> = {};
  const now = session.journal.counters;
  for (const key of Object.keys(now) as (keyof JournalCounters)[]) {
    const delta = now[key] - pending.counters[key];
    if (delta !== 0) counters[key] = delta;
    pending.counters[key] = now[key];
  }
  const limit = session.journal.limits.entries;
  let records = pending.records;
  let dropped = pending.dropped;
  if (records.length > limit) {
    dropped += records.length - limit;
    records = records.slice(records.length - limit);
  }
  if (dropped > 0) counters.evicted = (counters.evicted ?? 0) + dropped;
  const used: [string, number, number][] = [];
  for (const script of session.scripts) {
    const before = pending.used.get(script.name) ?? [];
    script.used.forEach((times, index) => {
      const delta = times - (before[index] ?? 0);
      if (delta > 0) used.push([script.name, index, delta]);
    });
    pending.used.set(script.name, [...script.used]);
  }
  pending.records = [];
  pending.dropped = 0;
  if (records.length === 0 && used.length === 0 && Object.keys(counters).length === 0) return undefined;
  return { session: session.id, generation, counters, used, records };
}

function reply(message: ToPrimary): void {
  process.send?.(message);
}

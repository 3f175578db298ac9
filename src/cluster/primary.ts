// `understudy serve --workers N`: the primary process. It forks the owner (worker 0), then, once
// the owner listens, the edges; node:cluster hands connections to the workers in turn. The primary
// answers no request itself: it relays the owner's sync, publish and pacing-reset rounds to every edge.

import cluster, { type Worker } from 'node:cluster';
import { WORKER_COUNT_ENV, WORKER_INDEX_ENV, type EdgeReport, type SessionDescriptor, type ToPrimary, type ToWorker } from './protocol.js';

interface Round {
  waiting: Set<Worker>;
  /** What the edges reported with their answers (on a sync). */
  reported: EdgeReport[];
  done: (reported: EdgeReport[]) => ToWorker;
}

export function runPrimary(count: number, out: (line: string) => void): Promise<number> {
  cluster.setupPrimary({ exec: process.argv[1], args: process.argv.slice(2) });
  const env = (index: number) => ({ [WORKER_INDEX_ENV]: String(index), [WORKER_COUNT_ENV]: String(count) });
  const owner = cluster.fork(env(0));
  const edges: Worker[] = [];
  /** Edges that said hello: only they take part in rounds (earlier messages would be lost). */
  const greeted = new Set<Worker>();
  /** Every session as last published: what an edge is started with. */
  const sessions = new Map<string, SessionDescriptor>();
  let ownerPort = 0;
  const rounds = new Map<string, Round>();
  let stopping = false;

  return new Promise((resolve) => {
    const stop = (code: number) => {
      if (stopping) return;
      stopping = true;
      // Edges first: what they answered last is delivered to the owner before it stops.
      const edgesLeft = () => edges.filter((w) => !w.isDead()).length;
      const stopOwner = () => {
        if (!owner.isDead()) owner.process.kill('SIGTERM');
      };
      for (const edge of edges) if (!edge.isDead()) edge.process.kill('SIGTERM');
      if (edgesLeft() === 0) stopOwner();
      else cluster.on('exit', () => edgesLeft() === 0 && stopOwner());
      const alive = () => [owner, ...edges].filter((w) => !w.isDead()).length;
      // The shared listening socket would keep the primary alive: leave once every worker is gone.
      const leave = () => {
        resolve(code);
        setImmediate(() => process.exit(code));
      };
      cluster.on('exit', () => {
        if (alive() === 0) leave();
      });
      if (alive() === 0) leave();
    };
    process.once('SIGINT', () => stop(0));
    process.once('SIGTERM', () => stop(0));
    cluster.on('exit', (worker, code, signal) => {
      if (stopping) return;
      // A worker that left cleanly (its output pipe closed: cli/pipe.ts) stops the others as cleanly.
      if (code === 0 && signal === null) return stop(0);
      const index = worker === owner ? 0 : edges.indexOf(worker) + 1;
      out(`understudy: worker ${index} exited (${signal ?? `code ${code}`}); stopping every worker, since its sessions' state is gone`);
      stop(1);
    });

    // A round is finished when every edge answered it; then the owner hears `done`.
    const finish = (key: string, edge: Worker, report?: EdgeReport) => {
      const round = rounds.get(key);
      if (!round || !round.waiting.delete(edge)) return;
      if (report) round.reported.push(report);
      if (round.waiting.size > 0) return;
      rounds.delete(key);
      owner.send(round.done(round.reported));
    };
    const startRound = (key: string, ask: ToWorker, done: (reported: EdgeReport[]) => ToWorker) => {
      const live = edges.filter((e) => greeted.has(e) && !e.isDead());
      if (live.length === 0) {
        owner.send(done([]));
        return;
      }
      rounds.set(key, { waiting: new Set(live), reported: [], done });
      for (const edge of live) edge.send(ask);
    };

    const remember = (descriptors: SessionDescriptor[]) => {
      for (const d of descriptors) {
        if (d.removed) sessions.delete(d.id);
        else sessions.set(d.id, d);
      }
    };

    owner.on('message', (message: ToPrimary) => {
      switch (message.type) {
        case 'owner-ready':
          ownerPort = message.privatePort;
          remember(message.descriptors);
          for (let index = 1; index < count; index++) {
            const edge = cluster.fork(env(index));
            edges.push(edge);
            edge.on('message', (m: ToPrimary) => {
              if (m.type === 'edge-hello') {
                greeted.add(edge);
                edge.send({ type: 'start', ownerPort, descriptors: [...sessions.values()] });
              }
              if (m.type === 'flushed') finish(`sync-${m.id}`, edge, m.report);
              if (m.type === 'applied') finish(`publish-${m.id}`, edge);
              if (m.type === 'pacing-reset') finish(`reset-pacing-${m.id}`, edge);
            });
          }
          break;
        case 'sync':
          startRound(`sync-${message.id}`, { type: 'flush', id: message.id }, (reports) => ({ type: 'synced', id: message.id, reports }));
          break;
        case 'reset-pacing':
          startRound(`reset-pacing-${message.id}`, { type: 'reset-pacing', id: message.id }, () => ({
            type: 'pacing-reset',
            id: message.id,
          }));
          break;
        case 'publish':
          remember(message.descriptors);
          startRound(`publish-${message.id}`, { type: 'descriptors', id: message.id, descriptors: message.descriptors }, () => ({
            type: 'published',
            id: message.id,
          }));
          break;
      }
    });
  });
}

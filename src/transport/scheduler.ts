// One timer for every paced write in the process. Writes due in the same millisecond share a
// bucket; a single setTimeout waits for the earliest bucket. Ten thousand paced streams cost one
// timer, not one per chunk per stream.

import { LatenessHistogram, type LatenessSnapshot, type LatenessStats } from './lateness.js';

type Task = () => void;

/** Tasks whose lateness is not recorded carry this mark (first writes, which wait on request handling). */
const UNMEASURED = new WeakSet<Task>();

const buckets = new Map<number, Task[]>();
const dueTimes: number[] = []; // sorted ascending, one entry per bucket
let timer: NodeJS.Timeout | undefined;
let timerDue = Infinity;

function insertSorted(due: number): void {
  let lo = 0;
  let hi = dueTimes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (dueTimes[mid] < due) lo = mid + 1;
    else hi = mid;
  }
  dueTimes.splice(lo, 0, due);
}

function arm(): void {
  const next = dueTimes[0];
  if (next === undefined) {
    if (timer) clearTimeout(timer);
    timer = undefined;
    timerDue = Infinity;
    return;
  }
  if (timer && timerDue <= next) return;
  if (timer) clearTimeout(timer);
  timerDue = next;
  timer = setTimeout(run, Math.max(0, next - performance.now()));
}

// How late paced writes ran against their schedule, every write since the start or the last reset.
const lateness = new LatenessHistogram();

function run(): void {
  timer = undefined;
  timerDue = Infinity;
  while (dueTimes.length && dueTimes[0] <= performance.now() + 0.5) {
    const due = dueTimes.shift() as number;
    const tasks = buckets.get(due);
    buckets.delete(due);
    if (!tasks) continue;
    for (const task of tasks) {
      task();
      // Measured once the task ran: a paced piece is on its socket by then, so this is how late
      // the bytes left, including the writes before it in the same bucket.
      if (!UNMEASURED.has(task)) lateness.record(performance.now() - due);
    }
  }
  arm();
}

/** Lateness of the paced writes since the start or the last reset, in milliseconds: this
 * process's, together with `others` (the owner's view of every worker under --workers). */
export function pacingStats(others: readonly LatenessSnapshot[] = []): LatenessStats {
  if (others.length === 0) return lateness.stats();
  const all = new LatenessHistogram();
  all.absorb(lateness.snapshot());
  for (const other of others) all.absorb(other);
  return all.stats();
}

/** This process's paced-write lateness as data (an edge worker hands it to the owner). */
export function pacingSnapshot(): LatenessSnapshot {
  return lateness.snapshot();
}

export function resetPacingStats(): void {
  lateness.reset();
}

/** Runs `task` at `at` (performance.now() milliseconds, rounded to the millisecond). Lateness
 * against `at` is recorded for pacingStats() unless `measured` is false. */
export function scheduleAt(at: number, task: Task, measured = true): void {
  if (!measured) UNMEASURED.add(task);
  const due = Math.ceil(at);
  let tasks = buckets.get(due);
  if (!tasks) {
    buckets.set(due, (tasks = []));
    insertSorted(due);
  }
  tasks.push(task);
  arm();
}

/** A small seeded generator (mulberry32): the same seed gives the same jitter. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

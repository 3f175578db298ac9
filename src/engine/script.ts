// A script is a graph of steps with a cursor. A linear queue is the same graph with one path.
// Matching never mutates; reserving moves the cursor; releasing puts back exactly what was taken.

import type { ChatRequest, Reply } from '../core/model.js';
import { allPass, checkAll, compileWhen, type Miss, type Predicate } from './predicates.js';
import type { ExhaustionPolicy, ScenarioSpec, StepSpec, TextMatchSpec } from './spec.js';

export interface CompiledStep {
  index: number;
  id: string;
  predicates: Predicate[];
  reply: Reply;
  /** Indices of the steps that may follow; empty means the script completes after this step. */
  next: number[];
}

function exactLatestUser(match: string | TextMatchSpec | undefined): string | undefined {
  if (typeof match === 'string') return match;
  return match?.equals;
}

export class Script {
  readonly name: string;
  readonly steps: CompiledStep[];
  readonly exhausted: ExhaustionPolicy;
  readonly maxReplies: number;
  /** Steps that may answer the next request; empty once the script is complete. */
  candidates: number[];
  lastStep = -1;
  replies = 0;
  /** How many times each step has answered. */
  readonly used: number[];
  /** Bumped on every cursor change; a release only rewinds the cursor if nothing moved since. */
  version = 0;
  /** Bumped by rewind(): reservations made before it have nothing left to give back. */
  epoch = 0;
  /** When every step requires an exact latest user message, those texts: a request with any
   * other latest user message can never match this script. Null when some step could match
   * anything. Lets a session with thousands of scripts skip most of them. */
  readonly userKeys: ReadonlySet<string> | null;

  /** `spec` is the script's own copy (the session clones what it loads); kept so the script can be
   * described again, e.g. to another worker process. */
  constructor(readonly spec: ScenarioSpec) {
    this.name = spec.name;
    this.exhausted = spec.exhausted ?? 'reject';
    this.maxReplies = spec.maxReplies ?? Number.POSITIVE_INFINITY;
    const stepSpecs: StepSpec[] = spec.steps ?? (spec.replies ?? []).map((reply) => ({ reply }));
    const ids = stepSpecs.map((s, i) => s.id ?? `step-${i + 1}`);
    const indexOf = new Map(ids.map((id, i) => [id, i]));
    this.steps = stepSpecs.map((s, i) => {
      let next: number[];
      if (s.next === undefined) next = i + 1 < stepSpecs.length ? [i + 1] : [];
      else if (s.next === 'complete') next = [];
      else {
        const list = Array.isArray(s.next) ? s.next : [s.next];
        next = list
          .filter((n) => n !== 'complete')
          .map((n) => {
            const target = indexOf.get(n);
            if (target === undefined) throw new Error(`scenario "${spec.name}" step "${ids[i]}": next step "${n}" does not exist`);
            return target;
          });
      }
      const reply = spec.pacing ? { ...s.reply, pacing: { ...spec.pacing, ...s.reply.pacing } } : s.reply;
      return { index: i, id: ids[i], predicates: compileWhen(s.when), reply, next };
    });
    this.used = this.steps.map(() => 0);
    this.candidates = this.steps.length ? [0] : [];
    const keys = stepSpecs.map((s) => exactLatestUser(s.when?.latestUser));
    this.userKeys = keys.length > 0 && keys.every((k) => k !== undefined) ? new Set(keys as string[]) : null;
  }

  get complete(): boolean {
    return (this.candidates.length === 0 && this.released.length === 0) || this.replies >= this.maxReplies;
  }

  /** Steps whose reservation was released after the cursor had already moved past them: they
   * are offered again, first, without moving the cursor when given. */
  released: number[] = [];

  /** The first released or candidate step whose predicates all pass, without changing anything. */
  matchCandidate(request: ChatRequest): { step: CompiledStep; mode: 'script' | 'replay' } | undefined {
    if (this.replies >= this.maxReplies) return undefined;
    for (const i of this.released) {
      const step = this.steps[i];
      if (allPass(step.predicates, request)) return { step, mode: 'replay' };
    }
    const step = this.matchStep(request);
    return step && { step, mode: 'script' };
  }

  private matchStep(request: ChatRequest): CompiledStep | undefined {
    for (const i of this.candidates) {
      const step = this.steps[i];
      if (allPass(step.predicates, request)) return step;
    }
    return undefined;
  }

  /** Whether any step of this script would take the request (used to attribute exhaustion). */
  claims(request: ChatRequest): CompiledStep | undefined {
    for (const step of this.steps) if (allPass(step.predicates, request)) return step;
    return undefined;
  }

  /** The candidate closest to matching, with every predicate it fails. */
  nearest(request: ChatRequest): { step: CompiledStep; misses: Miss[] } | undefined {
    let best: { step: CompiledStep; misses: Miss[] } | undefined;
    for (const i of this.candidates) {
      const misses = checkAll(this.steps[i].predicates, request);
      if (!best || misses.length < best.misses.length) best = { step: this.steps[i], misses };
    }
    return best;
  }

  restart(): void {
    this.candidates = this.steps.length ? [0] : [];
    this.released = [];
    this.version++;
  }

  rewind(): void {
    this.epoch++;
    this.restart();
    this.lastStep = -1;
    this.replies = 0;
    this.used.fill(0);
  }
}

export interface Reservation {
  script: Script;
  step: CompiledStep;
  /** Undo the reservation; a no-op after commit or a previous release. */
  release(): void;
  commit(): void;
}

export type ReserveMode = 'script' | 'repeat_last' | 'restart' | 'replay';

/** Moves the cursor past `step` now; the caller commits once the reply was delivered (and
 * `counters.matched` counts it then). */
export function reserve(script: Script, step: CompiledStep, mode: ReserveMode, counters?: { matched: number }): Reservation {
  return new StepReservation(script, step, mode, counters);
}

// A class rather than closures: one object per request instead of a context, two functions and
// a saved-state object.
class StepReservation implements Reservation {
  private readonly candidatesBefore: number[];
  private readonly lastStepBefore: number;
  private readonly epoch: number;
  private readonly versionAfter: number;
  private settled = false;

  constructor(
    readonly script: Script,
    readonly step: CompiledStep,
    private readonly mode: ReserveMode,
    private readonly counters: { matched: number } | undefined,
  ) {
    this.candidatesBefore = script.candidates;
    this.lastStepBefore = script.lastStep;
    this.epoch = script.epoch;
    if (mode === 'restart') script.restart();
    if (mode === 'replay') script.released = script.released.filter((i) => i !== step.index);
    if (mode === 'script' || mode === 'restart') script.candidates = step.next;
    script.lastStep = step.index;
    script.replies++;
    script.used[step.index]++;
    script.version++;
    this.versionAfter = script.version;
  }

  commit(): void {
    if (this.settled) return;
    this.settled = true;
    if (this.counters) this.counters.matched++;
  }

  release(): void {
    if (this.settled) return;
    this.settled = true;
    const { script, step, mode } = this;
    // A rewind (session reset) since the reservation already cleared counts and cursor.
    if (script.epoch !== this.epoch) return;
    script.replies--;
    script.used[step.index]--;
    if (script.version === this.versionAfter) {
      script.candidates = this.candidatesBefore;
      script.lastStep = this.lastStepBefore;
      if (mode === 'replay') script.released = [step.index, ...script.released];
      script.version++;
    } else if (mode === 'script' || mode === 'restart' || mode === 'replay') {
      // Others moved on meanwhile: offer the released step again, without rewinding the cursor,
      // so its reply is still given exactly once and nothing after it is given twice.
      script.released = [...script.released, step.index];
      script.version++;
    }
  }
}

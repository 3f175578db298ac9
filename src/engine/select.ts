// Which script step answers a request. First pass: active scripts in order, first matching
// candidate wins. Second pass: completed scripts that would take the request apply their
// exhaustion policy. Otherwise: nothing matched; explainMiss says what came nearest, and
// nearMissesOf which scenarios a request answered by zero-config nearly matched.
// Nothing here mutates state.

import type { ChatRequest } from '../core/model.js';
import { allPass, checkAll, type Miss } from './predicates.js';
import type { NearMiss } from './journal.js';
import type { CompiledStep, ReserveMode, Script } from './script.js';

export type Selection =
  | { kind: 'step'; script: Script; step: CompiledStep; mode: ReserveMode }
  | { kind: 'exhausted'; script: Script; message: string }
  | { kind: 'none' };

const NEAREST_SHOWN = 3;

/** `scripts` are those that could take the request (in order). A miss is explained by the
 * caller (explainMiss, nearMissesOf), only when someone will read it. */
export function selectStep(scripts: readonly Script[], request: ChatRequest): Selection {
  for (const script of scripts) {
    const match = script.matchCandidate(request);
    if (match) return { kind: 'step', script, step: match.step, mode: match.mode };
  }
  for (const script of scripts) {
    if (!script.complete) continue;
    const claimed = script.claims(request);
    if (!claimed) continue;
    if (script.replies >= script.maxReplies) {
      return {
        kind: 'exhausted',
        script,
        message: `scenario "${script.name}" reached its limit of ${script.maxReplies} replies${retryHint(request)}`,
      };
    }
    if (script.exhausted === 'repeat_last' && script.lastStep >= 0) {
      const last = script.steps[script.lastStep];
      if (allPass(last.predicates, request)) return { kind: 'step', script, step: last, mode: 'repeat_last' };
    }
    if (script.exhausted === 'restart' && script.steps.length > 0) {
      const first = script.steps[0];
      if (allPass(first.predicates, request)) return { kind: 'step', script, step: first, mode: 'restart' };
    }
    return {
      kind: 'exhausted',
      script,
      message: `scenario "${script.name}" is complete (all ${script.steps.length} steps used, policy ${script.exhausted}) and step "${claimed.id}" would have matched this request${retryHint(request)}`,
    };
  }
  return NONE;
}

/** For a request its SDK sends as a retry: the likely story, since SDKs retry 429 and 5xx answers
 * on their own and a scripted error's retry then finds its scenario used up. */
function retryHint(request: ChatRequest): string {
  if (request.attempt === undefined || request.attempt < 1) return '';
  return `. This request is the SDK's retry (attempt ${request.attempt + 1}) of an earlier one: SDKs retry 429 and 5xx answers by themselves, so turn the client's retries off (maxRetries: 0; the AWS client's maxAttempts: 1) or script the retry (when: { attempt: ${request.attempt} })`;
}

const NONE: Selection = Object.freeze({ kind: 'none' });

export function explainMiss(scripts: readonly Script[], request: ChatRequest): { message: string; nearMisses: NearMiss[] } {
  if (scripts.length === 0) return { message: 'no script matched this request: the session has no scripts loaded', nearMisses: [] };
  const near: { script: Script; step: CompiledStep; misses: Miss[] }[] = [];
  for (const script of scripts) {
    if (script.complete) continue;
    const best = script.nearest(request);
    if (best) near.push({ script, step: best.step, misses: best.misses });
  }
  near.sort((a, b) => a.misses.length - b.misses.length);
  const lines = near.slice(0, NEAREST_SHOWN).map(({ script, step, misses }) => {
    const why = misses.map((m) => `${m.predicate}: expected ${m.expected}, got ${m.actual}`).join('; ');
    return `scenario "${script.name}" step "${step.id}" — ${why}`;
  });
  const completed = scripts.filter((s) => s.complete).map((s) => `"${s.name}"`);
  let message = 'no script matched this request.';
  if (lines.length) message += ` Nearest: ${lines.join(' | ')}.`;
  if (completed.length) message += ` Completed scenarios: ${completed.join(', ')}.`;
  const nearMisses = near
    .slice(0, NEAREST_SHOWN)
    .map(({ script, step, misses }) => ({ scenario: script.name, step: step.id, failed: misses }));
  return { message, nearMisses };
}

/**
 * The scenarios a request nearly matched, for a request about to get a zero-config answer: the
 * nearest candidate step of each scenario that is under way (it answered before and has steps
 * left, so the request may be the turn it waits for), or whose candidate passes some of its
 * predicates but not all. A completed scenario that repeats (repeat_last, restart) offers the step
 * it would repeat, judged by the second rule only. A scenario that has not started and whose
 * candidate fails every predicate is unrelated traffic.
 */
export function nearMissesOf(scripts: readonly Script[], request: ChatRequest): NearMiss[] {
  let near: { script: Script; step: CompiledStep; failing: number }[] | undefined;
  for (const script of scripts) {
    let candidates: readonly number[] = script.candidates;
    let underway = script.replies > 0;
    if (script.complete) {
      if (script.replies >= script.maxReplies || script.exhausted === 'reject') continue;
      const repeated = script.exhausted === 'repeat_last' ? script.lastStep : 0;
      if (repeated < 0 || repeated >= script.steps.length) continue;
      candidates = [repeated];
      underway = false;
    }
    let best: { step: CompiledStep; failing: number } | undefined;
    for (const i of candidates) {
      const step = script.steps[i];
      let failing = 0;
      for (const p of step.predicates) if (p.check(request) !== null) failing++;
      if (failing === 0 || (!underway && failing === step.predicates.length)) continue;
      if (!best || failing < best.failing) best = { step, failing };
    }
    if (best) (near ??= []).push({ script, ...best });
  }
  if (!near) return NO_NEAR_MISSES;
  near.sort((a, b) => a.failing - b.failing);
  return near.slice(0, NEAREST_SHOWN).map(({ script, step }) => ({
    scenario: script.name,
    step: step.id,
    failed: checkAll(step.predicates, request),
  }));
}

const NO_NEAR_MISSES: NearMiss[] = Object.freeze([]) as unknown as NearMiss[];

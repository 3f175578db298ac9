// Which script step answers a request. First pass: active scripts in order, first matching
// candidate wins. Second pass: completed scripts that would take the request apply their
// exhaustion policy. Otherwise: nothing matched, with the nearest candidates explained.
// Nothing here mutates state.

import type { ChatRequest } from '../core/model.js';
import { allPass, type Miss } from './predicates.js';
import type { NearMiss } from './journal.js';
import type { CompiledStep, ReserveMode, Script } from './script.js';

export type Selection =
  | { kind: 'step'; script: Script; step: CompiledStep; mode: ReserveMode }
  | { kind: 'exhausted'; script: Script; message: string }
  | { kind: 'none'; message: string; nearMisses: NearMiss[] };

const NEAREST_SHOWN = 3;

/** `scripts` are those that could take the request (in order); `all` every script of the
 * session, for explaining a miss. */
export function selectStep(scripts: readonly Script[], request: ChatRequest, all: readonly Script[] = scripts): Selection {
  for (const script of scripts) {
    const match = script.matchCandidate(request);
    if (match) return { kind: 'step', script, step: match.step, mode: match.mode };
  }
  for (const script of scripts) {
    if (!script.complete) continue;
    const claimed = script.claims(request);
    if (!claimed) continue;
    if (script.replies >= script.maxReplies) {
      return { kind: 'exhausted', script, message: `scenario "${script.name}" reached its limit of ${script.maxReplies} replies` };
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
      message: `scenario "${script.name}" is complete (all ${script.steps.length} steps used, policy ${script.exhausted}) and step "${claimed.id}" would have matched this request`,
    };
  }
  return { kind: 'none', ...explainMiss(all, request) };
}

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

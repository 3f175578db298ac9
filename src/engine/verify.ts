// verify(): what a test should hear about at its end — unused steps and every request that was
// not answered from a script as planned.

import type { Session } from './session.js';

export interface VerifyProblem {
  kind: 'unused_step' | 'no_match' | 'fixture_mismatch' | 'scenario_exhausted' | 'invalid_request';
  message: string;
  requestId?: string;
  scenario?: string;
  step?: string;
}

export interface VerifyReport {
  ok: boolean;
  problems: VerifyProblem[];
  /** One readable block, for assertion messages. */
  report: string;
}

const CODE_TO_KIND: Record<string, VerifyProblem['kind']> = {
  no_match: 'no_match',
  fixture_mismatch: 'fixture_mismatch',
  scenario_exhausted: 'scenario_exhausted',
};

export function verifySession(session: Session): VerifyReport {
  const problems: VerifyProblem[] = [];
  for (const script of session.scripts) {
    script.steps.forEach((step, i) => {
      if (script.used[i] === 0) {
        problems.push({
          kind: 'unused_step',
          scenario: script.name,
          step: step.id,
          message: `scenario "${script.name}" step "${step.id}" was never used`,
        });
      }
    });
  }
  const { entries, counters } = session.journal.snapshot();
  for (const entry of entries) {
    const kind = (entry.error?.code ? CODE_TO_KIND[entry.error.code] : undefined) ?? (entry.status === 400 ? 'invalid_request' : undefined);
    if (!kind || !entry.error) continue;
    problems.push({
      kind,
      requestId: entry.requestId,
      scenario: entry.script,
      step: entry.step,
      message: `request ${entry.requestId} (${entry.route}) answered ${entry.status} ${entry.error.code ?? ''}: ${entry.error.message}`,
    });
  }
  const seen = problems.filter((p) => p.kind === 'no_match' || p.kind === 'fixture_mismatch' || p.kind === 'scenario_exhausted').length;
  const failed = counters.unmatched + counters.mismatched + counters.exhausted;
  if (failed > seen) {
    problems.push({
      kind: 'no_match',
      message: `${failed - seen} more unanswered requests were evicted from the journal (unmatched ${counters.unmatched}, mismatched ${counters.mismatched}, exhausted ${counters.exhausted})`,
    });
  }
  const report = problems.length
    ? `Understudy session "${session.id}" failed verification (${problems.length} problem${problems.length > 1 ? 's' : ''}):\n${problems.map((p, i) => `  ${i + 1}. ${p.message}`).join('\n')}`
    : `Understudy session "${session.id}" verified: every step used, every request answered as scripted.`;
  return { ok: problems.length === 0, problems, report };
}

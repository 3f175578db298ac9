// verify() of one session: whether it passes, each problem (an unused step, a request no script
// matched …) and each warning, as GET /_understudy/sessions/ID/verify reports them.

import { h, timeElement } from './dom.js';
import type { VerifyProblem, VerifyReport } from './types.js';

function problemItem(problem: VerifyProblem): HTMLLIElement {
  const where = [
    problem.scenario && `scenario ${problem.scenario}`,
    problem.step && `step ${problem.step}`,
    problem.requestId && `request ${problem.requestId}`,
  ]
    .filter(Boolean)
    .join(', ');
  return h(
    'li',
    { className: 'problem', 'data-kind': problem.kind },
    h('span', { className: 'badge badge-problem' }, problem.kind.replace(/_/g, ' ')),
    where ? h('span', { className: 'problem-where' }, ` ${where}`) : null,
    h('p', { className: 'problem-message' }, problem.message),
  );
}

export function renderVerify(report: VerifyReport, session: string, at: Date): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const count = report.problems.length;
  fragment.append(
    h(
      'p',
      { className: report.ok ? 'verify-summary verify-ok' : 'verify-summary verify-failed' },
      report.ok ? `verify() passes for ${session}` : `verify() fails for ${session}: ${count} ${count === 1 ? 'problem' : 'problems'}`,
      h('span', { className: 'verify-time' }, ' (checked ', timeElement(at.toISOString()), ' UTC)'),
    ),
  );
  if (count > 0) fragment.append(h('ul', { className: 'problems' }, ...report.problems.map(problemItem)));
  if (report.warnings.length > 0) {
    fragment.append(h('h4', {}, 'Warnings'), h('ul', { className: 'problems warnings' }, ...report.warnings.map(problemItem)));
  }
  return fragment;
}

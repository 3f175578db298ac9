// Assertions on a session that the runner entry points turn into matchers (Vitest, Jest) or
// assertion functions (node:test). Each reads the session's verification, so a failure says what
// was expected and what happened in the words of verify()'s report.

import type { JsonValue, UnderstudySession } from '../index.js';

export interface MatcherResult {
  pass: boolean;
  message: () => string;
}

/** Whether the session answered with a call of this tool (with these arguments, when given). */
export async function calledTool(session: UnderstudySession, name: string, args?: JsonValue): Promise<MatcherResult> {
  const report = await session.check({ toolCalled: [{ name, ...(args !== undefined && { arguments: args }) }] });
  const problem = report.problems.find((p) => p.kind === 'tool_expectation');
  const wanted = `tool "${name}"${args !== undefined ? ` with arguments ${JSON.stringify(args)}` : ''}`;
  return {
    pass: problem === undefined,
    message: () => (problem ? problem.message : `expected no call of ${wanted} in session "${session.id}", but there was one`),
  };
}

/** Whether every scripted step of the session was used. */
export async function noUnusedSteps(session: UnderstudySession): Promise<MatcherResult> {
  const report = await session.check();
  const unused = report.problems.filter((p) => p.kind === 'unused_step');
  return {
    pass: unused.length === 0,
    message: () =>
      unused.length
        ? `expected every step of session "${session.id}" to be used; unused:\n${unused.map((p) => `  - ${p.message}`).join('\n')}`
        : `expected session "${session.id}" to have unused steps, but every step was used`,
  };
}

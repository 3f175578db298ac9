// `import { useUnderstudy } from 'llm-understudy/node-test'`: one call at the top of a test file gives
// every test its own verified session. node:test has no matchers: the assertions are functions.

import { AssertionError } from 'node:assert';
import { after, afterEach, before, beforeEach } from 'node:test';
import type { JsonValue, UnderstudySession } from '../index.js';
import { calledTool, noUnusedSteps, type MatcherResult } from './matchers.js';
import { useUnderstudyWith, type UnderstudyForTests, type UseUnderstudyOptions } from './use-understudy.js';

export type { UnderstudyForTests, UseUnderstudyOptions };

export function useUnderstudy(options: UseUnderstudyOptions = {}): UnderstudyForTests {
  return useUnderstudyWith(
    {
      beforeAll: (run) => before(run),
      afterAll: (run) => after(run),
      beforeEach: (run) => beforeEach((context) => run(context.name)),
      afterEach: (run) => afterEach(() => run()),
    },
    options,
  );
}

function passOrThrow(result: MatcherResult, stackStart: (...args: never[]) => unknown): void {
  if (!result.pass) throw new AssertionError({ message: result.message(), stackStartFn: stackStart });
}

/** Throws unless the session answered with a call of this tool (with these arguments, when given). */
export async function assertCalledTool(session: UnderstudySession, name: string, args?: JsonValue): Promise<void> {
  passOrThrow(await calledTool(session, name, args), assertCalledTool);
}

/** Throws unless every scripted step of the session was used. */
export async function assertNoUnusedSteps(session: UnderstudySession): Promise<void> {
  passOrThrow(await noUnusedSteps(session), assertNoUnusedSteps);
}

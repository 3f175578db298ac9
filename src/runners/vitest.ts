// `import { useUnderstudy } from 'llm-understudy/vitest'`: one call at the top of a test file (or in
// a setup file) gives every test its own verified session; matchers on a session.

import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { JsonValue, UnderstudySession } from '../index.js';
import { calledTool, noUnusedSteps } from './matchers.js';
import { useUnderstudyWith, type UnderstudyForTests, type UseUnderstudyOptions } from './use-understudy.js';

export type { UnderstudyForTests, UseUnderstudyOptions };

export function useUnderstudy(options: UseUnderstudyOptions = {}): UnderstudyForTests {
  return useUnderstudyWith(
    {
      beforeAll: (run) => beforeAll(run),
      afterAll: (run) => afterAll(run),
      beforeEach: (run) => beforeEach((context) => run(context.task.name)),
      afterEach: (run) => afterEach(() => run()),
    },
    options,
  );
}

expect.extend({
  toHaveCalledTool: (session: UnderstudySession, name: string, args?: JsonValue) => calledTool(session, name, args),
  toHaveNoUnusedSteps: (session: UnderstudySession) => noUnusedSteps(session),
});

interface UnderstudyMatchers<R = unknown> {
  /** The session answered with a call of this tool (with these arguments, when given). Await it. */
  toHaveCalledTool(name: string, args?: JsonValue): Promise<R>;
  /** Every scripted step of the session was used. Await it. */
  toHaveNoUnusedSteps(): Promise<R>;
}

// Matchers (vitest 3.2 and later), not Assertion: another package augmenting Assertion with other
// type parameters (@langchain/core's test matchers do) would clash with an Assertion of ours.
declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Matchers<T = any> extends UnderstudyMatchers<T> {}
}

// `import { useUnderstudy } from 'llm-understudy/jest'`: one call at the top of a test file (or in a
// setup file) gives every test its own verified session; matchers on a session. Jest runs ES
// modules with `node --experimental-vm-modules`.

import { afterAll, afterEach, beforeAll, beforeEach, expect } from '@jest/globals';
import type { JsonValue, UnderstudySession } from '../index.js';
import { calledTool, noUnusedSteps } from './matchers.js';
import { useUnderstudyWith, type UnderstudyForTests, type UseUnderstudyOptions } from './use-understudy.js';

export type { UnderstudyForTests, UseUnderstudyOptions };

export function useUnderstudy(options: UseUnderstudyOptions = {}): UnderstudyForTests {
  return useUnderstudyWith(
    {
      beforeAll: (run) => beforeAll(run),
      afterAll: (run) => afterAll(run),
      beforeEach: (run) => beforeEach(() => run(expect.getState().currentTestName ?? 'test')),
      afterEach: (run) => afterEach(() => run()),
    },
    options,
  );
}

expect.extend({
  toHaveCalledTool: (session: unknown, name: unknown, args?: unknown) =>
    calledTool(session as UnderstudySession, name as string, args as JsonValue),
  toHaveNoUnusedSteps: (session: unknown) => noUnusedSteps(session as UnderstudySession),
});

declare module 'expect' {
  interface Matchers<R> {
    /** The session answered with a call of this tool (with these arguments, when given). Await it. */
    toHaveCalledTool(name: string, args?: JsonValue): Promise<R>;
    /** Every scripted step of the session was used. Await it. */
    toHaveNoUnusedSteps(): Promise<R>;
  }
}

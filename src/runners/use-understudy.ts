// What the three test-runner entry points share (vitest.ts, jest.ts, node-test.ts): one server per
// test file, a session of its own for every test (named after it, unique across files and
// processes), verified when the test ends so that a failed verification fails that test with
// its report, and the server closed after the file whatever failed.

// The library is imported through its root (src/index.ts): the bundles of the runner entry points
// then share dist/index.js instead of carrying their own copy of it (scripts/bundle.mjs).
import {
  connectUnderstudy,
  startUnderstudy,
  type Loadable,
  type ServerOptions,
  type SessionOptions,
  type Understudy,
  type UnderstudySession,
  type VerifyExpectations,
} from '../index.js';

export interface UseUnderstudyOptions {
  /** Options of the server started for the file (ignored with `url`). */
  server?: ServerOptions;
  /** Drive a server that is already running (e.g. `understudy serve`) instead of starting one. */
  url?: string;
  /** Options of each test's session. */
  session?: Omit<SessionOptions, 'id'>;
  /** Scripts loaded into each test's session before it runs. */
  scripts?: Loadable;
  /** Verify each test's session when it ends (default true); or what to verify besides. */
  verify?: boolean | VerifyExpectations;
}

/** The running server and the current test's session. */
export interface UnderstudyForTests {
  /** The server of this file (started, or connected to with `url`). */
  readonly server: Omit<Understudy, 'close'>;
  /** The current test's session; read it inside a test. */
  readonly session: UnderstudySession;
  /** Base URL an SDK of this provider should be given. */
  url(provider?: string): string;
  /** The current test's session's API key (give it to the SDK: it selects the session). */
  readonly apiKey: string;
}

/** The hooks of a test runner, each given a function to run. */
export interface RunnerHooks {
  beforeAll(run: () => Promise<void>): void;
  afterAll(run: () => Promise<void>): void;
  /** `run` is given the current test's name. */
  beforeEach(run: (testName: string) => Promise<void>): void;
  afterEach(run: () => Promise<void>): void;
}

let sessionsMade = 0;
const RUN = Math.random().toString(36).slice(2, 8);

/** A session id from a test's name: readable, and unique across tests, files and processes. */
export function sessionIdFor(testName: string): string {
  const readable =
    testName
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 96) || 'test';
  return `${readable}-${RUN}${process.pid.toString(36)}-${++sessionsMade}`;
}

export function useUnderstudyWith(hooks: RunnerHooks, options: UseUnderstudyOptions = {}): UnderstudyForTests {
  let started: Understudy | undefined;
  let server: Omit<Understudy, 'close'> | undefined;
  let current: UnderstudySession | undefined;

  hooks.beforeAll(async () => {
    if (options.url !== undefined) server = await connectUnderstudy(options.url);
    else server = started = await startUnderstudy(options.server);
  });
  hooks.afterAll(async () => {
    const closing = started;
    started = server = undefined;
    await closing?.close();
  });
  hooks.beforeEach(async (testName) => {
    if (!server) throw new Error('useUnderstudy(): the server did not start (see the error of the file’s setup)');
    current = await server.session(sessionIdFor(testName), options.session);
    if (options.scripts !== undefined) await current.load(options.scripts);
  });
  hooks.afterEach(async () => {
    const session = current;
    current = undefined;
    if (!session) return;
    try {
      if (options.verify !== false) await session.verify(typeof options.verify === 'object' ? options.verify : undefined);
    } finally {
      await session.delete();
    }
  });

  const live = (): UnderstudySession => {
    if (!current) throw new Error('useUnderstudy(): there is a session only while a test runs (read it inside the test)');
    return current;
  };
  return {
    get server() {
      if (!server) throw new Error('useUnderstudy(): the server is started before the first test (read it inside a test or hook)');
      return server;
    },
    get session() {
      return live();
    },
    get apiKey() {
      return live().apiKey;
    },
    url(provider = 'openai') {
      return live().url(provider);
    },
  };
}

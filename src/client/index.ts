// What tests import: `startUnderstudy()` runs a server in this process; `connectUnderstudy(url)`
// drives one that is already running (e.g. `understudy serve`). Both hand out sessions with the
// same methods.

import { formatProblems, validateFixtureValue } from '../engine/fixture-file.js';
import type { JournalCounters, JournalEntry } from '../engine/journal.js';
import type { Session, SessionOptions } from '../engine/session.js';
import { replyLimits, type ReplyLimits } from '../engine/reply-limits.js';
import type { FixtureInput, FixtureSpec, ScenarioInput } from '../engine/spec.js';
import type { VerifyExpectations, VerifyReport } from '../engine/verify.js';
import { UnderstudyServer, type ServerOptions } from '../server/understudy-server.js';
import { ScenarioBuilder } from './builder.js';

/** A provider name the server knows (see GET /_understudy/health `providerPaths`). */
export type Provider = 'openai' | 'anthropic' | 'gemini' | (string & {});
/** A script to load: what a fixture file holds (preset calls included), scenarios, or builders. */
export type Loadable = FixtureInput | ScenarioInput | ScenarioBuilder | (ScenarioInput | ScenarioBuilder)[];
export interface JournalSnapshot {
  entries: JournalEntry[];
  counters: JournalCounters;
}

export class VerificationError extends Error {
  constructor(readonly result: VerifyReport) {
    super(result.report);
    this.name = 'VerificationError';
  }
}

export interface UnderstudySession {
  readonly id: string;
  /** Give this key to the SDK: requests carrying it reach this session. */
  readonly apiKey: string;
  /** Base URL for the provider's SDK (e.g. `http://127.0.0.1:PORT/v1` for openai). */
  url(provider?: Provider): string;
  /** A fluent scenario. In process it takes effect at once; over HTTP await it (or call `push()`). */
  scenario(name: string): ScenarioBuilder;
  /** Sends scenarios built with `scenario()` that were not sent yet (only needed over HTTP). */
  push(): Promise<void>;
  load(fixture: Loadable, options?: { replace?: boolean }): Promise<void>;
  reset(options?: { scripts?: boolean }): Promise<void>;
  /** Moves the session clock (seconds since the epoch) on by `seconds`, or to `{ set }`: video
   * jobs progress with it. Whole seconds only (an integer ≥ 0). Resolves to the clock after. */
  advanceClock(seconds: number | { set: number }): Promise<number>;
  journal(): Promise<JournalSnapshot>;
  /** The verification report, whether it passed or not. */
  check(expectations?: VerifyExpectations): Promise<VerifyReport>;
  /** Throws a VerificationError with a readable report unless every step was used, nothing
   * unexpected happened, and the tool expectations (if any) hold. */
  verify(expectations?: VerifyExpectations): Promise<void>;
  delete(): Promise<void>;
}

export interface Understudy {
  readonly baseUrl: string;
  /** Base URL for a provider's SDK; requests reach the session named by the API key they carry. */
  url(provider?: Provider): string;
  /** Creates a session (isolated scripts, journal and ids). */
  session(id?: string, options?: Omit<SessionOptions, 'id'>): Promise<UnderstudySession>;
  /** The session requests without a known API key use. */
  readonly defaultSession: UnderstudySession;
  /** Stops the server; with `graceMs`, answers in flight get that long to finish first. */
  close(options?: { graceMs?: number }): Promise<void>;
}

function toFixture(value: Loadable): FixtureInput {
  const list = Array.isArray(value) ? value : [value];
  if (!Array.isArray(value) && 'scenarios' in value) return value;
  return { scenarios: list.map((x) => (x instanceof ScenarioBuilder ? x.build() : (x as ScenarioInput))) };
}

function checked(value: unknown, source: string, limits: ReplyLimits): FixtureSpec {
  const result = validateFixtureValue(value, source, limits);
  if (!result.ok) throw new Error(`invalid script:\n${formatProblems(result.problems)}`);
  return result.fixture;
}

// The engine session behind each in-process handle, for the framework-native models
// (src/in-process/), which answer from it with no HTTP.
const engineSessions = new WeakMap<UnderstudySession, Session>();

/** The engine session of a session made in this process (startUnderstudy, createUnderstudy);
 * undefined for one reached over HTTP (connectUnderstudy). */
export function engineSessionOf(session: UnderstudySession): Session | undefined {
  return engineSessions.get(session);
}

class LocalSession implements UnderstudySession {
  /** Builders of this session; one whose `next` names a missing step is not applied until it resolves. */
  private readonly builders: ScenarioBuilder[] = [];
  constructor(
    private readonly server: UnderstudyServer,
    private readonly session: Session,
    private readonly listening = true,
  ) {
    engineSessions.set(this, session);
  }
  get id() {
    return this.session.id;
  }
  get apiKey() {
    return this.session.apiKey;
  }
  url(provider: Provider = 'openai') {
    if (!this.listening) throw new Error(NOT_LISTENING);
    return this.server.providerUrl(provider);
  }
  scenario(name: string): ScenarioBuilder {
    const builder = new ScenarioBuilder(
      name,
      (spec) => this.session.load(checked({ scenarios: [spec] }, `scenario "${name}"`, this.server.replyLimits)),
      // Applied at once; awaiting it reports a `next` that names no step.
      async () => {
        if (builder.danglingNext().length > 0) checked({ scenarios: [builder.build()] }, `scenario "${name}"`, this.server.replyLimits);
      },
    );
    this.builders.push(builder);
    return builder;
  }
  /** In process, scenarios apply at once; this only reports a builder whose `next` never resolved. */
  async push() {
    for (const builder of this.builders) {
      if (builder.danglingNext().length > 0)
        checked({ scenarios: [builder.build()] }, `scenario "${builder.name}"`, this.server.replyLimits);
    }
  }
  async load(fixture: Loadable, options: { replace?: boolean } = {}) {
    this.session.load(checked(toFixture(fixture), 'load()', this.server.replyLimits), options.replace);
  }
  async reset(options: { scripts?: boolean } = {}) {
    this.session.reset(options);
  }
  async advanceClock(seconds: number | { set: number }) {
    const to = typeof seconds === 'number' ? this.session.clock + seconds : seconds.set;
    if (!Number.isSafeInteger(to) || to < 0 || (typeof seconds === 'number' && seconds < 0)) {
      throw new Error(`advanceClock(): expected an integer number of seconds >= 0, found ${JSON.stringify(seconds)}`);
    }
    this.session.clock = to;
    return to;
  }
  async journal() {
    return this.session.journal.snapshot();
  }
  async check(expectations?: VerifyExpectations) {
    await this.push();
    // The verifier is loaded by the first check, not at start-up.
    const { verifySession } = await import('../engine/verify.js');
    return verifySession(this.session, expectations);
  }
  async verify(expectations?: VerifyExpectations) {
    const report = await this.check(expectations);
    if (!report.ok) throw new VerificationError(report);
  }
  async delete() {
    this.server.registry.delete(this.session.id);
  }
}

/** What an Understudy with no server takes: the default session's options, fixtures and reply limits. */
export type InProcessOptions = Pick<StartOptions, 'defaultSession' | 'fixtures' | 'maxReplyBytes' | 'maxStreamChunks'>;

/** What startUnderstudy() takes: the server's options, with `fixtures` as fixture files hold them
 * (preset calls included), checked here. */
export type StartOptions = Omit<ServerOptions, 'fixtures'> & { fixtures?: FixtureInput[] };

const NOT_LISTENING =
  'this Understudy was made by createUnderstudy(): no server is listening, so there is no base URL; use the in-process models (llm-understudy/ai-sdk, llm-understudy/langchain), or startUnderstudy() for HTTP';

/** Starts Understudy in this process on 127.0.0.1 and an ephemeral port unless told otherwise. */
export async function startUnderstudy(options: StartOptions = {}): Promise<Understudy> {
  const server = serverOf(options, 'startUnderstudy()');
  const { url } = await server.listen();
  return handleOf(server, url, true);
}

/** Understudy in this process with no server listening: sessions, scripts, journal and verify()
 * as with startUnderstudy(), answered only by the in-process framework models
 * (llm-understudy/ai-sdk, llm-understudy/langchain). `url()` throws; `close()` ends nothing but
 * the handle. */
export async function createUnderstudy(options: InProcessOptions = {}): Promise<Understudy> {
  return handleOf(serverOf(options, 'createUnderstudy()'), '', false);
}

function serverOf(options: StartOptions, caller: string): UnderstudyServer {
  // Fixtures given here are checked as any loaded script is (limits included) before the server starts.
  const limits = replyLimits({ replyBytes: options.maxReplyBytes, streamChunks: options.maxStreamChunks });
  const fixtures = options.fixtures?.map((fixture, i) => checked(fixture, `${caller} fixtures[${i}]`, limits));
  const { fixtures: _given, ...rest } = options;
  return new UnderstudyServer(fixtures ? { ...rest, fixtures } : rest);
}

function handleOf(server: UnderstudyServer, baseUrl: string, listening: boolean): Understudy {
  return {
    baseUrl,
    url: (provider: Provider = 'openai') => {
      if (!listening) throw new Error(NOT_LISTENING);
      return server.providerUrl(provider);
    },
    async session(id?: string, sessionOptions: Omit<SessionOptions, 'id'> = {}) {
      return new LocalSession(server, server.registry.create({ ...sessionOptions, id }), listening);
    },
    defaultSession: new LocalSession(server, server.registry.defaultSession, listening),
    close: (options?: { graceMs?: number }) => (listening ? server.close(options) : Promise.resolve()),
  };
}

// ------------------------------------------------------------------ over HTTP

class RemoteSession implements UnderstudySession {
  private pending: ScenarioBuilder[] = [];
  constructor(
    private readonly control: ControlClient,
    readonly id: string,
    readonly apiKey: string,
  ) {}
  url(provider: Provider = 'openai') {
    return this.control.providerUrl(provider);
  }
  scenario(name: string): ScenarioBuilder {
    const builder = new ScenarioBuilder(name, undefined, () => this.push());
    this.pending.push(builder);
    return builder;
  }
  async push() {
    const builders = this.pending;
    this.pending = [];
    if (builders.length) await this.load(builders);
  }
  async load(fixture: Loadable, options: { replace?: boolean } = {}) {
    await this.control.call(options.replace ? 'PUT' : 'POST', `/sessions/${encodeURIComponent(this.id)}/scripts`, toFixture(fixture));
  }
  async reset(options: { scripts?: boolean } = {}) {
    await this.control.call('POST', `/sessions/${encodeURIComponent(this.id)}/reset`, options);
  }
  async advanceClock(seconds: number | { set: number }) {
    const body = typeof seconds === 'number' ? { advance: seconds } : { set: seconds.set };
    const answer = (await this.control.call('POST', `/sessions/${encodeURIComponent(this.id)}/clock`, body)) as { clock: number };
    return answer.clock;
  }
  async journal() {
    return (await this.control.call('GET', `/sessions/${encodeURIComponent(this.id)}/journal`)) as JournalSnapshot;
  }
  async check(expectations?: VerifyExpectations) {
    await this.push();
    return (await this.control.call('POST', `/sessions/${encodeURIComponent(this.id)}/verify`, expectations ?? {})) as VerifyReport;
  }
  async verify(expectations?: VerifyExpectations) {
    const report = await this.check(expectations);
    if (!report.ok) throw new VerificationError(report);
  }
  async delete() {
    await this.control.call('DELETE', `/sessions/${encodeURIComponent(this.id)}`);
  }
}

class ControlClient {
  providerPaths: Record<string, string> = {};
  constructor(readonly baseUrl: string) {}
  providerUrl(provider: Provider) {
    const path = this.providerPaths[provider];
    if (path === undefined) throw new Error(`unknown provider "${provider}"; known: ${Object.keys(this.providerPaths).join(', ')}`);
    return `${this.baseUrl}${path}`;
  }
  async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.baseUrl}/_understudy${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const value = text ? (JSON.parse(text) as unknown) : undefined;
    if (!response.ok) {
      const error = (value as { error?: { message?: string; problems?: { path: string; message: string }[] } })?.error;
      const problems = error?.problems?.map((p) => `\n  ${p.path}  ${p.message}`).join('') ?? '';
      throw new Error(`${method} ${path} failed with ${response.status}: ${error?.message ?? text}${problems}`);
    }
    return value;
  }
}

/** Drives an Understudy server that is already running, e.g. `understudy serve`. */
export async function connectUnderstudy(baseUrl: string): Promise<Omit<Understudy, 'close'>> {
  const control = new ControlClient(baseUrl.replace(/\/+$/, ''));
  const health = (await control.call('GET', '/health')) as { providerPaths?: Record<string, string> };
  control.providerPaths = health.providerPaths ?? {};
  const info = (await control.call('GET', '/sessions/default')) as { id: string; apiKey: string };
  return {
    baseUrl: control.baseUrl,
    url: (provider: Provider = 'openai') => control.providerUrl(provider),
    async session(id?: string, options: Omit<SessionOptions, 'id'> = {}) {
      const created = (await control.call('POST', '/sessions', { ...options, ...(id !== undefined && { id }) })) as {
        id: string;
        apiKey: string;
      };
      return new RemoteSession(control, created.id, created.apiKey);
    },
    defaultSession: new RemoteSession(control, info.id, info.apiKey),
  };
}

export { ScenarioBuilder };

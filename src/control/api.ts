// The control API: JSON over HTTP under a prefix no provider uses. docs/control-api.yaml is its
// OpenAPI description; keep both in step.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseFixtureText, validateFixtureValue, type FixtureResult } from '../engine/fixture-file.js';
import type { ReplyLimits } from '../engine/reply-limits.js';
import type { Session, SessionRecording } from '../engine/session.js';
import type { FallbackMode } from '../engine/spec.js';
import type { ChaosOptions, StreamFlavour } from '../core/model.js';
import type { VerifyExpectations } from '../engine/verify.js';
import { jsonTooDeep, MAX_JSON_DEPTH, readBody } from '../transport/body.js';
import { CONTROL_PREFIX, decodedSegment, PROVIDER_PATHS, providerRoutes } from '../transport/routes.js';
import { pacingStats, resetPacingStats } from '../transport/scheduler.js';
import type { Registry } from '../engine/registry.js';
import { packageVersion } from '../core/package-info.js';
import type { LatenessStats } from '../transport/lateness.js';
import type { MetricsSnapshot, RequestMetrics } from '../transport/metrics.js';
import { entryView } from './entry-view.js';
import { feedAsk, serveFeed } from './live-feed.js';
import { EXPOSITION_TYPE, metricsText } from './metrics-exposition.js';
import { scriptGraph } from './script-graph.js';
import { serveUiAsset } from './ui-assets.js';

export { CONTROL_PREFIX };
const CONTROL_BODY_LIMIT = 32 * 1024 * 1024;

interface ControlError {
  status: number;
  code: string;
  message: string;
  problems?: unknown[];
}

class ControlFailure extends Error {
  constructor(readonly detail: ControlError) {
    super(detail.message);
  }
}

function fail(status: number, code: string, message: string, problems?: unknown[]): never {
  throw new ControlFailure({ status, code, message, problems });
}

interface ControlResult {
  status: number;
  value: unknown;
}

function reply(status: number, value: unknown): ControlResult {
  return { status, value };
}

function send(res: ServerResponse, { status, value }: ControlResult): void {
  if (status === 204) {
    res.writeHead(204);
    res.end();
    return;
  }
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(body);
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const YAML_TYPE = /^(?:application|text)\/(?:x-)?yaml\s*(?:;|$)/i;

/** Control mutations take JSON or YAML bodies only: a web page can send `text/plain` (or a form)
 * without a preflight, never `application/json`. A body-less POST may leave the type out. */
function bodyTypeRefusal(req: IncomingMessage, source: string): ControlError | undefined {
  const method = req.method ?? 'GET';
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return undefined;
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
    return {
      status: 415,
      code: 'unsupported_content_encoding',
      message: `${source}: send the body uncompressed (Content-Encoding "${encoding}")`,
    };
  }
  const type = req.headers['content-type'];
  const hasBody =
    req.headers['transfer-encoding'] !== undefined ||
    Number(req.headers['content-length'] ?? 0) > 0 ||
    // HTTP/2 frames a body without either header: its HEADERS frame says whether one follows.
    (req.httpVersionMajor === 2 && !(req as IncomingMessage & { stream?: { endAfterHeaders: boolean } }).stream?.endAfterHeaders);
  if (type === undefined ? !hasBody : JSON_TYPE.test(type) || YAML_TYPE.test(type)) return undefined;
  return {
    status: 415,
    code: 'unsupported_content_type',
    message: `${source}: send the body as application/json (or application/yaml); found ${type === undefined ? 'no Content-Type' : `"${type}"`}`,
  };
}

function isYamlBody(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  return type !== undefined && YAML_TYPE.test(type);
}

async function readText(req: IncomingMessage, source: string): Promise<string> {
  const body = await readBody(req, CONTROL_BODY_LIMIT);
  if (!body.ok) fail(body.reason === 'too_large' ? 413 : 400, 'bad_body', `${source}: the body could not be read (${body.reason})`);
  return body.text;
}

/** A fixture sent as the body: YAML bodies are read with line and column positions, as files are. */
async function readFixtureBody(req: IncomingMessage, source: string, limits: Partial<ReplyLimits>): Promise<FixtureResult> {
  if (!isYamlBody(req)) return validateFixtureValue(await readJson(req, source), source, limits);
  return parseFixtureText(await readText(req, source), source, limits);
}

async function readJson(req: IncomingMessage, source: string): Promise<unknown> {
  const text = await readText(req, source);
  if (text.trim() === '') return undefined;
  if (isYamlBody(req)) fail(415, 'unsupported_content_type', `${source}: send this body as application/json (YAML is taken for scripts)`);
  if (jsonTooDeep(text)) fail(400, 'json_too_deep', `${source}: the body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`);
  try {
    return JSON.parse(text);
  } catch (e) {
    fail(400, 'invalid_json', `${source}: the body is not valid JSON: ${(e as Error).message}`);
  }
}

function expectObject(value: unknown, source: string): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(400, 'invalid_body', `${source}: expected a JSON object`);
  }
  return value as Record<string, unknown>;
}

function sessionView(server: ControlledServer, session: Session) {
  return {
    ...session.info(),
    urls: Object.fromEntries(Object.keys(PROVIDER_PATHS).map((p) => [p, server.providerUrl(p)])),
    pathPrefixUrls: Object.fromEntries(Object.keys(PROVIDER_PATHS).map((p) => [p, server.providerUrl(p, session.id)])),
  };
}

const SESSION_FIELDS: Record<string, (v: unknown) => boolean> = {
  id: (v) => typeof v === 'string' && /^[A-Za-z0-9._-]{1,128}$/.test(v),
  apiKey: (v) => typeof v === 'string' && v.length > 0,
  fallback: (v) => v === 'strict' || v === 'auto',
  clock: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0,
  seed: (v) => typeof v === 'string',
  journalLimit: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0,
  journalBytes: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0,
  journalEntryBytes: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0,
  promptCache: (v) =>
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Object.entries(v).every(
      ([k, n]) =>
        ['minTokens', 'granularity', 'maxPrefixes'].includes(k) && Number.isInteger(n) && (n as number) >= (k === 'granularity' ? 1 : 0),
    ),
  requireApiKey: (v) => typeof v === 'boolean',
  streamFlavour: (v) => v === 'plain' || v === 'azure',
  models: (v) => Array.isArray(v) && v.every((m) => typeof m === 'string' && m !== ''),
  chaos: (v) => chaosProblem(v) === undefined,
  videoCapacity: (v) =>
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Object.entries(v).every(([k, n]) => (k === 'maxJobs' || k === 'maxBytes') && Number.isSafeInteger(n) && (n as number) >= 0),
  record: (v) =>
    v === false ||
    (typeof v === 'object' &&
      v !== null &&
      !Array.isArray(v) &&
      Object.entries(v).every(([k, x]) =>
        k === 'mode'
          ? x === 'missing' || x === 'all'
          : k === 'upstreams' &&
            typeof x === 'object' &&
            x !== null &&
            !Array.isArray(x) &&
            Object.values(x).every((url) => typeof url === 'string'),
      )),
  fixture: () => true,
};
const SESSION_EXPECT: Record<string, string> = {
  id: 'a string of 1-128 letters, digits, ".", "_" or "-"',
  apiKey: 'a non-empty string',
  fallback: '"strict" or "auto"',
  clock: 'an integer number of seconds since the epoch',
  seed: 'a string',
  journalLimit: 'an integer >= 0',
  journalBytes: 'an integer number of bytes >= 0',
  journalEntryBytes: 'an integer number of bytes >= 0',
  requireApiKey: 'true or false',
  streamFlavour: '"plain" or "azure"',
  models: 'a list of non-empty model names',
  chaos:
    'chaos options {status?, latencyMs?, jitterPct?, dropPct?, malformedPct?, trickleMs?, disconnectPct?, rateLimitAfter?, contentFilter?: [terms]}',
  promptCache: 'an object with integer minTokens (>= 0), granularity (>= 1) and maxPrefixes (>= 0)',
  videoCapacity: 'an object with integer maxJobs (>= 0) and maxBytes (>= 0)',
  record: 'false, or an object with mode ("missing" or "all") and upstreams (provider name to URL)',
};

const CHAOS_NUMBERS = ['status', 'latencyMs', 'jitterPct', 'dropPct', 'malformedPct', 'trickleMs', 'disconnectPct', 'rateLimitAfter'];

/** What is wrong with a chaos options object, or undefined when it is fine. */
function chaosProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'expected an object';
  for (const [key, v] of Object.entries(value)) {
    if (key === 'contentFilter') {
      if (!Array.isArray(v) || !v.every((t) => typeof t === 'string')) return '/contentFilter: expected a list of terms';
    } else if (CHAOS_NUMBERS.includes(key)) {
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) return `/${key}: expected a number >= 0, found ${JSON.stringify(v)}`;
      if (key.endsWith('Pct') && v > 100) return `/${key}: expected a percentage from 0 to 100, found ${v}`;
    } else return `/${key}: unknown field; expected one of ${[...CHAOS_NUMBERS, 'contentFilter'].join(', ')}`;
  }
  return undefined;
}

function checkExpectations(body: Record<string, unknown>, source: string): VerifyExpectations {
  for (const key of Object.keys(body)) {
    if (!['toolCalled', 'toolNotCalled', 'toolOrder', 'failOnNearMiss'].includes(key)) {
      fail(400, 'invalid_body', `${source}: /${key}: unknown field; expected toolCalled, toolNotCalled, toolOrder or failOnNearMiss`);
    }
  }
  if (body.failOnNearMiss !== undefined && typeof body.failOnNearMiss !== 'boolean') {
    fail(400, 'invalid_body', `${source}: /failOnNearMiss: expected a boolean, found ${JSON.stringify(body.failOnNearMiss)}`);
  }
  const names = (value: unknown, key: string) => {
    if (value !== undefined && (!Array.isArray(value) || !value.every((n) => typeof n === 'string'))) {
      fail(400, 'invalid_body', `${source}: /${key}: expected a list of tool names`);
    }
  };
  names(body.toolNotCalled, 'toolNotCalled');
  names(body.toolOrder, 'toolOrder');
  if (body.toolCalled !== undefined) {
    const shape = '{name: string, id?, arguments?, result?, times?: integer}, {preset: string, …} or a preset fixture {call, result, …}';
    if (!Array.isArray(body.toolCalled)) fail(400, 'invalid_body', `${source}: /toolCalled: expected a list of ${shape}`);
    body.toolCalled.forEach((item: unknown, i: number) => {
      if (!toolExpectationShape(item)) fail(400, 'invalid_body', `${source}: /toolCalled/${i}: expected ${shape}`);
    });
  }
  return body as VerifyExpectations;
}

const NAMED_KEYS = ['name', 'id', 'arguments', 'result', 'times'];
const PRESET_KEYS = ['preset', 'id', 'arguments', 'result', 'times'];
// A preset fixture as JSON.stringify sends it (src/presets/preset-tool.ts).
const FIXTURE_KEYS = ['kind', 'isError', 'definition', 'call', 'result', 'delayMs', 'times'];

/** A tool expectation verify() reads: by tool name, by preset, or a preset fixture. */
function toolExpectationShape(item: unknown): boolean {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return false;
  const x = item as Record<string, unknown>;
  if (x.times !== undefined && !Number.isInteger(x.times)) return false;
  const only = (keys: string[]) => Object.keys(x).every((k) => keys.includes(k));
  if (typeof x.name === 'string') return only(NAMED_KEYS);
  if (typeof x.preset === 'string') return only(PRESET_KEYS);
  const call = x.call as Record<string, unknown> | undefined;
  return typeof call === 'object' && call !== null && typeof call.name === 'string' && only(FIXTURE_KEYS);
}

/** Runs around every control request: `before` ahead of reading any state, `after` once a request
 * has run and before its answer is sent (a cluster owner syncs and replicates there). */
export interface ControlHooks {
  before(): Promise<void>;
  after(method: string): Promise<void>;
}

/** What the control API needs of the server it controls. */
export interface ControlledServer {
  readonly registry: Registry;
  /** What scripts loaded into its sessions are checked against. */
  readonly replyLimits: ReplyLimits;
  /** Base URL an SDK of this provider should be given (with a session's path prefix). */
  providerUrl(provider: string, session?: string): string;
  /** Under --workers, on the owner worker. */
  readonly owner?: OwnerControl;
  /** What /metrics reports; undefined when metrics are off. */
  readonly metrics?: RequestMetrics;
  /** Whether answers' bodies are kept in the journal (ServerOptions.journalBodies). */
  readonly journalBodies?: boolean;
}

/** A control answer written by its handler itself (an event stream, a dashboard file, metrics text). */
const WRITTEN: ControlResult = { status: 0, value: undefined };

/** Under --workers, what the control API asks of the owner (cluster/owner.ts). */
export interface OwnerControl {
  readonly hooks: ControlHooks;
  /** Paced-write lateness over every worker. */
  pacingStats(): LatenessStats;
  /** What each edge worker counted for the metrics, as of the last sync. */
  edgeMetrics(): MetricsSnapshot[];
  resetPacing(): Promise<void>;
  describe(): { index: number; workers: number; role: 'owner' };
}

export async function handleControl(
  server: ControlledServer,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query = '',
): Promise<void> {
  const owner = server.owner;
  const hooks = owner?.hooks;
  await hooks?.before();
  let result: ControlResult;
  const refused = bodyTypeRefusal(req, `control ${req.method ?? 'GET'} ${path}`);
  if (refused) {
    req.resume();
    send(res, reply(refused.status, { error: refused }));
    return;
  }
  try {
    result = await controlAnswer(server, req, res, path, query);
  } catch (error) {
    if (!(error instanceof ControlFailure)) throw error;
    req.resume();
    result = reply(error.detail.status, { error: error.detail });
  }
  await hooks?.after(req.method ?? 'GET');
  if (result !== WRITTEN) send(res, result);
}

async function controlAnswer(
  server: ControlledServer,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query: string,
): Promise<ControlResult> {
  const owner = server.owner;
  const method = req.method ?? 'GET';
  const source = `control ${method} ${path}`;
  const rest = path
    .slice(CONTROL_PREFIX.length)
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const decoded = decodedSegment(segment);
      if (decoded === undefined) fail(400, 'invalid_path', `${source}: the path segment "${segment}" is not valid percent-encoding`);
      return decoded;
    });
  if (rest.length === 1 && rest[0] === 'health') {
    if (method !== 'GET') fail(405, 'method_not_allowed', `${source}: use GET`);
    return reply(200, {
      ok: true,
      version: packageVersion(),
      sessions: server.registry.list().length,
      routes: providerRoutes(),
      providerPaths: PROVIDER_PATHS,
      pacing: owner ? owner.pacingStats() : pacingStats(),
      ...(owner && { workers: owner.describe() }),
    });
  }
  if (rest[0] === 'ui') {
    if (rest.length === 1 && !path.endsWith('/')) {
      if (method !== 'GET' && method !== 'HEAD') fail(405, 'method_not_allowed', `${source}: use GET`);
      req.resume();
      res.writeHead(301, { location: `${CONTROL_PREFIX}/ui/` }).end();
      return WRITTEN;
    }
    serveUiAsset(req, res, rest.slice(1));
    return WRITTEN;
  }
  if (rest.length === 1 && rest[0] === 'metrics') {
    if (method !== 'GET') fail(405, 'method_not_allowed', `${source}: use GET`);
    if (!server.metrics) fail(404, 'metrics_disabled', `${source}: metrics are off (the server was started with --no-metrics)`);
    const text = metricsText(server.metrics, owner?.edgeMetrics() ?? [], server.registry, owner ? owner.pacingStats() : pacingStats());
    res.writeHead(200, { 'content-type': EXPOSITION_TYPE, 'cache-control': 'no-cache' }).end(text);
    return WRITTEN;
  }
  if (rest.length === 1 && rest[0] === 'events') {
    if (method !== 'GET') fail(405, 'method_not_allowed', `${source}: use GET`);
    const ask = feedAsk(new URLSearchParams(query));
    if (typeof ask === 'string') fail(400, 'invalid_query', `${source}: ${ask}`);
    if (ask.session !== undefined && !server.registry.get(ask.session)) {
      fail(404, 'session_not_found', `${source}: session "${ask.session}" does not exist`);
    }
    serveFeed(server.registry, req, res, ask);
    return WRITTEN;
  }
  if (rest.length === 2 && rest[0] === 'pacing' && rest[1] === 'reset') {
    if (method !== 'POST') fail(405, 'method_not_allowed', `${source}: use POST`);
    if (owner) {
      await owner.resetPacing();
      return reply(200, { pacing: owner.pacingStats() });
    }
    resetPacingStats();
    return reply(200, { pacing: pacingStats() });
  }
  if (rest[0] !== 'sessions') fail(404, 'not_found', `${source}: unknown control path; see docs/control-api.yaml`);

  if (rest.length === 1) {
    if (method === 'GET') {
      return reply(200, { sessions: server.registry.list().map((s) => sessionView(server, s)) });
    }
    if (method !== 'POST') fail(405, 'method_not_allowed', `${source}: use GET or POST`);
    const body = expectObject(await readJson(req, source), source);
    for (const [key, value] of Object.entries(body)) {
      const check = SESSION_FIELDS[key];
      if (!check) fail(400, 'invalid_body', `${source}: /${key}: unknown field; expected one of ${Object.keys(SESSION_FIELDS).join(', ')}`);
      if (!check(value)) fail(400, 'invalid_body', `${source}: /${key}: expected ${SESSION_EXPECT[key]}, found ${JSON.stringify(value)}`);
    }
    let fixture;
    if (body.fixture !== undefined) {
      const checked = validateFixtureValue(body.fixture, source, server.replyLimits);
      if (!checked.ok) {
        // Problem paths point into the request body, where the fixture sits under /fixture.
        const problems = checked.problems.map((p) =>
          p.path.startsWith('/') ? { ...p, path: `/fixture${p.path === '/' ? '' : p.path}` } : p,
        );
        fail(400, 'invalid_fixture', `${source}: the fixture is invalid`, problems);
      }
      fixture = checked.fixture;
    }
    let session: Session;
    try {
      session = server.registry.create({
        id: body.id as string | undefined,
        apiKey: body.apiKey as string | undefined,
        fallback: body.fallback as FallbackMode | undefined,
        clock: body.clock as number | undefined,
        seed: body.seed as string | undefined,
        journalLimit: body.journalLimit as number | undefined,
        journalBytes: body.journalBytes as number | undefined,
        journalEntryBytes: body.journalEntryBytes as number | undefined,
        promptCache: body.promptCache as Record<string, number> | undefined,
        requireApiKey: body.requireApiKey as boolean | undefined,
        streamFlavour: body.streamFlavour as StreamFlavour | undefined,
        models: body.models as string[] | undefined,
        chaos: body.chaos as ChaosOptions | undefined,
        videoCapacity: body.videoCapacity as { maxJobs?: number; maxBytes?: number } | undefined,
        record: body.record as SessionRecording | false | undefined,
      });
    } catch (e) {
      fail(409, 'session_conflict', `${source}: ${(e as Error).message}`);
    }
    if (fixture) session.load(fixture);
    return reply(201, sessionView(server, session));
  }

  const session = server.registry.get(rest[1]);
  if (!session) fail(404, 'session_not_found', `${source}: session "${rest[1]}" does not exist`);

  if (rest.length === 2) {
    if (method === 'GET') return reply(200, sessionView(server, session));
    if (method === 'DELETE') {
      if (!server.registry.delete(session.id))
        fail(400, 'cannot_delete', `${source}: the default session cannot be deleted; reset it instead`);
      return reply(204, null);
    }
    fail(405, 'method_not_allowed', `${source}: use GET or DELETE`);
  }

  const action = rest[2];
  if (rest.length === 4 && action === 'journal') {
    if (method !== 'GET') fail(405, 'method_not_allowed', `${source}: use GET`);
    const seq = /^[1-9]\d{0,15}$/.test(rest[3]) ? Number(rest[3]) : NaN;
    if (Number.isNaN(seq))
      fail(400, 'invalid_path', `${source}: expected an entry's sequence number (an integer >= 1), found "${rest[3]}"`);
    const view = entryView(session.journal, seq, server.journalBodies === true);
    if (!view) fail(404, 'entry_not_found', `${source}: the journal keeps no entry ${seq} (evicted, reset, or not yet made)`);
    return reply(200, view);
  }
  if (rest.length !== 3) fail(404, 'not_found', `${source}: unknown control path`);
  switch (action) {
    case 'scripts': {
      if (method === 'GET') return reply(200, scriptGraph(session.scripts));
      if (method !== 'POST' && method !== 'PUT')
        fail(405, 'method_not_allowed', `${source}: use GET (the graph), POST (add) or PUT (replace all)`);
      const checked = await readFixtureBody(req, source, server.replyLimits);
      if (!checked.ok) fail(400, 'invalid_fixture', `${source}: the fixture is invalid`, checked.problems);
      try {
        session.load(checked.fixture, method === 'PUT');
      } catch (e) {
        fail(400, 'invalid_fixture', `${source}: ${(e as Error).message}`);
      }
      return reply(200, sessionView(server, session));
    }
    case 'reset': {
      if (method !== 'POST') fail(405, 'method_not_allowed', `${source}: use POST`);
      const body = expectObject(await readJson(req, source), source);
      for (const key of Object.keys(body)) {
        if (key !== 'scripts') fail(400, 'invalid_body', `${source}: /${key}: unknown field; expected "scripts"`);
      }
      if (body.scripts !== undefined && typeof body.scripts !== 'boolean') {
        fail(400, 'invalid_body', `${source}: /scripts: expected a boolean, found ${JSON.stringify(body.scripts)}`);
      }
      session.reset({ scripts: body.scripts === true });
      return reply(200, sessionView(server, session));
    }
    case 'chaos': {
      if (method !== 'PUT' && method !== 'DELETE') fail(405, 'method_not_allowed', `${source}: use PUT (set) or DELETE (clear)`);
      if (method === 'DELETE') {
        session.chaos = undefined;
        return reply(200, { chaos: null });
      }
      const body = await readJson(req, source);
      const problem = chaosProblem(body);
      if (problem) fail(400, 'invalid_body', `${source}: ${problem}`);
      session.chaos = body as ChaosOptions;
      return reply(200, { chaos: session.chaos });
    }
    case 'clock': {
      if (method !== 'POST') fail(405, 'method_not_allowed', `${source}: use POST`);
      const body = expectObject(await readJson(req, source), source);
      const keys = Object.keys(body);
      if (keys.length !== 1 || (keys[0] !== 'advance' && keys[0] !== 'set')) {
        fail(400, 'invalid_body', `${source}: expected exactly one of "advance" (seconds to add) or "set" (seconds since the epoch)`);
      }
      const seconds = body[keys[0]];
      if (!Number.isSafeInteger(seconds) || (seconds as number) < 0) {
        fail(400, 'invalid_body', `${source}: /${keys[0]}: expected an integer number of seconds >= 0, found ${JSON.stringify(seconds)}`);
      }
      session.clock = keys[0] === 'set' ? (seconds as number) : session.clock + (seconds as number);
      return reply(200, { clock: session.clock });
    }
    case 'journal':
      if (method !== 'GET') fail(405, 'method_not_allowed', `${source}: use GET`);
      return reply(200, session.journal.snapshot());
    case 'verify': {
      if (method !== 'POST' && method !== 'GET') fail(405, 'method_not_allowed', `${source}: use POST`);
      const body = method === 'POST' ? expectObject(await readJson(req, source), source) : {};
      const expectations = checkExpectations(body, source);
      // The verifier is loaded by the first verify request, not with the server.
      const { verifySession } = await import('../engine/verify.js');
      return reply(200, verifySession(session, expectations));
    }
    default:
      fail(404, 'not_found', `${source}: unknown control path; expected scripts, reset, clock, chaos, journal or verify`);
  }
}

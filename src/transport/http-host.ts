// The HTTP host: listens, answers what comes before or outside a route (CORS, a missing Host, the
// control API's access rules), matches the route and the session, and hands provider requests to
// the pipeline (provider-pipeline.ts). The control API and the worker roles are given to it by the
// server that assembles it (src/server/understudy-server.ts), so this folder imports neither.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { invalidRequest, type NeutralError } from '../core/errors.js';
import { loadTokenizer } from '../core/tokens.js';
import { combinedFixtures } from '../engine/combined-fixtures.js';
import { Registry } from '../engine/registry.js';
import { replyLimits, type ReplyLimits } from '../engine/reply-limits.js';
import type { Session, SessionOptions } from '../engine/session.js';
import type { FixtureSpec } from '../engine/spec.js';
import {
  applyCors,
  browserRefusal,
  controlRefusal,
  controlTokenFrom,
  isLoopbackHost,
  requestApiKey,
  tokenMatches,
  type AccessRules,
} from './access.js';
import { DEFAULT_BODY_LIMIT } from './body.js';
import { chaosFor } from './chaos.js';
import type { ClusterSide, EdgeSide } from './cluster-side.js';
import { Delivery } from './delivery.js';
import { answerOutsideRoutes, answerSilentConnection, errorShapeFor, sendControlError, serverTimeouts } from './front-door.js';
import { Http2Side } from './http2-side.js';
import { RequestMetrics } from './metrics.js';
import { Outcomes } from './outcomes.js';
import { Recorder, sessionStart, type RecordOptions } from './recorder.js';
import { splitProtocols } from './protocol-split.js';
import { EMPTY_QUERY, ProviderPipeline } from './provider-pipeline.js';
import { requestLogger, type RequestLogFormat, type RequestLogOptions } from './request-log.js';
import { CONTROL_PREFIX, dialectOf, isControlPath, matchRoute, PROVIDER_PATHS, type RouteResult } from './routes.js';

export interface ServerOptions {
  host?: string;
  port?: number;
  /** Largest request body accepted, in bytes. */
  bodyLimit?: number;
  /** Options of the default session (the one requests without a known session use). */
  defaultSession?: Omit<SessionOptions, 'id'>;
  /** Fixtures loaded into the default session. */
  fixtures?: FixtureSpec[];
  /** Required on control requests (`Authorization: Bearer` or `x-understudy-control-token`);
   * mandatory when `host` is not a loopback address. */
  controlToken?: string;
  /** Browser origins allowed to call the server (CORS is off when empty); requests carrying any
   * other `Origin` are refused (docs/security.md). */
  corsOrigins?: string[];
  /** Host names besides loopback ones that the control API answers to when no control token is
   * set (e.g. a container's service name). */
  allowedHosts?: string[];
  /** Longest wait for a request's headers, in ms (default 10 s); slower clients get a 408. */
  headersTimeoutMs?: number;
  /** Longest wait for a whole request, headers and body, in ms (default 60 s). */
  requestTimeoutMs?: number;
  /** Longest a client may stop reading a large or paced answer before it is disconnected, in ms
   * (default 60 s); its step is released, not consumed. */
  stalledReaderMs?: number;
  /** Set in the worker processes of `understudy serve --workers N` (docs/workers.md). */
  cluster?: { index: number; workers: number };
  /** Largest scripted reply accepted when a script is loaded, in UTF-8 bytes (docs/fixtures.md "Limits"). */
  maxReplyBytes?: number;
  /** Most entries of a reply's scripted `chunks` list (docs/fixtures.md "Limits"). */
  maxStreamChunks?: number;
  /** A line per request as it ends (`understudy serve` logs text unless `--quiet`); off by
   * default in process. `'text'` or `'json'` to standard output, or `{format, write}`. */
  requestLog?: RequestLogFormat | RequestLogOptions;
  /** Record mode: what no script answers goes to the real provider and is written down as a
   * script (docs/record-replay.md). Not under `cluster`. In mode `missing` each session starts
   * with its recordings, as with `replay`. */
  record?: RecordOptions;
  /** Prometheus metrics at `/_understudy/metrics` (default true; docs/dashboard.md#metrics). */
  metrics?: boolean;
  /** Most distinct session label values the metrics use; further sessions are counted as `_other`
   * (default 100). */
  metricsSessions?: number;
  /** Keep each answer's body in the journal, for the dashboard's and `GET …/journal/SEQ`'s
   * `wire.response` (default false: only request bodies are kept). */
  journalBodies?: boolean;
  /** A directory of recordings: each session starts with its own (`DIR/<session>.yaml` and the
   * files under `DIR/<session>/`), the default session with `DIR/default.yaml`. */
  replay?: string;
}

/** What the assembling server gives the host. */
export interface HostParts {
  /** Answers a control-API request once its access and token checks passed. */
  control(host: HttpHost, req: IncomingMessage, res: ServerResponse, path: string, query: string): Promise<void> | undefined;
  /** Under --workers: this worker's role, made with the host's registry. */
  cluster?: (registry: Registry) => ClusterSide;
}

export class HttpHost {
  readonly registry: Registry;
  readonly http: Server;
  /** Serves the connections that open with the HTTP/2 preface (the http server accepts them all). */
  readonly http2: Http2Side;
  /** Connections whose protocol is not known yet (protocol-split.ts). */
  private readonly undecided: Set<Socket>;
  /** What scripts loaded into this server's sessions are checked against. */
  readonly replyLimits: ReplyLimits;
  /** Under --workers: the owner of every session's state, or an edge that forwards to it. */
  readonly cluster: ClusterSide | undefined;
  private address: AddressInfo | undefined;
  /** Counts requests that belong to no session, for their request ids. */
  private orphanRequests = 0;
  /** Which web pages and Host names may reach the server (access.ts). */
  private readonly access: AccessRules;
  private readonly outcomes: Outcomes;
  /** What /_understudy/metrics reports; undefined when metrics are off. */
  readonly metrics: RequestMetrics | undefined;
  private readonly pipeline: ProviderPipeline;
  private readonly edge: EdgeSide | undefined;
  private readonly onRequest: (req: IncomingMessage, res: ServerResponse) => void;

  constructor(
    readonly options: ServerOptions,
    private readonly parts: HostParts,
  ) {
    const cluster = options.cluster;
    // An edge's sessions draw ids from their own sequence, so ids stay unique across workers.
    const seed = cluster && cluster.index > 0 ? { seed: `${options.defaultSession?.seed ?? 'default'}@${cluster.index}` } : {};
    this.replyLimits = replyLimits({ replyBytes: options.maxReplyBytes, streamChunks: options.maxStreamChunks });
    const start = sessionStart(options, this.replyLimits);
    this.registry = new Registry({ ...options.defaultSession, ...seed }, undefined, start.prepare);
    const defaultRecordings = start.recordingsOf(this.registry.defaultSession.id);
    const startFixture = combinedFixtures([...(options.fixtures ?? []), ...(defaultRecordings ? [defaultRecordings] : [])]);
    if (startFixture) this.registry.defaultSession.load(startFixture);
    this.access = {
      corsOrigins: options.corsOrigins ?? [],
      allowedHosts: (options.allowedHosts ?? []).map((name) => name.toLowerCase()),
      tokenSet: options.controlToken !== undefined,
    };
    this.cluster = parts.cluster?.(this.registry);
    this.edge = this.cluster?.kind === 'edge' ? this.cluster : undefined;
    this.metrics = options.metrics === false ? undefined : new RequestMetrics(options.metricsSessions);
    const metrics = this.metrics;
    if (metrics) this.registry.onDelete.push((id) => metrics.forget(id));
    this.outcomes = new Outcomes(this.cluster, requestLogger(options.requestLog), this.metrics, options.journalBodies === true);
    const internalError = (req: IncomingMessage, res: ServerResponse, error: unknown, requestId?: string) =>
      this.internalError(req, res, error, requestId);
    this.pipeline = new ProviderPipeline({
      bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
      outcomes: this.outcomes,
      delivery: new Delivery(this.outcomes, options.stalledReaderMs, this.recorderOf(options)),
      edge: this.edge,
      internalError,
      stalledReaderMs: options.stalledReaderMs,
    });
    this.onRequest = (req, res) => {
      try {
        this.handle(req, res)?.catch((error: unknown) => this.internalError(req, res, error));
      } catch (error) {
        this.internalError(req, res, error);
      }
    };
    const timeouts = serverTimeouts(options);
    this.http = createServer({ ...timeouts, requireHostHeader: false }, this.onRequest);
    this.http2 = new Http2Side({
      onRequest: this.onRequest,
      refuse: (req, res, error) => {
        const path = (req.url ?? '/').split('?')[0];
        this.outcomes.sendError(res, errorShapeFor(req.method ?? 'GET', path), error, this.orphanRequestId());
      },
      requestTimeoutMs: timeouts.requestTimeout,
      idleTimeoutMs: timeouts.keepAliveTimeout,
    });
    this.undecided = splitProtocols(this.http, this.http2.server, {
      firstBytesMs: timeouts.headersTimeout,
      silent: (socket) => answerSilentConnection(socket, this.orphanRequestId()),
    });
    answerOutsideRoutes(this.http, this.http2.server, () => this.orphanRequestId());
  }

  private recorderOf(options: ServerOptions): Recorder | undefined {
    if (!options.record) return undefined;
    if (options.cluster) throw new Error('record mode runs in one process: it cannot be used with --workers');
    return new Recorder(options.record, this.outcomes);
  }

  async listen(): Promise<{ host: string; port: number; url: string }> {
    const host = this.options.host ?? '127.0.0.1';
    if (!isLoopbackHost(host) && !this.options.controlToken) {
      throw new Error(
        `binding to ${host} exposes the control API beyond this machine: set a control token (--control-token or UNDERSTUDY_CONTROL_TOKEN)`,
      );
    }
    // Before listening: a missing token table must fail start-up, not leave a server half up.
    await loadTokenizer();
    if (this.cluster?.kind === 'edge') await this.cluster.started;
    // A deep accept queue: load tests open hundreds of connections at once, and an overflowing
    // queue turns into connection resets on the client's side.
    await listenOn(this.http, { port: this.options.port ?? 0, host, backlog: LISTEN_BACKLOG });
    if (this.cluster?.kind === 'owner') await this.cluster.listenPrivate(this.onRequest);
    this.address = this.http.address() as AddressInfo;
    return { host: this.address.address, port: this.address.port, url: this.baseUrl };
  }

  get baseUrl(): string {
    if (!this.address) throw new Error('server is not listening');
    const host = this.address.family === 'IPv6' ? `[${this.address.address}]` : this.address.address;
    return `http://${host}:${this.address.port}`;
  }

  /** Base URL an SDK of this provider should be given. */
  providerUrl(provider: string, session?: string): string {
    const path = PROVIDER_PATHS[provider];
    if (path === undefined) throw new Error(`unknown provider "${provider}"; known: ${Object.keys(PROVIDER_PATHS).join(', ')}`);
    return `${this.baseUrl}${session ? `/s/${encodeURIComponent(session)}` : ''}${path}`;
  }

  /** Stops accepting connections; responses in flight get up to `graceMs` to finish (default
   * 0: end everything now, as a test teardown wants), then every connection is closed. Busy
   * connections are found by closing idle ones until none is left, so requests pay nothing;
   * HTTP/2 sessions are sent GOAWAY and end once their streams have. */
  async close(options: { graceMs?: number } = {}): Promise<void> {
    if (this.cluster?.kind === 'edge') await this.cluster.close();
    if (this.cluster?.kind === 'owner') this.cluster.closePrivate();
    const closed = new Promise<void>((resolve) => this.http.close(() => resolve()));
    this.registry.feed.close();
    const deadline = Date.now() + (options.graceMs ?? 0);
    for (const socket of this.undecided) socket.destroy();
    this.http2.closeSessions(deadline <= Date.now());
    for (;;) {
      this.http.closeIdleConnections();
      const open = await new Promise<number>((resolve) => this.http.getConnections((_error, count) => resolve(count)));
      if (open === 0 || Date.now() >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    this.http.closeAllConnections();
    this.http2.closeSessions(true);
    await closed;
  }

  private handle(req: IncomingMessage, res: ServerResponse): Promise<void> | undefined {
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    if (this.options.corsOrigins?.length && applyCors(req, res, this.options.corsOrigins)) return;
    // HTTP/1.0 may leave Host out; HTTP/1.1 and HTTP/2 (as :authority, http2-side.ts) may not.
    if (req.headers.host === undefined && (req.httpVersionMinor === 1 || req.httpVersionMajor === 2)) {
      req.resume();
      const message =
        req.httpVersionMajor === 2
          ? 'An HTTP/2 request must carry :authority (or a Host header).'
          : 'An HTTP/1.1 request must carry a Host header.';
      const error = invalidRequest(message, null, 'missing_host');
      this.outcomes.sendError(res, errorShapeFor(req.method ?? 'GET', path), error, this.orphanRequestId());
      return undefined;
    }
    if (isControlPath(path)) return this.handleControl(req, res, path, queryAt < 0 ? '' : url.slice(queryAt + 1));

    const route = matchRoute(req.method ?? 'GET', path);
    if (req.headers.origin !== undefined) {
      const refused = browserRefusal(req, this.access);
      if (refused) {
        req.resume();
        const error: NeutralError = { kind: 'unauthorized', ...refused };
        this.outcomes.sendError(res, dialectOf(route), error, this.orphanRequestId());
        return undefined;
      }
    }
    if ('badPath' in route) {
      req.resume();
      const error = invalidRequest(`Invalid URL (${req.method} ${path}): ${route.badPath}.`, null, 'invalid_url');
      this.outcomes.sendError(res, route.dialect, error, this.orphanRequestId());
      return undefined;
    }
    const session = this.findSession(req, url, queryAt, route.sessionId);
    const queryText = queryAt < 0 ? '' : url.slice(queryAt + 1);
    if (this.edge && !this.edgeAnswers(req, route, session, queryText)) {
      this.edge.forward(req, res);
      return undefined;
    }
    const requestId = session ? session.nextRequestId() : this.orphanRequestId();
    try {
      this.pipeline.handle(req, res, { path, queryText, route, session, requestId, idNumber: session?.lastIdNumber ?? -1 });
    } catch (error) {
      this.internalError(req, res, error, requestId);
    }
    return undefined;
  }

  private handleControl(req: IncomingMessage, res: ServerResponse, path: string, query: string): Promise<void> | undefined {
    const refused = controlRefusal(req, this.access);
    if (refused) {
      req.resume();
      sendControlError(res, refused);
      return;
    }
    if (this.edge) {
      this.edge.forward(req, res);
      return undefined;
    }
    const token = this.options.controlToken;
    if (token !== undefined && !isDashboardFile(path) && !tokenMatches(controlTokenFrom(req), token)) {
      req.resume();
      res.setHeader('www-authenticate', 'Bearer');
      sendControlError(res, {
        status: 401,
        code: 'control_token_required',
        message: 'the control API needs the control token (Authorization: Bearer <token> or x-understudy-control-token)',
      });
      return;
    }
    return this.parts.control(this, req, res, path, query);
  }

  /** Whether this edge worker answers the request itself (see cluster/replica.ts). */
  private edgeAnswers(req: IncomingMessage, route: RouteResult, session: Session | undefined, queryText: string): boolean {
    if ('badPath' in route || ('notFound' in route && !route.info)) return true;
    // An info route answers from the session's scripts on any worker that has them; one that
    // reads or changes the session's store, where the store lives (the owner).
    if ('notFound' in route) return session !== undefined && route.info?.stateful !== true && this.edge?.answers(session) === true;
    if (!session || !this.edge?.answers(session) || route.operation.dialect.statefulDecode) return false;
    return !chaosFor(session.chaos, req, queryText ? new URLSearchParams(queryText) : EMPTY_QUERY);
  }

  /** An id for a request that belongs to no session. */
  private orphanRequestId(): string {
    return `req_server-${++this.orphanRequests}`;
  }

  /** A failure of Understudy itself, answered in the shape of the route's provider (or of the
   * control API) so that the client's SDK reports it as a server error, not a parse failure. */
  private internalError(req: IncomingMessage, res: ServerResponse, error: unknown, requestId = this.orphanRequestId()): void {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const message = `Understudy internal error: ${error instanceof Error ? error.message : String(error)}`;
    const path = (req.url ?? '/').split('?')[0];
    this.outcomes.sendError(
      res,
      errorShapeFor(req.method ?? 'GET', path),
      { kind: 'internal', status: 500, code: 'understudy_internal', message },
      requestId,
    );
  }

  private findSession(req: IncomingMessage, url: string, queryAt: number, prefixId: string | undefined): Session | undefined {
    const named = prefixId ?? (req.headers['x-understudy-session'] as string | undefined);
    if (named !== undefined) return this.registry.get(named);
    const key = requestApiKey(req, url, queryAt);
    return (key !== undefined ? this.registry.byApiKey(key) : undefined) ?? this.registry.defaultSession;
  }
}

/** The dashboard's files carry no data: a browser loads them without the control token, which
 * the page then sends with each data call. */
function isDashboardFile(path: string): boolean {
  return path === DASHBOARD_PATH || path.startsWith(`${DASHBOARD_PATH}/`);
}
const DASHBOARD_PATH = `${CONTROL_PREFIX}/ui`;

/** Capped by the kernel (net.core.somaxconn). */
const LISTEN_BACKLOG = 4096;

export function listenOn(server: Server, options: { port: number; host: string; exclusive?: boolean; backlog?: number }): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

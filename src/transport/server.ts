// The HTTP front door: routes a request, finds its session, decodes it with its dialect, asks the
// engine for an answer, writes it, and commits the reserved step once the bytes were delivered.

import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { invalidRequest, isNeutralError, understudyConflict, type NeutralError } from '../core/errors.js';
import type { ChatRequest, Pacing, StreamFault, Usage } from '../core/model.js';
import { latestUserText } from '../core/conversation.js';
import { fnv1a } from '../core/fnv.js';
import { countInputTokens } from '../core/tokens.js';
import { loadTokenizer } from '../core/tokens.js';
import { handleControl, CONTROL_PREFIX } from '../control/api.js';
import {
  arraySource,
  type ChatDialect,
  type DialectEncodeContext,
  type DialectState,
  type Flushable,
  type EventSource,
  type AnswerBytes,
  type StreamBody,
  type StreamEncoding,
  type WireContext,
} from '../dialects/dialect.js';
import { answerRequest, type Answer } from '../engine/exchange.js';
import { ABORTED_STATUS, newRecord, type JournalRecord } from '../engine/journal.js';
import { flattened } from '../engine/ids.js';
import { Registry } from '../engine/registry.js';
import { replyLimits, type ReplyLimits } from '../engine/reply-limits.js';
import type { Session, SessionOptions } from '../engine/session.js';
import type { FixtureSpec } from '../engine/spec.js';
import { applyCors, browserRefusal, controlRefusal, controlTokenFrom, isLoopbackHost, tokenMatches, type AccessRules } from './access.js';
import { writePlanned } from './paced-writer.js';
import { writeStreamed } from './stream-writer.js';
import { closedAsStalled, DEFAULT_STALLED_READER_MS } from './stalled-reader.js';
import { chaosFor, decideChaos, type ChaosDecision, type ChaosOptions } from './chaos.js';
import { DEFAULT_BODY_LIMIT, jsonTooDeep, MAX_JSON_DEPTH, readBody, readBodyThen, type BodyResult } from './body.js';
import { DecodeMemo } from './decode-memo.js';
import { countInSlices, holdsText, nextTurn, SLICED_COUNT_CHARS } from './count-in-slices.js';
import { EdgeLink } from '../cluster/edge.js';
import { OwnerLink } from '../cluster/owner.js';
import { RECORDS_PATH } from '../cluster/protocol.js';
import type { PortableRecord, SessionBatch } from '../cluster/records.js';
import { answerOutsideRoutes, errorShapeFor, sendControlError, serverTimeouts, type ErrorShape } from './front-door.js';
import { dialectOf, matchRoute, operationById, PROVIDER_PATHS, type RouteResult } from './routes.js';

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
}

/** One provider request on its way through the server, once its body is decoded. */
interface Exchange {
  session: Session;
  dialect: ChatDialect;
  request: ChatRequest;
  res: ServerResponse;
  entry: JournalRecord;
  wire: WireContext;
}

/** Templated bodies up to this size are written as strings (see deliver); node:http writes a string
 * of up to 16 KB, header included, from the stack straight to the socket. */
const SMALL_BODY = 8 * 1024;
/** What parse() returns for a body it refused (and answered). */
const UNPARSED = Symbol('unparsed');
/** What a body handed over as a copy tells its template: sent, the buffer free again. */
const COPIED: Flushable = { writableFinished: true, destroyed: false };

export class UnderstudyServer {
  readonly registry: Registry;
  readonly http: Server;
  /** What scripts loaded into this server's sessions are checked against. */
  readonly replyLimits: ReplyLimits;
  private readonly bodyLimit: number;
  private address: AddressInfo | undefined;
  /** Counts requests that belong to no session, for their request ids. */
  private orphanRequests = 0;
  /** The last route label and decode context made, reused while requests repeat them so that
   * journal entries share them (see Journal). */
  private lastRoute = { method: '', path: '', label: '' };
  /** The last content type found to be JSON (checked once, not per request). */
  private lastJsonType = 'application/json';
  private lastDecodeContext: { context: WireContext; queryText: string; state: DialectState; zeroConfig: boolean } | undefined;
  private readonly decodeMemo = new DecodeMemo();
  /** Which web pages and Host names may reach the server (access.ts). */
  private readonly access: AccessRules;
  /** Under --workers: the owner of every session's state, or an edge that forwards to it. */
  readonly cluster: OwnerLink | EdgeLink | undefined;
  /** The owner's loopback-only server for requests and records from edges. */
  private privateHttp: Server | undefined;
  private privatePort = 0;

  constructor(readonly options: ServerOptions = {}) {
    const cluster = options.cluster;
    // An edge's sessions draw ids from their own sequence, so ids stay unique across workers.
    const seed = cluster && cluster.index > 0 ? { seed: `${options.defaultSession?.seed ?? 'default'}@${cluster.index}` } : {};
    this.replyLimits = replyLimits({ replyBytes: options.maxReplyBytes, streamChunks: options.maxStreamChunks });
    this.registry = new Registry({ ...options.defaultSession, ...seed });
    for (const fixture of options.fixtures ?? []) this.registry.defaultSession.load(fixture);
    this.bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
    this.access = {
      corsOrigins: options.corsOrigins ?? [],
      allowedHosts: (options.allowedHosts ?? []).map((name) => name.toLowerCase()),
      tokenSet: options.controlToken !== undefined,
    };
    const onRequest = (req: IncomingMessage, res: ServerResponse) => {
      try {
        this.handle(req, res)?.catch((error: unknown) => this.internalError(req, res, error));
      } catch (error) {
        this.internalError(req, res, error);
      }
    };
    this.http = createServer({ ...serverTimeouts(options), requireHostHeader: false }, onRequest);
    answerOutsideRoutes(this.http, () => this.orphanRequestId());
    if (cluster?.index === 0) {
      this.cluster = new OwnerLink(0, cluster.workers, this.registry, remoteJournalDecoder);
      this.privateHttp = createServer({ keepAliveTimeout: 65_000 }, onRequest);
    } else if (cluster) {
      this.cluster = new EdgeLink(cluster.index, cluster.workers, this.registry, options.controlToken);
    }
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
    if (this.cluster?.kind === 'owner' && this.privateHttp) {
      // Exclusive: this port is the owner's own, not shared with the workers like the public one.
      await listenOn(this.privateHttp, { port: 0, host: '127.0.0.1', exclusive: true });
      this.privatePort = (this.privateHttp.address() as AddressInfo).port;
      this.cluster.ready(this.privatePort);
    }
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
   * connections are found by closing idle ones until none is left, so requests pay nothing. */
  async close(options: { graceMs?: number } = {}): Promise<void> {
    if (this.cluster?.kind === 'edge') await this.cluster.close();
    if (this.privateHttp?.listening) {
      this.privateHttp.closeAllConnections();
      this.privateHttp.close();
    }
    const closed = new Promise<void>((resolve) => this.http.close(() => resolve()));
    const deadline = Date.now() + (options.graceMs ?? 0);
    for (;;) {
      this.http.closeIdleConnections();
      const open = await new Promise<number>((resolve) => this.http.getConnections((_error, count) => resolve(count)));
      if (open === 0 || Date.now() >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    this.http.closeAllConnections();
    await closed;
  }

  // Provider requests run synchronously from the body's last byte to the response unless they must
  // wait (a delay, pacing, a chaos delay): no promise or microtask hop on the common path.
  private handle(req: IncomingMessage, res: ServerResponse): Promise<void> | undefined {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (this.options.corsOrigins?.length && applyCors(req, res, this.options.corsOrigins)) return;
    if (req.headers.host === undefined && req.httpVersionMinor === 1) {
      req.resume();
      const error = invalidRequest('An HTTP/1.1 request must carry a Host header.', null, 'missing_host');
      this.sendError(res, errorShapeFor(req.method ?? 'GET', path), error, this.orphanRequestId());
      return undefined;
    }
    if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) {
      const refused = controlRefusal(req, this.access);
      if (refused) {
        req.resume();
        sendControlError(res, refused);
        return;
      }
      if (this.cluster?.kind === 'edge') {
        this.cluster.forward(req, res);
        return undefined;
      }
      const token = this.options.controlToken;
      if (token !== undefined && !tokenMatches(controlTokenFrom(req), token)) {
        req.resume();
        res.setHeader('www-authenticate', 'Bearer');
        sendControlError(res, {
          status: 401,
          code: 'control_token_required',
          message: 'the control API needs the control token (Authorization: Bearer <token> or x-understudy-control-token)',
        });
        return;
      }
      // Edges deliver what they answered here, on the owner's private port only, behind the same token.
      if (path === RECORDS_PATH && this.cluster?.kind === 'owner' && req.socket.localPort === this.privatePort) {
        return this.acceptRecords(this.cluster, req, res);
      }
      return handleControl(
        this,
        req,
        res,
        path,
        q < 0 ? '' : url.slice(q + 1),
        this.cluster?.kind === 'owner' ? this.cluster.hooks : undefined,
      );
    }

    const route = matchRoute(req.method ?? 'GET', path);
    if (req.headers.origin !== undefined) {
      const refused = browserRefusal(req, this.access);
      if (refused) {
        req.resume();
        const error: NeutralError = { kind: 'unauthorized', ...refused };
        this.sendError(res, dialectOf(route), error, this.orphanRequestId());
        return undefined;
      }
    }
    if ('badPath' in route) {
      req.resume();
      this.sendError(
        res,
        route.dialect,
        invalidRequest(`Invalid URL (${req.method} ${path}): ${route.badPath}.`, null, 'invalid_url'),
        this.orphanRequestId(),
      );
      return undefined;
    }
    const session = this.findSession(req, url, q, route.sessionId);
    if (this.cluster?.kind === 'edge' && !this.edgeAnswers(this.cluster, req, route, session, q < 0 ? '' : url.slice(q + 1))) {
      this.cluster.forward(req, res);
      return undefined;
    }
    const requestId = session ? session.nextRequestId() : this.orphanRequestId();
    try {
      this.handleProvider(req, res, path, q < 0 ? '' : url.slice(q + 1), route, session, requestId, session?.lastIdNumber ?? -1);
    } catch (error) {
      this.internalError(req, res, error, requestId);
    }
    return undefined;
  }

  private handleProvider(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    queryText: string,
    route: Exclude<RouteResult, { badPath: string }>,
    session: Session | undefined,
    requestId: string,
    /** The number the session made requestId from (session.requestIdOf gives it back). */
    idNumber: number,
  ): void {
    if ('notFound' in route) {
      const error: NeutralError = route.allow
        ? {
            kind: 'method_not_allowed',
            status: 405,
            code: 'method_not_allowed',
            message: `Method ${req.method} is not allowed on ${path}; use ${route.allow}.`,
            headers: { allow: route.allow },
          }
        : {
            kind: 'not_found',
            status: 404,
            code: 'unknown_url',
            message: `Unrecognized request URL (${req.method}: ${path}). Understudy serves the provider routes listed at GET ${CONTROL_PREFIX}/health.`,
          };
      req.resume();
      this.sendError(res, route.dialect, error, requestId);
      return;
    }
    const dialect = route.operation.dialect;
    if (!session) {
      req.resume();
      this.sendError(
        res,
        dialect,
        {
          kind: 'not_found',
          status: 404,
          code: 'session_not_found',
          message: `Understudy session "${route.sessionId ?? req.headers['x-understudy-session']}" does not exist.`,
        },
        requestId,
      );
      return;
    }
    if (session.requireApiKey && requestApiKey(req, req.url ?? '', (req.url ?? '').indexOf('?')) !== session.apiKey) {
      req.resume();
      const error: NeutralError = {
        kind: 'unauthorized',
        status: 401,
        code: 'invalid_api_key',
        message: `Understudy session "${session.id}" requires its API key on every request.`,
      };
      this.sendError(res, dialect, error, requestId);
      return;
    }
    session.journal.counters.requests++;
    const base = newRecord(requestId, session.id, this.routeLabel(req.method ?? 'GET', path), route.operation.id);
    base.idNumber = idNumber;
    readBodyThen(req, this.bodyLimit, (body) => {
      try {
        this.handleBody(req, res, body, queryText, route, session, base)?.catch((error: unknown) =>
          this.internalError(req, res, error, requestId),
        );
      } catch (error) {
        this.internalError(req, res, error, requestId);
      }
    });
  }

  private handleBody(
    req: IncomingMessage,
    res: ServerResponse,
    body: BodyResult,
    queryText: string,
    route: Extract<RouteResult, { operation: unknown }>,
    session: Session,
    base: JournalRecord,
  ): Promise<void> | undefined {
    const dialect = route.operation.dialect;
    if (!body.ok) {
      if (body.reason === 'aborted') {
        this.recordAborted(session, base, 'the client closed the connection before its request body arrived');
        return;
      }
      const error: NeutralError =
        body.reason === 'too_large'
          ? {
              kind: 'too_large',
              status: 413,
              code: 'request_too_large',
              message: `Request body exceeds the limit of ${this.bodyLimit} bytes.`,
            }
          : invalidRequest('We could not parse the JSON body of your request: it is not valid UTF-8.', null, 'invalid_json');
      this.finishError(session, res, dialect, error, base);
      return;
    }
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
      const error: NeutralError = {
        kind: 'unsupported_media_type',
        status: 415,
        code: 'unsupported_content_encoding',
        message: `Content-Encoding "${encoding}" is not supported: send the request body uncompressed.`,
      };
      this.finishError(session, res, dialect, error, base);
      return;
    }
    const contentType = req.headers['content-type'] ?? '';
    if (contentType !== this.lastJsonType && !JSON_CONTENT_TYPE.test(contentType)) {
      const error = invalidRequest(
        `Unsupported content type "${contentType}": send the body as application/json.`,
        null,
        'unsupported_content_type',
      );
      this.finishError(session, res, dialect, error, base);
      return;
    }
    this.lastJsonType = contentType;
    const wire: WireContext = {
      operation: route.operation.id,
      params: route.params,
      query: queryText ? new URLSearchParams(queryText) : EMPTY_QUERY,
      headers: req.headers,
      state: session.dialectState,
    };
    // A stateless decode sees only its decode context, which the journal keeps for its later decode
    // and the decode memo keys on.
    const context = dialect.statefulDecode ? undefined : this.decodeContextOf(wire, queryText);
    const remembered = context && this.decodeMemo.lookup(body.text, context);
    if (body.text.length >= SLICED_COUNT_CHARS && !remembered) {
      // A large body: parsing, decoding and counting each get turns of their own (count-in-slices.ts).
      const text = body.text;
      const parsed = this.parse(session, res, dialect, text, base);
      if (parsed === UNPARSED) return;
      return nextTurn(res).then((connected) => {
        if (!connected) return this.recordAborted(session, base, LEFT_EARLY);
        const decoded = this.decodeParsed(session, res, dialect, text, parsed, context ?? wire, base);
        if (!decoded) return undefined;
        return countInSlices(decoded, res).then((counted) =>
          counted
            ? this.afterDecode(req, res, text, session, dialect, decoded, context, undefined, wire, base)
            : this.recordAborted(session, base, LEFT_EARLY),
        );
      });
    }
    const decoded = remembered ?? this.decode(session, res, dialect, body.text, context ?? wire, base);
    if (!decoded) return;
    // A stateful decode can make a large request of a small body (a continuation of a stored one).
    if (dialect.statefulDecode && holdsText(decoded, SLICED_COUNT_CHARS)) {
      const text = body.text;
      return countInSlices(decoded, res).then((counted) =>
        counted
          ? this.afterDecode(req, res, text, session, dialect, decoded, context, undefined, wire, base)
          : this.recordAborted(session, base, LEFT_EARLY),
      );
    }
    return this.afterDecode(req, res, body.text, session, dialect, decoded, context, remembered, wire, base);
  }

  private afterDecode(
    req: IncomingMessage,
    res: ServerResponse,
    text: string,
    session: Session,
    dialect: ChatDialect,
    decoded: ChatRequest,
    context: WireContext | undefined,
    remembered: ChatRequest | undefined,
    wire: WireContext,
    base: JournalRecord,
  ): Promise<void> | undefined {
    const requestId = base.requestId;
    if (this.cluster?.kind === 'edge' && this.cluster.needsOwner(session, decoded)) {
      session.journal.counters.requests--;
      this.cluster.forward(req, res, text);
      return undefined;
    }
    if (context) {
      // A remembered body's text is kept once for every journal entry that repeats it.
      base.requestText = remembered ? this.decodeMemo.keptText : text;
      base.decodeContext = context;
      base.decodeRequest = decodeForJournal;
    } else {
      base.request = decoded;
    }
    const x: Exchange = { session, dialect, request: decoded, res, entry: base, wire };
    const chaos = chaosFor(session.chaos, req, wire.query);
    if (!chaos) return this.respond(x);
    base.stream = decoded.stream;
    const decision = decideChaos(chaos, seedOf(requestId), session.journal.counters.requests, latestUserText(decoded), decoded.stream);
    if (decision.delayMs > 0) {
      return waitConnected(decision.delayMs, res).then((connected) =>
        connected ? this.afterChaos(x, chaos, decision) : this.recordAborted(x.session, x.entry, LEFT_EARLY),
      );
    }
    return this.afterChaos(x, chaos, decision);
  }

  /** Parses, checks and decodes a body; answers the error and returns undefined when it fails. */
  private decode(
    session: Session,
    res: ServerResponse,
    dialect: ChatDialect,
    text: string,
    wire: WireContext,
    base: JournalRecord,
  ): ChatRequest | undefined {
    const parsed = this.parse(session, res, dialect, text, base);
    return parsed === UNPARSED ? undefined : this.decodeParsed(session, res, dialect, text, parsed, wire, base);
  }

  /** Parses and checks a body's JSON; answers the error and returns UNPARSED when it fails. */
  private parse(session: Session, res: ServerResponse, dialect: ChatDialect, text: string, base: JournalRecord): unknown {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      const error = invalidRequest(
        `We could not parse the JSON body of your request: ${(e as Error).message}. The API expects a JSON payload.`,
        null,
        'invalid_json',
      );
      this.finishError(session, res, dialect, error, base);
      return UNPARSED;
    }
    if (jsonTooDeep(text)) {
      const error = invalidRequest(
        `The JSON body of your request nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`,
        null,
        'json_too_deep',
      );
      this.finishError(session, res, dialect, error, base);
      return UNPARSED;
    }
    return parsed;
  }

  private decodeParsed(
    session: Session,
    res: ServerResponse,
    dialect: ChatDialect,
    text: string,
    parsed: unknown,
    wire: WireContext,
    base: JournalRecord,
  ): ChatRequest | undefined {
    const decoded = dialect.decode(parsed, wire);
    if (isNeutralError(decoded)) {
      session.journal.counters.invalid++;
      this.finishError(session, res, dialect, decoded, base);
      return undefined;
    }
    const attempt = retryAttempt(wire.headers);
    if (attempt !== undefined) decoded.attempt = attempt;
    if (!dialect.statefulDecode) this.decodeMemo.remember(text, wire, decoded);
    return decoded;
  }

  private afterChaos(x: Exchange, chaos: ChaosOptions, decision: ChaosDecision): Promise<void> | undefined {
    const injected = chaosError(decision, chaos);
    if (injected) {
      x.entry.usage = inputOnly(countInputTokens(x.request));
      this.finishError(x.session, x.res, x.dialect, injected, x.entry);
      return undefined;
    }
    const override =
      decision.kind === 'none' && (decision.pacing || decision.fault) ? { pacing: decision.pacing, fault: decision.fault } : undefined;
    return this.respond(x, override);
  }

  private respond(x: Exchange, override?: { pacing?: Pacing; fault?: StreamFault }): Promise<void> | undefined {
    const { session, request, entry } = x;
    const generation = session.generation;
    const answer = answerRequest(session, request, entry.requestId);
    if (override && answer.kind === 'reply') {
      answer.pacing = override.pacing ?? answer.pacing;
      answer.fault = override.fault ?? answer.fault;
    }
    entry.stream = request.stream;
    entry.script = answer.script;
    entry.step = answer.step;
    entry.source = answer.source;
    entry.nearMisses = answer.nearMisses;

    if (answer.delayMs > 0) {
      return waitConnected(answer.delayMs, x.res).then((connected) => {
        if (connected) return this.sendAnswer(x, answer, generation);
        answer.reservation?.release();
        this.recordAborted(x.session, x.entry, LEFT_EARLY);
        return undefined;
      });
    }
    return this.sendAnswer(x, answer, generation);
  }

  private sendAnswer(x: Exchange, answer: Answer, generation: number): Promise<void> | undefined {
    const { session, dialect, request, res, entry } = x;
    if (session.generation !== generation) {
      answer.reservation?.release();
      const error = understudyConflict(
        'superseded',
        'request_superseded',
        'the session was reset or reloaded while this request was in flight; nothing was consumed',
      );
      this.sendError(res, dialect, error, entry.requestId);
      return;
    }

    if (answer.kind === 'error' && answer.error.inStream && request.stream && dialect.encodeStreamFailure) {
      const ctx = encodeContext(x);
      const stream = dialect.encodeStreamFailure(answer.error, request, ctx);
      this.deliver(
        res,
        answer,
        entry.requestId,
        200,
        { 'content-type': stream.contentType, 'cache-control': 'no-cache', ...dialect.responseHeaders?.(ctx) },
        { body: stream.events.join('') },
      );
      entry.usage = inputOnly(answer.inputTokens);
      this.recordError(session, { ...answer.error, status: 200 }, entry);
      return;
    }
    if (answer.kind === 'error') {
      const encoded = dialect.encodeError(answer.error, { requestId: entry.requestId, wire: x.wire });
      this.deliver(res, answer, entry.requestId, encoded.status, encoded.headers, encoded);
      entry.usage = inputOnly(answer.inputTokens);
      this.recordError(session, answer.error, entry);
      return;
    }

    const ctx = encodeContext(x);
    if (answer.pacing || answer.fault) return this.sendPlanned(x, answer, ctx);
    const reply = answer.reply;
    const own = dialect.responseHeaders?.(ctx);
    if (reply.large) return this.sendLarge(x, answer, ctx, own);
    let delivered: boolean;
    if (request.stream) {
      const stream = dialect.encodeStreamBody?.(reply, request, ctx) ?? joined(dialect.encodeStream(reply, request, ctx));
      delivered = this.deliver(res, answer, entry.requestId, 200, streamHeaders(stream.contentType), stream, own);
    } else {
      const whole = dialect.encodeResponseBody?.(reply, request, ctx) ?? { body: dialect.encodeResponse(reply, request, ctx) };
      delivered = this.deliver(res, answer, entry.requestId, 200, JSON_HEADERS, whole, own);
    }
    if (delivered) this.recordReply(x, answer, ctx);
    else this.recordAborted(session, entry, LEFT_EARLY);
    return undefined;
  }

  /** A large unpaced answer: a stream made and written a batch at a time, a JSON body written in
   * slices, as fast as the client reads; consumed once every byte was handed to the kernel,
   * released if the client leaves first. */
  private async sendLarge(
    x: Exchange,
    answer: Extract<Answer, { kind: 'reply' }>,
    ctx: DialectEncodeContext,
    own: Record<string, string> | undefined,
  ): Promise<void> {
    const { dialect, request, res, entry } = x;
    const reply = answer.reply;
    let events: EventSource;
    if (request.stream) {
      const stream = dialect.encodeStreamEvents?.(reply, request, ctx) ?? sourced(dialect.encodeStream(reply, request, ctx));
      res.writeHead(200, { ...streamHeaders(stream.contentType), ...own, 'x-request-id': entry.requestId });
      events = stream.events;
    } else {
      const body = dialect.encodeResponse(reply, request, ctx);
      res.writeHead(200, { ...JSON_HEADERS, ...own, 'x-request-id': entry.requestId, 'content-length': String(Buffer.byteLength(body)) });
      events = arraySource([body]);
    }
    this.settleWritten(x, answer, ctx, await writeStreamed(res, events, this.options.stalledReaderMs));
  }

  /** After an answer written over time: consumed and journalled if it was delivered, released
   * and journalled as aborted if the client left first. */
  private settleWritten(x: Exchange, answer: Extract<Answer, { kind: 'reply' }>, ctx: DialectEncodeContext, delivered: boolean): void {
    if (!delivered) {
      answer.reservation?.release();
      this.recordAborted(
        x.session,
        x.entry,
        closedAsStalled(x.res)
          ? `the client stopped reading its answer for ${this.options.stalledReaderMs ?? DEFAULT_STALLED_READER_MS} ms (stalledReaderMs): the server closed the connection`
          : LEFT_EARLY,
      );
      return;
    }
    answer.afterDelivery?.();
    answer.reservation?.commit();
    this.recordReply(x, answer, ctx);
  }

  /** A paced or faulted answer: written piece by piece on the scheduler's clock. */
  private async sendPlanned(x: Exchange, answer: Extract<Answer, { kind: 'reply' }>, ctx: DialectEncodeContext): Promise<void> {
    const { dialect, request, res, entry } = x;
    const reply = answer.reply;
    let headers: Record<string, string>;
    let pieces: EventSource;
    if (request.stream) {
      const stream = dialect.encodeStreamEvents?.(reply, request, ctx) ?? sourced(dialect.encodeStream(reply, request, ctx));
      headers = { 'content-type': stream.contentType, 'cache-control': 'no-cache', ...dialect.responseHeaders?.(ctx) };
      pieces = stream.events;
    } else {
      headers = { ...JSON_HEADERS, ...dialect.responseHeaders?.(ctx) };
      pieces = arraySource([dialect.encodeResponse(reply, request, ctx)]);
    }
    const fault = answer.fault;
    const errorEvent =
      fault?.kind === 'error' && request.stream
        ? dialect.encodeStreamErrorEvent?.(
            {
              kind: 'scripted',
              status: fault.error?.status ?? 500,
              code: fault.error?.code ?? null,
              type: fault.error?.type,
              message: fault.error?.message ?? 'Internal error',
            },
            ctx,
            fault.afterChunks ?? 1,
          )
        : undefined;
    res.writeHead(200, { ...headers, 'x-request-id': entry.requestId });
    const delivered = await writePlanned(res, {
      pieces,
      pacing: answer.pacing,
      fault,
      errorEvent,
      seed: seedOf(entry.requestId),
      stalledReaderMs: this.options.stalledReaderMs,
    });
    this.settleWritten(x, answer, ctx, delivered);
  }

  private recordReply(x: Exchange, answer: Extract<Answer, { kind: 'reply' }>, ctx: DialectEncodeContext): void {
    const reply = answer.reply;
    if (x.dialect.delivered && !answer.fault && !x.res.destroyed) x.dialect.delivered(reply, x.request, ctx);
    x.entry.status = 200;
    x.entry.reply = reply;
    x.entry.usage = reply.usage;
    this.journalAdd(x.session, x.entry, x.request);
  }

  /** Writes the whole response. Once the bytes are handed to the socket the reserved step is
   * consumed; if the client already left, it is released. Returns whether it was delivered. */
  private deliver(
    res: ServerResponse,
    answer: Answer,
    requestId: string,
    status: number,
    headers: Record<string, string>,
    bytes: AnswerBytes,
    /** The dialect's own headers for this answer (e.g. Anthropic's `request-id`). */
    own?: Record<string, string>,
  ): boolean {
    const { body, sentBy } = bytes;
    const latin1 = bytes.encoding === 'latin1';
    const length = typeof body !== 'string' || latin1 ? body.length : Buffer.byteLength(body);
    const flat: string[] = ['x-request-id', requestId, 'content-length', String(length)];
    for (const key in headers) flat.push(key, headers[key]);
    if (own) for (const key in own) flat.push(key, own[key]);
    res.writeHead(status, flat);
    if (typeof body === 'string') {
      res.end(body, latin1 ? 'latin1' : 'utf8');
    } else if (body.length <= SMALL_BODY) {
      // A small body goes out as a latin1 string (one char per byte: the bytes on the wire are the
      // buffer's): node:http then sends header and body with one string write, where a Buffer
      // body costs a gathered write and a copy of the header on the C++ heap. Its buffer is free
      // again at once. B1 at 32 connections: ~3-4% more requests per second; at 256 the same.
      res.end(body.toString('latin1'), 'latin1');
      if (sentBy) sentBy(COPIED);
    } else {
      res.end(body);
      if (sentBy) sentBy(res);
    }
    const delivered = !res.destroyed;
    if (delivered && answer.kind === 'reply') answer.afterDelivery?.();
    const reservation = answer.reservation;
    if (reservation) {
      if (delivered) reservation.commit();
      else reservation.release();
    }
    return delivered;
  }

  private finishError(session: Session, res: ServerResponse, dialect: ChatDialect, error: NeutralError, entry: JournalRecord): void {
    this.sendError(res, dialect, error, entry.requestId);
    this.recordError(session, error, entry);
  }

  private recordError(session: Session, error: NeutralError, entry: JournalRecord): void {
    session.journal.counters.errorsReturned++;
    entry.status = error.status;
    entry.error = { code: error.code, message: error.message };
    this.journalAdd(session, entry);
  }

  /** A request whose client went away before its answer was delivered: journalled, nothing consumed. */
  private recordAborted(session: Session, entry: JournalRecord, message: string): void {
    session.journal.counters.aborted++;
    entry.status = ABORTED_STATUS;
    entry.error = { code: 'client_closed_request', message };
    this.journalAdd(session, entry);
  }

  private journalAdd(session: Session, entry: JournalRecord, request?: ChatRequest): void {
    const cluster = this.cluster;
    if (!cluster) session.journal.add(entry);
    else if (cluster.kind === 'edge') cluster.record(session, entry, request);
    else {
      entry.worker = 0;
      session.journal.add(entry);
    }
  }

  private routeLabel(method: string, path: string): string {
    const last = this.lastRoute;
    if (last.method !== method || last.path !== path) this.lastRoute = { method, path, label: `${method} ${path}` };
    return this.lastRoute.label;
  }

  /** What a decode reads besides the body: the route, the query, the session's dialect state and
   * only the headers a decode reads. Journal entries keep it (not the whole header map) for their
   * lazy decode; while requests repeat all of it, the same object is returned, so that journal
   * entries share it and the decode memo can key on it. */
  private decodeContextOf(wire: WireContext, queryText: string): WireContext {
    const last = this.lastDecodeContext;
    const state = wire.state;
    const zeroConfig = state.zeroConfig?.() ?? false;
    if (
      last &&
      last.queryText === queryText &&
      last.state === state &&
      last.zeroConfig === zeroConfig &&
      sameDecodeContext(last.context, wire)
    ) {
      return last.context;
    }
    const context = {
      operation: wire.operation,
      params: wire.params,
      query: wire.query,
      headers: decodeHeadersOf(wire.headers),
      state: stateAsOfArrival(state, zeroConfig),
    };
    this.lastDecodeContext = { context, queryText, state, zeroConfig };
    return context;
  }

  /** Whether this edge worker answers the request itself (see cluster/replica.ts). */
  private edgeAnswers(edge: EdgeLink, req: IncomingMessage, route: RouteResult, session: Session | undefined, queryText: string): boolean {
    if ('notFound' in route || 'badPath' in route) return true;
    if (!session || !edge.answers(session) || route.operation.dialect.statefulDecode) return false;
    return !chaosFor(session.chaos, req, queryText ? new URLSearchParams(queryText) : EMPTY_QUERY);
  }

  /** An edge's delivery of what it answered (cluster/records.ts). */
  private async acceptRecords(owner: OwnerLink, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req, Number.MAX_SAFE_INTEGER);
    if (!body.ok) {
      res.writeHead(400).end();
      return;
    }
    owner.applyRecords(JSON.parse(body.text) as { batches: SessionBatch[] });
    res.writeHead(204).end();
  }

  private sendError(res: ServerResponse, dialect: ErrorShape, error: NeutralError, requestId: string): void {
    const encoded = dialect.encodeError(error, { requestId });
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(encoded.status, { ...encoded.headers, 'x-request-id': requestId });
    res.end(encoded.body);
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
    this.sendError(
      res,
      errorShapeFor(req.method ?? 'GET', path),
      { kind: 'internal', status: 500, code: 'understudy_internal', message },
      requestId,
    );
  }

  private findSession(req: IncomingMessage, url: string, q: number, prefixId: string | undefined): Session | undefined {
    const named = prefixId ?? (req.headers['x-understudy-session'] as string | undefined);
    if (named !== undefined) return this.registry.get(named);
    const key = requestApiKey(req, url, q);
    return (key !== undefined ? this.registry.byApiKey(key) : undefined) ?? this.registry.defaultSession;
  }
}

/** The API key a request carries, in any of the ways SDKs send one. */
function requestApiKey(req: IncomingMessage, url: string, q: number): string | undefined {
  const h = req.headers;
  const auth = h.authorization;
  let key: string | undefined;
  if (auth && auth.startsWith('Bearer ')) key = auth.slice(7).trim();
  key ??= (h['api-key'] as string | undefined) ?? (h['x-api-key'] as string | undefined) ?? (h['x-goog-api-key'] as string | undefined);
  if (key === undefined && q >= 0) key = new URLSearchParams(url.slice(q + 1)).get('key') ?? undefined;
  return key;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

// One header object per stream content type, shared by every answer (dialects use one or two).
const STREAM_HEADERS = new Map<string, Record<string, string>>();

function streamHeaders(contentType: string): Record<string, string> {
  let headers = STREAM_HEADERS.get(contentType);
  if (!headers) STREAM_HEADERS.set(contentType, (headers = { 'content-type': contentType, 'cache-control': 'no-cache' }));
  return headers;
}
const EMPTY_QUERY = new URLSearchParams();
const LEFT_EARLY = 'the client closed the connection before its answer was delivered';
const JSON_CONTENT_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/** How the owner decodes, when the journal is read, a request an edge answered. */
/** A session's dialect state with its mode fixed as it was when a request arrived, not when the
 * journal decodes the request later (on this process, or on the owner for an edge's record). */
function stateAsOfArrival(live: WireContext['state'], zeroConfig: boolean): WireContext['state'] {
  return { sessionId: live.sessionId, store: live.store, zeroConfig: () => zeroConfig };
}

function remoteJournalDecoder(text: string, wire: NonNullable<PortableRecord['wire']>, registry: Registry, session: string) {
  const live = (registry.get(session) ?? registry.defaultSession).dialectState;
  const { zeroConfig, ...rest } = wire;
  const state = stateAsOfArrival(live, zeroConfig);
  return { context: { ...rest, query: new URLSearchParams(wire.query), state } satisfies WireContext, decode: decodeForJournal };
}

/** Capped by the kernel (net.core.somaxconn). */
const LISTEN_BACKLOG = 4096;

function listenOn(server: Server, options: { port: number; host: string; exclusive?: boolean; backlog?: number }): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function decodeForJournal(text: string, context: unknown): ChatRequest | undefined {
  const wire = context as WireContext;
  const decoded = operationById(wire.operation)?.dialect.decode(JSON.parse(text), wire);
  if (!decoded || isNeutralError(decoded)) return undefined;
  const attempt = retryAttempt(wire.headers);
  if (attempt !== undefined) decoded.attempt = attempt;
  return decoded;
}

// The only headers a stateless decode sees (its decode context; decision 0005). A decode that needs
// another must be given it here.
const DECODE_HEADERS = ['anthropic-version', 'anthropic-beta', 'x-stainless-retry-count', 'amz-sdk-request'];

function decodeHeadersOf(headers: IncomingHttpHeaders): Record<string, string | string[] | undefined> {
  const kept: Record<string, string | string[] | undefined> = {};
  for (const name of DECODE_HEADERS) {
    const value = headers[name];
    if (value !== undefined) kept[name] = value;
  }
  return kept;
}

/** Whether a decode context made earlier holds the route and headers this request's would (the
 * caller compares the query text and the session state). */
function sameDecodeContext(kept: WireContext, wire: WireContext): boolean {
  if (kept.operation !== wire.operation) return false;
  if (kept.params !== wire.params && !sameStrings(kept.params, wire.params)) return false;
  for (const name of DECODE_HEADERS) if (kept.headers[name] !== wire.headers[name]) return false;
  return true;
}

function sameStrings(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}

function sourced(stream: StreamEncoding): { contentType: string; events: EventSource } {
  return { contentType: stream.contentType, events: arraySource(stream.events) };
}

function joined(stream: StreamEncoding): StreamBody {
  return { contentType: stream.contentType, body: stream.events.join('') };
}

function encodeContext(x: Exchange): DialectEncodeContext {
  return {
    wire: x.wire,
    responseId: flattened(x.dialect.idPrefix + x.session.nextId()),
    created: x.session.clock,
    model: x.request.model,
    requestId: x.entry.requestId,
  };
}

/** The SDK's retry attempt, 0-based: Stainless SDKs count retries, the AWS SDK counts attempts. */
function retryAttempt(headers: IncomingMessage['headers']): number | undefined {
  const stainless = headers['x-stainless-retry-count'];
  if (typeof stainless === 'string' && /^\d+$/.test(stainless)) return Number(stainless);
  const aws = headers['amz-sdk-request'];
  const m = typeof aws === 'string' ? /attempt=(\d+)/.exec(aws) : null;
  return m ? Math.max(0, Number(m[1]) - 1) : undefined;
}

/** The provider-shaped error an injected-chaos decision answers with, if any. */
function chaosError(decision: ChaosDecision, chaos: ChaosOptions): NeutralError | undefined {
  switch (decision.kind) {
    case 'status':
      return {
        kind: 'scripted',
        status: decision.status,
        code: decision.status === 429 ? 'rate_limit_exceeded' : null,
        message: decision.reason,
        headers: decision.status === 429 ? { 'retry-after': '1', 'retry-after-ms': '1000' } : undefined,
      };
    case 'rate_limited':
      return {
        kind: 'scripted',
        status: 429,
        code: 'rate_limit_exceeded',
        message: `Rate limit reached: this session allows ${chaos.rateLimitAfter} requests (injected rate limit).`,
        headers: {
          'retry-after': '1',
          'retry-after-ms': '1000',
          'x-ratelimit-limit-requests': String(chaos.rateLimitAfter),
          'x-ratelimit-remaining-requests': '0',
        },
      };
    case 'content_filter':
      return {
        kind: 'content_filter',
        status: 400,
        code: 'content_filter',
        message: `The request was blocked by the content filter: it mentions "${decision.term}".`,
      };
    default:
      return undefined;
  }
}

/** A number from the request id, seeding its pacing jitter (same session and request, same timings). */
function seedOf(requestId: string): number {
  return fnv1a(requestId);
}

function inputOnly(inputTokens: number): Usage {
  return { inputTokens, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 };
}

/** Waits `ms`, resolving false early if the client goes away. */
function waitConnected(ms: number, res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(!res.destroyed);
    }, ms);
    res.once('close', onClose);
  });
}

// A provider request's way through the stages, once the host matched its route and found its
// session: the route's own refusals, the body (read, checked), the decode (request-decoder.ts),
// injected chaos (chaos.ts), then the engine's answer and its delivery (delivery.ts); every end is
// journalled (outcomes.ts). Requests run synchronously from the body's last byte to the response
// unless they must wait (a large body's slices, a delay, pacing): no promise on the common path.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { latestUserText } from '../core/conversation.js';
import { invalidRequest, isNeutralError, type NeutralError } from '../core/errors.js';
import type { ChatRequest } from '../core/model.js';
import { countInputTokens } from '../core/tokens.js';
import type { ChatDialect, WireContext } from '../dialects/dialect.js';
import { newRecord, type JournalRecord } from '../engine/journal.js';
import type { Session } from '../engine/session.js';
import { requestApiKey } from './access.js';
import { readBodyThen, type BodyResult } from './body.js';
import { chaosError, chaosFor, decideChaos, type ChaosDecision, type ChaosOptions } from './chaos.js';
import type { EdgeSide } from './cluster-side.js';
import { countInSlices, holdsText, nextTurn, SLICED_COUNT_CHARS } from './count-in-slices.js';
import type { Delivery } from './delivery.js';
import { scanShapeInSlices, shapeRefusal } from './json-shape.js';
import type { Outcomes } from './outcomes.js';
import { inputOnly, LEFT_EARLY, seedOf, waitConnected, type Exchange } from './provider-exchange.js';
import { decodeForJournal, RequestDecoder, Unparsed } from './request-decoder.js';
import { CONTROL_PREFIX, type RouteResult } from './routes.js';

export type MatchedRoute = Extract<RouteResult, { operation: unknown }>;

const EMPTY_QUERY = new URLSearchParams();
const JSON_CONTENT_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

export class ProviderPipeline {
  private readonly decoder = new RequestDecoder();
  /** The last route label made, reused while requests repeat it so that journal entries share it. */
  private lastRoute = { method: '', path: '', label: '' };
  /** The last content type found to be JSON (checked once, not per request). */
  private lastJsonType = 'application/json';

  constructor(
    private readonly bodyLimit: number,
    private readonly outcomes: Outcomes,
    private readonly delivery: Delivery,
    /** Under --workers, on an edge: the owner answers what this worker cannot. */
    private readonly edge: EdgeSide | undefined,
    /** Answers a failure of Understudy itself (a 500 in the route's shape). */
    private readonly internalError: (req: IncomingMessage, res: ServerResponse, error: unknown, requestId: string) => void,
  ) {}

  /** A request on a provider path (or no known path), with its session if it has one. */
  handle(
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
    const refused = refusalBeforeBody(req, path, route, session);
    if (refused) {
      req.resume();
      this.outcomes.sendError(res, 'notFound' in route ? route.dialect : route.operation.dialect, refused, requestId);
      return;
    }
    const live = session as Session;
    const matched = route as MatchedRoute;
    live.journal.counters.requests++;
    const base = newRecord(requestId, live.id, this.routeLabel(req.method ?? 'GET', path), matched.operation.id);
    base.idNumber = idNumber;
    readBodyThen(req, this.bodyLimit, (body) => {
      try {
        this.handleBody(req, res, body, queryText, matched, live, base)?.catch((error: unknown) =>
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
    route: MatchedRoute,
    session: Session,
    base: JournalRecord,
  ): Promise<void> | undefined {
    const dialect = route.operation.dialect;
    if (!body.ok) {
      if (body.reason === 'aborted') {
        this.outcomes.recordAborted(session, base, 'the client closed the connection before its request body arrived');
        return;
      }
      this.outcomes.finishError(session, res, dialect, unreadBody(body.reason, this.bodyLimit), base);
      return;
    }
    const refused = this.refusalOfBody(req);
    if (refused) {
      this.outcomes.finishError(session, res, dialect, refused, base);
      return;
    }
    const wire: WireContext = {
      operation: route.operation.id,
      params: route.params,
      query: queryText ? new URLSearchParams(queryText) : EMPTY_QUERY,
      headers: req.headers,
      state: session.dialectState,
    };
    // A stateless decode sees only its decode context, which the journal keeps for its later decode
    // and the decode memo keys on.
    const context = dialect.statefulDecode ? undefined : this.decoder.contextOf(dialect, wire, queryText);
    const remembered = this.decoder.remembered(body.text, context);
    const text = body.text;
    if (text.length >= SLICED_COUNT_CHARS && !remembered) return this.decodeLarge(req, res, text, session, dialect, context, wire, base);
    const decoded = remembered ?? this.decode(session, res, dialect, text, this.decoder.parse(text), context ?? wire, base);
    if (!decoded) return;
    // A stateful decode can make a large request of a small body (a continuation of a stored one).
    if (dialect.statefulDecode && holdsText(decoded, SLICED_COUNT_CHARS)) {
      return countInSlices(decoded, res).then((counted) =>
        counted
          ? this.afterDecode(req, res, text, session, dialect, decoded, context, undefined, wire, base)
          : this.outcomes.recordAborted(session, base, LEFT_EARLY),
      );
    }
    return this.afterDecode(req, res, text, session, dialect, decoded, context, remembered, wire, base);
  }

  /** A large body: its shape is read in slices, then parsing, decoding and counting each get turns
   * of their own (json-shape.ts, count-in-slices.ts). */
  private async decodeLarge(
    req: IncomingMessage,
    res: ServerResponse,
    text: string,
    session: Session,
    dialect: ChatDialect,
    context: WireContext | undefined,
    wire: WireContext,
    base: JournalRecord,
  ): Promise<void> {
    const shape = await scanShapeInSlices(text, res);
    if (shape === undefined) return this.outcomes.recordAborted(session, base, LEFT_EARLY);
    if (shape !== 'ok') return this.outcomes.finishError(session, res, dialect, shapeRefusal(shape), base);
    const parsed = this.decoder.parse(text, true);
    if (parsed instanceof Unparsed) return this.outcomes.finishError(session, res, dialect, parsed.error, base);
    if (!(await nextTurn(res))) return this.outcomes.recordAborted(session, base, LEFT_EARLY);
    const decoded = this.decode(session, res, dialect, text, parsed, context ?? wire, base);
    if (!decoded) return;
    if (!(await countInSlices(decoded, res))) return this.outcomes.recordAborted(session, base, LEFT_EARLY);
    return this.afterDecode(req, res, text, session, dialect, decoded, context, undefined, wire, base);
  }

  /** The decoded request, or undefined once its error was answered. */
  private decode(
    session: Session,
    res: ServerResponse,
    dialect: ChatDialect,
    text: string,
    parsed: unknown,
    wire: WireContext,
    base: JournalRecord,
  ): ChatRequest | undefined {
    if (parsed instanceof Unparsed) {
      this.outcomes.finishError(session, res, dialect, parsed.error, base);
      return undefined;
    }
    const decoded = this.decoder.decode(dialect, text, parsed, wire);
    if (!isNeutralError(decoded)) return decoded;
    session.journal.counters.invalid++;
    this.outcomes.finishError(session, res, dialect, decoded, base);
    return undefined;
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
    if (this.edge?.needsOwner(session, decoded)) {
      session.journal.counters.requests--;
      this.edge.forward(req, res, text);
      return undefined;
    }
    if (context) {
      // A remembered body's text is kept once for every journal entry that repeats it.
      base.requestText = remembered ? this.decoder.keptText : text;
      base.decodeContext = context;
      base.decodeRequest = decodeForJournal;
    } else {
      base.request = decoded;
    }
    const x: Exchange = { session, dialect, request: decoded, res, entry: base, wire };
    const chaos = chaosFor(session.chaos, req, wire.query);
    if (!chaos) return this.delivery.respond(x);
    base.stream = decoded.stream;
    const decision = decideChaos(chaos, seedOf(base.requestId), session.journal.counters.requests, latestUserText(decoded), decoded.stream);
    if (decision.delayMs > 0) {
      return waitConnected(decision.delayMs, res).then((connected) =>
        connected ? this.afterChaos(x, chaos, decision) : this.outcomes.recordAborted(x.session, x.entry, LEFT_EARLY),
      );
    }
    return this.afterChaos(x, chaos, decision);
  }

  private afterChaos(x: Exchange, chaos: ChaosOptions, decision: ChaosDecision): Promise<void> | undefined {
    const injected = chaosError(decision, chaos);
    if (injected) {
      x.entry.usage = inputOnly(countInputTokens(x.request));
      this.outcomes.finishError(x.session, x.res, x.dialect, injected, x.entry);
      return undefined;
    }
    const override =
      decision.kind === 'none' && (decision.pacing || decision.fault) ? { pacing: decision.pacing, fault: decision.fault } : undefined;
    return this.delivery.respond(x, override);
  }

  /** A body the route does not take whatever it says: compressed, or not JSON. */
  private refusalOfBody(req: IncomingMessage): NeutralError | undefined {
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
      return {
        kind: 'unsupported_media_type',
        status: 415,
        code: 'unsupported_content_encoding',
        message: `Content-Encoding "${encoding}" is not supported: send the request body uncompressed.`,
      };
    }
    const contentType = req.headers['content-type'] ?? '';
    if (contentType !== this.lastJsonType && !JSON_CONTENT_TYPE.test(contentType)) {
      return invalidRequest(
        `Unsupported content type "${contentType}": send the body as application/json.`,
        null,
        'unsupported_content_type',
      );
    }
    this.lastJsonType = contentType;
    return undefined;
  }

  private routeLabel(method: string, path: string): string {
    const last = this.lastRoute;
    if (last.method !== method || last.path !== path) this.lastRoute = { method, path, label: `${method} ${path}` };
    return this.lastRoute.label;
  }
}

/** What a request gets before its body is read: an unknown path or method, an unknown session, a
 * missing API key. */
function refusalBeforeBody(
  req: IncomingMessage,
  path: string,
  route: Exclude<RouteResult, { badPath: string }>,
  session: Session | undefined,
): NeutralError | undefined {
  if ('notFound' in route) {
    return route.allow
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
  }
  if (!session) {
    return {
      kind: 'not_found',
      status: 404,
      code: 'session_not_found',
      message: `Understudy session "${route.sessionId ?? req.headers['x-understudy-session']}" does not exist.`,
    };
  }
  if (session.requireApiKey && requestApiKey(req, req.url ?? '', (req.url ?? '').indexOf('?')) !== session.apiKey) {
    return {
      kind: 'unauthorized',
      status: 401,
      code: 'invalid_api_key',
      message: `Understudy session "${session.id}" requires its API key on every request.`,
    };
  }
  return undefined;
}

function unreadBody(reason: 'too_large' | 'invalid_utf8', limit: number): NeutralError {
  return reason === 'too_large'
    ? { kind: 'too_large', status: 413, code: 'request_too_large', message: `Request body exceeds the limit of ${limit} bytes.` }
    : invalidRequest('We could not parse the JSON body of your request: it is not valid UTF-8.', null, 'invalid_json');
}

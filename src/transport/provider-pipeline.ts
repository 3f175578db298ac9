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
import { readBodyThen, type BodyResult } from './body.js';
import { chaosError, chaosFor, decideChaos, type ChaosDecision, type ChaosOptions } from './chaos.js';
import type { EdgeSide } from './cluster-side.js';
import { countInSlices, holdsText, nextTurn, SLICED_COUNT_CHARS } from './count-in-slices.js';
import type { Delivery } from './delivery.js';
import { scanShapeInSlices, shapeRefusal } from './json-shape.js';
import type { Outcomes } from './outcomes.js';
import { inputOnly, LEFT_EARLY, seedOf, waitConnected, type Exchange } from './provider-exchange.js';
import { decodeForJournal, RequestDecoder, Unparsed } from './request-decoder.js';
import { type RouteResult } from './routes.js';
import { InfoPipeline } from './info-pipeline.js';
import { refusalBeforeBody, unreadBody } from './session-refusal.js';

export type MatchedRoute = Extract<RouteResult, { operation: unknown }>;

/** A request on a provider path (or on no known path), as the host found it. */
export interface RoutedRequest {
  path: string;
  queryText: string;
  route: Exclude<RouteResult, { badPath: string }>;
  session: Session | undefined;
  requestId: string;
  /** The number the session made requestId from (session.requestIdOf gives it back). */
  idNumber: number;
}

/** A session's request once its route is known to take it: what every later stage reads. */
export interface Arrival {
  req: IncomingMessage;
  res: ServerResponse;
  session: Session;
  dialect: ChatDialect;
  /** Its journal entry, filled in stage by stage. */
  entry: JournalRecord;
}

/** How a body is decoded: its wire context, and the decode context of a stateless decode (which
 * the journal keeps for its later decode and the decode memo keys on). */
interface Decoding {
  wire: WireContext;
  context: WireContext | undefined;
  /** The decode memo's decoding, when the same body came just before. */
  remembered?: ChatRequest;
}

/** The query of a URL without one (shared: it is never written to). */
export const EMPTY_QUERY = new URLSearchParams();
const JSON_CONTENT_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

export class ProviderPipeline {
  private readonly decoder = new RequestDecoder();
  /** The last route label made, reused while requests repeat it so that journal entries share it. */
  private lastRoute = { method: '', path: '', label: '' };
  /** The last content type found to be JSON (checked once, not per request). */
  private lastJsonType = 'application/json';

  constructor(
    private readonly stages: {
      bodyLimit: number;
      outcomes: Outcomes;
      delivery: Delivery;
      /** Under --workers, on an edge: the owner answers what this worker cannot. */
      edge: EdgeSide | undefined;
      /** Answers a failure of Understudy itself (a 500 in the route's shape). */
      internalError: (req: IncomingMessage, res: ServerResponse, error: unknown, requestId: string) => void;
      /** ServerOptions.stalledReaderMs. */
      stalledReaderMs: number | undefined;
    },
  ) {
    this.info = new InfoPipeline({ ...stages, routeLabel: (method, path) => this.routeLabel(method, path) });
  }

  private readonly info: InfoPipeline;

  handle(req: IncomingMessage, res: ServerResponse, routed: RoutedRequest): void {
    const { route, session, requestId } = routed;
    if ('notFound' in route && route.info) return this.info.handle(req, res, route.info, routed);
    const refused = refusalBeforeBody(req, routed.path, route, session);
    if (refused) {
      req.resume();
      this.stages.outcomes.sendError(res, 'notFound' in route ? route.dialect : route.operation.dialect, refused, requestId);
      return;
    }
    const live = session as Session;
    const matched = route as MatchedRoute;
    live.journal.counters.requests++;
    const entry = newRecord(requestId, live.id, this.routeLabel(req.method ?? 'GET', routed.path), matched.operation.id);
    entry.idNumber = routed.idNumber;
    const arrival: Arrival = { req, res, session: live, dialect: matched.operation.dialect, entry };
    readBodyThen(req, this.stages.bodyLimit, (body) => {
      try {
        this.handleBody(arrival, body, matched, routed.queryText)?.catch((error: unknown) =>
          this.stages.internalError(req, res, error, requestId),
        );
      } catch (error) {
        this.stages.internalError(req, res, error, requestId);
      }
    });
  }

  private handleBody(arrival: Arrival, body: BodyResult, route: MatchedRoute, queryText: string): Promise<void> | undefined {
    const { req, res, session, dialect, entry } = arrival;
    const outcomes = this.stages.outcomes;
    if (!body.ok) {
      if (body.reason === 'aborted') {
        outcomes.recordAborted(session, entry, 'the client closed the connection before its request body arrived');
        return;
      }
      outcomes.finishError(arrival, dialect, unreadBody(body.reason, this.stages.bodyLimit));
      return;
    }
    const refused = this.refusalOfBody(req);
    if (refused) {
      // A refused request's body is kept as it came: it is what the person needs to see.
      entry.requestText = body.text;
      outcomes.finishError(arrival, dialect, refused);
      return;
    }
    const wire: WireContext = {
      operation: route.operation.id,
      params: route.params,
      query: queryText ? new URLSearchParams(queryText) : EMPTY_QUERY,
      headers: req.headers,
      state: session.dialectState,
    };
    const context = dialect.statefulDecode ? undefined : this.decoder.contextOf(dialect, wire, queryText);
    const remembered = this.decoder.remembered(body.text, context);
    const decoding: Decoding = { wire, context, remembered };
    const text = body.text;
    if (text.length >= SLICED_COUNT_CHARS && !remembered) return this.decodeLarge(arrival, text, decoding);
    const decoded = remembered ?? this.decode(arrival, text, this.decoder.parse(text), context ?? wire);
    if (!decoded) return;
    // A stateful decode can make a large request of a small body (a continuation of a stored one).
    if (dialect.statefulDecode && holdsText(decoded, SLICED_COUNT_CHARS)) {
      return countInSlices(decoded, res).then((counted) =>
        counted ? this.afterDecode(arrival, text, decoded, { wire, context }) : outcomes.recordAborted(session, entry, LEFT_EARLY),
      );
    }
    return this.afterDecode(arrival, text, decoded, decoding);
  }

  /** A large body: its shape is read in slices, then parsing, decoding and counting each get turns
   * of their own (json-shape.ts, count-in-slices.ts). */
  private async decodeLarge(arrival: Arrival, text: string, decoding: Decoding): Promise<void> {
    const { res, session, dialect, entry } = arrival;
    const outcomes = this.stages.outcomes;
    const shape = await scanShapeInSlices(text, res);
    if (shape === undefined) return outcomes.recordAborted(session, entry, LEFT_EARLY);
    if (shape !== 'ok') return outcomes.finishError(arrival, dialect, shapeRefusal(shape));
    const parsed = this.decoder.parse(text, true);
    if (parsed instanceof Unparsed) {
      this.decode(arrival, text, parsed, decoding.wire); // answers and journals the parse error
      return;
    }
    if (!(await nextTurn(res))) return outcomes.recordAborted(session, entry, LEFT_EARLY);
    const decoded = this.decode(arrival, text, parsed, decoding.context ?? decoding.wire);
    if (!decoded) return;
    if (!(await countInSlices(decoded, res))) return outcomes.recordAborted(session, entry, LEFT_EARLY);
    return this.afterDecode(arrival, text, decoded, decoding);
  }

  /** The decoded request, or undefined once its error was answered. */
  private decode(arrival: Arrival, text: string, parsed: unknown, wire: WireContext): ChatRequest | undefined {
    const dialect = arrival.dialect;
    if (parsed instanceof Unparsed) {
      arrival.entry.stream = dialect.requestedStream(undefined, wire);
      arrival.entry.requestText = text;
      this.stages.outcomes.finishError(arrival, dialect, parsed.error);
      return undefined;
    }
    const decoded = this.decoder.decode(dialect, text, parsed, wire);
    if (!isNeutralError(decoded)) return decoded;
    arrival.session.journal.counters.invalid++;
    arrival.entry.stream = dialect.requestedStream(parsed, wire);
    arrival.entry.requestText = text;
    this.stages.outcomes.finishError(arrival, dialect, decoded);
    return undefined;
  }

  private afterDecode(
    arrival: Arrival,
    text: string,
    decoded: ChatRequest,
    { wire, context, remembered }: Decoding,
  ): Promise<void> | undefined {
    const { req, res, session, dialect, entry } = arrival;
    const edge = this.stages.edge;
    if (edge?.needsOwner(session, decoded)) {
      session.journal.counters.requests--;
      edge.forward(req, res, text);
      return undefined;
    }
    if (context) {
      // A remembered body's text is kept once for every journal entry that repeats it.
      entry.requestText = remembered ? this.decoder.keptText : text;
      entry.decodeContext = context;
      entry.decodeRequest = decodeForJournal;
    } else {
      entry.request = decoded;
    }
    const exchange: Exchange = { session, dialect, request: decoded, res, entry, wire, bodyText: text };
    const chaos = chaosFor(session.chaos, req, wire.query);
    if (!chaos) return this.stages.delivery.respond(exchange);
    entry.stream = decoded.stream;
    const decision = decideChaos(chaos, {
      seed: seedOf(entry.requestId),
      requestNumber: session.journal.counters.requests,
      latestUser: latestUserText(decoded),
      stream: decoded.stream,
    });
    if (decision.delayMs > 0) {
      return waitConnected(decision.delayMs, res).then((connected) =>
        connected ? this.afterChaos(exchange, chaos, decision) : this.stages.outcomes.recordAborted(session, entry, LEFT_EARLY),
      );
    }
    return this.afterChaos(exchange, chaos, decision);
  }

  private afterChaos(exchange: Exchange, chaos: ChaosOptions, decision: ChaosDecision): Promise<void> | undefined {
    const injected = chaosError(decision, chaos);
    if (injected) {
      exchange.entry.fault = `injected ${injected.status}${injected.code ? ` ${injected.code}` : ''}`;
      exchange.entry.usage = inputOnly(countInputTokens(exchange.request));
      this.stages.outcomes.finishError(exchange, exchange.dialect, injected);
      return undefined;
    }
    const override =
      decision.kind === 'none' && (decision.pacing || decision.fault) ? { pacing: decision.pacing, fault: decision.fault } : undefined;
    return this.stages.delivery.respond(exchange, override);
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

// The decode stage: a body's JSON parsed and checked, then decoded by its dialect into the neutral
// request. Decoding is a pure function of the text and the decode context, so a body repeated under
// the same context is decoded once (decode-memo.ts, decision 0005), and the journal keeps the text
// and context to decode it again when it is read.

import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { invalidRequest, isNeutralError, type NeutralError } from '../core/errors.js';
import type { ChatRequest, StreamFlavour } from '../core/model.js';
import type { ChatDialect, DialectState, WireContext } from '../dialects/dialect.js';
import { jsonTooDeep } from './body.js';
import { DecodeMemo } from './decode-memo.js';
import { shapeRefusal } from './json-shape.js';
import { operationById } from './routes.js';

/** What parse() returns for a body it refused: the error to answer (no JSON value is one). */
export class Unparsed {
  constructor(readonly error: NeutralError) {}
}

export class RequestDecoder {
  private readonly memo = new DecodeMemo();
  /** The last decode context made, returned again while requests repeat it (see contextOf). */
  private lastContext:
    | {
        context: WireContext;
        queryText: string;
        state: DialectState;
        zeroConfig: boolean;
        flavour: StreamFlavour | undefined;
        models: readonly string[] | undefined;
      }
    | undefined;

  /** The kept decoding of this text under this context, if the same came just before. */
  remembered(text: string, context: WireContext | undefined): ChatRequest | undefined {
    return context && this.memo.lookup(text, context);
  }

  /** The text of the decoding the memo keeps (one copy shared by the journal entries repeating it). */
  get keptText(): string {
    return this.memo.keptText;
  }

  /** Parses a body; `shapeRead` when its depth was already checked (json-shape.ts). */
  parse(text: string, shapeRead = false): unknown {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      const message = `We could not parse the JSON body of your request: ${(e as Error).message}. The API expects a JSON payload.`;
      return new Unparsed(invalidRequest(message, null, 'invalid_json'));
    }
    if (!shapeRead && jsonTooDeep(text)) return new Unparsed(shapeRefusal('too_deep'));
    return value;
  }

  /** The dialect's decoding of a parsed body (remembered for a repeat), or its wire error. */
  decode(dialect: ChatDialect, text: string, parsed: unknown, wire: WireContext): ChatRequest | NeutralError {
    const decoded = dialect.decode(parsed, wire);
    if (isNeutralError(decoded)) return decoded;
    const attempt = retryAttempt(wire.headers);
    if (attempt !== undefined) decoded.attempt = attempt;
    if (!dialect.statefulDecode) this.memo.remember(text, wire, decoded);
    return decoded;
  }

  /** What a decode reads besides the body: the route, the query, the session's dialect state and
   * only the headers a decode reads. Journal entries keep it (not the whole header map) for their
   * lazy decode; while requests repeat all of it, the same object is returned, so that journal
   * entries share it and the decode memo can key on it. */
  contextOf(dialect: ChatDialect, wire: WireContext, queryText: string): WireContext {
    const last = this.lastContext;
    const state = wire.state;
    const zeroConfig = state.zeroConfig?.() ?? false;
    const flavour = state.streamFlavour?.();
    const models = state.models?.();
    if (
      last &&
      last.queryText === queryText &&
      last.state === state &&
      last.zeroConfig === zeroConfig &&
      last.flavour === flavour &&
      last.models === models &&
      sameDecodeContext(last.context, wire, dialect.decodeHeaders)
    ) {
      return last.context;
    }
    const context = {
      operation: wire.operation,
      params: wire.params,
      query: wire.query,
      headers: decodeHeadersOf(wire.headers, dialect.decodeHeaders),
      state: stateAsOfArrival(state, zeroConfig, flavour, models),
    };
    this.lastContext = { context, queryText, state, zeroConfig, flavour, models };
    return context;
  }
}

/** The journal's decode of a request it kept as text and decode context. */
export function decodeForJournal(text: string, context: unknown): ChatRequest | undefined {
  const wire = context as WireContext;
  const decoded = operationById(wire.operation)?.dialect.decode(JSON.parse(text), wire);
  if (!decoded || isNeutralError(decoded)) return undefined;
  const attempt = retryAttempt(wire.headers);
  if (attempt !== undefined) decoded.attempt = attempt;
  return decoded;
}

/** A session's dialect state with its modes fixed as they were when a request arrived, not when
 * the journal decodes the request later (on this process, or on the owner for an edge's record). */
export function stateAsOfArrival(
  live: WireContext['state'],
  zeroConfig: boolean,
  flavour?: StreamFlavour,
  models?: readonly string[],
): WireContext['state'] {
  const state: WireContext['state'] = { sessionId: live.sessionId, store: live.store, zeroConfig: () => zeroConfig };
  if (flavour !== undefined) state.streamFlavour = () => flavour;
  if (models !== undefined) state.models = () => models;
  return state;
}

/** The SDK's retry attempt, 0-based: Stainless SDKs count retries, the AWS SDK counts attempts. */
function retryAttempt(headers: IncomingMessage['headers']): number | undefined {
  const stainless = headers['x-stainless-retry-count'];
  if (typeof stainless === 'string' && /^\d+$/.test(stainless)) return Number(stainless);
  const aws = headers['amz-sdk-request'];
  const m = typeof aws === 'string' ? /attempt=(\d+)/.exec(aws) : null;
  return m ? Math.max(0, Number(m[1]) - 1) : undefined;
}

// Besides the headers a dialect's decode reads (ChatDialect.decodeHeaders), the journal's decode
// reads the SDK's retry attempt from these.
const RETRY_HEADERS = ['x-stainless-retry-count', 'amz-sdk-request'];

/** The only headers a stateless decode sees (its decode context; decision 0005). */
function decodeHeadersOf(headers: IncomingHttpHeaders, read: readonly string[]): Record<string, string | string[] | undefined> {
  const kept: Record<string, string | string[] | undefined> = {};
  for (const name of read) {
    const value = headers[name];
    if (value !== undefined) kept[name] = value;
  }
  for (const name of RETRY_HEADERS) {
    const value = headers[name];
    if (value !== undefined) kept[name] = value;
  }
  return kept;
}

/** Whether a decode context made earlier holds the route and headers this request's would (the
 * caller compares the query text and the session state). */
function sameDecodeContext(kept: WireContext, wire: WireContext, read: readonly string[]): boolean {
  if (kept.operation !== wire.operation) return false;
  if (kept.params !== wire.params && !sameStrings(kept.params, wire.params)) return false;
  for (const name of read) if (kept.headers[name] !== wire.headers[name]) return false;
  for (const name of RETRY_HEADERS) if (kept.headers[name] !== wire.headers[name]) return false;
  return true;
}

function sameStrings(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}

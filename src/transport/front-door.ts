// What the server answers before, or outside, a route's own handling: its timeouts, the error
// shape a path belongs to, and the requests node:http refuses or routes nowhere (parser errors,
// CONNECT, an unsupported Expect), each answered in that shape (docs/security.md).

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Http2Server } from 'node:http2';
import type { Socket } from 'node:net';
import type { NeutralError } from '../core/errors.js';
import type { ChatDialect } from '../dialects/dialect.js';
import { answerParserFailure, failedRequestPath, parserFailure, type ParserError } from './client-errors.js';
import { dialectOf, isControlPath, matchRoute } from './routes.js';

export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** A test server's timeouts: a request's headers must arrive within `headersTimeoutMs` and the whole
 * request within `requestTimeoutMs`; idle keep-alive connections stay open longer than the SDKs'
 * pools keep them, so a pooled socket is never closed under a client. */
export function serverTimeouts(options: { headersTimeoutMs?: number; requestTimeoutMs?: number }) {
  const headersTimeout = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  return {
    keepAliveTimeout: 65_000,
    headersTimeout,
    requestTimeout: Math.max(options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, headersTimeout),
    // How often node:http looks for connections past those limits.
    connectionsCheckingInterval: Math.min(1_000, headersTimeout),
  };
}

export type ErrorShape = Pick<ChatDialect, 'encodeError'>;

/** The control API's error shape, for failures found before a control handler runs. */
const CONTROL_ERRORS: ErrorShape = {
  encodeError: (error: NeutralError) => ({
    status: error.status,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ error: { status: error.status, code: error.code, message: error.message } }),
  }),
};

export function sendControlError(res: ServerResponse, error: { status: number; code: string; message: string }): void {
  res.writeHead(error.status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error }));
}

/** Whose error shape a request gets when it fails before (or outside) its route's handling. */
export function errorShapeFor(method: string, path: string): ErrorShape {
  if (isControlPath(path)) return CONTROL_ERRORS;
  return dialectOf(matchRoute(method, path));
}

/** A connection that sent nothing before its first bytes were due (protocol-split.ts waits for them
 * before node:http's own timeout starts): the 408 node:http gives a request that stays unfinished. */
export function answerSilentConnection(socket: Socket, requestId: string): void {
  const failure = parserFailure({ name: 'Error', message: 'timeout', code: 'ERR_HTTP_REQUEST_TIMEOUT' }) as NeutralError;
  answerParserFailure(socket, errorShapeFor('POST', '/'), failure, requestId);
}

/** Answers, in the right shape, what node:http would otherwise answer with an empty body or a
 * silent close. `requestId` makes the id of such an answer. HTTP/2 has no parser failures of its
 * own to answer (a malformed frame ends its session) and no CONNECT tunnels to refuse here
 * (http2-side.ts refuses them); an unsupported Expect is answered on both. */
export function answerOutsideRoutes(http: Server, h2: Http2Server, requestId: () => string): void {
  http.on('clientError', (error: ParserError, socket: Socket) => {
    const failure = parserFailure(error);
    if (!failure) {
      socket.destroy();
      return;
    }
    answerParserFailure(socket, errorShapeFor('POST', failedRequestPath(error, socket) ?? '/'), failure, requestId());
  });
  // A proxy tunnel: no route takes it.
  http.on('connect', (_req: IncomingMessage, socket: Socket) => {
    const error: NeutralError = {
      kind: 'method_not_allowed',
      status: 405,
      code: 'method_not_allowed',
      message: 'CONNECT is not served: Understudy is not a proxy.',
    };
    answerParserFailure(socket, errorShapeFor('POST', '/'), error, requestId());
  });
  const unsupportedExpectation = (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    const error: NeutralError = {
      kind: 'invalid_request',
      status: 417,
      code: 'expectation_failed',
      message: `Expect: ${String(req.headers.expect)} is not supported; only 100-continue is.`,
    };
    const id = requestId();
    const encoded = errorShapeFor(req.method ?? 'GET', (req.url ?? '/').split('?')[0]).encodeError(error, { requestId: id });
    res.writeHead(encoded.status, { ...encoded.headers, 'x-request-id': id });
    res.end(encoded.body);
  };
  http.on('checkExpectation', unsupportedExpectation);
  h2.on('checkExpectation', unsupportedExpectation);
}

// What a provider request gets before its body is read: an unknown path or method, an unknown
// session, a session's missing API key.

import type { IncomingMessage } from 'node:http';
import { invalidRequest, type NeutralError } from '../core/errors.js';
import type { Session } from '../engine/session.js';
import { requestApiKey } from './access.js';
import { CONTROL_PREFIX, type RouteResult } from './routes.js';

/** What a request gets before its body is read: an unknown path or method, an unknown session, a
 * missing API key. */
export function refusalBeforeBody(
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
  return sessionRefusal(req, route, session);
}

/** An unknown session, or a session's missing API key. */
export function sessionRefusal(
  req: IncomingMessage,
  route: Exclude<RouteResult, { badPath: string }>,
  session: Session | undefined,
): NeutralError | undefined {
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

/** A body that could not be read as a request: over the limit, or not UTF-8. */
export function unreadBody(reason: 'too_large' | 'invalid_utf8', limit: number): NeutralError {
  return reason === 'too_large'
    ? { kind: 'too_large', status: 413, code: 'request_too_large', message: `Request body exceeds the limit of ${limit} bytes.` }
    : invalidRequest('We could not parse the JSON body of your request: it is not valid UTF-8.', null, 'invalid_json');
}

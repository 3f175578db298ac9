// Who may use the server: the control API stays on loopback unless a control token guards it,
// web pages reach the server only from origins the operator listed, and the control API answers
// only requests addressed to a loopback name (or a configured one), so that neither a page's
// cross-origin request nor a DNS-rebinding page can script a session.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { nodeCrypto } from '../core/node-crypto.js';

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** Loopback, or a name browsers resolve to loopback themselves (RFC 6761: `*.localhost`), which
 * DNS rebinding cannot point elsewhere. */
function isLoopbackName(hostname: string): boolean {
  return isLoopbackHost(hostname) || hostname.endsWith('.localhost');
}

/** The host name of a Host header value (`name:port`, `[v6]:port`), lower-cased. */
export function hostnameOf(hostHeader: string): string {
  const host = hostHeader.trim().toLowerCase();
  // Only a plain name or address with an optional port names a host; anything else (user info,
  // paths) names none that could be allowed.
  if (!/^(?:\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::\d{1,5})?$/.test(host)) return '';
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end < 0 ? host : host.slice(0, end + 1);
  }
  const colon = host.indexOf(':');
  return colon < 0 ? host : host.slice(0, colon);
}

export interface AccessRules {
  /** Browser origins allowed (`--cors`); `*` allows every origin. */
  corsOrigins: readonly string[];
  /** Host names besides loopback ones that the control API answers to (`--allow-host`). */
  allowedHosts: readonly string[];
  /** Whether a control token guards the control API (it then stands in for the Host check). */
  tokenSet: boolean;
}

export interface Refusal {
  status: 403;
  code: 'origin_not_allowed' | 'host_not_allowed';
  message: string;
}

/** Whether the Host header names this server as a loopback or configured host. */
function hostAllowed(hostHeader: string | undefined, rules: AccessRules): boolean {
  if (hostHeader === undefined) return true;
  const name = hostnameOf(hostHeader);
  return isLoopbackName(name) || rules.allowedHosts.includes(name);
}

/** A request from a web page (it carries `Origin`) is let through only from a listed origin or from
 * the server's own origin under an allowed host name. */
function originRefusal(req: IncomingMessage, rules: AccessRules, what: string): Refusal | undefined {
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  if (rules.corsOrigins.includes(origin) || rules.corsOrigins.includes('*')) return undefined;
  const host = req.headers.host;
  if (host !== undefined && hostAllowed(host, rules) && (origin === `http://${host}` || origin === `https://${host}`)) return undefined;
  return {
    status: 403,
    code: 'origin_not_allowed',
    message: `${what} does not accept requests from the web page at ${origin}: start Understudy with --cors ${origin} (corsOrigins) to allow it.`,
  };
}

/** Why a control API request is refused, if it is: a web page's origin, or a Host header that is
 * neither loopback nor configured (a DNS-rebinding page names its own host) while no token is set. */
export function controlRefusal(req: IncomingMessage, rules: AccessRules): Refusal | undefined {
  if (!rules.tokenSet && !hostAllowed(req.headers.host, rules)) {
    return {
      status: 403,
      code: 'host_not_allowed',
      message: `The control API answers only requests addressed to a loopback name (localhost, 127.0.0.1, [::1]); this one names "${req.headers.host}". List the name with --allow-host (allowedHosts) or set a control token.`,
    };
  }
  return originRefusal(req, rules, 'The control API');
}

/** Why a provider request from a web page is refused, if it is (requests without `Origin`, as
 * every server-side SDK sends them, are never refused here). */
export function browserRefusal(req: IncomingMessage, rules: AccessRules): Refusal | undefined {
  return req.headers.origin === undefined ? undefined : originRefusal(req, rules, 'Understudy');
}

function digest(text: string): Buffer {
  return nodeCrypto().createHash('sha256').update(text).digest();
}

/** Compares in constant time (hashing first, so lengths do not leak either). */
export function tokenMatches(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  return nodeCrypto().timingSafeEqual(digest(given), digest(expected));
}

export function controlTokenFrom(req: IncomingMessage): string | undefined {
  const header = req.headers['x-understudy-control-token'];
  if (typeof header === 'string') return header;
  const auth = req.headers.authorization;
  return auth?.startsWith('Bearer ') ? auth.slice(7).trim() : undefined;
}

/** Adds CORS headers for an allowed origin; answers the preflight. Returns true when it answered. */
export function applyCors(req: IncomingMessage, res: ServerResponse, origins: readonly string[]): boolean {
  const origin = req.headers.origin;
  if (!origin || origins.length === 0) return false;
  if (!origins.includes(origin) && !origins.includes('*')) return false;
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('vary', 'origin');
  res.setHeader('access-control-expose-headers', 'x-request-id, retry-after, retry-after-ms');
  if (req.method === 'OPTIONS') {
    res.writeHead(204, {
      'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
      'access-control-allow-headers':
        (req.headers['access-control-request-headers'] as string | undefined) ?? 'content-type, authorization',
      'access-control-max-age': '600',
    });
    res.end();
    return true;
  }
  return false;
}

const SIGV4 = 'AWS4-HMAC-SHA256 ';

/** The access key id of an AWS Signature V4 `Authorization` header (`… Credential=AKID/date/region/
 * service/aws4_request, …`): it names the caller as an API key does. The signature is not checked. */
function sigV4AccessKey(auth: string): string | undefined {
  const at = auth.indexOf('Credential=');
  if (at < 0) return undefined;
  const start = at + 'Credential='.length;
  const end = auth.indexOf('/', start);
  return end > start ? auth.slice(start, end) : undefined;
}

/** The API key a request carries, in any of the ways SDKs send one (an AWS request's access key id
 * or its Bedrock API key as a bearer token). */
export function requestApiKey(req: IncomingMessage, url: string, q: number): string | undefined {
  const h = req.headers;
  const auth = h.authorization;
  let key: string | undefined;
  if (auth && auth.startsWith('Bearer ')) key = auth.slice(7).trim();
  else if (auth && auth.startsWith(SIGV4)) key = sigV4AccessKey(auth);
  key ??= (h['api-key'] as string | undefined) ?? (h['x-api-key'] as string | undefined) ?? (h['x-goog-api-key'] as string | undefined);
  if (key === undefined && q >= 0) key = new URLSearchParams(url.slice(q + 1)).get('key') ?? undefined;
  return key;
}

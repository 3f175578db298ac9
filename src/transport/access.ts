// Who may use the server: the control API stays on loopback unless a control token guards it,
// and browsers get CORS headers only for origins the operator listed.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { nodeCrypto } from '../core/node-crypto.js';

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(host);
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

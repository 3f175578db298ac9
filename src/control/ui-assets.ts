// The dashboard's static files, served from the package's built dist/ui/ folder under
// /_understudy/ui/. Only files that are in that folder are served, by their plain names: no
// folders, no hidden files, no way out of it. The files carry no data (the page reads everything
// through the token-guarded control API), so they need no control token.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { packageRoot } from '../core/package-info.js';

export const UI_CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self'; base-uri 'none'; frame-ancestors 'none'";

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

const SECURITY_HEADERS = {
  'content-security-policy': UI_CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

function sendError(res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ error: { status, code, message } });
  res.writeHead(status, { ...SECURITY_HEADERS, ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** The folder the dashboard is served from, or undefined when the package has not been built. */
export function uiFolder(): string | undefined {
  const root = packageRoot();
  if (root === undefined) return undefined;
  const folder = join(root, 'dist', 'ui');
  try {
    return statSync(folder).isDirectory() ? folder : undefined;
  } catch {
    return undefined;
  }
}

/** A file name the folder may serve: one plain segment, not hidden. */
function plainName(segment: string): boolean {
  return (
    segment !== '' &&
    segment !== '..' &&
    !segment.startsWith('.') &&
    !segment.includes('/') &&
    !segment.includes('\\') &&
    !segment.includes('\0')
  );
}

/** Serves one dashboard file; `rest` is the decoded path after /_understudy/ui (empty: index.html). */
export function serveUiAsset(req: IncomingMessage, res: ServerResponse, rest: string[]): void {
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') {
    req.resume();
    sendError(res, 405, 'method_not_allowed', `the dashboard's files are read with GET or HEAD, not ${method}`, { allow: 'GET, HEAD' });
    return;
  }
  req.resume();
  const segments = rest.length === 0 || (rest.length === 1 && rest[0] === '') ? ['index.html'] : rest;
  const name = segments.length === 1 && plainName(segments[0]) ? segments[0] : undefined;
  // A name the dashboard could never have is a 404 whether or not it is built.
  if (name === undefined || !(extname(name).toLowerCase() in CONTENT_TYPES)) {
    sendError(res, 404, 'not_found', `the dashboard has no file ${JSON.stringify(segments.join('/'))}`);
    return;
  }
  const folder = uiFolder();
  if (folder === undefined) {
    sendError(res, 503, 'dashboard_not_built', 'the dashboard is not built: run `npm run build` in the package (it writes dist/ui/)');
    return;
  }
  let files: string[];
  try {
    files = readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
  } catch {
    files = [];
  }
  if (!files.includes(name)) {
    sendError(res, 404, 'not_found', `the dashboard has no file ${JSON.stringify(segments.join('/'))}`);
    return;
  }
  let body: Buffer;
  try {
    body = readFileSync(join(folder, name));
  } catch {
    sendError(res, 404, 'not_found', `the dashboard has no file ${JSON.stringify(name)}`);
    return;
  }
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'content-type': CONTENT_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream',
    'content-length': body.length,
  });
  res.end(method === 'HEAD' ? undefined : body);
}

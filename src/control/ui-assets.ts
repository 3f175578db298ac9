// The dashboard's files (built by `npm run build` into dist/ui/), served under /_understudy/ui/.
// They carry no data, so they need no control token; every data call the page makes does.

import { existsSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { packageRoot } from '../core/package-info.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

export const UI_HEADERS = {
  'content-security-policy': "default-src 'self'; img-src 'self' data:; style-src 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

function refuse(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { status, code, message } }));
}

/** Answers GET/HEAD of a dashboard file; `rest` is the decoded path below /_understudy/ui. */
export function serveUiAsset(req: IncomingMessage, res: ServerResponse, rest: string[]): void {
  req.resume();
  if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'method_not_allowed', 'the dashboard files take GET only');
  const name = rest.length === 0 ? 'index.html' : rest.join('/');
  if (rest.some((segment) => segment === '' || segment.startsWith('.') || /[/\\\0]/.test(segment)) || !(extname(name) in TYPES)) {
    return refuse(res, 404, 'not_found', `the dashboard has no file "${name}"`);
  }
  const root = packageRoot();
  const folder = root === undefined ? undefined : join(root, 'dist', 'ui');
  if (folder === undefined || !existsSync(join(folder, 'index.html'))) {
    return refuse(res, 503, 'dashboard_not_built', 'the dashboard is not built: run `npm run build` in the package');
  }
  const file = join(folder, name);
  if (!existsSync(file) || !statSync(file).isFile()) return refuse(res, 404, 'not_found', `the dashboard has no file "${name}"`);
  const body = readFileSync(file);
  res.writeHead(200, { 'content-type': TYPES[extname(name)], 'content-length': String(body.length), ...UI_HEADERS });
  res.end(req.method === 'HEAD' ? undefined : body);
}

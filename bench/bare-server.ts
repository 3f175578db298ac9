// The reference: a bare node:http server that reads the request body and answers
// POST /v1/chat/completions (or the path recorded with the capture) with fixed bytes captured from Understudy (status, header names and
// order, body). Node adds Date, Connection/Keep-Alive and the chunked framing itself, exactly as it
// does for Understudy, because both call writeHead(status, headers) then end(body).
//
// Run as a child: node --import tsx bench/bare-server.ts <capture.json>

import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { CHAT_PATH, isMain, serveAsChild, SERVER_OPTIONS } from './scenarios.js';

export interface CapturedResponse {
  status: number;
  /** Header names and values as received, flattened: [name, value, name, value, ...]. */
  rawHeaders: string[];
  /** The response body (after de-chunking), base64. */
  bodyBase64: string;
  /** The path it answers (default POST /v1/chat/completions). */
  path?: string;
}

/** Headers Node's http server writes by itself (with this exact casing); the bare server lets Node add them again. */
const NODE_GENERATED = new Set(['Date', 'Connection', 'Keep-Alive', 'Transfer-Encoding', 'Content-Length']);

export function replayableHeaders(rawHeaders: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (!NODE_GENERATED.has(rawHeaders[i])) out.push(rawHeaders[i], rawHeaders[i + 1]);
  }
  return out;
}

export function createBareServer(captured: CapturedResponse): Server {
  const status = captured.status;
  const headers = replayableHeaders(captured.rawHeaders);
  const body = Buffer.from(captured.bodyBase64, 'base64');
  const path = captured.path ?? CHAT_PATH;
  return createServer(SERVER_OPTIONS, (req, res) => {
    if (req.method !== 'POST' || req.url !== path) {
      req.resume();
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    req.on('data', () => {});
    req.on('end', () => {
      res.writeHead(status, headers);
      res.end(body);
    });
  });
}

if (isMain(import.meta.url)) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: bare-server.ts <capture.json>\n');
    process.exit(2);
  }
  const captured = JSON.parse(readFileSync(file, 'utf8')) as CapturedResponse;
  serveAsChild(createBareServer(captured));
}

// Record mode's way to the real provider (decision 0017 item 3): a request no script answers is
// sent to the upstream given for its provider, with the request's own credentials, and the answer
// is written to the client piece by piece as it arrives (the client's reading paces the upstream:
// nothing is buffered ahead of it). Once the answer ended, the recorder reads it back and keeps it
// as a script step (recorder.ts); an answer the client did not see to its end is not kept.

import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { NeutralError } from '../core/errors.js';
import { LEFT_EARLY, type Exchange } from './provider-exchange.js';
import type { Outcomes } from './outcomes.js';
import { PROVIDER_PATHS } from './routes.js';

/** Headers of the client's request that are about this hop, or Understudy's own, not the provider's. */
const NOT_FORWARDED = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'content-length',
  'accept-encoding',
  'x-understudy-session',
  'x-understudy-control-token',
]);
/** Headers of the upstream's answer that are about its hop. */
const NOT_RELAYED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade', 'trailer']);

/** The upstream's whole answer, as the client received it. */
export interface RelayedAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Milliseconds from sending the request to the answer's first body bytes, and to its end. */
  firstByteMs: number;
  totalMs: number;
}

/** Where a request goes: the upstream's base URL joined with the request's path past its
 * provider's base path (`/v1/chat/completions` → `<openai upstream>/chat/completions`). */
export function upstreamPath(provider: string, rawUrl: string): string {
  const url = rawUrl.startsWith('/s/') ? rawUrl.replace(/^\/s\/[^/]+/, '') : rawUrl;
  const base = PROVIDER_PATHS[provider] ?? '';
  return base !== '' && (url.startsWith(`${base}/`) || url.startsWith(`${base}?`)) ? url.slice(base.length) : url;
}

export function joinUrl(base: string, path: string): URL {
  return new URL(base.replace(/\/+$/, '') + path);
}

export function forwardedHeaders(headers: IncomingHttpHeaders, target: URL): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    // HTTP/2's pseudo-headers (:authority, :path …) are this hop's request line, not headers.
    if (
      value === undefined ||
      name.startsWith(':') ||
      NOT_FORWARDED.has(name) ||
      name.startsWith('x-mock-') ||
      name.startsWith('x-vidaimock-')
    )
      continue;
    out[name] = value;
  }
  out.host = target.host;
  out['accept-encoding'] = 'identity';
  return out;
}

const BROKE_OFF = "the upstream's answer broke off part-way; the client's was cut there and nothing was recorded";

/** Most bytes of one answer the recorder keeps to read back; a longer answer is still relayed whole. */
const KEPT_BYTES = 64 * 1024 * 1024;

/** Sends the request upstream and relays the answer; resolves with it once the client has it all,
 * or undefined when it did not (the client left, or the upstream failed: then answered or cut).
 * `headers` replaces the forwarded ones (a Bedrock request signed again for the upstream). */
export function relay(
  exchange: Exchange,
  target: URL,
  body: string,
  outcomes: Outcomes,
  headers?: OutgoingHttpHeaders,
): Promise<RelayedAnswer | undefined> {
  const { res, entry, session, dialect } = exchange;
  const req = res.req as IncomingMessage;
  const started = performance.now();
  return new Promise((resolve) => {
    // The client may have left while the request was being made ready (signing waits on credentials).
    if (res.destroyed) {
      outcomes.recordAborted(session, entry, LEFT_EARLY);
      resolve(undefined);
      return;
    }
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    let upstream: ReturnType<typeof send>;
    try {
      upstream = send(target, { method: req.method ?? 'POST', headers: headers ?? forwardedHeaders(req.headers, target) });
    } catch (error) {
      // Node refuses the request before sending it (a header it will not write).
      outcomes.finishError(exchange, dialect, unreachable(target, error as Error));
      resolve(undefined);
      return;
    }
    const clientLeft = () => {
      if (res.writableFinished) return;
      upstream.destroy();
      outcomes.recordAborted(session, entry, LEFT_EARLY);
      resolve(undefined);
    };
    res.once('close', clientLeft);
    // The upstream failed once its answer had begun: the client's is cut, and journalled as such.
    const brokeOff = () => {
      res.off('close', clientLeft);
      outcomes.recordAborted(session, entry, BROKE_OFF);
      res.destroy();
      resolve(undefined);
    };
    upstream.on('error', (error) => {
      if (res.headersSent) return brokeOff();
      res.off('close', clientLeft);
      outcomes.finishError(exchange, dialect, unreachable(target, error));
      resolve(undefined);
    });
    upstream.on('response', (answer) => {
      const headers: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !NOT_RELAYED.has(name)) headers[name] = value;
      headers['x-request-id'] ??= entry.requestId;
      res.writeHead(answer.statusCode ?? 502, headers);
      const kept: Buffer[] = [];
      let keptBytes = 0;
      let firstByteMs = -1;
      answer.on('data', (chunk: Buffer) => {
        if (firstByteMs < 0) firstByteMs = performance.now() - started;
        if (keptBytes + chunk.length <= KEPT_BYTES) kept.push(chunk);
        keptBytes += chunk.length;
        if (!res.write(chunk)) {
          answer.pause();
          res.once('drain', () => answer.resume());
        }
      });
      answer.on('error', brokeOff);
      answer.on('end', () => {
        res.end(() => {
          res.off('close', clientLeft);
          const totalMs = performance.now() - started;
          resolve({
            status: answer.statusCode ?? 502,
            headers: answer.headers,
            body: keptBytes <= KEPT_BYTES ? Buffer.concat(kept) : Buffer.alloc(0),
            firstByteMs: Math.max(0, firstByteMs),
            totalMs,
          });
        });
      });
    });
    upstream.end(body);
  });
}

function unreachable(target: URL, error: Error): NeutralError {
  return {
    kind: 'internal',
    status: 502,
    code: 'upstream_unreachable',
    message: `Understudy's record mode could not reach the upstream ${target.origin}: ${error.message}`,
  };
}

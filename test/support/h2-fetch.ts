// A `fetch` over cleartext HTTP/2 with prior knowledge (h2c), for SDKs that take a `fetch` option.
// undici 6's `allowH2` negotiates HTTP/2 only through TLS ALPN (lib/core/connect.js offers 'h2' in
// ALPNProtocols; lib/dispatcher/client.js picks h2 when `socket.alpnProtocol === 'h2'`), so it
// cannot speak h2c to an http:// URL; this adapter over node:http2's client does, one session per
// origin (as the AWS SDK's NodeHttp2Handler pools them), streaming the body as it arrives and
// following the reader's pace (a reader that stops stops the stream's flow-control window).

import http2, { type ClientHttp2Session } from 'node:http2';

export interface Http2Fetch {
  fetch: typeof fetch;
  /** The session to an origin, opened on first use. */
  session(origin: string): ClientHttp2Session;
  /** Every session opened so far, including closed ones. */
  readonly opened: ClientHttp2Session[];
  close(): void;
}

export interface Http2FetchOptions {
  /** The connection-level receive window: larger than a stream's, so one unread stream cannot hold
   * the others on its session (the default is one stream's 64 KB). */
  connectionWindow?: number;
}

export function http2Fetch(options: Http2FetchOptions = {}): Http2Fetch {
  const sessions = new Map<string, ClientHttp2Session>();
  const opened: ClientHttp2Session[] = [];
  const session = (origin: string): ClientHttp2Session => {
    let s = sessions.get(origin);
    if (s && !s.closed && !s.destroyed) return s;
    s = http2.connect(origin);
    const current = s;
    opened.push(s);
    sessions.set(origin, s);
    current.on('error', () => {});
    current.on('goaway', () => sessions.get(origin) === current && sessions.delete(origin));
    current.on('close', () => sessions.get(origin) === current && sessions.delete(origin));
    if (options.connectionWindow) current.once('connect', () => current.setLocalWindowSize(options.connectionWindow as number));
    return current;
  };

  const h2fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const headers: Record<string, string> = { ':method': request.method, ':path': url.pathname + url.search };
    request.headers.forEach((value, name) => {
      if (name !== 'host' && name !== 'connection' && name !== 'keep-alive' && name !== 'transfer-encoding') headers[name] = value;
    });
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    // As undici and the AWS SDK do for a body of known length.
    if (body) headers['content-length'] = String(body.length);
    const signal = init.signal ?? undefined;
    signal?.throwIfAborted();
    const stream = session(url.origin).request(headers, { endStream: body === undefined });
    if (body) stream.end(body);
    return new Promise<Response>((resolve, reject) => {
      const onAbort = () => {
        const reason = signal?.reason instanceof Error ? signal.reason : new DOMException('This operation was aborted', 'AbortError');
        stream.close(http2.constants.NGHTTP2_CANCEL);
        reject(reason);
        controller?.error(reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
      let ended = false;
      /** An error that waits for the chunks before it to be read (erroring a stream drops its queue). */
      let pendingError: Error | undefined;
      const fail = (error: Error) => {
        reject(error);
        if (controller && (controller.desiredSize ?? 1) <= 0) pendingError = error;
        else tryError(controller, error);
      };
      stream.on('error', fail);
      stream.on('end', () => (ended = true));
      stream.on('close', () => {
        signal?.removeEventListener('abort', onAbort);
        // Ended by the server's END_STREAM, or reset (RST_STREAM, or the session gone) part-way.
        if (ended && stream.rstCode === http2.constants.NGHTTP2_NO_ERROR) tryClose(controller);
        else if (!pendingError) fail(new Error(`HTTP/2 stream reset by the server (code ${stream.rstCode})`));
      });
      stream.on('response', (raw) => {
        const status = Number(raw[':status']);
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(raw)) {
          if (name.startsWith(':') || value === undefined) continue;
          responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : String(value));
        }
        const bodyStream =
          status === 204 || status === 304 || request.method === 'HEAD'
            ? null
            : new ReadableStream<Uint8Array>({
                start(c) {
                  controller = c;
                  stream.on('data', (chunk: Buffer) => {
                    c.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
                    if ((c.desiredSize ?? 1) <= 0) stream.pause();
                  });
                },
                pull(c) {
                  if (pendingError) tryError(c, pendingError);
                  else stream.resume();
                },
                cancel() {
                  stream.close(http2.constants.NGHTTP2_CANCEL);
                },
              });
        if (!bodyStream) stream.resume();
        resolve(new Response(bodyStream, { status, headers: responseHeaders }));
      });
    });
  };

  return {
    fetch: h2fetch as typeof fetch,
    session,
    opened,
    close() {
      for (const s of opened) s.destroy();
      sessions.clear();
    },
  };
}

function tryClose(controller: ReadableStreamDefaultController<Uint8Array> | undefined): void {
  try {
    controller?.close();
  } catch {
    // already errored or closed
  }
}

function tryError(controller: ReadableStreamDefaultController<Uint8Array> | undefined, error: Error): void {
  try {
    controller?.error(error);
  } catch {
    // already closed
  }
}

// HTTP/2 requests made with node:http2's client (cleartext, prior knowledge), for what an SDK
// cannot show: pseudo-headers of one's choice, a body that never ends, frames written by hand.

import http2, { type ClientHttp2Session, type OutgoingHttpHeaders } from 'node:http2';
import net from 'node:net';

export interface H2Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The stream's RST_STREAM code (0 when it ended normally). */
  rstCode: number;
}

/** One request on `session` (or on a session of its own to `origin`), read to its end. */
export function h2Request(
  target: string | ClientHttp2Session,
  headers: OutgoingHttpHeaders,
  body?: string,
  timeoutMs = 5000,
): Promise<H2Answer> {
  const own = typeof target === 'string' ? http2.connect(target) : undefined;
  const session = own ?? (target as ClientHttp2Session);
  own?.on('error', () => {});
  return new Promise<H2Answer>((resolve, reject) => {
    const stream = session.request(headers, { endStream: body === undefined });
    if (body !== undefined) stream.end(body);
    const timer = setTimeout(() => {
      stream.close(http2.constants.NGHTTP2_CANCEL);
      own?.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    let status = 0;
    let answerHeaders: H2Answer['headers'] = {};
    let text = '';
    stream.on('response', (h) => {
      status = Number(h[':status']);
      answerHeaders = { ...h };
    });
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => (text += chunk));
    stream.on('error', () => {});
    stream.on('close', () => {
      clearTimeout(timer);
      own?.close();
      resolve({ status, headers: answerHeaders, body: text, rstCode: stream.rstCode ?? 0 });
    });
  });
}

/** Writes the HTTP/2 preface, an empty SETTINGS frame and one HEADERS frame (END_STREAM,
 * END_HEADERS) whose block is `block` (HPACK, written by the caller), then collects what comes
 * back until the connection closes or `ms` pass. `splitAt`: the first write ends after that many
 * bytes of the preface, the rest follows 100 ms later. */
export function rawH2(port: number, block: Buffer, options: { ms?: number; splitAt?: number } = {}): Promise<Buffer> {
  const ms = options.ms ?? 1500;
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => {});
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks));
    };
    const timer = setTimeout(done, ms);
    socket.on('close', done);
    socket.on('connect', () => {
      const preface = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
      const all = Buffer.concat([preface, frame(0x4, 0, 0, Buffer.alloc(0)), frame(0x1, 0x5, 1, block)]);
      if (options.splitAt === undefined) socket.write(all);
      else {
        socket.write(all.subarray(0, options.splitAt));
        setTimeout(() => socket.write(all.subarray(options.splitAt)), 100);
      }
    });
  });
}

export function frame(type: number, flags: number, streamId: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(streamId, 5);
  return Buffer.concat([head, payload]);
}

/** An HPACK header field "literal without indexing", its name given by static-table index (or
 * spelled out when `name` is a string); no Huffman coding. */
export function literal(name: number | string, value: string): Buffer {
  const v = Buffer.from(value, 'latin1');
  if (typeof name === 'number') return Buffer.concat([Buffer.from([name]), Buffer.from([v.length]), v]);
  const n = Buffer.from(name, 'latin1');
  return Buffer.concat([Buffer.from([0, n.length]), n, Buffer.from([v.length]), v]);
}

/** The frames in `bytes`, as type, stream and payload. */
export function framesOf(bytes: Buffer): { type: number; stream: number; payload: Buffer }[] {
  const frames: { type: number; stream: number; payload: Buffer }[] = [];
  for (let at = 0; at + 9 <= bytes.length;) {
    const length = bytes.readUIntBE(at, 3);
    frames.push({ type: bytes[at + 3], stream: bytes.readUInt32BE(at + 5) & 0x7fffffff, payload: bytes.subarray(at + 9, at + 9 + length) });
    at += 9 + length;
  }
  return frames;
}

/** The DATA frames' payload of stream 1 in `bytes` (what follows the server's preface). */
export function dataOf(bytes: Buffer): string {
  let at = 0;
  let out = '';
  while (at + 9 <= bytes.length) {
    const length = bytes.readUIntBE(at, 3);
    const type = bytes[at + 3];
    const stream = bytes.readUInt32BE(at + 5) & 0x7fffffff;
    if (type === 0 && stream === 1) out += bytes.subarray(at + 9, at + 9 + length).toString('utf8');
    at += 9 + length;
  }
  return out;
}

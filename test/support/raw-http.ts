// Bytes no HTTP client would send, written straight to a socket, and the one response read back.
// Only for malformed-input tests: well-formed traffic goes through the real SDKs.

import net from 'node:net';
import { DIALECTS } from '../../src/dialects/registry.js';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The connection closed without any response bytes. */
  closedSilently: boolean;
}

/** Sends `data` and reads one response (up to its Content-Length), or what arrived before close. */
export function rawRequest(port: number, data: string | Buffer, timeoutMs = 5000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(data));
    let received = Buffer.alloc(0);
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parse(received));
    };
    const timer = setTimeout(() => {
      settled = true;
      socket.destroy();
      reject(new Error(`no complete response within ${timeoutMs} ms; got ${JSON.stringify(received.toString('latin1').slice(0, 200))}`));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (complete(received)) finish();
    });
    socket.on('error', finish);
    socket.on('close', finish);
  });
}

function headEnd(bytes: Buffer): number {
  return bytes.indexOf('\r\n\r\n');
}

function complete(bytes: Buffer): boolean {
  const end = headEnd(bytes);
  if (end < 0) return false;
  const head = bytes.subarray(0, end).toString('latin1');
  if (/\r\ntransfer-encoding: *chunked/i.test(head)) return bytes.subarray(bytes.length - 5).toString('latin1') === '0\r\n\r\n';
  const length = /\r\ncontent-length: *(\d+)/i.exec(head);
  return length !== null && bytes.length >= end + 4 + Number(length[1]);
}

function parse(bytes: Buffer): RawResponse {
  const end = headEnd(bytes);
  if (bytes.length === 0 || end < 0) return { status: 0, headers: {}, body: bytes.toString('latin1'), closedSilently: bytes.length === 0 };
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const length = headers['content-length'] !== undefined ? Number(headers['content-length']) : undefined;
  const rest = bytes.subarray(end + 4, length === undefined ? undefined : end + 4 + length);
  const body = headers['transfer-encoding'] === 'chunked' ? dechunked(rest) : rest.toString('utf8');
  return { status, headers, body, closedSilently: false };
}

function dechunked(bytes: Buffer): string {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const line = bytes.indexOf('\r\n', at);
    if (line < 0) break;
    const size = parseInt(bytes.subarray(at, line).toString('latin1'), 16);
    if (!(size > 0)) break;
    parts.push(bytes.subarray(line + 2, line + 2 + size));
    at = line + 2 + size + 2;
  }
  return Buffer.concat(parts).toString('utf8');
}

/** OpenAI's, Anthropic's, Gemini's, Ollama's, Cohere's and the control API's, and the hosts' of the
 * OpenAI dialects whose error bodies differ from OpenAI's (src/dialects/openai-hosts/). */
export type ErrorShape =
  'openai' | 'anthropic' | 'gemini' | 'ollama' | 'control' | 'mistral' | 'openrouter' | 'perplexity' | 'cohere' | 'bedrock';

/** The provider whose error shape a provider path's errors come in. */
export function shapeForPath(path: string): ErrorShape {
  const bare = path.split('?')[0].replace(/^\/s\/[^/]*/, '');
  if (bare === '/_understudy' || bare.startsWith('/_understudy/')) return 'control';
  if (bare.startsWith('/anthropic/') || bare.startsWith('/v1/messages')) return 'anthropic';
  if (bare.startsWith('/api/') || bare.startsWith('/ollama/api/')) return 'ollama';
  if (bare.startsWith('/cohere/') || bare.startsWith('/v2/chat') || bare === '/v1/chat') return 'cohere';
  if (bare.startsWith('/model/') || bare.startsWith('/bedrock/')) return 'bedrock';
  if (bare.startsWith('/gemini/') || bare.startsWith('/v1beta/') || /:(?:stream)?[gG]enerateContent$/.test(bare)) return 'gemini';
  if (bare.startsWith('/mistral/')) return 'mistral';
  if (bare.startsWith('/openrouter/')) return 'openrouter';
  if (bare.startsWith('/perplexity/')) return 'perplexity';
  return 'openai';
}

/** Which shape an error body is in: one of those above, or else the dialect whose own error body
 * it has the members of. */
export function shapeOf(body: string): ErrorShape | string | undefined {
  for (const shape of [
    'anthropic',
    'gemini',
    'ollama',
    'control',
    'openai',
    'mistral',
    'openrouter',
    'perplexity',
    'cohere',
    'bedrock',
  ] as const) {
    try {
      assertErrorShape(body, shape, '');
      return shape;
    } catch {
      // try the next one
    }
  }
  try {
    return DIALECT_ERROR_SHAPES.get(membersOf(JSON.parse(body)));
  } catch {
    return undefined;
  }
}

/** The member names of an error body and of its `error` object, e.g. "error{code,message}". */
function membersOf(value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return typeof value;
  const record = value as Record<string, unknown>;
  return Object.keys(record)
    .sort()
    .map((key) => (key === 'error' ? `error{${membersOf(record.error)}}` : key))
    .join(',');
}

/** Every registered dialect's error bodies, by their members, from each kind of neutral error. */
const DIALECT_ERROR_SHAPES = new Map<string, string>();
for (const registration of DIALECTS) {
  for (const { dialect } of registration.routes) {
    for (const [kind, status] of [
      ['invalid_request', 400],
      ['unauthorized', 401],
      ['not_found', 404],
      ['too_large', 413],
      ['no_match', 409],
      ['internal', 500],
    ] as const) {
      const encoded = dialect.encodeError({ kind, status, code: 'c', message: 'm', param: null }, { requestId: 'req_1' });
      DIALECT_ERROR_SHAPES.set(membersOf(JSON.parse(encoded.body)), dialect.id);
    }
  }
}

/** Throws unless `body` is an error body of that shape with a message. */
export function assertErrorShape(body: string, shape: ErrorShape, context: string): void {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(body) as Record<string, unknown>;
  } catch {
    throw new Error(`${context}: error body is not JSON: ${JSON.stringify(body.slice(0, 200))}`);
  }
  const fail = (why: string) => {
    throw new Error(`${context}: not a ${shape} error body (${why}): ${body.slice(0, 300)}`);
  };
  // Ollama's error is the message itself: {"error":"…"}.
  if (shape === 'ollama') {
    if (typeof value.error !== 'string' || value.error === '' || Object.keys(value).length !== 1) fail('only an error string expected');
    return;
  }
  if (shape === 'mistral') {
    // {"object":"error","message","type","param","code"}; a 422's message is {"detail":[…]}.
    const message = value.message as { detail?: unknown } | string | undefined;
    if (value.object !== 'error' || !('type' in value) || !('code' in value)) fail('object "error", type and code expected');
    if (!(typeof message === 'string' ? message !== '' : Array.isArray(message?.detail))) fail('no message');
    return;
  }
  // Bedrock's (restJson1) is {"message"} with the error's name in a header, Understudy's code beside it on its own refusals.
  if (shape === 'bedrock') {
    if (typeof value.message !== 'string' || value.message === '' || 'error' in value || 'id' in value)
      fail('a top-level message expected');
    return;
  }
  // Cohere's body is the error itself: {"id"?, "message"}.
  if (shape === 'cohere') {
    if (typeof value.message !== 'string' || value.message === '' || 'error' in value) fail('a top-level message expected');
    return;
  }
  const error = value.error as Record<string, unknown> | undefined;
  if (typeof error !== 'object' || error === null) fail('no error object');
  if (typeof error!.message !== 'string' || error!.message === '') fail('no message');
  switch (shape) {
    case 'openai':
      if (!('type' in error!) || !('param' in error!) || !('code' in error!)) fail('type, param and code expected');
      break;
    case 'anthropic':
      if (value.type !== 'error' || typeof error!.type !== 'string') fail('type "error" and error.type expected');
      break;
    case 'gemini':
      if (typeof error!.code !== 'number' || typeof error!.status !== 'string') fail('numeric code and status expected');
      break;
    case 'control':
      if (typeof error!.status !== 'number' || typeof error!.code !== 'string') fail('status and code expected');
      break;
    case 'openrouter':
      if (typeof error!.code !== 'number' || 'type' in error! || 'status' in error!)
        fail('a numeric code, and no type or status, expected');
      break;
    case 'perplexity':
      if (typeof error!.code !== 'number' || typeof error!.type !== 'string' || 'param' in error!)
        fail('a numeric code and a type expected');
      break;
  }
}

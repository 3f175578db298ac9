// How a paced answer reaches the wire. Paced pieces normally go to the socket as one framed chunk
// each (src/transport/chunk-writer.ts); these tests hold the cases where that shortcut must not
// be taken, or must wait: a reader slower than the stream (the socket's own back-pressure), an
// HTTP/1.0 client (no chunked encoding at all) and a pipelined request whose response waits for
// the one before it. No SDK speaks HTTP/1.0 or pipelines, so those two are raw sockets.

import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import OpenAI from 'openai';
import { startUnderstudy, type Understudy } from '../src/client/index.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const ask = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'go' }] };
const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i} `);

/** Everything the server sends on one connection until it closes it. */
function exchange(requestText: string): Promise<string> {
  const { port } = new URL(mock.url());
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(requestText));
    const parts: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error('no end within 10 s')));
    socket.on('data', (part: Buffer) => parts.push(part));
    socket.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    socket.on('error', reject);
  });
}

function post(path: string, apiKey: string, body: object, version: '1.0' | '1.1', last = true): string {
  const text = JSON.stringify(body);
  return (
    `POST ${path} HTTP/${version}\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
    `authorization: Bearer ${apiKey}\r\ncontent-length: ${Buffer.byteLength(text)}\r\n` +
    `${last ? 'connection: close\r\n' : ''}\r\n${text}`
  );
}

/** The body of a chunked HTTP/1.1 message, and what follows it on the connection. */
function unchunk(wire: string): { head: string; body: string; rest: string } {
  const headEnd = wire.indexOf('\r\n\r\n');
  const head = wire.slice(0, headEnd);
  assert.match(head, /\r\ntransfer-encoding: chunked/i);
  let at = headEnd + 4;
  let body = '';
  for (;;) {
    const lineEnd = wire.indexOf('\r\n', at);
    const size = Number.parseInt(wire.slice(at, lineEnd), 16);
    assert.ok(Number.isInteger(size), `chunk size line ${JSON.stringify(wire.slice(at, lineEnd))}`);
    at = lineEnd + 2;
    if (size === 0) return { head, body, rest: wire.slice(at + 2) };
    body += wire.slice(at, at + size);
    assert.equal(wire.slice(at + size, at + size + 2), '\r\n', 'a chunk ends with CRLF');
    at += size + 2;
  }
}

/** The content deltas of an OpenAI Chat SSE body, and whether it ends with [DONE]. */
function contentOf(sse: string): { text: string; done: boolean } {
  const events = sse.split('\n\n').filter(Boolean);
  const done = events.at(-1) === 'data: [DONE]';
  let text = '';
  for (const event of events.slice(0, done ? -1 : undefined)) {
    const chunk = JSON.parse(event.replace(/^data: /, '')) as { choices: { delta: { content?: string } }[] };
    text += chunk.choices[0]?.delta?.content ?? '';
  }
  return { text, done };
}

test(
  'a reader slower than a paced stream still gets every byte, in order, while other streams go on [openai-chat.text.stream +]',
  { timeout: 20_000 },
  async () => {
    const session = await mock.session('paced-slow-reader');
    // 1,024 pieces of 16 KB at 2,000 a second: 16 MB, more than the loopback socket buffers hold
    // while the reader sleeps, so the server has to wait for the socket to drain.
    const chunks = Array.from({ length: 1024 }, (_, i) => `${String(i).padStart(4, '0')}${' word'.repeat(3_276)}`);
    session.scenario('big').replies(chunks.join(''), { chunks }).paced({ chunksPerSecond: 2000 });
    // Meanwhile another paced stream is written and read at full speed: its pieces must not land in
    // bytes the slow one still has waiting.
    const other = await mock.session('paced-fast-reader');
    const otherChunks = Array.from({ length: 200 }, (_, i) => `${String(i).padStart(4, '0')}${' other'.repeat(300)}`);
    other.scenario('fast').replies(otherChunks.join(''), { chunks: otherChunks }).paced({ chunksPerSecond: 1000 });
    const client = (apiKey: string) => new OpenAI({ baseURL: mock.url('openai'), apiKey, maxRetries: 0, timeout: 15_000 });
    const stream = await client(session.apiKey).chat.completions.create({ ...ask, stream: true });
    const received: string[] = [];
    let otherText = '';
    for await (const chunk of stream) {
      const content = chunk.choices[0]?.delta?.content;
      if (content) received.push(content);
      if (received.length === 1) {
        // By now the slow stream's socket is full and its next piece waits in the server.
        await new Promise((r) => setTimeout(r, 400));
        const fast = await client(other.apiKey).chat.completions.create({ ...ask, stream: true });
        for await (const piece of fast) otherText += piece.choices[0]?.delta?.content ?? '';
      }
    }
    assert.equal(otherText, otherChunks.join(''));
    assert.deepEqual(
      received.map((piece) => piece.slice(0, 4)),
      chunks.map((piece) => piece.slice(0, 4)),
    );
    assert.equal(received.join(''), chunks.join(''));
    await session.verify();
    await other.verify();
  },
);

test('an HTTP/1.0 client gets a paced stream unchunked, ended by the connection closing', { timeout: 20_000 }, async () => {
  const session = await mock.session('paced-http10');
  const chunks = words(5);
  session.scenario('s').replies(chunks.join(''), { chunks }).paced({ chunksPerSecond: 100 });
  const wire = await exchange(post('/v1/chat/completions', session.apiKey, { ...ask, stream: true }, '1.0'));
  const headEnd = wire.indexOf('\r\n\r\n');
  assert.match(wire.slice(0, headEnd), /^HTTP\/1\.1 200 /);
  assert.doesNotMatch(wire.slice(0, headEnd), /transfer-encoding/i);
  // No chunk-size lines: the body is the SSE events themselves.
  assert.deepEqual(contentOf(wire.slice(headEnd + 4)), { text: chunks.join(''), done: true });
  await session.verify();
});

test('a paced stream pipelined behind another answer waits for it, then arrives chunked and whole', { timeout: 20_000 }, async () => {
  const session = await mock.session('paced-pipelined');
  const first = words(6);
  const second = ['p0 ', 'p1 ', 'p2 '];
  session
    .scenario('two')
    .replies(first.join(''), { chunks: first })
    .paced({ chunksPerSecond: 50 })
    .replies(second.join(''), { chunks: second })
    .paced({ chunksPerSecond: 100 });
  const body = { ...ask, stream: true };
  const wire = await exchange(
    post('/v1/chat/completions', session.apiKey, body, '1.1', false) + post('/v1/chat/completions', session.apiKey, body, '1.1'),
  );
  const one = unchunk(wire);
  assert.match(one.head, /^HTTP\/1\.1 200 /);
  assert.deepEqual(contentOf(one.body), { text: first.join(''), done: true });
  const two = unchunk(one.rest);
  assert.match(two.head, /^HTTP\/1\.1 200 /);
  assert.deepEqual(contentOf(two.body), { text: second.join(''), done: true });
  assert.equal(two.rest, '');
  await session.verify();
});

test(
  'a paced stream carries the same chunks as the unpaced one, multi-byte text and usage included [openai-chat.text.stream +]',
  { timeout: 20_000 },
  async () => {
    const session = await mock.session('paced-same-bytes');
    const chunks = ['héllo ', 'wörld ', '🎉 ', '日本語', ' done'];
    session.scenario('twice').replies(chunks.join(''), { chunks }).paced({ chunksPerSecond: 200 }).replies(chunks.join(''), { chunks });
    const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
    const collect = async () => {
      const stream = await openai.chat.completions.create({ ...ask, stream: true, stream_options: { include_usage: true } });
      const seen: unknown[] = [];
      for await (const chunk of stream) seen.push({ ...chunk, id: 'same', created: 0 });
      return seen;
    };
    const paced = await collect();
    const unpaced = await collect();
    assert.equal(paced.length, chunks.length + 3); // role, contents, finish, usage
    assert.deepEqual(paced, unpaced);
    await session.verify();
  },
);

// Issue 13 §1: one large or oddly shaped request must not stall the other clients. The server runs
// in a worker thread, so this file's timers and requests go out on time whatever the server does;
// while a pathological request is being answered, a health check and a small chat request through
// the openai SDK are sent every 25 ms, and each must be answered within 100 ms.

import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, test } from 'node:test';
import OpenAI from 'openai';
import { connectUnderstudy, type UnderstudySession } from '../src/client/index.js';
import { startUnderstudyThread, type UnderstudyThread } from './support/understudy-thread.js';

const MB = 1024 * 1024;
const PARALLEL_LIMIT_MS = 100;

let thread: UnderstudyThread;
let big: UnderstudySession;
let small: OpenAI;
let baseUrl: string;

before(async () => {
  thread = await startUnderstudyThread();
  baseUrl = thread.baseUrl;
  const control = await connectUnderstudy(baseUrl);
  big = await control.session('big');
  await big.load({ scenarios: [{ name: 'big', exhausted: 'repeat_last', replies: [{ text: 'big answered' }] }] });
  const parallel = await control.session('small');
  await parallel.load({ scenarios: [{ name: 'small', exhausted: 'repeat_last', replies: [{ text: 'small answered' }] }] });
  small = new OpenAI({ baseURL: parallel.url('openai'), apiKey: parallel.apiKey, maxRetries: 0, timeout: 30_000 });
  await small.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'warm up' }] });
  // The server's first large request compiles the code that counts it in slices; measure after.
  const warm = userText('chat', 'a'.repeat(MB));
  const response = await fetch(`${baseUrl}${warm.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...warm.headers },
    body: warm.bytes,
  });
  assert.equal(response.status, 200, await response.text());
});

after(async () => {
  await thread?.close();
});

type Dialect = 'chat' | 'responses' | 'messages' | 'gemini';

/** The route, headers and body of a request whose user turn is `content` (text or parts). */
interface BigRequest {
  path: string;
  headers: Record<string, string>;
  /** The body, encoded once up front: this thread stays free to send the parallel requests. */
  bytes: Uint8Array<ArrayBuffer>;
}

function requestOf(dialect: Dialect, body: Record<string, unknown>): BigRequest {
  const key = big.apiKey;
  switch (dialect) {
    case 'chat':
      return { path: '/v1/chat/completions', headers: { authorization: `Bearer ${key}` }, bytes: json({ model: 'g', ...body }) };
    case 'responses':
      return { path: '/v1/responses', headers: { authorization: `Bearer ${key}` }, bytes: json({ model: 'g', ...body }) };
    case 'messages':
      return {
        path: '/v1/messages',
        headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' },
        bytes: json({ model: 'claude-sonnet-4-6', max_tokens: 100, ...body }),
      };
    case 'gemini':
      return { path: '/v1beta/models/gemini-2.0-flash:generateContent', headers: { 'x-goog-api-key': key }, bytes: json(body) };
  }
}

function json(value: unknown): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(JSON.stringify(value));
}

/** A body whose one user message is `content`, in each dialect's words. */
function userText(dialect: Dialect, content: string) {
  if (dialect === 'responses') return requestOf(dialect, { input: content });
  if (dialect === 'gemini') return requestOf(dialect, { contents: [{ role: 'user', parts: [{ text: content }] }] });
  return requestOf(dialect, { messages: [{ role: 'user', content }] });
}

interface Probe {
  kind: 'health' | 'chat';
  ms: number;
}

/**
 * Sends `request` and, until it is answered, a health check and a small SDK chat every 25 ms.
 * Returns the answer to `request` and how long each parallel request took.
 */
async function whileAnswering(request: BigRequest) {
  const started = performance.now();
  let done = false;
  const answer = fetch(`${baseUrl}${request.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...request.headers },
    body: request.bytes,
  })
    .then(async (response) => ({ status: response.status, body: await response.text() }))
    .finally(() => (done = true));
  const probes: Probe[] = [];
  const pending: Promise<void>[] = [];
  while (!done) {
    const sent = performance.now();
    pending.push(
      fetch(`${baseUrl}/_understudy/health`)
        .then((r) => r.text())
        .then(() => void probes.push({ kind: 'health', ms: performance.now() - sent })),
      small.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'are you there?' }] }).then((c) => {
        assert.equal(c.choices[0].message.content, 'small answered');
        probes.push({ kind: 'chat', ms: performance.now() - sent });
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const result = await answer;
  await Promise.all(pending);
  return { ...result, elapsedMs: performance.now() - started, probes };
}

/**
 * Sends `make()`'s request while probing and checks that it was answered (200) and every parallel
 * request within 100 ms. The machine is shared (2 cores, other suites running): a run whose
 * slowest probe missed the limit is measured once more, and the better run counts. A server that
 * stalls misses it every time by far (seconds before this change).
 */
async function assertAnsweredAlongside(what: string, make: () => BigRequest, check?: (body: string) => void): Promise<void> {
  let best: Awaited<ReturnType<typeof whileAnswering>> | undefined;
  let slowest: Probe | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    const run = await whileAnswering(make());
    assert.equal(run.status, 200, `${what}: ${run.body.slice(0, 300)}`);
    check?.(run.body);
    assert.ok(run.probes.length >= 4, `${what}: answered in ${run.elapsedMs.toFixed(0)} ms, too fast to overlap parallel requests`);
    const worst = run.probes.reduce((a, b) => (b.ms > a.ms ? b : a));
    if (!slowest || worst.ms < slowest.ms) {
      best = run;
      slowest = worst;
    }
    if (slowest.ms < PARALLEL_LIMIT_MS) return;
  }
  assert.fail(
    `${what}: a parallel ${slowest?.kind} request waited ${slowest?.ms.toFixed(0)} ms (limit ${PARALLEL_LIMIT_MS} ms) ` +
      `while it was answered in ${best?.elapsedMs.toFixed(0)} ms`,
  );
}

const bigAnswered = (body: string) => assert.match(body, /big answered/);

for (const dialect of ['chat', 'responses', 'messages', 'gemini'] as const) {
  test(`${dialect}: a 15 MB body of one unbroken string is answered, and parallel requests within 100 ms`, async () => {
    await assertAnsweredAlongside(`15 MB string on ${dialect}`, () => userText(dialect, 'a'.repeat(15 * MB)), bigAnswered);
  });
}

test('a client that leaves while its large request is being counted consumes nothing', async () => {
  const control = await connectUnderstudy(baseUrl);
  const once = await control.session('leaves');
  await once.load({ scenarios: [{ name: 'once', replies: [{ text: 'the only reply' }] }] });
  const body = json({ model: 'g', messages: [{ role: 'user', content: 'a'.repeat(15 * MB) }] });
  const { port } = new URL(baseUrl);
  await new Promise<void>((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/v1/chat/completions',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${once.apiKey}`, 'content-length': body.length },
    });
    req.on('error', () => resolve()); // the socket is destroyed below
    req.on('response', () => reject(new Error('the request was answered before the client left')));
    // Sent whole; the server is counting for seconds after this.
    req.end(body, () => setTimeout(() => req.destroy(), 300));
  });
  const openai = new OpenAI({ baseURL: once.url('openai'), apiKey: once.apiKey, maxRetries: 0, timeout: 30_000 });
  const answer = await openai.chat.completions.create({ model: 'g', messages: [{ role: 'user', content: 'hi' }] });
  assert.equal(answer.choices[0].message.content, 'the only reply', 'the step is still there for the next request');
  const { entries } = await once.journal();
  assert.deepEqual(
    entries.map((e) => e.status),
    [200],
    'only the answered request is journalled',
  );
});

// Issue 13 §1: one large or oddly shaped request must not stall the other clients. The server runs
// in a worker thread, and the parallel requests are sent and timed from another (prober-thread.ts),
// so neither the server's work nor this thread's garbage of building large bodies delays them:
// while a pathological request is being answered, a health check and a small chat request through
// the openai SDK are sent every 25 ms, and each must be answered within 100 ms, or within three
// times what this machine takes at that moment to parse the body, whichever is longer (see
// parallelLimitMs).

import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, test } from 'node:test';
import OpenAI from 'openai';
import { connectUnderstudy, type UnderstudySession } from '../../src/client/index.js';
import { startProberThread, type Probe, type Prober } from '../support/prober-thread.js';
import { startUnderstudyThread, type UnderstudyThread } from '../support/understudy-thread.js';

const MB = 1024 * 1024;
const PARALLEL_LIMIT_MS = 100;

/**
 * How long a parallel request may wait while `request` is answered. Some steps cannot be sliced:
 * the body's text is made whole, JSON.parse reads it, the dialect decodes the parsed value, and the
 * collector reclaims what the last such request left; a parallel request can land on several. On a
 * quiet machine they fit the 100 ms together; on a loaded shared one they are slower, as every
 * program is. So the limit is the larger of 100 ms and three times a reference run made just before,
 * in this process, of the one step the server cannot avoid (the median of three): JSON.parse of the
 * body, or, for a body that must be refused before it is parsed, of one JSON string as long. A
 * server that counts, decodes or parses a costly shape in one turn still misses it by far (by
 * seconds before issue 13).
 */
function parallelLimitMs(request: BigRequest, parsedByServer: boolean): number {
  const text = parsedByServer ? new TextDecoder().decode(request.bytes) : JSON.stringify('a'.repeat(Math.max(0, request.bytes.length - 2)));
  const times = [0, 1, 2].map(() => {
    const started = performance.now();
    JSON.parse(text);
    return performance.now() - started;
  });
  const median = times.sort((a, b) => a - b)[1];
  return Math.max(PARALLEL_LIMIT_MS, 3 * median);
}

let thread: UnderstudyThread;
let big: UnderstudySession;
let prober: Prober;
let baseUrl: string;

before(async () => {
  thread = await startUnderstudyThread();
  baseUrl = thread.baseUrl;
  const control = await connectUnderstudy(baseUrl);
  big = await control.session('big');
  await big.load({ scenarios: [{ name: 'big', exhausted: 'repeat_last', replies: [{ text: 'big answered' }] }] });
  const parallel = await control.session('small');
  await parallel.load({ scenarios: [{ name: 'small', exhausted: 'repeat_last', replies: [{ text: 'small answered' }] }] });
  prober = await startProberThread({
    baseUrl,
    openaiUrl: parallel.url('openai'),
    apiKey: parallel.apiKey,
    expected: 'small answered',
    everyMs: 25,
  });
  // The server's first large request compiles the code that counts it in slices; measure after.
  const warm = userText('chat', 'a'.repeat(MB));
  const response = await fetch(`${baseUrl}${warm.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...warm.headers },
    body: warm.bytes,
  });
  assert.equal(response.status, 200, await response.text());
  // The first schema checked loads Ajv, once per process (docs/security.md "Limits").
  const tool = requestOf('messages', {
    messages: [{ role: 'user', content: 'hi' }],
    tools: [{ name: 'warm', input_schema: { type: 'object', properties: { a: { type: 'string' } } } }],
  });
  const checked = await fetch(`${baseUrl}${tool.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...tool.headers },
    body: tool.bytes,
  });
  assert.equal(checked.status, 200, await checked.text());
});

after(async () => {
  await prober?.close();
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

/** userText with more top-level fields. */
function userTextWith(dialect: Dialect, extra: Record<string, unknown>): BigRequest {
  const request = userText(dialect, 'hi');
  const body = { ...(JSON.parse(new TextDecoder().decode(request.bytes)) as object), ...extra };
  return { ...request, bytes: json(body) };
}

/**
 * Sends `request` and, until it is answered, a health check and a small SDK chat every 25 ms (from
 * the prober's thread). Returns the answer to `request` and how long each parallel request took.
 */
async function whileAnswering(request: BigRequest) {
  await prober.start();
  const started = performance.now();
  const answer = await fetch(`${baseUrl}${request.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...request.headers },
    body: request.bytes,
  })
    .then(async (response) => ({ status: response.status, body: await response.text() }))
    .catch(async (error: unknown) => {
      await prober.stop();
      throw error;
    });
  const elapsedMs = performance.now() - started;
  return { ...answer, elapsedMs, probes: await prober.stop() };
}

/**
 * Sends `make()`'s request while probing and checks that it was answered (200) and every parallel
 * request within the limit (parallelLimitMs). The machine is shared (2 cores, other suites
 * running): a run whose slowest probe missed the limit is measured again (three runs at most), and
 * the best run counts. A server that stalls misses it every time by far (seconds before this change).
 */
async function assertAnsweredAlongside(
  what: string,
  make: () => BigRequest | Promise<BigRequest>,
  check?: (body: string) => void,
): Promise<void> {
  let best: { elapsedMs: number; slowest: Probe; limit: number } | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    const request = await make();
    const limit = parallelLimitMs(request, true);
    const run = await whileAnswering(request);
    assert.equal(run.status, 200, `${what}: ${run.body.slice(0, 300)}`);
    check?.(run.body);
    const slowest = run.probes.reduce((a, b) => (b.ms > a.ms ? b : a));
    if (!best || slowest.ms - limit < best.slowest.ms - best.limit) best = { elapsedMs: run.elapsedMs, slowest, limit };
    if (slowest.ms < limit) {
      // The figure docs/performance.md quotes.
      console.log(
        `${what}: answered in ${run.elapsedMs.toFixed(0)} ms; slowest parallel request ${slowest.ms.toFixed(0)} ms (${slowest.kind}), ` +
          `limit ${limit.toFixed(0)} ms, run ${attempt + 1}`,
      );
      return;
    }
  }
  assert.fail(
    `${what}: a parallel ${best?.slowest.kind} request waited ${best?.slowest.ms.toFixed(0)} ms (limit ${best?.limit.toFixed(0)} ms) ` +
      `while it was answered in ${best?.elapsedMs.toFixed(0)} ms`,
  );
}

const bigAnswered = (body: string) => assert.match(body, /big answered/);

for (const dialect of ['chat', 'responses', 'messages', 'gemini'] as const) {
  test(`${dialect}: a 15 MB body of one unbroken string is answered, and parallel requests are not held up`, async () => {
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
  // The server notices the closed socket between two slices of its count: the small request may be
  // answered before that.
  let { entries } = await once.journal();
  for (let i = 0; i < 100 && entries.length < 2; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    ({ entries } = await once.journal());
  }
  assert.deepEqual(
    entries.map((e) => [e.event, e.status]).sort(),
    [
      ['reply_returned', 200],
      ['request_aborted', 499],
    ],
    'the request that left is journalled as aborted, the answered one as answered',
  );
});

/** Distinct words (a seeded generator), so that no cache of word counts helps. */
function distinctWords(chars: number): string {
  const words: string[] = [];
  let length = 0;
  let x = 7;
  while (length < chars) {
    let word = ' ';
    for (let i = 2 + (x % 9); i > 0; i--) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      word += String.fromCharCode(97 + ((x >> 8) % 26));
    }
    words.push(word);
    length += word.length;
  }
  return words.join('').slice(0, chars);
}

test('chat: 15 MB of distinct words is answered, and parallel requests are not held up', async () => {
  await assertAnsweredAlongside('15 MB of words', () => userText('chat', distinctWords(15 * MB)), bigAnswered);
});

test('messages: 4 MB of emoji and CJK without spaces is answered, and parallel requests are not held up', async () => {
  await assertAnsweredAlongside('emoji and CJK', () => userText('messages', '😀漢字🎉かな'.repeat(MB / 2)), bigAnswered);
});

test('chat and responses: 60,000 content parts in one message are answered (500,000 overflowed the stack: a 500)', async () => {
  // Earlier tests' 15 MB answers, one per attempt when a machine is slow, may have filled the
  // session's response store; this test is about the parts, not the store.
  await big.reset();
  // Each part is an element and two members: just under the 200,000 values a body may hold.
  const parts = Array.from({ length: 60_000 }, () => ({ type: 'text', text: 'p' }));
  const chat = await whileAnswering(requestOf('chat', { messages: [{ role: 'user', content: parts }] }));
  assert.equal(chat.status, 200, chat.body.slice(0, 300));
  const items = Array.from({ length: 60_000 }, () => ({ type: 'output_text', text: 'p' }));
  const input = [
    { role: 'user', content: 'go' },
    { role: 'assistant', content: items },
  ];
  const responses = await whileAnswering(requestOf('responses', { input }));
  assert.equal(responses.status, 200, responses.body.slice(0, 300));
});

/** Sends `request` while probing and checks its 400 in the dialect's shape names the budget, and
 * that every parallel request was answered within the limit (parallelLimitMs; the best of three runs). */
async function assertRefusedAlongside(dialect: Dialect, what: string, make: () => BigRequest, pattern: RegExp): Promise<void> {
  let best = { slowest: Infinity, limit: PARALLEL_LIMIT_MS };
  for (let attempt = 0; attempt < 3 && best.slowest >= best.limit; attempt++) {
    const request = make();
    const limit = parallelLimitMs(request, false);
    const run = await whileAnswering(request);
    assert.equal(run.status, 400, `${what}: ${run.body.slice(0, 300)}`);
    const body = JSON.parse(run.body) as { error: { message: string; code?: string; type?: string; status?: string } };
    assert.match(body.error.message, pattern, what);
    if (dialect === 'gemini') assert.equal(body.error.status, 'INVALID_ARGUMENT');
    else if (dialect === 'messages') assert.equal(body.error.type, 'invalid_request_error');
    else assert.equal(body.error.code, 'request_too_complex');
    const slowest = Math.max(...run.probes.map((p) => p.ms));
    if (slowest - limit < best.slowest - best.limit) best = { slowest, limit };
  }
  console.log(`${what}: refused; slowest parallel request ${best.slowest.toFixed(0)} ms, limit ${best.limit.toFixed(0)} ms`);
  assert.ok(
    best.slowest < best.limit,
    `${what}: a parallel request waited ${best.slowest.toFixed(0)} ms (limit ${best.limit.toFixed(0)} ms)`,
  );
}

const manyKeys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`key_${i}`, i]));

test('bodies of very many values get the provider 400 before they are parsed, and parallel requests are not held up', async () => {
  const tooMany = /holds more than 200,000 values/;
  const tooWide = /has an object of more than 10,000 members/;
  // Issue 13's leftovers: 800,000 keys in one object stalled the server 0.4-2 s in JSON.parse.
  await assertRefusedAlongside('chat', 'chat metadata of 800k keys', () => userTextWith('chat', { metadata: manyKeys(800_000) }), tooWide);
  await assertRefusedAlongside(
    'gemini',
    'gemini labels of 800k keys',
    () => userTextWith('gemini', { labels: manyKeys(800_000) }),
    tooWide,
  );
  await assertRefusedAlongside(
    'messages',
    'messages of 2M numbers in stop_sequences',
    () => userTextWith('messages', { stop_sequences: Array.from({ length: 2_000_000 }, () => 1) }),
    tooMany,
  );
  const schema = { type: 'object', properties: { a: { type: 'string', enum: Array.from({ length: 300_000 }, (_, i) => `v${i}`) } } };
  await assertRefusedAlongside(
    'responses',
    'responses schema enum of 300k values',
    () => userTextWith('responses', { text: { format: { type: 'json_schema', name: 'big', schema } } }),
    tooMany,
  );
});

test('gemini: 39,000 contents (five values each: just under the budget) are answered, and parallel requests are not held up', async () => {
  const contents = Array.from({ length: 39_001 }, (_, i) => ({ role: i % 2 ? 'model' : 'user', parts: [{ text: `turn ${i}` }] }));
  await assertAnsweredAlongside('39,000 Gemini contents', () => requestOf('gemini', { contents }), bigAnswered);
});

test('chat: a 5 MB tool call and a 5 MB tool result are answered, and parallel requests are not held up', async () => {
  const history = [
    { role: 'user', content: 'go' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'save', arguments: JSON.stringify({ blob: 'x'.repeat(5 * MB) }) } }],
    },
    { role: 'tool', tool_call_id: 'call_1', content: 'y'.repeat(5 * MB) },
  ];
  const tools = [{ type: 'function', function: { name: 'save', parameters: { type: 'object' } } }];
  await assertAnsweredAlongside('long tool call and result', () => requestOf('chat', { messages: history, tools }), bigAnswered);
});

test('messages and chat: 50,000 short messages are answered, and parallel requests are not held up', async () => {
  const messages = Array.from({ length: 50_001 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i}` }));
  await assertAnsweredAlongside('50,000 Anthropic messages', () => requestOf('messages', { messages }), bigAnswered);
  await assertAnsweredAlongside('50,000 Chat messages', () => requestOf('chat', { messages }), bigAnswered);
});

let declarations = 0;
/** `count` tools whose schemas no earlier request declared (schema checks are cached by text). */
function freshSchemas(count: number) {
  return Array.from({ length: count }, () => ({
    name: `tool_${++declarations}`,
    description: 'one of many',
    schema: {
      type: 'object',
      properties: {
        city: { type: 'string', description: `city ${declarations}` },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        days: { type: 'integer', minimum: 1, maximum: 14 },
        note: { type: 'string', pattern: '^[a-z ]*$' },
      },
      required: ['city'],
    },
  }));
}

test('messages and gemini: 1,000 tools with schemas not seen before are answered, and parallel requests are not held up', async () => {
  await assertAnsweredAlongside('1,000 Anthropic tools', () =>
    requestOf('messages', {
      messages: [{ role: 'user', content: 'hi' }],
      tools: freshSchemas(1000).map((t) => ({ name: t.name, description: t.description, input_schema: t.schema })),
    }),
  );
  await assertAnsweredAlongside('1,000 Gemini function declarations', () =>
    requestOf('gemini', {
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      tools: [
        {
          functionDeclarations: freshSchemas(1000).map((t) => ({
            name: t.name,
            description: t.description,
            parametersJsonSchema: t.schema,
          })),
        },
      ],
    }),
  );
});

test('messages and gemini: more tools than Understudy checks, or a schema too large to compile, get the provider 400', async () => {
  const tools = freshSchemas(1001).map((t) => ({ name: t.name, input_schema: t.schema }));
  const many = await whileAnswering(requestOf('messages', { messages: [{ role: 'user', content: 'hi' }], tools }));
  assert.equal(many.status, 400, many.body);
  const error = JSON.parse(many.body) as { type: string; error: { type: string; message: string } };
  assert.equal(error.error.type, 'invalid_request_error');
  assert.match(error.error.message, /^tools: Understudy checks the schemas of at most 1000 tools per request/);

  const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 1200 }, (_, i) => [`p${i}`, { type: 'string' }])) };
  const huge = await whileAnswering(
    requestOf('gemini', {
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      tools: [{ functionDeclarations: [{ name: 'wide', parametersJsonSchema: wide }] }],
    }),
  );
  assert.equal(huge.status, 400, huge.body);
  const gemini = JSON.parse(huge.body) as { error: { status: string; message: string } };
  assert.equal(gemini.error.status, 'INVALID_ARGUMENT');
  assert.match(gemini.error.message, /more than the 1000 Understudy compiles/);
});

test('chat: an output schema too large to compile is refused at decode with the provider 400, at once', async () => {
  const control = await connectUnderstudy(baseUrl);
  const session = await control.session('wide-output');
  await session.load({ scenarios: [{ name: 'json', replies: [{ text: '{}' }] }] });
  const properties = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`p${i}`, { type: 'string', enum: [`a${i}`, 'b'] }]));
  const openai = new OpenAI({ baseURL: session.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 30_000 });
  const started = performance.now();
  const error = await openai.chat.completions
    .create({
      model: 'g',
      messages: [{ role: 'user', content: 'hi' }],
      response_format: { type: 'json_schema', json_schema: { name: 'wide', schema: { type: 'object', properties } } },
    })
    .catch((e: unknown) => e);
  const elapsed = performance.now() - started;
  assert.ok(error instanceof OpenAI.BadRequestError, String(error));
  assert.equal(error.param, 'response_format.json_schema.schema');
  assert.match(error.message, /more than the 1000 Understudy compiles/);
  assert.ok(elapsed < 1000, `refused after ${elapsed.toFixed(0)} ms`);
});

test('chat: a 1 MB scripted reply is counted once, not on every answer: parallel requests are not held up', async () => {
  const control = await connectUnderstudy(baseUrl);
  const session = await control.session('long-reply');
  const text = 'z'.repeat(MB);
  await session.load({ scenarios: [{ name: 'long', exhausted: 'repeat_last', replies: [{ text }] }] });
  const ask = () => ({
    path: '/v1/chat/completions',
    headers: { authorization: `Bearer ${session.apiKey}` },
    bytes: json({ model: 'g', messages: [{ role: 'user', content: 'the long one, please' }] }),
  });
  const first = await whileAnswering(ask()); // its text is counted here, in one turn (docs/security.md "Limits")
  assert.equal(first.status, 200);
  await assertAnsweredAlongside('a repeated 1 MB reply', ask, (body) => {
    const completion = JSON.parse(body) as { choices: { message: { content: string } }[]; usage: { completion_tokens: number } };
    assert.equal(completion.choices[0].message.content, text);
    assert.ok(completion.usage.completion_tokens > 0);
  });
});

let stories = 0;
test('responses: a small request continuing a 15 MB stored response is answered, and parallel requests are not held up', async () => {
  // The body is a few bytes; the conversation it continues is 15 MB (a new one for each run: counts
  // of long texts are kept).
  const continuation = async () => {
    await big.reset(); // empties the session's response store (its scripts stay, rewound)
    const story = `${++stories} ${'a'.repeat(15 * MB)}`;
    const stored = await whileAnswering(userText('responses', story));
    assert.equal(stored.status, 200, stored.body.slice(0, 300));
    const previous = (JSON.parse(stored.body) as { id: string }).id;
    return requestOf('responses', { previous_response_id: previous, input: 'and then?' });
  };
  await assertAnsweredAlongside('a continuation of 15 MB', continuation, bigAnswered);
});

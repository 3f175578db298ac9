// Large scripted replies (issue 13, item 4): bounded when a script is loaded, streamed whole through
// the real SDKs with the server's memory bounded, and clients that never read a large stream hold
// only a window of it in the server and give everything back when they go.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import fc from 'fast-check';
import OpenAI from 'openai';
import { connectUnderstudy, startUnderstudy, type UnderstudySession } from '../../src/client/index.js';
import { wordPieces } from '../../src/core/stream-pieces.js';
import { arraySource } from '../../src/dialects/dialect.js';
import { splitInputJson } from '../../src/dialects/anthropic-messages/encode-stream.js';
import { splitArguments } from '../../src/dialects/openai/split-arguments.js';
import { defaultChunks } from '../../src/engine/resolve.js';
import { loadFixtureFile } from '../../src/engine/fixture-file.js';
import { writeStreamed } from '../../src/transport/stream-writer.js';
import { startMemoryServer, type MemoryServer } from '../support/memory-server.js';
import { freshCli } from '../support/fresh-cli.js';

const MB = 1024 * 1024;

/** About `bytes` of text in no repeating order, so a piece out of place would show: words drawn
 * from a vocabulary of 2,000 by a seeded generator, and a numbered line break every 17 words. (A
 * vocabulary, not millions of distinct words: the token counter's cost on those is not this test's.) */
function wordsText(bytes: number): string {
  const vocabulary = Array.from({ length: 2000 }, (_, i) => `w${(i * 7919).toString(36)}`);
  const parts: string[] = [];
  let size = 0;
  let seed = 12345;
  for (let i = 0; size < bytes; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const word = i % 17 === 0 ? `line ${i}.\n` : `${vocabulary[(seed >>> 16) % 2000]} `;
    parts.push(word);
    size += word.length;
  }
  return parts.join('');
}

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'understudy-large-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('a 10 MB scripted text streams whole through the openai (Chat, Responses), anthropic and genai SDKs; the server stays within 300 MB more RSS', async (t) => {
  const server = await startMemoryServer();
  try {
    const mock = await connectUnderstudy(server.url);
    const session = await mock.session('big');
    const text = wordsText(10 * 1000 * 1000);
    // One unbroken word of emoji: an event far bigger than a write batch, cut between surrogate pairs.
    const unbroken = 'start ' + '\u{1F600}'.repeat(300_000) + ' end';
    await session.load({
      scenarios: [
        { name: 'words', exhausted: 'repeat_last', steps: [{ when: { latestUser: 'words' }, reply: { text } }] },
        { name: 'unbroken', exhausted: 'repeat_last', steps: [{ when: { latestUser: 'unbroken' }, reply: { text: unbroken } }] },
      ],
    });
    const before = await server.memory();
    const t0 = performance.now();

    const openai = new OpenAI({ baseURL: session.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 60_000 });
    for (const prompt of ['words', 'unbroken']) {
      const stream = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: prompt }], stream: true });
      let got = '';
      let finish: string | null | undefined;
      for await (const chunk of stream) {
        got += chunk.choices[0]?.delta?.content ?? '';
        finish ??= chunk.choices[0]?.finish_reason;
      }
      assert.equal(got.length, (prompt === 'words' ? text : unbroken).length);
      assert.ok(got === (prompt === 'words' ? text : unbroken), `the ${prompt} text arrived changed`);
      assert.equal(finish, 'stop');
    }

    t.diagnostic(`chat done ${Math.round(performance.now() - t0)} ms`);
    const anthropic = new Anthropic({ baseURL: session.url('anthropic'), apiKey: session.apiKey, maxRetries: 0, timeout: 60_000 });
    const stream = anthropic.messages.stream({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'words' }],
    });
    let got = '';
    stream.on('text', (delta) => (got += delta));
    const message = await stream.finalMessage();
    assert.ok(got === text, 'the text arrived changed through @anthropic-ai/sdk');
    assert.equal(message.content[0]?.type === 'text' && message.content[0].text === text, true);
    assert.equal(message.stop_reason, 'end_turn');

    t.diagnostic(`anthropic done ${Math.round(performance.now() - t0)} ms`);
    // OpenAI Responses (its closing events repeat the whole text) and Gemini, through their SDKs too.
    let viaResponses = '';
    let completed = '';
    const events = await openai.responses.create({ model: 'gpt-4o', input: 'words', stream: true });
    for await (const event of events) {
      if (event.type === 'response.output_text.delta') viaResponses += event.delta;
      if (event.type === 'response.completed') {
        const item = event.response.output.find((o) => o.type === 'message');
        const part = item?.type === 'message' ? item.content[0] : undefined;
        completed = part?.type === 'output_text' ? part.text : '';
      }
    }
    assert.ok(viaResponses === text, 'the deltas arrived changed through openai.responses');
    assert.ok(completed === text, 'response.completed carries another text');
    t.diagnostic(`responses done ${Math.round(performance.now() - t0)} ms`);
    const genai = new GoogleGenAI({ apiKey: session.apiKey, httpOptions: { baseUrl: session.url('gemini'), timeout: 60_000 } });
    let viaGemini = '';
    for await (const chunk of await genai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'words' }))
      viaGemini += chunk.text ?? '';
    assert.ok(viaGemini === text, 'the text arrived changed through @google/genai');
    t.diagnostic(`gemini done ${Math.round(performance.now() - t0)} ms`);

    const after = await server.memory();
    // A stream is journalled once the server saw its response close, which may come just after
    // the client read its last byte. (The journal's 32 MB budget keeps the newest entries only.)
    let journal = await session.journal();
    for (let tries = 0; journal.entries.length + journal.counters.evicted < 5 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      journal = await session.journal();
    }
    assert.equal(journal.entries.length + journal.counters.evicted, 5);
    assert.equal(journal.counters.errorsReturned, 0);
    assert.ok(journal.entries.length > 0 && journal.entries.every((e) => e.status === 200));
    const grew = (after.peakRss - before.rss) / MB;
    t.diagnostic(`server RSS ${(before.rss / MB).toFixed(0)} MB before, peak ${(after.peakRss / MB).toFixed(0)} MB during the streams`);
    assert.ok(grew < 300, `the server's RSS peaked ${grew.toFixed(0)} MB above where it was before the streams`);
  } finally {
    await server.stop();
  }
});

test('a reply over the per-reply limit is refused at load, naming the file and the path inside it', async () => {
  const big = 'x'.repeat(16 * MB + 1);
  const file = join(dir, 'too-big.yaml');
  await writeFile(file, `scenarios:\n  - name: big\n    steps:\n      - reply:\n          text: ${big}\n`);
  const loaded = await loadFixtureFile(file);
  assert.equal(loaded.ok, false);
  const [problem] = loaded.ok ? [] : loaded.problems;
  assert.equal(problem?.file, file);
  assert.equal(problem?.path, '/scenarios/0/steps/0/reply/text');
  assert.equal(problem?.line, 5);
  assert.match(problem?.message ?? '', /at most 16 MiB \(16,777,216 bytes\).*maxReplyBytes.*found 16\.0 MiB \(16,777,217 bytes\)/);

  // Text, reasoning and tool arguments together, each under the limit: the reply is named.
  const half = 'y'.repeat(8 * MB);
  const json = join(dir, 'together.json');
  await writeFile(
    json,
    JSON.stringify({
      scenarios: [
        { name: 'two', replies: [{ text: 'ok' }, { text: half, reasoning: half, toolCalls: [{ name: 't', arguments: { a: 'b' } }] }] },
      ],
    }),
  );
  const together = await loadFixtureFile(json);
  assert.equal(together.ok, false);
  const [sum] = together.ok ? [] : together.problems;
  assert.equal(sum?.path, '/scenarios/0/replies/1');
  assert.match(sum?.message ?? '', /together.*text 8,388,608, reasoning 8,388,608, tool arguments 9/);

  // The CLI says the same, as file:line:col  /path  message; its flags set the limits.
  const validate = async (...args: string[]) => {
    const cli = spawn(process.execPath, [freshCli(), 'validate', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    cli.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    cli.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
    const code = await new Promise((resolve) => cli.once('close', resolve));
    return { code, out };
  };
  const cli = await validate(file);
  assert.equal(cli.code, 1);
  assert.ok(
    cli.out.startsWith(`${file}:5:17  /scenarios/0/steps/0/reply/text  expected a reply text of at most 16 MiB`),
    cli.out.slice(0, 300),
  );
  const lowered = await validate('--max-reply-bytes', '20', 'examples/weather.yaml');
  assert.equal(lowered.code, 1);
  assert.match(
    lowered.out,
    /^examples\/weather\.yaml:20:17 {2}\/scenarios\/0\/steps\/1\/reply\/text {2}expected a reply text of at most 20 bytes/m,
  );
  assert.equal((await validate('--max-reply-bytes', '1e9', 'examples/weather.yaml')).code, 2);

  // A chunk list over the per-stream limit.
  const chunks = Array.from({ length: 100_001 }, () => 'z');
  const manyChunks = join(dir, 'chunks.json');
  await writeFile(manyChunks, JSON.stringify({ scenarios: [{ name: 'c', replies: [{ text: chunks.join(''), chunks }] }] }));
  const chunked = await loadFixtureFile(manyChunks);
  assert.equal(chunked.ok, false);
  assert.deepEqual(chunked.ok ? [] : chunked.problems.map((p) => [p.path, p.message]), [
    [
      '/scenarios/0/replies/0/chunks',
      'expected at most 100,000 stream chunks (the per-stream limit; raise it with the maxStreamChunks option or --max-stream-chunks); found 100,001',
    ],
  ]);
});

test('the same limits hold over the control API, for load() and for the builder; an option raises them', async () => {
  const mock = await startUnderstudy({ maxReplyBytes: 1000 });
  try {
    const remote = await connectUnderstudy(mock.baseUrl);
    const session = await remote.session('limits');
    const text = 'a'.repeat(1001);
    const response = await fetch(`${mock.baseUrl}/_understudy/sessions/limits/scripts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        scenarios: [{ name: 's', steps: [{ reply: { text: 'fine' } }, { reply: { toolCalls: [{ name: 't', arguments: text }] } }] }],
      }),
    });
    assert.equal(response.status, 400);
    const body = (await response.json()) as { error: { code: string; problems: { path: string; message: string }[] } };
    assert.equal(body.error.code, 'invalid_fixture');
    assert.deepEqual(
      body.error.problems.map((p) => p.path),
      ['/scenarios/0/steps/1/reply/toolCalls/0/arguments'],
    );
    assert.match(
      body.error.problems[0]?.message ?? '',
      /^expected tool-call arguments of at most 1,000 bytes of UTF-8 .*; found 1,001 bytes$/,
    );
    await assert.rejects(
      session.load({ name: 's', replies: [{ text }] }),
      /\/scenarios\/0\/replies\/0\/text {2}expected a reply text of at most/,
    );

    const local = await mock.session('builder');
    assert.throws(
      () => local.scenario('b').replies(text),
      /scenario "b" {2}\/scenarios\/0\/steps\/0\/reply\/text {2}expected a reply text/,
    );
    assert.throws(() => local.scenario('c').replies('ok', { reasoning: text }), /\/scenarios\/0\/steps\/0\/reply\/reasoning/);
    await local.load({ name: 'fits', replies: [{ text: 'a'.repeat(1000) }] });
  } finally {
    await mock.close();
  }
  await assert.rejects(startUnderstudy({ maxReplyBytes: 65 * MB }), /maxReplyBytes must be an integer from 1 to 67108864/);
  await assert.rejects(
    startUnderstudy({
      fixtures: [{ scenarios: [{ name: 'x', replies: [{ text: 'abc', chunks: ['a', 'b', 'c'] }] }] }],
      maxStreamChunks: 2,
    }),
    /startUnderstudy\(\) fixtures\[0\] {2}\/scenarios\/0\/replies\/0\/chunks {2}expected at most 2 stream chunks/,
  );
});

/** How each dialect asks for a stream, for a raw client. */
const STREAM_ROUTES = [
  { path: '/v1/chat/completions', body: { model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'big' }] } },
  { path: '/v1/responses', body: { model: 'gpt-4o', stream: true, input: 'big' } },
  {
    path: '/v1/messages',
    body: { model: 'claude-sonnet-4-5', max_tokens: 1024, stream: true, messages: [{ role: 'user', content: 'big' }] },
  },
  { path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', body: { contents: [{ parts: [{ text: 'big' }] }] } },
];

function rawRequest(port: string, apiKey: string, route: number, stream: boolean): string {
  const { path, body } = STREAM_ROUTES[route % STREAM_ROUTES.length] as (typeof STREAM_ROUTES)[number];
  const text = JSON.stringify(stream ? body : { ...body, stream: false });
  return (
    `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nauthorization: Bearer ${apiKey}\r\nx-api-key: ${apiKey}\r\n` +
    `x-goog-api-key: ${apiKey}\r\nanthropic-version: 2023-06-01\r\n` +
    `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`
  );
}

/** A raw HTTP/1.1 client that asks for a stream (route: index into STREAM_ROUTES; or for the
 * JSON answer, with `stream` false) and never reads: its socket is paused at once. */
function nonReader(url: string, apiKey: string, route = 0, stream = true): Promise<Socket> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(rawRequest(port, apiKey, route, stream));
      socket.pause();
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** The same request read whole: the body's length. */
async function readWhole(url: string, apiKey: string, route: number): Promise<number> {
  const { path, body } = STREAM_ROUTES[route] as (typeof STREAM_ROUTES)[number];
  const response = await fetch(new URL(path, url), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${apiKey}`,
      'x-api-key': apiKey,
      'x-goog-api-key': apiKey,
      'anthropic-version': '2023-06-01',
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  assert.equal(response.status, 200);
  return (await response.arrayBuffer()).byteLength;
}

async function untilJournal(session: { journal(): Promise<{ counters: { requests: number } }> }, requests: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while ((await session.journal()).counters.requests < requests) {
    if (Date.now() > deadline) throw new Error(`fewer than ${requests} requests arrived`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('ten clients that never read a large stream (four dialects) hold little of it; the server answers others meanwhile and gives the memory back when they close', async (t) => {
  let server: MemoryServer | undefined = await startMemoryServer();
  try {
    const remote = await connectUnderstudy(server.url);
    const big = await remote.session('big');
    const text = wordsText(8 * 1000 * 1000);
    await big.load({ name: 'big', exhausted: 'repeat_last', replies: [{ text }] });
    const other = await remote.session('other');
    await other.load({ name: 'small', exhausted: 'repeat_last', replies: [{ text: 'still here' }] });

    // One stream read whole first: what a reply makes once (its shared encodings) is in the baseline.
    const openai = new OpenAI({ baseURL: big.url('openai'), apiKey: big.apiKey, maxRetries: 0, timeout: 60_000 });
    let length = 0;
    for await (const chunk of await openai.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'big' }],
      stream: true,
    }))
      length += chunk.choices[0]?.delta?.content?.length ?? 0;
    assert.equal(length, text.length);
    // And once in each other dialect: the non-readers below are spread over all four.
    for (const route of [1, 2, 3]) assert.ok((await readWhole(server.url, big.apiKey, route)) > text.length);
    const baseline = await server.memory();

    const sockets = await Promise.all(Array.from({ length: 10 }, (_, i) => nonReader(server!.url, big.apiKey, i)));
    await untilJournal(big, 14);
    // Let the server fill what the sockets take, then look.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const held = await server.memory();

    const small = new OpenAI({ baseURL: other.url('openai'), apiKey: other.apiKey, maxRetries: 0, timeout: 10_000 });
    const started = performance.now();
    const answer = await small.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hello' }] });
    const took = performance.now() - started;
    assert.equal(answer.choices[0]?.message.content, 'still here');
    assert.ok(took < 2000, `a request beside the ten non-readers took ${took.toFixed(0)} ms`);

    for (const socket of sockets) socket.destroy();
    // The server lets go at once (heap and buffers); the allocator gives the pages back to the
    // system in its own time, so RSS is read again for a few seconds before it is judged.
    let released = await server.memory();
    for (let i = 0; i < 20 && (released.rss - baseline.rss) / MB >= 100; i++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      released = await server.memory();
    }

    const heldMb = (held.rss - baseline.rss) / MB;
    const leftMb = (released.rss - baseline.rss) / MB;
    const heapLeftMb = (released.heap - baseline.heap) / MB;
    t.diagnostic(
      `server RSS ${(baseline.rss / MB).toFixed(0)} MB before, ${heldMb.toFixed(1)} MB more with ten non-readers, ${leftMb.toFixed(1)} MB more after they closed ` +
        `(heap and buffers ${((held.heap - baseline.heap) / MB).toFixed(1)} / ${heapLeftMb.toFixed(1)} MB); a request beside them took ${took.toFixed(0)} ms`,
    );
    // What the server holds for them (heap and buffers) is the window; RSS also counts the heap the
    // ten requests' own work grew and what the allocator keeps, so its margins are wider. Before,
    // each held its whole stream, and the byte templates kept copies after they closed.
    const heapHeldMb = (held.heap - baseline.heap) / MB;
    assert.ok(heapHeldMb < 20, `ten non-reading clients hold ${heapHeldMb.toFixed(1)} MB of heap and buffers in the server`);
    assert.ok(heldMb < 150, `ten non-reading clients cost ${heldMb.toFixed(0)} MB of RSS in the server`);
    assert.ok(leftMb < 100, `${leftMb.toFixed(0)} MB of RSS stayed after the ten clients closed`);
    assert.ok(heapLeftMb < 10, `${heapLeftMb.toFixed(0)} MB of heap and buffers stayed after the ten clients closed`);
    // Each left before its stream was delivered: none is journalled as answered.
    assert.equal((await big.journal()).entries.filter((e) => e.status === 200).length, 4);
  } finally {
    await server?.stop();
    server = undefined;
  }
});

test('a client that leaves before a large answer was delivered (stream or JSON) consumes nothing: the next request gets that step', async () => {
  const mock = await startUnderstudy();
  try {
    const session = await mock.session('queue');
    const text = wordsText(8 * 1000 * 1000);
    await session.load({ name: 'queue', replies: [{ text }, { text }, { text: 'third' }] });
    const openai = new OpenAI({ baseURL: session.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 60_000 });
    let requests = 0;
    const leaveEarly = async (stream: boolean) => {
      const socket = await nonReader(mock.baseUrl, session.apiKey, 0, stream);
      await untilJournal(session, ++requests);
      await new Promise((resolve) => setTimeout(resolve, 300));
      socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 100));
    };

    await leaveEarly(true);
    let got = '';
    requests++;
    for await (const chunk of await openai.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'big' }],
      stream: true,
    }))
      got += chunk.choices[0]?.delta?.content ?? '';
    assert.ok(got === text, 'the first step was not given whole to the stream after the one that left');

    await leaveEarly(false);
    requests++;
    const whole = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'big' }] });
    assert.ok(whole.choices[0]?.message.content === text, 'the second step was not given whole to the request after the one that left');

    const third = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'again' }] });
    assert.equal(third.choices[0]?.message.content, 'third');
    await session.verify();
  } finally {
    await mock.close();
  }
});

/** A client that asks for the stream and reads nothing is disconnected by the server after its
 * stalledReaderMs (400 ms here) and journalled as stalled; the step it held is then streamed whole
 * to the SDK. Returns how many chunks the SDK read. */
async function assertStalledThenReleased(baseUrl: string, session: UnderstudySession, text: string): Promise<number> {
  const socket = await nonReader(baseUrl, session.apiKey, 0, true);
  // The client reads nothing (its socket is paused): the server must give up on it by itself.
  let journal = await session.journal();
  for (let i = 0; i < 200 && journal.entries.length === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    journal = await session.journal();
  }
  socket.destroy();
  assert.equal(journal.entries[0]?.event, 'request_aborted', JSON.stringify(journal.entries[0]));
  assert.match(journal.entries[0]?.error?.message ?? '', /stopped reading its answer for 400 ms/);
  const openai = new OpenAI({ baseURL: session.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 60_000 });
  let got = '';
  let chunks = 0;
  for await (const chunk of await openai.chat.completions.create({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'big' }],
    stream: true,
  })) {
    got += chunk.choices[0]?.delta?.content ?? '';
    chunks++;
  }
  assert.ok(got === text, 'the stalled request consumed the step');
  return chunks;
}

test('a client that stops reading a large stream is disconnected after stalledReaderMs: its step is released and journalled as stalled', async () => {
  const mock = await startUnderstudy({ stalledReaderMs: 400 });
  try {
    const session = await mock.session('stalls');
    const text = wordsText(8 * 1000 * 1000);
    await session.load({ name: 'big', replies: [{ text }, { text: 'after the big one' }] });
    await assertStalledThenReleased(mock.baseUrl, session, text);
  } finally {
    await mock.close();
  }
});

test('a client that stops reading a paced stream is disconnected after stalledReaderMs: its step is released and journalled as stalled', async () => {
  const mock = await startUnderstudy({ stalledReaderMs: 400 });
  try {
    const session = await mock.session('stalls-paced');
    // 200 events of 64 KB at 100 a second: more than the socket's buffers take within a second or two.
    const chunks = Array.from({ length: 200 }, (_, i) => `${String(i).padStart(4, '0')}${'p'.repeat(64 * 1024 - 5)} `);
    const text = chunks.join('');
    await session.load({ name: 'paced', pacing: { chunksPerSecond: 100 }, replies: [{ text, chunks }, { text: 'after the paced one' }] });
    const events = await assertStalledThenReleased(mock.baseUrl, session, text);
    assert.ok(events >= chunks.length, `${events} events`);
  } finally {
    await mock.close();
  }
});

test('a long text streams in at most 100,000 pieces that join to it and cut only between words; tool arguments likewise', () => {
  const word = fc.stringMatching(/^[a-zé😀]{1,6}$/);
  const space = fc.constantFrom(' ', '\n', '  ', '\t', '\u00a0');
  const text = fc.array(fc.tuple(word, space), { minLength: 1, maxLength: 200 }).map((parts) => parts.map(([w, s]) => w + s).join(''));
  const cutsBetweenWords = (t: string, pieces: string[]) => {
    let at = 0;
    for (const piece of pieces.slice(0, -1)) {
      at += piece.length;
      assert.ok(/\s/.test(t[at - 1] ?? '') && /\S/.test(t[at] ?? ''), `a cut inside a word at ${at}`);
    }
  };
  // What replies stream by default (engine/resolve.ts), on texts past the bound.
  fc.assert(
    fc.property(text, fc.integer({ min: 100_001, max: 400_000 }), (unit, length) => {
      const t = unit.repeat(Math.ceil(length / unit.length));
      const pieces = defaultChunks(t);
      assert.equal(pieces.join(''), t);
      assert.ok(pieces.length <= 100_000, `${pieces.length} pieces`);
      cutsBetweenWords(t, pieces);
    }),
    { numRuns: 20 },
  );
  // Below the bound the pieces are the words they always were.
  fc.assert(
    fc.property(text, fc.integer({ min: 1, max: 300 }), (t, most) => {
      const pieces = wordPieces(t, most);
      assert.equal(pieces.join(''), t);
      assert.ok(pieces.length <= most);
      if (t.length <= most) assert.deepEqual(pieces, t.match(/\s*\S+\s*|\s+/g) ?? []);
      cutsBetweenWords(t, pieces);
    }),
  );
  // Tool-call argument fragments (OpenAI Chat's, Responses' and Anthropic's): 24 characters, longer past the bound.
  fc.assert(
    fc.property(fc.string({ minLength: 1, maxLength: 64 }), fc.integer({ min: 2_400_001, max: 5_000_000 }), (unit, length) => {
      const t = unit.repeat(Math.ceil(length / unit.length));
      for (const pieces of [splitArguments(t), splitInputJson(t)]) {
        assert.equal(pieces.join(''), t);
        assert.ok(pieces.length <= 100_000, `${pieces.length} fragments`);
      }
    }),
    { numRuns: 5 },
  );
  fc.assert(
    fc.property(fc.string({ maxLength: 2400 }), (t) => {
      const pieces = splitArguments(t);
      assert.equal(pieces.join(''), t);
      assert.ok(pieces.slice(0, -1).every((p) => p.length === 24));
    }),
  );
});

test('an event far bigger than a write batch arrives whole over HTTP, however its surrogate pairs fall on the batch edges', async () => {
  const events = (offset: number) => ['a'.repeat(offset) + '\u{1F600}'.repeat(200_000) + '!', 'tail'];
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    void writeStreamed(res, arraySource(events(Number(req.url?.slice(1)))));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as { port: number };
    for (const offset of [0, 1, 2, 3]) {
      const response = await fetch(`http://127.0.0.1:${port}/${offset}`, { signal: AbortSignal.timeout(10_000) });
      const body = await response.text();
      assert.ok(body === events(offset).join(''), `offset ${offset}: the body arrived changed`);
    }
  } finally {
    server.close();
  }
});

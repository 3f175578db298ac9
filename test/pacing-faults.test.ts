// Issue 5 §1 and §3 for OpenAI Chat: paced streams (time to first token, chunks per second,
// seeded jitter) and faults part-way through an answer, each seen through the real openai SDK.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import OpenAI from 'openai';
import { startUnderstudy, type Understudy } from '../src/client/index.js';
import { seededRandom } from '../src/transport/scheduler.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const ask = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'go' }] };
const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i} `);

function client(apiKey: string, timeout = 10_000) {
  return new OpenAI({ baseURL: mock.url('openai'), apiKey, maxRetries: 0, timeout });
}

async function arrivals(openai: OpenAI): Promise<{ start: number; times: number[]; text: string }> {
  const start = performance.now();
  const stream = await openai.chat.completions.create({ ...ask, stream: true });
  const times: number[] = [];
  let text = '';
  for await (const chunk of stream) {
    times.push(performance.now());
    text += chunk.choices[0]?.delta?.content ?? '';
  }
  return { start, times, text };
}

test('a paced stream waits for the first token, then keeps its rate [openai-chat.text.stream +]', async () => {
  const session = await mock.session('paced-one');
  const chunks = words(10);
  session.scenario('slow').replies(chunks.join(''), { chunks }).paced({ ttftMs: 150, chunksPerSecond: 50 });
  const { start, times, text } = await arrivals(client(session.apiKey));
  assert.equal(text, chunks.join(''));
  assert.ok(times[0] - start >= 145, `first chunk after ${(times[0] - start).toFixed(1)} ms`);
  // The rate is checked loosely here (other test files share the cores); test/timing/ checks accuracy.
  const last = times[times.length - 1] - start;
  const expected = 150 + (times.length - 1) * 20;
  assert.ok(last >= expected - 5 && last < expected + 1000, `last chunk after ${last.toFixed(1)} ms, scheduled at ${expected} ms`);
});

test('jitter comes from a seeded generator: the same seed gives the same sequence', () => {
  const a = seededRandom(42);
  const b = seededRandom(42);
  const c = seededRandom(43);
  const seqA = Array.from({ length: 5 }, a);
  assert.deepEqual(seqA, Array.from({ length: 5 }, b));
  assert.notDeepEqual(seqA, Array.from({ length: 5 }, c));
  for (const x of seqA) assert.ok(x >= 0 && x < 1);
});

test('a client that aborts during a paced stream consumes nothing', async () => {
  const session = await mock.session('paced-abort');
  const chunks = words(10);
  session.scenario('slow').replies(chunks.join(''), { chunks }).paced({ chunksPerSecond: 20 }).replies('next');
  const openai = client(session.apiKey);
  const controller = new AbortController();
  const stream = await openai.chat.completions.create({ ...ask, stream: true }, { signal: controller.signal });
  const got: string[] = [];
  // The SDK ends the iteration quietly (or throws) when its request is aborted.
  await (async () => {
    for await (const chunk of stream) {
      got.push(chunk.choices[0]?.delta?.content ?? '');
      if (got.length === 3) controller.abort();
    }
  })().catch(() => undefined);
  assert.ok(got.length < chunks.length, `stopped after ${got.length} chunks`);
  await new Promise((r) => setTimeout(r, 100));
  const again = await openai.chat.completions.stream({ ...ask, stream: true }).finalChatCompletion();
  assert.equal(again.choices[0].message.content, chunks.join(''));
  const next = await openai.chat.completions.create(ask);
  assert.equal(next.choices[0].message.content, 'next');
  await session.verify();
});

test('an error event part-way through a stream is thrown by the SDK [openai-chat.errors.stream -]', async () => {
  const session = await mock.session('fault-error');
  const chunks = words(6);
  session
    .scenario('f')
    .replies(chunks.join(''), { chunks })
    .withFault({ kind: 'error', afterChunks: 3, error: { status: 503, message: 'upstream overloaded', code: 'overloaded' } });
  const got: string[] = [];
  const error = await (async () => {
    const stream = await client(session.apiKey).chat.completions.create({ ...ask, stream: true });
    for await (const chunk of stream) got.push(chunk.choices[0]?.delta?.content ?? '');
  })().catch((e: unknown) => e);
  assert.ok(error instanceof OpenAI.APIError, String(error));
  assert.match((error as Error).message, /upstream overloaded/);
  assert.deepEqual(got, ['', 'w0 ', 'w1 ']);
  await session.verify();
});

test('a truncated stream (no finish_reason, no [DONE]) fails the stream helper', async () => {
  const session = await mock.session('fault-truncate');
  session
    .scenario('f')
    .replies('a b c d', { chunks: ['a ', 'b ', 'c ', 'd'] })
    .withFault({ kind: 'truncate', afterChunks: 2 });
  const error = await client(session.apiKey)
    .chat.completions.stream({ ...ask, stream: true })
    .finalChatCompletion()
    .catch((e: unknown) => e);
  assert.ok(error instanceof Error);
  assert.match(error.message, /finish_reason|stream ended/i);
});

test('a malformed chunk makes the SDK fail to parse the stream', async () => {
  const session = await mock.session('fault-malformed');
  session
    .scenario('f')
    .replies('a b c', { chunks: ['a ', 'b ', 'c'] })
    .withFault({ kind: 'malformed', afterChunks: 2 });
  const error = await (async () => {
    const stream = await client(session.apiKey).chat.completions.create({ ...ask, stream: true });
    for await (const _ of stream) void _;
  })().catch((e: unknown) => e);
  assert.ok(error instanceof Error, String(error));
  assert.match(error.message, /JSON|parse|Unterminated|Unexpected/i);
});

test('a TCP reset and a closed connection part-way surface as connection errors', async () => {
  for (const kind of ['reset', 'close'] as const) {
    const session = await mock.session(`fault-${kind}`);
    session
      .scenario('f')
      .replies('a b c', { chunks: ['a ', 'b ', 'c'] })
      .withFault({ kind, afterChunks: 2 });
    const error = await (async () => {
      const stream = await client(session.apiKey).chat.completions.create({ ...ask, stream: true });
      for await (const _ of stream) void _;
    })().catch((e: unknown) => e);
    assert.ok(error instanceof Error, `${kind}: ${String(error)}`);
    assert.match(
      `${error.message} ${String((error as { cause?: unknown }).cause ?? '')}`,
      /terminated|reset|socket|closed|aborted|premature/i,
      kind,
    );
  }
});

test('a stall before any byte is ended by the SDK timeout', async () => {
  const session = await mock.session('fault-stall-0');
  session.scenario('f').replies('a b c').withFault({ kind: 'stall', afterChunks: 0 });
  const started = performance.now();
  const error = await client(session.apiKey, 400)
    .chat.completions.create({ ...ask, stream: true })
    .catch((e: unknown) => e);
  assert.ok(error instanceof OpenAI.APIConnectionTimeoutError, String(error));
  const took = performance.now() - started;
  assert.ok(took >= 350 && took < 5000, `ended after ${took.toFixed(0)} ms`);
});

test('a stall mid-stream is ended by the client giving up', async () => {
  const session = await mock.session('fault-stall-2');
  session
    .scenario('f')
    .replies('a b c', { chunks: ['a ', 'b ', 'c'] })
    .withFault({ kind: 'stall', afterChunks: 2 });
  const started = performance.now();
  const got: string[] = [];
  await (async () => {
    const stream = await client(session.apiKey).chat.completions.create({ ...ask, stream: true }, { signal: AbortSignal.timeout(400) });
    for await (const chunk of stream) got.push(chunk.choices[0]?.delta?.content ?? '');
  })().catch(() => undefined);
  const took = performance.now() - started;
  assert.deepEqual(got, ['', 'a ']);
  assert.ok(took >= 350 && took < 5000, `ended after ${took.toFixed(0)} ms`);
});

test('a JSON answer cut after some bytes fails to parse in the SDK', async () => {
  const session = await mock.session('fault-json');
  session.scenario('f').replies('complete answer').withFault({ kind: 'close', afterBytes: 40 });
  const error = await client(session.apiKey)
    .chat.completions.create(ask)
    .catch((e: unknown) => e);
  assert.ok(error instanceof Error, String(error));
});

test('bad pacing and fault scripts are refused with the path and what was expected', async () => {
  const session = await mock.session('fault-invalid');
  await assert.rejects(
    session.load({
      scenarios: [{ name: 'x', replies: [{ text: 'a', pacing: { chunksPerSecond: 0 }, fault: { kind: 'explode' as never } }] }],
    }),
    (e: Error) =>
      /\/scenarios\/0\/replies\/0\/pacing\/chunksPerSecond\s+expected events per second/.test(e.message) &&
      /\/scenarios\/0\/replies\/0\/fault\/kind\s+expected one of error, truncate, malformed, stall, reset, close/.test(e.message),
  );
});

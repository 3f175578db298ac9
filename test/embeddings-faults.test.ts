// A delay and a fault scripted on an embeddings input (embeddings[].delayMs, .fault), judged by the
// real openai and @google/genai SDKs over HTTP: the delay holds the answer back, a client that
// leaves during it is journalled as 499 with nothing answered, and each fault reaches the SDK as
// the transport failure it is; a fault of kind error is refused when the fixture loads.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

function clientOf(session: UnderstudySession, timeout = 10_000): OpenAI {
  return new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout });
}

const MODEL = 'text-embedding-3-small';

async function failure(call: Promise<unknown>): Promise<Error> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof Error);
    return error;
  }
  assert.fail('the call succeeded');
}

test('a delay scripted on an input holds the answer back; other inputs answer at once [openai-embeddings.faults.json +]', async () => {
  const session = await mock.session('delay');
  await session.load({ scenarios: [], embeddings: [{ input: 'slow', vector: [1, 0], delayMs: 300 }] });
  const openai = clientOf(session);
  let started = performance.now();
  const slow = await openai.embeddings.create({ model: MODEL, input: ['fast', 'slow'] });
  const slowMs = performance.now() - started;
  assert.deepEqual(slow.data[1].embedding, [1, 0]);
  assert.ok(slowMs >= 280, `the delayed answer came after ${slowMs} ms`);
  started = performance.now();
  await openai.embeddings.create({ model: MODEL, input: ['fast'] });
  assert.ok(performance.now() - started < 250, 'an input with no delay is not held back');
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.status),
    [200, 200],
  );
});

test('a client that leaves during the delay is journalled as 499, nothing answered [openai-embeddings.faults.json +]', async () => {
  const session = await mock.session('delay-abort');
  await session.load({ scenarios: [], embeddings: [{ input: 'slow', vector: [1, 0], delayMs: 2_000 }] });
  const controller = new AbortController();
  const call = clientOf(session).embeddings.create({ model: MODEL, input: 'slow' }, { signal: controller.signal });
  setTimeout(() => controller.abort(), 150);
  const error = await failure(call);
  assert.ok(error instanceof OpenAI.APIUserAbortError, String(error));
  let entries = (await session.journal()).entries;
  for (let i = 0; i < 50 && entries.length === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    entries = (await session.journal()).entries;
  }
  assert.equal(entries.length, 1);
  assert.equal(entries[0].status, 499);
  assert.equal(entries[0].error?.code, 'client_closed_request');
});

test('reset, close and truncate reach the openai SDK as connection errors; malformed as a parse failure [openai-embeddings.faults.json +]', async () => {
  for (const kind of ['reset', 'close', 'truncate'] as const) {
    const session = await mock.session(`fault-${kind}`);
    await session.load({ scenarios: [], embeddings: [{ input: 'broken', vector: [1, 0], fault: { kind, afterBytes: 10 } }] });
    const error = await failure(clientOf(session).embeddings.create({ model: MODEL, input: 'broken', encoding_format: 'float' }));
    // Cut after the head, the body's read fails: undici's `terminated` (the SDK does not wrap it) or
    // a body too short to parse.
    assert.ok(
      error instanceof OpenAI.APIConnectionError || error instanceof SyntaxError || /terminated/.test(error.message),
      `${kind}: ${error.constructor.name}: ${error.message}`,
    );
    const { entries } = await session.journal();
    assert.equal(entries.length, 1, `${kind}: one entry`);
  }
  const session = await mock.session('fault-malformed');
  await session.load({ scenarios: [], embeddings: [{ input: 'broken', vector: [1, 0], fault: { kind: 'malformed', afterBytes: 0 } }] });
  const error = await failure(clientOf(session).embeddings.create({ model: MODEL, input: 'broken', encoding_format: 'float' }));
  assert.ok(error instanceof SyntaxError || error instanceof OpenAI.APIConnectionError, `${error.constructor.name}: ${error.message}`);
});

test('a stall holds the answer until the client gives up [openai-embeddings.faults.json +]', async () => {
  const session = await mock.session('fault-stall');
  // No afterBytes: a one-body answer stalls before its first byte, so the SDK's timeout (which ends
  // at the headers) fires.
  await session.load({ scenarios: [], embeddings: [{ input: 'stuck', vector: [1, 0], fault: { kind: 'stall' } }] });
  const started = performance.now();
  const error = await failure(clientOf(session, 400).embeddings.create({ model: MODEL, input: 'stuck' }));
  assert.ok(error instanceof OpenAI.APIConnectionTimeoutError, `${error.constructor.name}: ${error.message}`);
  assert.ok(performance.now() - started >= 380);
});

test('a fault on an input reaches @google/genai through batchEmbedContents [openai-embeddings.faults.json +]', async () => {
  const session = await mock.session('fault-gemini');
  await session.load({ scenarios: [], embeddings: [{ input: 'broken', vector: [1, 0], fault: { kind: 'reset', afterBytes: 5 } }] });
  const ai = new GoogleGenAI({ apiKey: session.apiKey, httpOptions: { baseUrl: mock.url('gemini'), timeout: 10_000 } });
  const ok = await ai.models.embedContent({ model: 'gemini-embedding-001', contents: ['fine'] });
  assert.equal(ok.embeddings?.length, 1);
  await failure(ai.models.embedContent({ model: 'gemini-embedding-001', contents: ['fine', 'broken'] }));
});

test('a fault of kind error, or a fault that is not one, is refused when the fixture loads, naming the path [openai-embeddings.faults.json -]', async () => {
  const session = await mock.session('fault-refused');
  for (const [fault, path, words] of [
    [{ kind: 'error' }, '/embeddings/0/fault/kind', /not a stream/],
    [{ kind: 'explode' }, '/embeddings/0/fault/kind', /expected one of/],
    [{ kind: 'reset', afterBytes: -1 }, '/embeddings/0/fault/afterBytes', /integer/],
  ] as const) {
    const error = await failure(session.load({ scenarios: [], embeddings: [{ input: 'x', vector: [1], fault: fault as never }] }));
    assert.match(String(error), /fixture|embeddings/);
    assert.ok(error.message.includes(path), `${error.message} names ${path}`);
    assert.match(error.message, words);
  }
  const delay = await failure(
    session.load({ scenarios: [], embeddings: [{ input: 'x', vector: [1], delayMs: 'soon' as unknown as number }] }),
  );
  assert.ok(delay.message.includes('/embeddings/0/delayMs'), delay.message);
  // Nothing was loaded: an input answers with its derived vector, at once.
  const answer = await clientOf(session).embeddings.create({ model: MODEL, input: 'x' });
  assert.equal(answer.data[0].embedding.length, 1536);
});

// A session's own model catalogue (SessionOptions.models) judged by the real `ollama` client: a
// strict session answers only its models on /api/chat and /api/generate, refuses any other with
// Ollama's 404, and lists its models on /api/tags and /api/show; switching the catalogue changes
// the next answer even to a body sent before.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Ollama } from 'ollama';

import { connectUnderstudy, startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const TIMEOUT_MS = 10_000;

const timedFetch: typeof fetch = (input, init) => {
  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  return fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout });
};

function ollamaFor(session: UnderstudySession): Ollama {
  return new Ollama({ host: mock.url('ollama'), headers: { Authorization: `Bearer ${session.apiKey}` }, fetch: timedFetch });
}

async function responseError(call: PromiseLike<unknown>): Promise<{ status: number; error: string }> {
  let caught: unknown;
  try {
    await call;
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof Error, `expected a ResponseError, but the call gave ${String(caught)}`);
  assert.equal(caught.name, 'ResponseError', caught.message);
  const { status_code: status, error } = caught as Error & { status_code: number; error: string };
  return { status, error };
}

const hi = (model: string) => ({ model, messages: [{ role: 'user', content: 'Hi' }], stream: false as const });

test('a strict catalogue answers its models, with and without :latest, and lists them all [ollama-chat.model-catalogue.json +]', async () => {
  const session = await mock.session('strict-listed', { models: ['llama3.2', 'qwen3:8b'] });
  const ollama = ollamaFor(session);
  session.scenario('hello').replies('Hello.').onExhausted('repeat_last');
  assert.deepEqual(
    (await ollama.list()).models.map((m) => m.name),
    ['llama3.2:latest', 'qwen3:8b'],
    'listed before any answer',
  );
  assert.equal((await ollama.show({ model: 'qwen3:8b' })).details.format, 'gguf');
  assert.deepEqual((await ollama.ps()).models, [], 'none loaded yet');
  assert.equal((await ollama.chat(hi('llama3.2'))).message.content, 'Hello.');
  assert.equal((await ollama.chat(hi('llama3.2:latest'))).message.content, 'Hello.');
  assert.equal((await ollama.generate({ model: 'qwen3:8b', prompt: 'Hi', stream: false })).response, 'Hello.');
  assert.deepEqual(
    (await ollama.ps()).models.map((m) => m.name),
    ['llama3.2:latest', 'qwen3:8b'],
  );
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.request?.model]),
    [
      [200, 'llama3.2'],
      [200, 'llama3.2:latest'],
      [200, 'qwen3:8b'],
    ],
  );
});

test("a strict catalogue refuses any other model with Ollama's 404 and consumes nothing [ollama-chat.model-catalogue.json -]", async () => {
  const session = await mock.session('strict-refused', { models: ['llama3.2'] });
  const ollama = ollamaFor(session);
  session.scenario('hello').replies('Hello.');
  assert.deepEqual(await responseError(ollama.chat(hi('mistral'))), { status: 404, error: "model 'mistral' not found" });
  assert.deepEqual(await responseError(ollama.chat({ ...hi('llama3.2:1b'), stream: true })), {
    status: 404,
    error: "model 'llama3.2:1b' not found",
  });
  assert.deepEqual(await responseError(ollama.generate({ model: 'qwen3', prompt: 'Hi', stream: false })), {
    status: 404,
    error: "model 'qwen3' not found",
  });
  assert.deepEqual(await responseError(ollama.show({ model: 'mistral' })), { status: 404, error: "model 'mistral' not found" });
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.status),
    [404, 404, 404],
  );
  assert.equal((await session.check()).ok, false, 'the step is still unused');
  assert.equal((await ollama.chat(hi('llama3.2'))).message.content, 'Hello.', 'the step answers a listed model');
  assert.deepEqual(
    (await ollama.list()).models.map((m) => m.name),
    ['llama3.2:latest'],
    'refused models are not listed',
  );
});

test('switching the catalogue (a fixture load, over the control API too) changes the next answer to a repeated body [ollama-chat.model-catalogue.json -]', async () => {
  const remote = await connectUnderstudy(mock.baseUrl);
  for (const [name, client] of [
    ['in-process', mock],
    ['control API', remote],
  ] as const) {
    const session = await client.session(`strict-switch-${name.replace(' ', '-')}`, { models: ['llama3.2'] });
    const ollama = ollamaFor(session);
    const scenario = { name: 'hello', steps: [{ reply: { text: 'Hello.' } }], exhausted: 'repeat_last' as const };
    await session.load({ scenarios: [scenario] });
    assert.equal((await ollama.chat(hi('llama3.2'))).message.content, 'Hello.', name);
    assert.equal((await ollama.chat(hi('llama3.2'))).message.content, 'Hello.', `${name}: repeated`);
    await session.load({ session: { models: ['qwen3:8b'] }, scenarios: [scenario] });
    assert.deepEqual(await responseError(ollama.chat(hi('llama3.2'))), { status: 404, error: "model 'llama3.2' not found" }, name);
    assert.deepEqual(
      (await ollama.list()).models.map((m) => m.name),
      ['qwen3:8b'],
      name,
    );
    assert.deepEqual((await ollama.ps()).models, [], `${name}: a model answered before, no longer in the catalogue, is not loaded`);
    await session.load({ session: { models: ['llama3.2', 'qwen3:8b'] }, scenarios: [scenario] });
    assert.equal((await ollama.chat(hi('llama3.2'))).message.content, 'Hello.', `${name}: listed again`);
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => e.status),
      [200, 200, 404, 200],
      name,
    );
  }
});

test('without a catalogue every model is answered, as before', async () => {
  const session = await mock.session('no-catalogue');
  const ollama = ollamaFor(session);
  session.scenario('hello').replies('Hello.');
  assert.equal((await ollama.chat(hi('anything:7b'))).message.content, 'Hello.');
  assert.deepEqual(
    (await ollama.list()).models.map((m) => m.name),
    ['anything:7b'],
  );
});

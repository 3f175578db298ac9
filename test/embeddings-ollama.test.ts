// Ollama's embedding routes judged by the real `ollama` client over HTTP: `embed` (/api/embed) and
// the legacy `embeddings` (/api/embeddings) answer scripted and derived vectors, honour
// `dimensions`, rank a near-duplicate first and list the model afterwards; Go-worded 400s for
// malformed requests and the 404 of a strict catalogue; every request journalled.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Ollama } from 'ollama';

import { cosineSimilarity } from '../src/core/embedding-vectors.js';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const MODEL = 'nomic-embed-text';

const timedFetch: typeof fetch = (input, init) => {
  const timeout = AbortSignal.timeout(10_000);
  return fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout });
};

function ollamaFor(session: UnderstudySession): Ollama {
  return new Ollama({ host: mock.url('ollama'), headers: { Authorization: `Bearer ${session.apiKey}` }, fetch: timedFetch });
}

async function responseError(call: PromiseLike<unknown>): Promise<{ status: number; error: string }> {
  const caught: unknown = await call.then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.ok(caught instanceof Error && caught.name === 'ResponseError', `expected a ResponseError, got ${String(caught)}`);
  const { status_code: status, error } = caught as Error & { status_code: number; error: string };
  return { status, error };
}

test('embed answers the scripted vector and derived ones; the legacy route too; the model is listed after [ollama.embeddings.json +]', async () => {
  const session = await mock.session('ollama-scripted');
  await session.load({ scenarios: [], embeddings: [{ input: 'alpha', vector: [0.25, 0.5, -0.75] }] });
  const client = ollamaFor(session);
  const answer = await client.embed({ model: MODEL, input: ['alpha', 'beta'] });
  assert.equal(answer.model, MODEL);
  assert.deepEqual(answer.embeddings[0], [0.25, 0.5, -0.75]);
  assert.equal(answer.embeddings[1].length, 768, "nomic-embed-text's size");
  assert.ok(answer.prompt_eval_count >= 2 && answer.total_duration > answer.load_duration);
  assert.deepEqual((await client.embeddings({ model: MODEL, prompt: 'alpha' })).embedding, [0.25, 0.5, -0.75]);
  assert.deepEqual(
    (await client.embeddings({ model: MODEL, prompt: 'beta' })).embedding,
    answer.embeddings[1],
    'the legacy route derives the same vector',
  );
  assert.deepEqual(
    (await client.list()).models.map((m) => m.name),
    [`${MODEL}:latest`],
  );
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.operation, e.status]),
    [
      ['ollama.embed', 200],
      ['ollama.embeddings', 200],
      ['ollama.embeddings', 200],
    ],
  );
  await session.verify();
});

test('derived vectors: dimensions honoured, stable across sessions, a near-duplicate ranked first; empty input embeds nothing', async () => {
  const one = ollamaFor(await mock.session('ollama-derived-1'));
  const two = ollamaFor(await mock.session('ollama-derived-2'));
  const input = ['How do I reset my account password?', 'The recipe needs two eggs.', 'How can I reset the password of my account?'];
  const a = await one.embed({ model: MODEL, input, dimensions: 128 });
  const b = await two.embed({ model: MODEL, input, dimensions: 128 });
  assert.deepEqual(a.embeddings, b.embeddings);
  const [query, unrelated, near] = a.embeddings;
  assert.equal(query.length, 128);
  assert.ok(cosineSimilarity(query, near) > cosineSimilarity(query, unrelated));
  assert.deepEqual((await one.embed({ model: MODEL, input: [] })).embeddings, []);
});

test("malformed requests get Ollama's 400, a model outside a strict catalogue its 404 [ollama.embeddings.json -]", async () => {
  const session = await mock.session('ollama-malformed', { models: [MODEL] });
  const client = ollamaFor(session);
  const cases: [Record<string, unknown>, number, RegExp][] = [
    [{ model: MODEL, input: ['a', 1] }, 400, /^invalid input type$/],
    [{ model: MODEL, input: { text: 'a' } }, 400, /^invalid input type$/],
    [
      { model: MODEL, input: 'a', truncate: 'yes' },
      400,
      /cannot unmarshal string into Go struct field EmbedRequest\.truncate of type bool/,
    ],
    [{ model: MODEL, input: 'a', dimensions: -1 }, 400, /dimensions must be a positive number/],
    [{ model: 'all-minilm', input: 'a' }, 404, /model 'all-minilm' not found/],
  ];
  for (const [body, status, message] of cases) {
    const error = await responseError(client.embed(body as unknown as Parameters<Ollama['embed']>[0]));
    assert.equal(error.status, status, JSON.stringify(body));
    assert.match(error.error, message);
  }
  const legacy = await responseError(client.embeddings({ model: MODEL, prompt: 7 as unknown as string }));
  assert.equal(legacy.status, 400);
  assert.match(legacy.error, /EmbeddingRequest\.prompt of type string/);
  const { counters, entries } = await session.journal();
  assert.equal(entries.length, cases.length + 1);
  assert.equal(counters.invalid, cases.length);
});

// The Vercel AI SDK's `embed` and `embedMany` over HTTP, with @ai-sdk/openai (/v1/embeddings, which
// it asks for as floats) and @ai-sdk/google (batchEmbedContents): scripted and derived vectors,
// `cosineSimilarity` (the SDK's own) ranking a near-duplicate first, the usage it reads, and a
// refusal surfacing as the SDK's APICallError with the provider's status.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { APICallError, cosineSimilarity, embed, embedMany } from 'ai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const openaiModel = (session: UnderstudySession, model = 'text-embedding-3-small') =>
  createOpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey }).embedding(model);
const googleModel = (session: UnderstudySession) =>
  createGoogleGenerativeAI({ baseURL: mock.url('gemini-v1beta'), apiKey: session.apiKey }).embedding('gemini-embedding-001');
const call = { maxRetries: 0, abortSignal: undefined as AbortSignal | undefined };
const timed = () => ({ ...call, abortSignal: AbortSignal.timeout(10_000) });

const DOCUMENTS = [
  'Quarterly revenue grew by four percent.',
  'How can I reset the password of my account?',
  'Two eggs and a cup of flour.',
];
const QUERY = 'How do I reset my account password?';

test('embed and embedMany with @ai-sdk/openai: scripted vector, usage, a near-duplicate ranked first [aisdk-openai.embeddings.json +]', async () => {
  const session = await mock.session('aisdk-openai');
  await session.load({ scenarios: [], embeddings: [{ input: 'pinned', vector: [0.6, 0.8] }] });
  const one = await embed({ model: openaiModel(session), value: 'pinned', ...timed() });
  assert.deepEqual(one.embedding, [0.6, 0.8], 'asked as floats: each float32 as its shortest decimal');
  assert.ok(one.usage.tokens >= 1);
  const many = await embedMany({ model: openaiModel(session), values: [QUERY, ...DOCUMENTS], ...timed() });
  const [query, ...documents] = many.embeddings;
  const scores = documents.map((d) => cosineSimilarity(query, d));
  assert.equal(scores.indexOf(Math.max(...scores)), 1, `scores ${scores.join(', ')}`);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.operation),
    ['openai.embeddings', 'openai.embeddings'],
  );
});

test("a refusal is the SDK's APICallError with OpenAI's status [aisdk-openai.embeddings.json -]", async () => {
  const session = await mock.session('aisdk-openai-refused', { models: ['text-embedding-3-small'] });
  const error = await embed({ model: openaiModel(session, 'text-embedding-3-large'), value: 'x', ...timed() }).then(
    () => assert.fail('the call succeeded'),
    (e: unknown) => e,
  );
  assert.ok(APICallError.isInstance(error), String(error));
  assert.equal(error.statusCode, 404);
  assert.match(error.message, /does not exist/);
});

test('embedMany with @ai-sdk/google: scripted and derived vectors, ranking [aisdk-google.embeddings.json +]', async () => {
  const session = await mock.session('aisdk-google');
  await session.load({ scenarios: [], embeddings: [{ input: 'pinned', vector: [0.6, 0.8] }] });
  const many = await embedMany({ model: googleModel(session), values: ['pinned', QUERY, ...DOCUMENTS], ...timed() });
  const [pinned, query, ...documents] = many.embeddings;
  assert.deepEqual(pinned, [0.6, 0.8]);
  const scores = documents.map((d) => cosineSimilarity(query, d));
  assert.equal(scores.indexOf(Math.max(...scores)), 1, `scores ${scores.join(', ')}`);
  assert.equal((await session.journal()).entries[0].operation, 'gemini.batchEmbedContents');
});

test("a scripted vector of another size than the requested dimensions is the SDK's APICallError 409 [aisdk-google.embeddings.json -]", async () => {
  const session = await mock.session('aisdk-google-mismatch');
  await session.load({ scenarios: [], embeddings: [{ input: 'pinned', vector: [0.6, 0.8] }] });
  const error = await embed({
    model: googleModel(session),
    value: 'pinned',
    providerOptions: { google: { outputDimensionality: 3 } },
    ...timed(),
  }).then(
    () => assert.fail('the call succeeded'),
    (e: unknown) => e,
  );
  assert.ok(APICallError.isInstance(error), String(error));
  assert.equal(error.statusCode, 409);
});

// LangChain's OpenAIEmbeddings over HTTP (it asks for base64, as the openai SDK it wraps does, and
// decodes it): embedQuery gets the scripted vector float32-rounded, embedDocuments the derived
// ones, ranked by cosine similarity; a refusal surfaces as the SDK's error with OpenAI's status.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { OpenAIEmbeddings } from '@langchain/openai';

import { cosineSimilarity } from '../src/core/embedding-vectors.js';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const embeddingsFor = (session: UnderstudySession, model = 'text-embedding-3-small') =>
  new OpenAIEmbeddings({ model, apiKey: session.apiKey, configuration: { baseURL: mock.url('openai') }, maxRetries: 0, timeout: 10_000 });

test('embedQuery gets the scripted vector, embedDocuments the derived ones, ranked [langchain-openai.embeddings.json +]', async () => {
  const session = await mock.session('langchain-embed');
  await session.load({ scenarios: [], embeddings: [{ input: 'pinned', vector: [0.1, 0.2, 0.3, 0.4] }] });
  const embeddings = embeddingsFor(session);
  assert.deepEqual(await embeddings.embedQuery('pinned'), [0.1, 0.2, 0.3, 0.4].map(Math.fround));
  const query = await embeddings.embedQuery('How do I reset my account password?');
  const documents = await embeddings.embedDocuments([
    'Two eggs and a cup of flour.',
    'How can I reset the password of my account?',
    'Quarterly revenue grew.',
  ]);
  const scores = documents.map((d) => cosineSimilarity(query, d));
  assert.equal(scores.indexOf(Math.max(...scores)), 1, `scores ${scores.join(', ')}`);
  const { entries } = await session.journal();
  assert.equal(entries.length, 3);
  assert.ok(entries.every((e) => e.operation === 'openai.embeddings' && e.status === 200));
});

test("a refusal is the error with OpenAI's status [langchain-openai.embeddings.json -]", async () => {
  const session = await mock.session('langchain-embed-refused', { models: ['text-embedding-3-small'] });
  const error = await embeddingsFor(session, 'text-embedding-3-large')
    .embedQuery('x')
    .then(
      () => assert.fail('the call succeeded'),
      (e: unknown) => e,
    );
  assert.ok(error instanceof Error, String(error));
  assert.equal((error as Error & { status?: number }).status, 404);
  assert.match(error.message, /does not exist/);
});

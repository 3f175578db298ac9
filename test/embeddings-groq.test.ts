// Groq's embeddings (its OpenAI-compatible base) judged by groq-sdk over HTTP: the scripted vector,
// derived ones, journalled as groq.embeddings; a malformed request is the SDK's BadRequestError.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import Groq from 'groq-sdk';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const MODEL = 'nomic-embed-text-v1_5';
const client = (session: UnderstudySession) =>
  new Groq({ baseURL: mock.url('groq'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });

test('embeddings.create: the scripted vector and a derived one, journalled [groq.embeddings.json +]', async () => {
  const session = await mock.session('groq-embed');
  await session.load({ scenarios: [], embeddings: [{ input: 'a', vector: [0.1, 0.2, 0.3, 0.4] }] });
  const answer = await client(session).embeddings.create({ model: MODEL, input: ['a', 'b'] });
  assert.deepEqual(answer.data[0].embedding, [0.1, 0.2, 0.3, 0.4]);
  assert.equal((answer.data[1].embedding as number[]).length, 768, "nomic-embed's size");
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.operation, e.route]),
    [['groq.embeddings', 'POST /groq/openai/v1/embeddings']],
  );
});

test("a malformed request is OpenAI's 400 as groq-sdk's BadRequestError [groq.embeddings.json -]", async () => {
  const session = await mock.session('groq-embed-refused');
  const error = await client(session)
    .embeddings.create({ model: MODEL, input: '' })
    .then(
      () => assert.fail('the call succeeded'),
      (e: unknown) => e,
    );
  assert.ok(error instanceof Groq.BadRequestError, String(error));
  assert.match(error.message, /'\$\.input' is invalid/);
});

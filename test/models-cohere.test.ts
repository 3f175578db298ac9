// Cohere's model list and model cards through cohere-ai's `models.list` and `models.get` (whose
// schema-checked serializers read every member): from the session's catalogue or Cohere's default
// ids, paged by page_size and the page token, filtered by endpoint; with a catalogue an unknown
// model is Cohere's 404; bad query values are Cohere's 400. The path is shared with OpenAI's and
// Anthropic's SDKs, which keep their own answers.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { CohereClientV2, CohereError } from 'cohere-ai';
import OpenAI from 'openai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

function client(session: UnderstudySession, environment = mock.url('cohere')): CohereClientV2 {
  return new CohereClientV2({ token: session.apiKey, environment, maxRetries: 0, timeoutInSeconds: 10 });
}

async function rejection(call: Promise<unknown>): Promise<CohereError> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof CohereError, `expected a CohereError, got ${String(error)}`);
    return error;
  }
  assert.fail('the call succeeded');
}

test("models.list: Cohere's default ids with cards by family, filtered by endpoint, paged by its token; models.get one card [cohere.models.json +]", async () => {
  const session = await mock.session('cohere-models');
  const co = client(session);
  const all = await co.models.list();
  assert.deepEqual(
    all.models.map((m) => m.name),
    [
      'command-a-03-2025',
      'command-r-plus-08-2024',
      'command-r-08-2024',
      'command-r7b-12-2024',
      'embed-v4.0',
      'embed-english-v3.0',
      'embed-multilingual-v3.0',
      'rerank-v3.5',
    ],
  );
  assert.equal(all.nextPageToken, undefined);
  const command = all.models[0];
  assert.deepEqual(
    [command.endpoints, command.contextLength, command.finetuned, command.features?.includes('tools')],
    [['chat', 'generate', 'summarize'], 256000, false, true],
  );
  const embed = await co.models.list({ endpoint: 'embed' });
  assert.deepEqual(
    embed.models.map((m) => m.name),
    ['embed-v4.0', 'embed-english-v3.0', 'embed-multilingual-v3.0'],
  );
  const first = await co.models.list({ pageSize: 3 });
  assert.equal(first.models.length, 3);
  assert.ok(first.nextPageToken);
  const second = await co.models.list({ pageSize: 3, pageToken: first.nextPageToken });
  assert.deepEqual(
    second.models.map((m) => m.name),
    ['command-r7b-12-2024', 'embed-v4.0', 'embed-english-v3.0'],
  );
  const card = await co.models.get('rerank-v3.5');
  assert.deepEqual([card.name, card.endpoints, card.contextLength], ['rerank-v3.5', ['rerank'], 4096]);
  // Any id is found in a session without a catalogue, as a chat to it is answered.
  assert.equal((await co.models.get('command-nightly')).name, 'command-nightly');
  // The same path under the provider prefix.
  const prefixed = await client(session, `${mock.url('cohere')}/cohere`).models.list({ endpoint: 'rerank' });
  assert.deepEqual(
    prefixed.models.map((m) => m.name),
    ['rerank-v3.5'],
  );
  // OpenAI's SDK on the shared path keeps OpenAI's list.
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  assert.equal((await openai.models.list()).data[0].object, 'model');
});

test("with a catalogue only its models are listed and an unknown one is Cohere's 404; bad query values are 400s [cohere.models.json -]", async () => {
  const session = await mock.session('cohere-models-strict', { models: ['command-a-03-2025', 'embed-v4.0'] });
  const co = client(session);
  assert.deepEqual(
    (await co.models.list()).models.map((m) => m.name),
    ['command-a-03-2025', 'embed-v4.0'],
  );
  const missing = await rejection(co.models.get('command-r-08-2024'));
  assert.equal(missing.statusCode, 404);
  assert.match((missing.body as { message: string }).message, /^model 'command-r-08-2024' not found/);
  const size = await fetch(`${mock.url('cohere')}/v1/models?page_size=0`, {
    headers: { authorization: `Bearer ${session.apiKey}`, 'x-fern-sdk-name': 'cohere-ai' },
  });
  assert.equal(size.status, 400);
  assert.match(((await size.json()) as { message: string }).message, /page_size must be an integer from 1 to 1000/);
  const endpoint = await fetch(`${mock.url('cohere')}/v1/models?endpoint=dance`, {
    headers: { authorization: `Bearer ${session.apiKey}`, 'x-fern-sdk-name': 'cohere-ai' },
  });
  assert.equal(endpoint.status, 400);
});

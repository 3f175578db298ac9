// A session's own model catalogue (SessionOptions.models) on OpenAI's Chat Completions, judged by
// the openai SDK: a listed model is answered, any other is OpenAI's 404 model_not_found (the SDK's
// NotFoundError) before any script is consulted; hosts of the dialect do not read the catalogue.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import OpenAI from 'openai';
import { startUnderstudy, type Understudy } from '../src/client/index.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

async function clientFor(name: string, models?: string[], provider = 'openai') {
  const session = await mock.session(name, models && { models });
  const openai = new OpenAI({ baseURL: mock.url(provider), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  return { session, openai };
}

const ask = (model: string) => ({ model, messages: [{ role: 'user' as const, content: 'Hi' }] });

test('a strict catalogue answers its models [openai-chat.model-catalogue.json +]', async () => {
  const { session, openai } = await clientFor('openai-strict-listed', ['gpt-4o-mini', 'gpt-4.1']);
  session.scenario('hello').replies('Hello.').onExhausted('repeat_last');
  assert.equal((await openai.chat.completions.create(ask('gpt-4o-mini'))).choices[0].message.content, 'Hello.');
  assert.equal((await openai.chat.completions.create(ask('gpt-4.1'))).choices[0].message.content, 'Hello.');
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.request?.model]),
    [
      [200, 'gpt-4o-mini'],
      [200, 'gpt-4.1'],
    ],
  );
});

test("a strict catalogue refuses any other model with OpenAI's 404 model_not_found and consumes nothing; a host ignores it [openai-chat.model-catalogue.json -]", async () => {
  const { session, openai } = await clientFor('openai-strict-refused', ['gpt-4o-mini']);
  session.scenario('hello').replies('Hello.');
  for (const stream of [false, true]) {
    const error = await openai.chat.completions.create({ ...ask('gpt-5'), stream }).catch((e: unknown) => e);
    assert.ok(error instanceof OpenAI.NotFoundError, `got ${String(error)}`);
    assert.equal(error.status, 404);
    assert.equal(error.code, 'model_not_found');
    assert.equal(error.type, 'invalid_request_error');
    assert.equal(error.param, null);
    assert.equal(error.message, '404 The model `gpt-5` does not exist or you do not have access to it.');
  }
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.error?.code]),
    [
      [404, 'model_not_found'],
      [404, 'model_not_found'],
    ],
  );
  assert.equal((await session.check()).ok, false, 'the step is still unused');
  assert.equal((await openai.chat.completions.create(ask('gpt-4o-mini'))).choices[0].message.content, 'Hello.');

  const host = await clientFor('deepseek-catalogue', ['gpt-4o-mini'], 'deepseek');
  host.session.scenario('hello').replies('Hello.');
  assert.equal((await host.openai.chat.completions.create(ask('deepseek-chat'))).choices[0].message.content, 'Hello.');
});

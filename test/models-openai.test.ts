// OpenAI's `GET /v1/models` and `GET /v1/models/{model}` through the openai SDK's models.list()
// (a page, iterated) and models.retrieve(): the session's catalogue, or the default ids when it
// has none; with a catalogue an unknown id is OpenAI's 404 model_not_found. Nothing is journalled.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import OpenAI from 'openai';

import { startUnderstudy } from '../src/index.js';
import type { Understudy, UnderstudySession } from '../src/index.js';
import { OPENAI_DEFAULT_MODELS } from '../src/dialects/openai/models.js';

let mock: Understudy;

before(async () => {
  mock = await startUnderstudy();
});

after(async () => {
  await mock.close();
});

const CLOCK = 1_767_225_600;

function client(session: UnderstudySession): OpenAI {
  return new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
}

async function ids(openai: OpenAI): Promise<string[]> {
  const out: string[] = [];
  for await (const model of openai.models.list()) out.push(model.id);
  return out;
}

describe('models', () => {
  test('list and retrieve answer the session catalogue, dated by the session clock [openai-models.catalogue.json +]', async () => {
    const session = await mock.session('openai-models', { models: ['gpt-4o', 'my-fine-tune'], clock: CLOCK });
    const openai = client(session);
    assert.deepEqual(await ids(openai), ['gpt-4o', 'my-fine-tune']);
    const model = await openai.models.retrieve('my-fine-tune');
    assert.deepEqual({ ...model }, { id: 'my-fine-tune', object: 'model', created: CLOCK, owned_by: 'openai' });
    assert.equal((await session.journal()).entries.length, 0, 'model lookups are not journalled');
  });

  test('with no catalogue: the default ids, and any id is found (the session answers any model)', async () => {
    const session = await mock.session('openai-models-default');
    const openai = client(session);
    assert.deepEqual(await ids(openai), [...OPENAI_DEFAULT_MODELS]);
    assert.equal((await openai.models.retrieve('gpt-made-up')).id, 'gpt-made-up');
  });

  test('with a catalogue, an unknown id is NotFoundError model_not_found [openai-models.catalogue.json -]', async () => {
    const session = await mock.session('openai-models-strict', { models: ['gpt-4o'] });
    const openai = client(session);
    let caught: unknown;
    try {
      await openai.models.retrieve('gpt-unknown');
    } catch (error) {
      caught = error;
    }
    assert.ok(caught instanceof OpenAI.NotFoundError, `expected NotFoundError, got ${String(caught)}`);
    assert.equal(caught.code, 'model_not_found');
    assert.equal(caught.type, 'invalid_request_error');
    assert.match(caught.message, /The model 'gpt-unknown' does not exist/);
  });

  test('POST /v1/models is a 405 naming GET; an unknown session is a 404 in OpenAI shape', async () => {
    const session = await mock.session('openai-models-raw');
    const posted = await fetch(`${mock.url('openai')}/models`, { method: 'POST', headers: { authorization: `Bearer ${session.apiKey}` } });
    assert.equal(posted.status, 405);
    await posted.body?.cancel();
    const unknown = await fetch(`${mock.url('openai')}/models`, { headers: { 'x-understudy-session': 'no-such-session' } });
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { error: { code: string } }).error.code, 'session_not_found');
  });
});

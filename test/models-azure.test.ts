// Azure OpenAI's model list through the openai SDK's AzureOpenAI client (`models.list`,
// `models.retrieve`, with its dated api-version) and the openai client on Azure's v1 routes: Azure's
// model card (status, capabilities by family, lifecycle, deprecation, created_at), the session's
// catalogue when it has one (then an unknown id is Azure's 404), and Azure's refusal of a missing or
// unknown api-version.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import OpenAI, { AzureOpenAI } from 'openai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

function azureOf(session: UnderstudySession, apiVersion = '2024-10-21'): AzureOpenAI {
  return new AzureOpenAI({ endpoint: mock.url('azure'), apiKey: session.apiKey, apiVersion, maxRetries: 0, timeout: 10_000 });
}

interface AzureCard {
  id: string;
  status: string;
  created_at: number;
  capabilities: { chat_completion: boolean; embeddings: boolean; inference: boolean };
  lifecycle_status: string;
  deprecation: { inference: number };
}

test("AzureOpenAI models.list and models.retrieve: Azure's cards, capabilities by family, dated by the session clock [azure.models.json +]", async () => {
  const session = await mock.session('azure-models', { models: ['gpt-4o', 'text-embedding-3-small'] });
  const azure = azureOf(session);
  const page = await azure.models.list();
  const cards = page.data as unknown as AzureCard[];
  assert.deepEqual(
    cards.map((c) => [c.id, c.status, c.capabilities.chat_completion, c.capabilities.embeddings, c.lifecycle_status]),
    [
      ['gpt-4o', 'succeeded', true, false, 'generally-available'],
      ['text-embedding-3-small', 'succeeded', false, true, 'generally-available'],
    ],
  );
  assert.ok(cards[0].deprecation.inference > cards[0].created_at);
  const one = (await azure.models.retrieve('text-embedding-3-small')) as unknown as AzureCard;
  assert.equal(one.id, 'text-embedding-3-small');
  // The v1 routes answer as OpenAI's list does.
  const v1 = new OpenAI({ baseURL: `${mock.url('azure')}/openai/v1`, apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  assert.deepEqual(
    (await v1.models.list()).data.map((m) => [m.id, m.object]),
    [
      ['gpt-4o', 'model'],
      ['text-embedding-3-small', 'model'],
    ],
  );
  assert.equal((await v1.models.retrieve('gpt-4o')).id, 'gpt-4o');
});

test("an id outside the catalogue is Azure's 404; a missing api-version is its 404, an unknown one its 400 [azure.models.json -]", async () => {
  const session = await mock.session('azure-models-strict', { models: ['gpt-4o'] });
  const missing = await azureOf(session)
    .models.retrieve('gpt-4.1')
    .then(
      () => assert.fail('found'),
      (error: unknown) => error,
    );
  assert.ok(missing instanceof OpenAI.NotFoundError, String(missing));
  assert.match(missing.message, /The model 'gpt-4\.1' does not exist/);
  const unknown = await azureOf(session, '1999-01-01')
    .models.list()
    .then(
      () => assert.fail('listed'),
      (error: unknown) => error,
    );
  assert.ok(unknown instanceof OpenAI.BadRequestError, String(unknown));
  assert.match(unknown.message, /API version not supported/);
  const none = await fetch(`${mock.url('azure')}/openai/models`, { headers: { 'api-key': session.apiKey } });
  assert.equal(none.status, 404);
  assert.deepEqual(await none.json(), { error: { code: '404', message: 'Resource not found' } });
});

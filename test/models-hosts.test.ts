// The model lists of the OpenAI hosts that serve one: Groq (`/openai/v1/models` and one model),
// Mistral (`/v1/models` and one model, read by @mistralai/mistralai's schema-checked models API)
// and DeepSeek (`/models`, a list only), each from the session's catalogue or the host's default
// ids; with a catalogue an unknown model is the host's 404 in its error shape.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { Mistral } from '@mistralai/mistralai';
import { SDKError } from '@mistralai/mistralai/models/errors';
import { Ollama } from 'ollama';
import OpenAI from 'openai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

let mock: Understudy;

before(async () => {
  mock = await startUnderstudy();
});

after(async () => {
  await mock.close();
});

function openai(session: UnderstudySession, base: string): OpenAI {
  return new OpenAI({ baseURL: base, apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
}

function mistral(session: UnderstudySession): Mistral {
  return new Mistral({ apiKey: session.apiKey, serverURL: mock.url('mistral'), timeoutMs: 10_000, retryConfig: { strategy: 'none' } });
}

async function ids(client: OpenAI): Promise<string[]> {
  const out: string[] = [];
  for await (const model of client.models.list()) out.push(model.id);
  return out;
}

describe('host model lists', () => {
  test('Groq lists and retrieves the catalogue, an id with a slash included [openai-hosts.models.json +]', async () => {
    const session = await mock.session('groq-models', { models: ['llama-3.3-70b-versatile', 'openai/gpt-oss-120b'] });
    const groq = openai(session, mock.url('groq-v1'));
    assert.deepEqual(await ids(groq), ['llama-3.3-70b-versatile', 'openai/gpt-oss-120b']);
    const model = (await groq.models.retrieve('openai/gpt-oss-120b')) as OpenAI.Model & { context_window?: number };
    assert.equal(model.id, 'openai/gpt-oss-120b');
    assert.equal(model.owned_by, 'Groq');
    assert.ok((model.context_window ?? 0) > 0);
  });

  test('Mistral: models.list and models.retrieve parse the base-model cards', async () => {
    const session = await mock.session('mistral-models', { models: ['mistral-small-latest', 'my-mistral'] });
    const list = await mistral(session).models.list();
    assert.deepEqual(
      list.data?.map((m) => (m.type === 'base' ? [m.id, m.type, m.ownedBy] : [m.type])),
      [
        ['mistral-small-latest', 'base', 'mistralai'],
        ['my-mistral', 'base', 'mistralai'],
      ],
    );
    const model = await mistral(session).models.retrieve({ modelId: 'my-mistral' });
    assert.ok(model.type === 'base', `a base-model card, got ${model.type}`);
    assert.equal(model.id, 'my-mistral');
    assert.equal(model.capabilities.completionChat, true);
  });

  test("Ollama's OpenAI layer lists what its native API has: the catalogue, else the models answered", async () => {
    const strict = await mock.session('ollama-openai-models', { models: ['llama3.2', 'qwen3:8b'] });
    const layer = openai(strict, mock.url('ollama-openai'));
    assert.deepEqual(await ids(layer), ['llama3.2:latest', 'qwen3:8b']);
    const model = await layer.models.retrieve('llama3.2');
    assert.deepEqual([model.id, model.owned_by], ['llama3.2:latest', 'library']);
    const missing = await layer.models.retrieve('mistral').catch((e: unknown) => e);
    assert.ok(missing instanceof OpenAI.NotFoundError, `got ${String(missing)}`);
    assert.match(missing.message, /model 'mistral' not found/);
    const open = await mock.session('ollama-openai-models-answered', { fallback: 'auto' });
    assert.deepEqual(await ids(openai(open, mock.url('ollama-openai'))), []);
    const fetchWithTimeout: typeof fetch = (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(10_000) });
    const native = new Ollama({ host: mock.url('ollama'), headers: { Authorization: `Bearer ${open.apiKey}` }, fetch: fetchWithTimeout });
    await native.chat({ model: 'gemma3', messages: [{ role: 'user', content: 'Hi' }] });
    assert.deepEqual(await ids(openai(open, mock.url('ollama-openai'))), ['gemma3:latest']);
  });

  test('DeepSeek lists its default models with no catalogue', async () => {
    const session = await mock.session('deepseek-models');
    assert.deepEqual(await ids(openai(session, mock.url('deepseek'))), ['deepseek-chat', 'deepseek-reasoner']);
  });

  test("an unknown model is the host's 404: NotFoundError on Groq, an SDKError with Mistral's body [openai-hosts.models.json -]", async () => {
    const session = await mock.session('host-models-strict', { models: ['llama-3.3-70b-versatile', 'mistral-small-latest'] });
    let caught: unknown;
    try {
      await openai(session, mock.url('groq-v1')).models.retrieve('llama-unknown');
    } catch (error) {
      caught = error;
    }
    assert.ok(caught instanceof OpenAI.NotFoundError, `expected NotFoundError, got ${String(caught)}`);
    assert.equal(caught.code, 'model_not_found');
    caught = undefined;
    try {
      await mistral(session).models.retrieve({ modelId: 'mistral-unknown' });
    } catch (error) {
      caught = error;
    }
    assert.ok(caught instanceof SDKError, `expected SDKError, got ${String(caught)}`);
    assert.equal(caught.statusCode, 404);
    assert.equal((JSON.parse(caught.body) as { object: string }).object, 'error');
  });
});

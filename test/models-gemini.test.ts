// Gemini's `GET models` and `GET models/{model}` through @google/genai's models.list() (a Pager,
// paged by pageSize / pageToken) and models.get(), on /v1beta/ and /v1/: the session's catalogue
// or the default models; with a catalogue an unknown model is Gemini's 404; a bad pageSize its 400.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { ApiError, type GoogleGenAI } from '@google/genai';
import fc from 'fast-check';

import { startUnderstudy } from '../src/index.js';
import type { Understudy, UnderstudySession } from '../src/index.js';
import { GEMINI_DEFAULT_MODELS } from '../src/dialects/gemini/catalogue.js';
import { geminiClient, vertexClient } from './support/gemini-clients.js';
import { GENAI_DEFAULT_API_VERSION } from './support/sdk-versions.js';

let mock: Understudy;

before(async () => {
  mock = await startUnderstudy();
});

after(async () => {
  await mock.close();
});

const CATALOGUE = ['gemini-2.5-flash', 'models/gemini-2.5-pro', 'my-tuned-gemini'];
const NAMES = ['models/gemini-2.5-flash', 'models/gemini-2.5-pro', 'models/my-tuned-gemini'];

function client(session: UnderstudySession, apiVersion?: string): GoogleGenAI {
  return geminiClient(mock, session, apiVersion);
}

function vertex(session: UnderstudySession): GoogleGenAI {
  return vertexClient(mock, session);
}

async function names(ai: GoogleGenAI, pageSize?: number): Promise<string[]> {
  const out: string[] = [];
  for await (const model of await ai.models.list(pageSize ? { config: { pageSize } } : {})) out.push(model.name ?? '');
  return out;
}

async function apiError(call: PromiseLike<unknown>): Promise<{ status: number; error: { message: string; status: string } }> {
  try {
    await call;
  } catch (caught) {
    assert.ok(caught instanceof ApiError, `expected ApiError, got ${String(caught)}`);
    return { status: caught.status, error: (JSON.parse(caught.message) as { error: { message: string; status: string } }).error };
  }
  assert.fail('expected the call to be refused');
}

describe('models', () => {
  test('list (paged) and get answer the session catalogue, on /v1beta/ and /v1/ [gemini.models.json +]', async () => {
    const session = await mock.session('gemini-models', { models: CATALOGUE });
    assert.deepEqual(await names(client(session)), NAMES);
    assert.deepEqual(await names(client(session), 2), NAMES, 'two pages, followed by the Pager');
    assert.deepEqual(await names(client(session, 'v1')), NAMES);
    const model = await client(session).models.get({ model: 'gemini-2.5-pro' });
    assert.equal(model.name, 'models/gemini-2.5-pro');
    assert.equal(model.displayName, 'Gemini 2.5 Pro');
    assert.deepEqual(model.supportedActions, ['generateContent', 'streamGenerateContent', 'countTokens']);
    assert.ok((model.inputTokenLimit ?? 0) > 0 && (model.outputTokenLimit ?? 0) > 0);
    assert.equal((await client(session, 'v1').models.get({ model: 'models/my-tuned-gemini' })).name, 'models/my-tuned-gemini');
    assert.equal((await session.journal()).entries.length, 0, 'model lookups are not journalled');
  });

  test('property: for any catalogue and page size, the Pager yields the catalogue once each, in order', async () => {
    const id = fc.stringMatching(/^[a-z][a-z0-9.-]{0,20}$/);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(id, { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 5 }), async (catalogue, pageSize) => {
        const session = await mock.session(`gemini-models-property-${run++}`, { models: catalogue });
        assert.deepEqual(
          await names(client(session), pageSize),
          catalogue.map((name) => `models/${name}`),
        );
      }),
      { numRuns: 25, seed: 21 },
    );
  });

  // genai asks for a publisher model at `/v1beta1/publishers/google/models/{model}`, project or not.
  test("Vertex AI's models.get answers a publisher model; one outside the catalogue is Vertex's 404", async () => {
    const session = await mock.session('gemini-models-vertex', { models: CATALOGUE });
    const model = await vertex(session).models.get({ model: 'gemini-2.5-flash' });
    assert.equal(model.name, 'publishers/google/models/gemini-2.5-flash');
    assert.equal(model.version, '001');
    const missing = await apiError(vertex(session).models.get({ model: 'gemini-unknown' }));
    assert.equal(missing.status, 404);
    assert.equal(missing.error.status, 'NOT_FOUND');
    assert.match(missing.error.message, /Publisher Model `publishers\/google\/models\/gemini-unknown` was not found/);
  });

  test('with no catalogue: the default models, and any model is found', async () => {
    const session = await mock.session('gemini-models-default');
    assert.deepEqual(
      await names(client(session)),
      GEMINI_DEFAULT_MODELS.map((id) => `models/${id}`),
    );
    assert.equal((await client(session).models.get({ model: 'gemini-made-up' })).name, 'models/gemini-made-up');
  });

  test('an unknown model is a 404 NOT_FOUND; a bad pageSize or pageToken a 400 [gemini.models.json -]', async () => {
    const session = await mock.session('gemini-models-strict', { models: CATALOGUE });
    const missing = await apiError(client(session).models.get({ model: 'gemini-unknown' }));
    assert.equal(missing.status, 404);
    assert.equal(missing.error.status, 'NOT_FOUND');
    assert.match(missing.error.message, new RegExp(`models/gemini-unknown is not found for API version ${GENAI_DEFAULT_API_VERSION},`));
    const size = await apiError(client(session).models.list({ config: { pageSize: -1 } }));
    assert.equal(size.status, 400);
    assert.equal(size.error.status, 'INVALID_ARGUMENT');
    const token = await apiError(client(session).models.list({ config: { pageToken: 'not-a-token' } }));
    assert.equal(token.status, 400);
  });
});

// Gemini's `models/{model}:countTokens` through @google/genai's models.countTokens, on the Gemini
// API (`/v1beta/` and `/v1/`) and on Vertex AI: the count is the promptTokenCount generateContent
// reports for the same contents; a body the API refuses gets Gemini's 400; nothing is journalled.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { ApiError, type Content, type GoogleGenAI } from '@google/genai';
import fc from 'fast-check';

import { startUnderstudy } from '../src/index.js';
import type { Understudy, UnderstudySession } from '../src/index.js';
import { geminiClient, vertexClient } from './support/gemini-clients.js';
import { GENAI_DEFAULT_API_VERSION } from './support/sdk-versions.js';

let mock: Understudy;

before(async () => {
  mock = await startUnderstudy();
});

after(async () => {
  await mock.close();
});

const MODEL = 'gemini-2.5-flash';

function client(session: UnderstudySession, apiVersion?: string): GoogleGenAI {
  return geminiClient(mock, session, apiVersion);
}

function vertex(session: UnderstudySession): GoogleGenAI {
  return vertexClient(mock, session);
}

async function apiError(call: PromiseLike<unknown>): Promise<{ status: number; error: { code: number; message: string; status: string } }> {
  try {
    await call;
  } catch (caught) {
    assert.ok(caught instanceof ApiError, `expected ApiError, got ${String(caught)}`);
    const body = JSON.parse(caught.message) as { error: { code: number; message: string; status: string } };
    return { status: caught.status, error: body.error };
  }
  assert.fail('expected the call to be refused');
}

describe('models.countTokens', () => {
  test('counts contents as generateContent reports promptTokenCount, on /v1beta/ and /v1/; nothing is journalled [gemini.count-tokens.json +]', async () => {
    const session = await mock.session('gemini-count');
    session.scenario('one').replies('Sunny.');
    const contents = 'What is the weather in Paris today?';
    const counted = await client(session).models.countTokens({ model: MODEL, contents });
    assert.ok((counted.totalTokens ?? 0) > 0);
    const v1 = await client(session, 'v1').models.countTokens({ model: MODEL, contents });
    assert.equal(v1.totalTokens, counted.totalTokens);
    assert.equal((await session.journal()).entries.length, 0, 'a count is not journalled');
    const answered = await client(session).models.generateContent({ model: MODEL, contents });
    assert.equal(answered.text, 'Sunny.');
    assert.equal(counted.totalTokens, answered.usageMetadata?.promptTokenCount);
  });

  test('Vertex AI counts system instruction and tools too, as its generateContent does', async () => {
    const session = await mock.session('gemini-count-vertex', { fallback: 'auto' });
    const request = {
      model: MODEL,
      contents: 'Weather in Paris?',
      config: {
        systemInstruction: 'Be brief.',
        tools: [{ functionDeclarations: [{ name: 'weather', description: 'Weather for a city' }] }],
      },
    };
    const counted = await vertex(session).models.countTokens(request);
    const bare = await vertex(session).models.countTokens({ model: MODEL, contents: request.contents });
    assert.ok((counted.totalTokens ?? 0) > (bare.totalTokens ?? 0));
    const answered = await vertex(session).models.generateContent(request);
    assert.equal(counted.totalTokens, answered.usageMetadata?.promptTokenCount);
  });

  test('property: for any conversation, countTokens equals the promptTokenCount of generateContent', async () => {
    const session = await mock.session('gemini-count-property', { fallback: 'auto' });
    const ai = client(session);
    const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }).filter((t) => t.trim() !== '');
    const turns = fc
      .array(text, { minLength: 1, maxLength: 5 })
      .map((texts) => texts.map((t, i): Content => ({ role: i % 2 === 0 ? 'user' : 'model', parts: [{ text: t }] })));
    await fc.assert(
      fc.asyncProperty(turns, async (contents) => {
        if (contents[contents.length - 1].role !== 'user') contents.push({ role: 'user', parts: [{ text: 'and?' }] });
        const counted = await ai.models.countTokens({ model: MODEL, contents });
        const answered = await ai.models.generateContent({ model: MODEL, contents });
        assert.equal(counted.totalTokens, answered.usageMetadata?.promptTokenCount);
      }),
      { numRuns: 25, seed: 21 },
    );
  });

  test('refuses what the API refuses, in its 400 shape [gemini.count-tokens.json -]', async () => {
    const session = await mock.session('gemini-count-bad');
    const badRole = await apiError(
      client(session).models.countTokens({ model: MODEL, contents: [{ role: 'robot', parts: [{ text: 'Hi' }] }] }),
    );
    assert.equal(badRole.status, 400);
    assert.equal(badRole.error.status, 'INVALID_ARGUMENT');
    const url = `${mock.url('gemini')}/v1beta/models/${MODEL}:countTokens`;
    const headers = { 'x-goog-api-key': session.apiKey, 'content-type': 'application/json' };
    const unknown = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ contents: [], temperature: 1 }) });
    assert.equal(unknown.status, 400);
    assert.match(((await unknown.json()) as { error: { message: string } }).error.message, /Unknown name "temperature"/);
    const both = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        contents: [{ parts: [{ text: 'a' }] }],
        generateContentRequest: { model: `models/${MODEL}`, contents: [{ parts: [{ text: 'a' }] }] },
      }),
    });
    assert.equal(both.status, 400);
    assert.match(((await both.json()) as { error: { message: string } }).error.message, /cannot both be set/);
    const notJson = await fetch(url, { method: 'POST', headers, body: '{"contents":' });
    assert.equal(notJson.status, 400);
    assert.equal(((await notJson.json()) as { error: { status: string } }).error.status, 'INVALID_ARGUMENT');
  });

  test("with a session catalogue, a model outside it is Gemini's 404, one inside it is counted", async () => {
    const session = await mock.session('gemini-count-catalogue', { models: [MODEL] });
    const missing = await apiError(client(session).models.countTokens({ model: 'gemini-unknown', contents: 'Hi' }));
    assert.equal(missing.status, 404);
    assert.equal(missing.error.status, 'NOT_FOUND');
    assert.match(missing.error.message, new RegExp(`models/gemini-unknown is not found for API version ${GENAI_DEFAULT_API_VERSION},`));
    assert.ok(((await client(session).models.countTokens({ model: MODEL, contents: 'Hi' })).totalTokens ?? 0) > 0);
  });

  test('a generateContentRequest is counted as its contents are', async () => {
    const session = await mock.session('gemini-count-wrapped');
    const url = `${mock.url('gemini')}/v1beta/models/${MODEL}:countTokens`;
    const headers = { 'x-goog-api-key': session.apiKey, 'content-type': 'application/json' };
    const contents = [{ role: 'user', parts: [{ text: 'Hello there, how are you?' }] }];
    const direct = (await (await fetch(url, { method: 'POST', headers, body: JSON.stringify({ contents }) })).json()) as {
      totalTokens: number;
      promptTokensDetails: unknown;
    };
    // The SDK reads totalTokens (and cachedContentTokenCount); the API sends the modalities too.
    assert.deepEqual(direct.promptTokensDetails, [{ modality: 'TEXT', tokenCount: direct.totalTokens }]);
    const wrapped = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ generateContentRequest: { model: `models/${MODEL}`, contents } }),
    });
    assert.equal(wrapped.status, 200);
    assert.equal(((await wrapped.json()) as { totalTokens: number }).totalTokens, direct.totalTokens);
  });
});

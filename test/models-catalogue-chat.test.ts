// A session's own model catalogue (SessionOptions.models) on Anthropic's Messages and Gemini's
// generateContent (and Vertex's), judged by their SDKs: a listed model is answered, any other is
// the provider's 404 — the one its model list gives for that id — before any script is consulted,
// journalled as refused. Without a catalogue every model is answered.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { GENAI_DEFAULT_API_VERSION } from './support/sdk-versions.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

function anthropic(session: UnderstudySession): Anthropic {
  return new Anthropic({ baseURL: mock.url('anthropic'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
}

function genai(session: UnderstudySession): GoogleGenAI {
  return new GoogleGenAI({ apiKey: session.apiKey, httpOptions: { baseUrl: mock.url('gemini'), timeout: 10_000 } });
}

describe('Anthropic Messages', () => {
  test('a strict catalogue answers its models [anthropic-messages.model-catalogue.json +]', async () => {
    const session = await mock.session('anthropic-strict-listed', { models: ['claude-sonnet-4-6'] });
    session.scenario('hello').replies('Hello.');
    const answer = await anthropic(session).messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 32,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    assert.deepEqual(answer.content, [{ type: 'text', text: 'Hello.' }]);
  });

  test("any other model is Anthropic's 404 not_found_error, consuming nothing [anthropic-messages.model-catalogue.json -]", async () => {
    const session = await mock.session('anthropic-strict-refused', { models: ['claude-sonnet-4-6'] });
    session.scenario('hello').replies('Hello.');
    for (const stream of [false, true]) {
      const error = await anthropic(session)
        .messages.create({ model: 'claude-unknown', max_tokens: 32, stream, messages: [{ role: 'user', content: 'Hi' }] })
        .catch((e: unknown) => e);
      assert.ok(error instanceof Anthropic.NotFoundError, `got ${String(error)}`);
      assert.equal(error.type, 'not_found_error');
      assert.match(error.message, /model: claude-unknown/);
    }
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => e.status),
      [404, 404],
    );
    const answer = await anthropic(session).messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 32,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    assert.deepEqual(answer.content, [{ type: 'text', text: 'Hello.' }], 'the script was not consumed');
  });
});

describe('Gemini generateContent', () => {
  test('a strict catalogue answers its models, written with or without models/ [gemini.model-catalogue.json +]', async () => {
    const session = await mock.session('gemini-strict-listed', { models: ['models/gemini-2.5-flash', 'gemini-2.5-pro'] });
    session.scenario('hello').replies('Hello.').onExhausted('repeat_last');
    assert.equal((await genai(session).models.generateContent({ model: 'gemini-2.5-flash', contents: 'Hi' })).text, 'Hello.');
    assert.equal((await genai(session).models.generateContent({ model: 'gemini-2.5-pro', contents: 'Hi' })).text, 'Hello.');
  });

  test("any other model is Gemini's 404 NOT_FOUND, streamed or not [gemini.model-catalogue.json -]", async () => {
    const session = await mock.session('gemini-strict-refused', { models: ['gemini-2.5-flash'] });
    session.scenario('hello').replies('Hello.');
    const calls = [
      genai(session).models.generateContent({ model: 'gemini-unknown', contents: 'Hi' }),
      genai(session).models.generateContentStream({ model: 'gemini-unknown', contents: 'Hi' }),
    ];
    for (const call of calls) {
      const error = await call.catch((e: unknown) => e);
      assert.ok(error instanceof ApiError, `got ${String(error)}`);
      assert.equal(error.status, 404);
      const body = JSON.parse(error.message) as { error: { status: string; message: string } };
      assert.equal(body.error.status, 'NOT_FOUND');
      assert.match(body.error.message, new RegExp(`models/gemini-unknown is not found for API version ${GENAI_DEFAULT_API_VERSION},`));
    }
    assert.deepEqual(
      (await session.journal()).entries.map((e) => e.status),
      [404, 404],
    );
    assert.equal((await genai(session).models.generateContent({ model: 'gemini-2.5-flash', contents: 'Hi' })).text, 'Hello.');
  });

  test("on Vertex AI's express routes, in Vertex's words", async () => {
    const session = await mock.session('vertex-strict-refused', { models: ['gemini-2.5-flash'] });
    const express = new GoogleGenAI({
      vertexai: true,
      apiKey: session.apiKey,
      httpOptions: { baseUrl: mock.url('vertex'), timeout: 10_000 },
    });
    const error = await express.models.generateContent({ model: 'gemini-unknown', contents: 'Hi' }).catch((e: unknown) => e);
    assert.ok(error instanceof ApiError, `got ${String(error)}`);
    assert.equal(error.status, 404);
    assert.match(error.message, /Publisher Model `publishers\/google\/models\/gemini-unknown` was not found/);
  });
});

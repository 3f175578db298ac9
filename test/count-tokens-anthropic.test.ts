// Anthropic's `POST /v1/messages/count_tokens` through @anthropic-ai/sdk's messages.countTokens:
// the count is the input_tokens messages.create reports for the same request; a body the API
// refuses gets Anthropic's 400; counting consumes no script and is not journalled.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import Anthropic from '@anthropic-ai/sdk';
import Anthropic0x from 'anthropic-0x';
import fc from 'fast-check';

import { startUnderstudy } from '../src/index.js';
import { anthropicClient, anthropicRejection } from './support/anthropic-client.js';
import type { Understudy, UnderstudySession } from '../src/index.js';

let mock: Understudy;

before(async () => {
  mock = await startUnderstudy();
});

after(async () => {
  await mock.close();
});

const MODEL = 'claude-sonnet-4-6';

function client(session: UnderstudySession, base = mock.url('anthropic')): Anthropic {
  return anthropicClient(mock, session, base);
}

const rejection = anthropicRejection;

const weather: Anthropic.Tool = {
  name: 'weather',
  description: 'Current weather for a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('messages.countTokens', () => {
  test('counts a request as messages.create reports its input_tokens; nothing is consumed or journalled [anthropic-messages.count-tokens.json +]', async () => {
    const session = await mock.session('anthropic-count');
    session.scenario('one').whenLatestUser({ contains: 'Paris' }).replies('Sunny.');
    const anthropic = client(session);
    const request = {
      model: MODEL,
      system: 'Be brief.',
      tools: [weather],
      messages: [{ role: 'user' as const, content: 'What is the weather in Paris today?' }],
    };
    const counted = await anthropic.messages.countTokens(request);
    assert.equal(Object.keys(counted).join(), 'input_tokens');
    assert.ok(counted.input_tokens > 0);
    assert.equal((await session.journal()).entries.length, 0, 'a count is not journalled');
    const answered = await anthropic.messages.create({ ...request, max_tokens: 64 });
    assert.deepEqual(answered.content, [{ type: 'text', text: 'Sunny.' }]);
    assert.equal(counted.input_tokens, answered.usage.input_tokens);
  });

  test('the 0.x SDK (x-api-key, anthropic-version 2023-06-01) counts the same', async () => {
    const session = await mock.session('anthropic-count-0x');
    const old = new Anthropic0x({ baseURL: mock.url('anthropic'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
    const request = { model: MODEL, messages: [{ role: 'user' as const, content: 'How many tokens is this?' }] };
    const counted = await old.messages.countTokens(request);
    assert.equal(counted.input_tokens, (await client(session).messages.countTokens(request)).input_tokens);
    const models: string[] = [];
    for await (const model of old.models.list()) models.push(model.id);
    assert.ok(models.includes(MODEL), 'the 0.x SDK reads the model list too');
  });

  test('under /anthropic and a session prefix too', async () => {
    const session = await mock.session('anthropic-count-prefixed');
    const base = `${mock.url('anthropic')}/s/anthropic-count-prefixed/anthropic`;
    const counted = await client(session, base).messages.countTokens({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] });
    assert.ok(counted.input_tokens > 0);
  });

  test('property: for any conversation, system and tools, countTokens equals the input_tokens of messages.create', async () => {
    const session = await mock.session('anthropic-count-property', { fallback: 'auto' });
    const anthropic = client(session);
    const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }).filter((t) => t.trim() !== '');
    const turns = fc
      .array(text, { minLength: 1, maxLength: 5 })
      .map((texts) => texts.map((t, i): Anthropic.MessageParam => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: t })));
    const toolName = fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_-]{0,20}$/);
    const tools = fc.uniqueArray(toolName, { maxLength: 3 }).map((names) =>
      names.map((name): Anthropic.Tool => ({
        name,
        description: `about ${name}`,
        input_schema: { type: 'object', properties: { [name]: { type: 'string' } } },
      })),
    );
    await fc.assert(
      fc.asyncProperty(turns, fc.option(text, { nil: undefined }), tools, async (messages, system, declared) => {
        if (messages[messages.length - 1].role !== 'user') messages.push({ role: 'user', content: 'and?' });
        const request = {
          model: MODEL,
          messages,
          ...(system !== undefined && { system }),
          ...(declared.length > 0 && { tools: declared }),
        };
        const counted = await anthropic.messages.countTokens(request);
        const answered = await anthropic.messages.create({ ...request, max_tokens: 64 });
        assert.equal(counted.input_tokens, answered.usage.input_tokens);
      }),
      { numRuns: 25, seed: 21 },
    );
  });

  test('refuses what the API refuses, in its 400 shape [anthropic-messages.count-tokens.json -]', async () => {
    const session = await mock.session('anthropic-count-bad');
    const anthropic = client(session);
    const noModel = await rejection(anthropic.messages.countTokens({ messages: [{ role: 'user', content: 'Hi' }] } as never));
    assert.ok(noModel instanceof Anthropic.BadRequestError);
    assert.equal(noModel.type, 'invalid_request_error');
    assert.match(noModel.message, /model: Field required/);
    // max_tokens is messages.create's, not count_tokens'.
    const maxTokens = await rejection(
      anthropic.messages.countTokens({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] } as never),
    );
    assert.ok(maxTokens instanceof Anthropic.BadRequestError);
    assert.match(maxTokens.message, /max_tokens: Extra inputs are not permitted/);
    const badRole = await rejection(
      anthropic.messages.countTokens({ model: MODEL, messages: [{ role: 'robot', content: 'Hi' }] } as never),
    );
    assert.ok(badRole instanceof Anthropic.BadRequestError);
    assert.match(badRole.message, /messages\.0\.role/);
  });

  test("with a session catalogue, a model outside it is Anthropic's 404, one inside it is counted", async () => {
    const session = await mock.session('anthropic-count-catalogue', { models: [MODEL] });
    const anthropic = client(session);
    const missing = await rejection(
      anthropic.messages.countTokens({ model: 'claude-unknown', messages: [{ role: 'user', content: 'Hi' }] }),
    );
    assert.ok(missing instanceof Anthropic.NotFoundError);
    assert.equal(missing.type, 'not_found_error');
    assert.match(missing.message, /model: claude-unknown/);
    assert.ok((await anthropic.messages.countTokens({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] })).input_tokens > 0);
  });

  test('a body that is not JSON, or no anthropic-version, is the 400 messages.create gets', async () => {
    const session = await mock.session('anthropic-count-raw');
    const url = `${mock.url('anthropic')}/v1/messages/count_tokens`;
    const headers = { 'x-api-key': session.apiKey, 'content-type': 'application/json' };
    const notJson = await fetch(url, { method: 'POST', headers: { ...headers, 'anthropic-version': '2023-06-01' }, body: '{"model":' });
    assert.equal(notJson.status, 400);
    const notJsonBody = (await notJson.json()) as { type: string; error: { type: string; message: string } };
    assert.equal(notJsonBody.type, 'error');
    assert.equal(notJsonBody.error.type, 'invalid_request_error');
    assert.match(notJsonBody.error.message, /could not parse the JSON body/);
    const noVersion = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    assert.equal(noVersion.status, 400);
    assert.match(((await noVersion.json()) as { error: { message: string } }).error.message, /anthropic-version: header is required/);
  });
});

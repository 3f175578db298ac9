// Issue 5 §7: the control API stays on loopback or behind a token, sessions can require their
// key, CORS is off unless configured, and secrets never reach the journal.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import OpenAI from 'openai';
import { startUnderstudy } from '../src/client/index.js';

const ask = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'hi' }] };

test('binding beyond loopback without a control token is refused', async () => {
  await assert.rejects(startUnderstudy({ host: '0.0.0.0' }), /control token/);
});

test('with a control token, control calls need it (Bearer or header); provider routes do not', async () => {
  const mock = await startUnderstudy({ controlToken: 's3cret', defaultSession: { fallback: 'auto' } });
  try {
    const url = `${mock.baseUrl}/_understudy/health`;
    const none = await fetch(url);
    assert.equal(none.status, 401);
    assert.equal(((await none.json()) as { error: { code: string } }).error.code, 'control_token_required');
    assert.equal((await fetch(url, { headers: { authorization: 'Bearer wrong' } })).status, 401);
    assert.equal((await fetch(url, { headers: { authorization: 'Bearer s3cret' } })).status, 200);
    assert.equal((await fetch(url, { headers: { 'x-understudy-control-token': 's3cret' } })).status, 200);
    const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: 'anything', maxRetries: 0, timeout: 5000 });
    const completion = await openai.chat.completions.create(ask);
    assert.equal(completion.choices[0].finish_reason, 'stop');
  } finally {
    await mock.close();
  }
});

test('a session that requires its API key refuses requests that name it without the key', async () => {
  const mock = await startUnderstudy();
  try {
    const session = await mock.session('locked', { requireApiKey: true });
    session.scenario('s').onExhausted('repeat_last').replies('inside');
    const prefixed = `${mock.baseUrl}/s/locked/v1`;
    const wrong = new OpenAI({ baseURL: prefixed, apiKey: 'not-the-key', maxRetries: 0, timeout: 5000 });
    const error = await wrong.chat.completions.create(ask).catch((e: unknown) => e);
    assert.ok(error instanceof OpenAI.AuthenticationError);
    assert.equal(error.code, 'invalid_api_key');
    const right = new OpenAI({ baseURL: prefixed, apiKey: session.apiKey, maxRetries: 0, timeout: 5000 });
    assert.equal((await right.chat.completions.create(ask)).choices[0].message.content, 'inside');
    const { counters } = await session.journal();
    assert.equal(counters.requests, 1, 'the refused request never reached the session');
  } finally {
    await mock.close();
  }
});

test('CORS is off by default and on only for the listed origins', async () => {
  const closed = await startUnderstudy({ defaultSession: { fallback: 'auto' } });
  const open = await startUnderstudy({ defaultSession: { fallback: 'auto' }, corsOrigins: ['http://app.test'] });
  try {
    const body = JSON.stringify(ask);
    const headers = { 'content-type': 'application/json', origin: 'http://app.test' };
    const a = await fetch(`${closed.baseUrl}/v1/chat/completions`, { method: 'POST', headers, body });
    assert.equal(a.status, 403, 'a web page not listed with --cors is refused');
    assert.equal(((await a.json()) as { error: { code: string } }).error.code, 'origin_not_allowed');
    assert.equal(a.headers.get('access-control-allow-origin'), null);
    const b = await fetch(`${open.baseUrl}/v1/chat/completions`, { method: 'POST', headers, body });
    assert.equal(b.headers.get('access-control-allow-origin'), 'http://app.test');
    const preflight = await fetch(`${open.baseUrl}/v1/chat/completions`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://app.test',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    assert.equal(preflight.status, 204);
    assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /POST/);
    assert.equal(preflight.headers.get('access-control-allow-headers'), 'authorization, content-type');
    const other = await fetch(`${open.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...headers, origin: 'http://evil.test' },
      body,
    });
    assert.equal(other.status, 403);
    assert.equal(other.headers.get('access-control-allow-origin'), null);
  } finally {
    await closed.close();
    await open.close();
  }
});

test('API keys and Authorization values never appear in the journal', async () => {
  const mock = await startUnderstudy();
  try {
    const session = await mock.session('secrets', { apiKey: 'sk-live-very-secret-key' });
    session.scenario('s').replies('ok');
    const openai = new OpenAI({
      baseURL: mock.url('openai'),
      apiKey: session.apiKey,
      maxRetries: 0,
      timeout: 5000,
      defaultHeaders: { 'x-api-key': 'sk-other-secret' },
    });
    await openai.chat.completions.create(ask);
    const journal = JSON.stringify(await session.journal());
    assert.ok(journal.includes('"route":"POST /v1/chat/completions"'));
    assert.ok(!journal.includes('sk-live-very-secret-key'));
    assert.ok(!journal.includes('sk-other-secret'));
    assert.ok(!/authorization/i.test(journal));
  } finally {
    await mock.close();
  }
});

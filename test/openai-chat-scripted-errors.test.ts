// Scripted provider errors reach the openai SDK as its own error classes, JSON and streaming.

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

async function clientFor(name: string) {
  const session = await mock.session(name);
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  return { session, openai };
}

const ask = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Hi' }] };

test('a scripted 429 surfaces as RateLimitError with its headers, then the next step answers [openai-chat.errors.json +]', async () => {
  const { session, openai } = await clientFor('scripted-429');
  session
    .scenario('throttled')
    .fails(429, 'Rate limit reached for gpt-4o-mini', {
      code: 'rate_limit_exceeded',
      headers: { 'retry-after-ms': '20', 'retry-after': '1' },
    })
    .replies('after the limit');
  const error = await openai.chat.completions.create(ask).catch((e: unknown) => e);
  assert.ok(error instanceof OpenAI.RateLimitError, `got ${String(error)}`);
  assert.equal(error.status, 429);
  assert.equal(error.code, 'rate_limit_exceeded');
  assert.equal(error.type, 'requests');
  assert.equal(error.headers?.get('retry-after-ms'), '20');
  assert.equal(error.headers?.get('x-ratelimit-remaining-requests'), '0', 'OpenAI rate-limit headers come with a 429');
  assert.match(error.message, /Rate limit reached/);
  const next = await openai.chat.completions.create(ask);
  assert.equal(next.choices[0].message.content, 'after the limit');
  await session.verify();
});

test('the SDK retry path honours retry-after-ms: fail once, then succeed [openai-chat.errors.json +]', async () => {
  const session = await mock.session('retry-once');
  session
    .scenario('flaky')
    .fails(503, 'The server is overloaded', { headers: { 'retry-after-ms': '10' } })
    .replies('recovered');
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 1, timeout: 10_000 });
  const started = Date.now();
  const completion = await openai.chat.completions.create(ask);
  assert.equal(completion.choices[0].message.content, 'recovered');
  assert.ok(Date.now() - started < 2_000, 'retry-after-ms was honoured rather than the default backoff');
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.status),
    [503, 200],
  );
});

test('scripted 500 and 401 become InternalServerError and AuthenticationError [openai-chat.errors.json -]', async () => {
  const { session, openai } = await clientFor('scripted-5xx');
  session.scenario('broken').fails(500, 'boom').fails(401, 'Incorrect API key provided', { code: 'invalid_api_key' });
  const e500 = await openai.chat.completions.create(ask).catch((e: unknown) => e);
  assert.ok(e500 instanceof OpenAI.InternalServerError);
  assert.equal((e500 as InstanceType<typeof OpenAI.InternalServerError>).type, 'server_error');
  const e401 = await openai.chat.completions.create(ask).catch((e: unknown) => e);
  assert.ok(e401 instanceof OpenAI.AuthenticationError);
  assert.equal((e401 as InstanceType<typeof OpenAI.AuthenticationError>).code, 'invalid_api_key');
  const { entries, counters } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.script, e.step]),
    [
      [500, 'broken', 'step-1'],
      [401, 'broken', 'step-2'],
    ],
  );
  assert.equal(counters.errorsReturned, 2);
  assert.equal(entries[0].usage?.outputTokens, 0, 'errors report input usage only');
  assert.ok((entries[0].usage?.inputTokens ?? 0) > 0);
});

test('a scripted error on a streaming request is thrown by the stream helper [openai-chat.errors.stream +]', async () => {
  const { session, openai } = await clientFor('scripted-stream-error');
  session.scenario('throttled').fails(429, 'slow down', { code: 'rate_limit_exceeded' }).replies('streamed after the limit');
  const stream = openai.chat.completions.stream({ ...ask, stream: true });
  const error = await stream.finalChatCompletion().catch((e: unknown) => e);
  assert.ok(error instanceof OpenAI.RateLimitError, `got ${String(error)}`);
  const ok = await openai.chat.completions.stream({ ...ask, stream: true }).finalChatCompletion();
  assert.equal(ok.choices[0].message.content, 'streamed after the limit');
});

test('a scripted error consumes its step even when streamed; an invalid error script never loads [openai-chat.errors.stream -]', async () => {
  const { session, openai } = await clientFor('scripted-stream-consumed');
  assert.throws(() => session.scenario('bad').fails(200, 'not an error status'), /status/);
  session.scenario('once').fails(500, 'one failure');
  const first = await openai.chat.completions.create({ ...ask, stream: true }).catch((e: unknown) => e);
  assert.ok(first instanceof OpenAI.InternalServerError);
  const second = await openai.chat.completions.create({ ...ask, stream: true }).catch((e: unknown) => e);
  assert.ok(second instanceof OpenAI.ConflictError);
  assert.equal((second as InstanceType<typeof OpenAI.ConflictError>).code, 'scenario_exhausted');
  assert.equal((second as InstanceType<typeof OpenAI.ConflictError>).headers?.get('x-should-retry'), 'false');
});

test('an in-stream scripted error arrives after the stream starts and the SDK throws APIError [openai-chat.errors.stream +]', async () => {
  const { session, openai } = await clientFor('scripted-in-stream');
  session
    .scenario('mid-stream')
    .reply({ error: { status: 500, message: 'The model crashed mid-answer', code: 'server_error', inStream: true } });
  const stream = await openai.chat.completions.create({ ...ask, stream: true });
  const seen: string[] = [];
  const error = await (async () => {
    for await (const chunk of stream) seen.push(chunk.choices[0]?.delta?.role ?? '');
  })().catch((e: unknown) => e);
  assert.ok(error instanceof OpenAI.APIError, `got ${String(error)}`);
  assert.match((error as Error).message, /crashed mid-answer/);
  assert.deepEqual(seen, ['assistant'], 'the role chunk arrived before the error');
  const { entries } = await session.journal();
  assert.equal(entries[0].status, 200);
  assert.equal(entries[0].error?.message, 'The model crashed mid-answer');
});

test('fail the first attempt, answer the retry: keyed on the SDK retry-count header', async () => {
  const session = await mock.session('attempt-keyed');
  session
    .scenario('retry')
    .onExhausted('repeat_last')
    .whenAttempt(0)
    .fails(429, 'slow down', { headers: { 'retry-after-ms': '10' } })
    .whenAttempt(1)
    .replies('answered on the retry')
    .goesTo('step-1');
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 2, timeout: 10_000 });
  const first = await openai.chat.completions.create(ask);
  assert.equal(first.choices[0].message.content, 'answered on the retry');
  const second = await openai.chat.completions.create(ask);
  assert.equal(second.choices[0].message.content, 'answered on the retry');
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.request?.attempt ?? 0]),
    [
      [429, 0],
      [200, 1],
      [429, 0],
      [200, 1],
    ],
  );
  // without retries the failure reaches the caller, and the miss names the attempt
  const noRetry = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0 });
  await assert.rejects(noRetry.chat.completions.create(ask), OpenAI.RateLimitError);
});

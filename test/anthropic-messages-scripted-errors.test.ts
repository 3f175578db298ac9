// Scripted provider errors reach the Anthropic SDKs in Anthropic's error shape, as the SDKs' own
// error classes: before a response (JSON and streaming) and inside a started stream.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import Anthropic from '@anthropic-ai/sdk';
import Anthropic0x from 'anthropic-0x';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/index.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const ask: Anthropic.MessageCreateParamsNonStreaming = {
  model: 'claude-sonnet-4-6',
  max_tokens: 100,
  messages: [{ role: 'user', content: 'Hi' }],
};

function v1(session: UnderstudySession, maxRetries = 0): Anthropic {
  return new Anthropic({ baseURL: mock.url('anthropic'), apiKey: session.apiKey, maxRetries, timeout: 10_000 });
}

function v0(session: UnderstudySession, maxRetries = 0): Anthropic0x {
  return new Anthropic0x({ baseURL: mock.url('anthropic'), apiKey: session.apiKey, maxRetries, timeout: 10_000 });
}

type Body = { type: string; error: { type: string; message: string; details?: { error_code: string } }; request_id: string };

test('a scripted 429 surfaces as RateLimitError with rate_limit_error and its retry-after, then the next step answers [anthropic-messages.errors.json +]', async () => {
  const session = await mock.session('scripted-429');
  session
    .scenario('throttled')
    .fails(429, 'Number of request tokens has exceeded your per-minute rate limit', { headers: { 'retry-after': '7' } })
    .replies('after the limit');
  const client = v1(session);
  const error = await client.messages.create(ask).catch((e: unknown) => e);
  assert.ok(error instanceof Anthropic.RateLimitError, `got ${String(error)}`);
  assert.equal(error.status, 429);
  assert.equal(error.type, 'rate_limit_error');
  assert.equal(error.headers?.get('retry-after'), '7');
  const body = error.error as Body;
  assert.equal(body.type, 'error');
  assert.equal(body.error.message, 'Number of request tokens has exceeded your per-minute rate limit');
  assert.equal(body.request_id, error.requestID, 'the request-id header and body agree');
  const next = await client.messages.create(ask);
  assert.deepEqual(next.content, [{ type: 'text', text: 'after the limit' }]);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.step]),
    [
      [429, 'step-1'],
      [200, 'step-2'],
    ],
  );
});

test('529 overloaded, then success: the SDK retries once, honouring retry-after-ms [anthropic-messages.errors.json +]', async () => {
  const session = await mock.session('overloaded-retry');
  session
    .scenario('flaky')
    .fails(529, 'Overloaded', { headers: { 'retry-after-ms': '10' } })
    .replies('recovered');
  const started = Date.now();
  const message = await v1(session, 1).messages.create(ask);
  assert.deepEqual(message.content, [{ type: 'text', text: 'recovered' }]);
  assert.ok(Date.now() - started < 2_000, 'retry-after-ms was honoured rather than the default backoff');
  const { entries, counters } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.error?.message]),
    [
      [529, 'Overloaded'],
      [200, undefined],
    ],
  );
  assert.equal(counters.requests, 2, 'two attempts');
});

test('529 without retries: OverloadedError (1.x) and InternalServerError (0.x), both typed overloaded_error; a scripted code is details.error_code [anthropic-messages.errors.json -]', async () => {
  const session = await mock.session('overloaded');
  session
    .scenario('down')
    .fails(529, 'Overloaded')
    .fails(529, 'Overloaded')
    .fails(402, 'Your credit balance is too low', { code: 'linked_organization_spend_limit_reached' });
  const e1 = await v1(session)
    .messages.create(ask)
    .catch((e: unknown) => e);
  assert.ok(e1 instanceof Anthropic.OverloadedError, `got ${String(e1)}`);
  assert.equal(e1.status, 529);
  assert.equal(e1.type, 'overloaded_error');
  const e0 = await v0(session)
    .messages.create(ask as unknown as Anthropic0x.MessageCreateParamsNonStreaming)
    .catch((e: unknown) => e);
  assert.ok(e0 instanceof Anthropic0x.InternalServerError, `got ${String(e0)}`);
  assert.equal(e0.status, 529);
  assert.equal((e0.error as Body).error.type, 'overloaded_error');
  const e402 = await v1(session)
    .messages.create(ask)
    .catch((e: unknown) => e);
  assert.ok(e402 instanceof Anthropic.PaymentRequiredError, `got ${String(e402)}`);
  assert.equal(e402.type, 'billing_error');
  assert.equal(e402.errorCode, 'linked_organization_spend_limit_reached');
  const { entries, counters } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.status),
    [529, 529, 402],
  );
  assert.equal(counters.errorsReturned, 3);
  assert.equal(entries[0].usage?.outputTokens, 0, 'errors report input usage only');
});

test('a scripted error on a streaming request is thrown by the stream helper before any event [anthropic-messages.errors.stream +]', async () => {
  const session = await mock.session('scripted-stream-error');
  session.scenario('throttled').fails(429, 'slow down').replies('streamed after the limit');
  const events: string[] = [];
  const helper = v1(session).messages.stream(ask);
  helper.on('streamEvent', (event) => events.push(event.type));
  const error = await helper.finalMessage().catch((e: unknown) => e);
  assert.ok(error instanceof Anthropic.RateLimitError, `got ${String(error)}`);
  assert.deepEqual(events, []);
  const ok = await v1(session).messages.stream(ask).finalMessage();
  assert.deepEqual(ok.content, [{ type: 'text', text: 'streamed after the limit' }]);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream]),
    [
      [429, true],
      [200, true],
    ],
  );
});

test('an in-stream scripted error: message_start arrives, then the error event, and the SDKs throw overloaded_error [anthropic-messages.errors.stream +]', async () => {
  const session = await mock.session('scripted-in-stream');
  session
    .scenario('mid-stream')
    .reply({ error: { status: 529, message: 'Overloaded', inStream: true } })
    .reply({ error: { status: 529, message: 'Overloaded', inStream: true } });

  const stream = await v1(session).messages.create({ ...ask, stream: true });
  const seen: string[] = [];
  const error = await (async () => {
    for await (const event of stream) seen.push(event.type);
  })().catch((e: unknown) => e);
  assert.ok(error instanceof Anthropic.APIError, `got ${String(error)}`);
  assert.equal(error.type, 'overloaded_error');
  assert.match(error.message, /Overloaded/);
  assert.deepEqual(seen, ['message_start'], 'the stream had started before the error');

  const old = await v0(session).messages.create({ ...(ask as unknown as Anthropic0x.MessageCreateParamsNonStreaming), stream: true });
  const oldError = await (async () => {
    for await (const event of old) void event;
  })().catch((e: unknown) => e);
  assert.ok(oldError instanceof Anthropic0x.APIError, `got ${String(oldError)}`);

  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream, e.error?.message]),
    [
      [200, true, 'Overloaded'],
      [200, true, 'Overloaded'],
    ],
  );
});

test('a scripted error consumes its step even when streamed; an error script with a non-error status never loads [anthropic-messages.errors.stream -]', async () => {
  const session = await mock.session('scripted-stream-consumed');
  assert.throws(() => session.scenario('bad').fails(200, 'not an error status'), /status/);
  session.scenario('once').fails(500, 'Internal server error');
  const first = await v1(session)
    .messages.stream(ask)
    .finalMessage()
    .catch((e: unknown) => e);
  assert.ok(first instanceof Anthropic.InternalServerError, `got ${String(first)}`);
  assert.equal(first.type, 'api_error');
  const second = await v1(session)
    .messages.stream(ask)
    .finalMessage()
    .catch((e: unknown) => e);
  assert.ok(second instanceof Anthropic.ConflictError, `got ${String(second)}`);
  assert.equal(second.errorCode, 'scenario_exhausted');
  assert.equal(second.headers?.get('x-should-retry'), 'false');
});

test('a scripted fault of kind error part-way through a stream ends it with Anthropic’s error event', async () => {
  const session = await mock.session('fault-in-stream');
  session.scenario('cut').reply({
    text: 'one two three four five',
    fault: { kind: 'error', afterChunks: 4, error: { status: 529, message: 'Overloaded' } },
  });
  const stream = await v1(session).messages.create({ ...ask, stream: true });
  const seen: string[] = [];
  const error = await (async () => {
    for await (const event of stream) seen.push(event.type);
  })().catch((e: unknown) => e);
  assert.ok(error instanceof Anthropic.APIError, `got ${String(error)}`);
  assert.equal(error.type, 'overloaded_error');
  // message_start, content_block_start, (ping, dropped by the SDK), the first text delta.
  assert.deepEqual(seen, ['message_start', 'content_block_start', 'content_block_delta']);
});

// Issue 5 §3 across dialects: a fault part-way through a stream surfaces in each SDK as that
// SDK's own error (or, for OpenAI Responses, as the `error` event its stream reports).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { startUnderstudy, type Understudy } from '../src/client/index.js';
import { OPENAI_THROWS_STREAM_ERROR_EVENTS } from './support/sdk-versions.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const chunks = ['one ', 'two ', 'three ', 'four ', 'five'];
const overloaded = {
  kind: 'error' as const,
  afterChunks: 4,
  error: { status: 529, message: 'Overloaded mid-answer', code: 'overloaded_error', type: 'overloaded_error' },
};

async function sessionWith(id: string, fault: object) {
  const session = await mock.session(id);
  await session.load({ scenarios: [{ name: 'f', replies: [{ text: chunks.join(''), chunks, fault: fault as never }] }] });
  return session;
}

test('Anthropic: an error event part-way is thrown by the message stream', async () => {
  const session = await sessionWith('fault-anthropic', overloaded);
  const client = new Anthropic({ baseURL: mock.url('anthropic'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const types: string[] = [];
  const error = await (async () => {
    const stream = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    for await (const event of stream) types.push(event.type);
  })().catch((e: unknown) => e);
  assert.ok(error instanceof Anthropic.APIError, String(error));
  assert.match(String((error as Error).message), /Overloaded mid-answer/);
  assert.equal(types[0], 'message_start');
  assert.ok(!types.includes('message_stop'));
});

test('Anthropic and Gemini: a TCP reset part-way surfaces as a connection error', async () => {
  const a = await sessionWith('reset-anthropic', { kind: 'reset', afterChunks: 3 });
  const anthropic = new Anthropic({ baseURL: mock.url('anthropic'), apiKey: a.apiKey, maxRetries: 0, timeout: 10_000 });
  const e1 = await anthropic.messages
    .stream({ model: 'claude-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] })
    .finalMessage()
    .catch((e: unknown) => e);
  assert.ok(e1 instanceof Error, String(e1));

  const g = await sessionWith('reset-gemini', { kind: 'reset', afterChunks: 2 });
  const genai = new GoogleGenAI({ apiKey: g.apiKey, httpOptions: { baseUrl: mock.url('gemini') } });
  const e2 = await (async () => {
    const stream = await genai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'hi' });
    for await (const _ of stream) void _;
  })().catch((e: unknown) => e);
  assert.ok(e2 instanceof Error, String(e2));
});

test('Gemini: an error part-way through an SSE stream is thrown by generateContentStream', async () => {
  const session = await sessionWith('fault-gemini', {
    kind: 'error',
    afterChunks: 2,
    error: { status: 503, message: 'The model is overloaded mid-answer' },
  });
  const genai = new GoogleGenAI({ apiKey: session.apiKey, httpOptions: { baseUrl: mock.url('gemini') } });
  const texts: string[] = [];
  const error = await (async () => {
    const stream = await genai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'hi' });
    for await (const chunk of stream) texts.push(chunk.text ?? '');
  })().catch((e: unknown) => e);
  assert.ok(error instanceof Error, String(error));
  assert.match(String((error as Error).message), /overloaded mid-answer/);
  assert.ok(texts.length >= 1 && texts.length < chunks.length);
});

test('OpenAI Responses: an error event part-way continues the sequence numbers and ends the stream', async () => {
  const session = await sessionWith('fault-responses', {
    kind: 'error',
    afterChunks: 5,
    error: { status: 500, message: 'Broke mid-answer', code: 'server_error' },
  });
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const events: { type: string; sequence_number: number }[] = [];
  const outcome = await (async () => {
    const stream = await openai.responses.create({ model: 'gpt-4o', input: 'hi', stream: true, store: false });
    for await (const event of stream) events.push(event as { type: string; sequence_number: number });
  })().catch((e: unknown) => e);
  const beforeError = [
    'response.created',
    'response.in_progress',
    'response.output_item.added',
    'response.content_part.added',
    'response.output_text.delta',
  ];
  if (OPENAI_THROWS_STREAM_ERROR_EVENTS) {
    assert.ok(outcome instanceof OpenAI.APIError, String(outcome));
    assert.equal(outcome.code, 'server_error');
    assert.match(outcome.message, /Broke mid-answer/);
    assert.deepEqual(
      events.map((e) => e.type),
      beforeError,
    );
  } else {
    // openai 6 does not throw for a Responses `error` event (wire-formats §19.8): it yields it.
    assert.equal(outcome, undefined);
    assert.deepEqual(
      events.map((e) => e.type),
      [...beforeError, 'error'],
    );
  }
  assert.deepEqual(
    events.map((e) => e.sequence_number),
    [0, 1, 2, 3, 4, 5].slice(0, events.length),
  );
  assert.ok(!events.some((e) => e.type === 'response.completed'));
});

test('Anthropic: truncation, a malformed event and a stall each surface as the SDK’s error', async () => {
  for (const fault of [
    { kind: 'truncate', afterChunks: 3 },
    { kind: 'malformed', afterChunks: 3 },
  ]) {
    const session = await sessionWith(`anthropic-${fault.kind}`, fault);
    const client = new Anthropic({ baseURL: mock.url('anthropic'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
    const error = await client.messages
      .stream({ model: 'claude-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] })
      .finalMessage()
      .catch((e: unknown) => e);
    assert.ok(error instanceof Error, `${fault.kind}: ${String(error)}`);
  }
  const stalled = await sessionWith('anthropic-stall', { kind: 'stall', afterChunks: 0 });
  const client = new Anthropic({ baseURL: mock.url('anthropic'), apiKey: stalled.apiKey, maxRetries: 0, timeout: 400 });
  const error = await client.messages
    .create({ model: 'claude-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] })
    .catch((e: unknown) => e);
  assert.ok(error instanceof Anthropic.APIConnectionTimeoutError, String(error));
});

test('Gemini: a malformed event and a truncated JSON answer each surface as errors', async () => {
  const malformed = await sessionWith('gemini-malformed', { kind: 'malformed', afterChunks: 2 });
  const genai = new GoogleGenAI({ apiKey: malformed.apiKey, httpOptions: { baseUrl: mock.url('gemini') } });
  const e1 = await (async () => {
    const stream = await genai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'hi' });
    for await (const _ of stream) void _;
  })().catch((e: unknown) => e);
  assert.ok(e1 instanceof Error, String(e1));

  const cut = await sessionWith('gemini-cut', { kind: 'close', afterBytes: 30 });
  const genai2 = new GoogleGenAI({ apiKey: cut.apiKey, httpOptions: { baseUrl: mock.url('gemini') } });
  const e2 = await genai2.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' }).catch((e: unknown) => e);
  assert.ok(e2 instanceof Error, String(e2));
});

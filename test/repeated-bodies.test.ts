// A body sent again and again (a load test) is decoded once and its decoding shared (the decode
// memo, src/transport/decode-memo.ts). These tests send the same bytes under everything else a
// decode reads — retry headers, the API version header, the session's mode — and check that each
// request is still judged on its own.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { startUnderstudy, type Understudy } from '../src/client/index.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const question = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'same bytes every time' }] };

test('the same body under another retry header is another attempt: whenAttempt steps match it', async () => {
  const session = await mock.session('repeat-attempts');
  session
    .scenario('flaky')
    .replies('one')
    .replies('two')
    .whenAttempt(0)
    .fails(500, 'flaky', { headers: { 'retry-after-ms': '10' } })
    .whenAttempt(1)
    .replies('recovered');
  const once = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const retrying = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 1, timeout: 10_000 });
  for (const expected of ['one', 'two']) {
    const answer = await once.chat.completions.create(question);
    assert.equal(answer.choices[0].message.content, expected);
  }
  const answer = await retrying.chat.completions.create(question);
  assert.equal(answer.choices[0].message.content, 'recovered');

  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.request?.attempt, e.step !== undefined]),
    [
      [200, 0, true],
      [200, 0, true],
      [500, 0, true],
      [200, 1, true],
    ],
  );
});

test('the same body under another anthropic-version is judged by that version', async () => {
  const session = await mock.session('repeat-version');
  session.scenario('s').onExhausted('repeat_last').replies('fine');
  const client = new Anthropic({ baseURL: mock.url('anthropic'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const body = { model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user' as const, content: 'same bytes every time' }] };
  for (let i = 0; i < 3; i++) {
    const answer = await client.messages.create(body);
    assert.equal(answer.content[0].type === 'text' && answer.content[0].text, 'fine');
  }
  const refused = await client.messages.create(body, { headers: { 'anthropic-version': '1999-01-01' } }).catch((e: unknown) => e);
  assert.ok(refused instanceof Anthropic.BadRequestError, String(refused));
  assert.match(refused.message, /anthropic-version: .*1999-01-01.* is not a valid version/);
  const again = await client.messages.create(body);
  assert.equal(again.content[0].type === 'text' && again.content[0].text, 'fine');
  const { counters } = await session.journal();
  assert.equal(counters.requests, 5);
  assert.equal(counters.invalid, 1);
});

test('the same body in a strict session after a zero-config one still needs its version header', async () => {
  const auto = await mock.session('repeat-auto', { fallback: 'auto' });
  const strict = await mock.session('repeat-strict');
  strict.scenario('s').onExhausted('repeat_last').replies('scripted');
  const client = (apiKey: string) => new Anthropic({ baseURL: mock.url('anthropic'), apiKey, maxRetries: 0, timeout: 10_000 });
  const body = { model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user' as const, content: 'same bytes every time' }] };
  const noVersion = { headers: { 'anthropic-version': null } };
  for (let i = 0; i < 3; i++) {
    const answer = await client(auto.apiKey).messages.create(body, noVersion);
    assert.equal(answer.type, 'message');
  }
  const refused = await client(strict.apiKey)
    .messages.create(body, noVersion)
    .catch((e: unknown) => e);
  assert.ok(refused instanceof Anthropic.BadRequestError, String(refused));
  assert.match(refused.message, /anthropic-version: header is required/);
  const { entries } = await auto.journal();
  assert.equal(entries.length, 3);
  for (const entry of entries) assert.equal(entry.request?.messages[0].parts[0].type, 'text');
});

test('a repeated body with tools and a JSON schema answers the same each time and is journalled whole each time', async () => {
  const session = await mock.session('repeat-structured');
  session.scenario('s').onExhausted('repeat_last').repliesJson({ city: 'Paris' });
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const request = {
    ...question,
    tools: [
      { type: 'function' as const, function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } } },
    ],
    response_format: {
      type: 'json_schema' as const,
      json_schema: {
        name: 'place',
        strict: true,
        schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
      },
    },
  };
  const answers = [];
  for (let i = 0; i < 4; i++) answers.push((await openai.chat.completions.create(request)).choices[0].message.content);
  assert.deepEqual(answers, Array(4).fill('{"city":"Paris"}'));
  const { entries } = await session.journal();
  assert.equal(entries.length, 4);
  for (const entry of entries) {
    assert.equal(entry.request?.tools?.[0]?.name, 'lookup');
    assert.equal(entry.request?.output.type, 'json_schema');
  }
  // Snapshots are copies: changing one leaves the shared decoding alone.
  (entries[0].request!.tools![0] as { name: string }).name = 'tampered';
  const again = await openai.chat.completions.create(request);
  assert.equal(again.choices[0].message.content, '{"city":"Paris"}');
  assert.equal((await session.journal()).entries[4].request?.tools?.[0]?.name, 'lookup');
});

test('a repeated scripted answer with non-ASCII text arrives byte for byte, from its template too', { timeout: 20_000 }, async () => {
  const session = await mock.session('repeat-non-ascii');
  const text = 'héllo wörld 🎉 日本語 — “quoted” ½';
  session.scenario('same').replies(text).onExhausted('repeat_last');
  const client = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const anthropic = new Anthropic({ baseURL: mock.url('anthropic'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const ids = new Set<string>();
  // A template is built on the second sighting: the third and fourth answers come from it.
  for (let i = 0; i < 4; i++) {
    const answer = await client.chat.completions.create(question);
    assert.equal(answer.choices[0].message.content, text, `OpenAI answer ${i + 1}`);
    ids.add(answer.id);
    const message = await anthropic.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'same' }],
    });
    assert.deepEqual(
      message.content.map((block) => (block.type === 'text' ? block.text : block.type)),
      [text],
      `Anthropic answer ${i + 1}`,
    );
    ids.add(message.id);
    // A short unpaced Anthropic stream has no tail: its template answers as text too (the same
    // prompt streamed: its template is not the JSON answer's).
    const stream = anthropic.messages.stream({
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'same' }],
    });
    const streamed = await stream.finalMessage();
    assert.deepEqual(
      streamed.content.map((block) => (block.type === 'text' ? block.text : block.type)),
      [text],
      `Anthropic stream ${i + 1}`,
    );
    ids.add(streamed.id);
  }
  // Every answer carries its own response id, written into the template's bytes.
  assert.equal(ids.size, 12);
  for (const id of ids) assert.match(id, /^(chatcmpl-|msg_)[A-Za-z0-9]{24}$/);
});

test('repeated bodies in turn each keep their own prompt token count', { timeout: 20_000 }, async () => {
  const session = await mock.session('repeat-usage');
  session.scenario('s').onExhausted('repeat_last').replies('ok');
  const client = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const short = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'hi' }] };
  const long = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'a much longer question with many more words in it' }] };
  const counts: number[] = [];
  // Each body twice in a row, so each is decoded once and then shared.
  for (const body of [short, short, long, long, short, short, long]) {
    const answer = await client.chat.completions.create(body);
    counts.push(answer.usage!.prompt_tokens);
  }
  const [s, , l] = counts;
  assert.ok(l > s, `the longer prompt counts more tokens (${l} vs ${s})`);
  assert.deepEqual(counts, [s, s, l, l, s, s, l]);
});

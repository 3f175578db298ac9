// Issue 5 §4: injected chaos without scripts — VidaiMock's headers and query as aliases, session
// chaos, a rate limit after N requests and a content-filter term list, seen through the openai SDK.

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

const ask = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'Hello!' }] };

async function autoSession(id: string, chaos?: Record<string, unknown>) {
  const session = await mock.session(id, { fallback: 'auto', ...(chaos && { chaos }) });
  return { session, openai: new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 }) };
}

test('X-Mock-Status and ?chaos_status answer that status in OpenAI’s error shape, consuming nothing', async () => {
  const { session, openai } = await autoSession('chaos-status');
  const e429 = await openai.chat.completions.create(ask, { headers: { 'X-Mock-Status': '429' } }).catch((e: unknown) => e);
  assert.ok(e429 instanceof OpenAI.RateLimitError);
  assert.equal(e429.headers?.get('retry-after'), '1');
  const viaQuery = new OpenAI({
    baseURL: mock.url('openai'),
    apiKey: session.apiKey,
    maxRetries: 0,
    defaultQuery: { chaos_status: '503' },
  });
  const e503 = await viaQuery.chat.completions.create(ask).catch((e: unknown) => e);
  assert.ok(e503 instanceof OpenAI.APIError && e503.status === 503);
  const ok = await openai.chat.completions.create(ask);
  assert.equal(ok.choices[0].finish_reason, 'stop');
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.status),
    [429, 503, 200],
  );
});

test('X-Vidai-Chaos-Drop: 100 fails every request with a provider-shaped 500; 0 never', async () => {
  const { openai } = await autoSession('chaos-drop');
  for (let i = 0; i < 3; i++) {
    const e = await openai.chat.completions.create(ask, { headers: { 'X-Vidai-Chaos-Drop': '100' } }).catch((x: unknown) => x);
    assert.ok(e instanceof OpenAI.InternalServerError);
    assert.match(e.message, /Simulated Internal Server Error/);
  }
  const fine = await openai.chat.completions.create(ask, { headers: { 'X-Vidai-Chaos-Drop': '0' } });
  assert.ok(fine.id);
});

test('X-Vidai-Latency adds latency; X-Vidai-Chaos-Trickle paces a stream', async () => {
  const { openai } = await autoSession('chaos-latency');
  const t0 = performance.now();
  await openai.chat.completions.create(ask, { headers: { 'X-Vidai-Latency': '200' } });
  assert.ok(performance.now() - t0 >= 190);
  const t1 = performance.now();
  const stream = await openai.chat.completions.create({ ...ask, stream: true }, { headers: { 'X-Vidai-Chaos-Trickle': '30' } });
  let events = 0;
  for await (const _ of stream) events++;
  assert.ok(events >= 4);
  assert.ok(performance.now() - t1 >= (events - 1) * 30 - 10, `${events} events in ${(performance.now() - t1).toFixed(0)} ms`);
});

test('X-Vidai-Chaos-Malformed: 100 gives a body the SDK cannot parse; Disconnect: 100 cuts streams', async () => {
  const { openai } = await autoSession('chaos-malformed');
  const bad = await openai.chat.completions.create(ask, { headers: { 'X-Vidai-Chaos-Malformed': '100' } }).catch((e: unknown) => e);
  assert.ok(bad instanceof Error);
  const cut = await (async () => {
    const stream = await openai.chat.completions.create({ ...ask, stream: true }, { headers: { 'X-Vidai-Chaos-Disconnect': '100' } });
    for await (const _ of stream) void _;
  })().catch((e: unknown) => e);
  assert.ok(cut instanceof Error);
});

test('session chaos: a rate limit after N requests, and a content-filter term list', async () => {
  const { session, openai } = await autoSession('chaos-session', { rateLimitAfter: 2, contentFilter: ['forbidden topic'] });
  const blocked = await openai.chat.completions
    .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Tell me about the Forbidden Topic please' }] })
    .catch((e: unknown) => e);
  assert.ok(blocked instanceof OpenAI.BadRequestError);
  assert.equal(blocked.code, 'content_filter');
  await openai.chat.completions.create(ask);
  const limited = await openai.chat.completions.create(ask).catch((e: unknown) => e);
  assert.ok(limited instanceof OpenAI.RateLimitError);
  assert.equal(limited.headers?.get('x-ratelimit-remaining-requests'), '0');
  // chaos can be changed or cleared at run time over the control API
  const cleared = await fetch(`${mock.baseUrl}/_understudy/sessions/${session.id}/chaos`, { method: 'DELETE' });
  assert.equal(cleared.status, 200);
  assert.ok((await openai.chat.completions.create(ask)).id);
  const bad = await fetch(`${mock.baseUrl}/_understudy/sessions/${session.id}/chaos`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ dropPct: 140 }),
  });
  assert.equal(bad.status, 400);
  assert.match(
    ((await bad.json()) as { error: { message: string } }).error.message,
    /dropPct: expected a percentage from 0 to 100, found 140/,
  );
});

test('injected chaos decisions are reproducible: the same session gives the same failures', async () => {
  const outcomes: string[][] = [];
  for (const id of ['chaos-repro-a', 'chaos-repro-b']) {
    const session = await mock.session(id, { fallback: 'auto', seed: 'same-seed', chaos: { dropPct: 50 } });
    const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0 });
    const seen: string[] = [];
    for (let i = 0; i < 12; i++) {
      seen.push(
        await openai.chat.completions.create(ask).then(
          () => 'ok',
          () => 'fail',
        ),
      );
    }
    outcomes.push(seen);
  }
  assert.deepEqual(outcomes[0], outcomes[1]);
  assert.ok(outcomes[0].includes('ok') && outcomes[0].includes('fail'), outcomes[0].join(','));
});

test('the content filter answers in each provider’s own way (Gemini: 200 with promptFeedback.blockReason)', async () => {
  const { GoogleGenAI } = await import('@google/genai');
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  const session = await mock.session('chaos-filter-dialects', { fallback: 'auto', chaos: { contentFilter: ['forbidden'] } });
  const genai = new GoogleGenAI({ apiKey: session.apiKey, httpOptions: { baseUrl: mock.url('gemini') } });
  const blocked = await genai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'something forbidden' });
  assert.equal(blocked.promptFeedback?.blockReason, 'SAFETY');
  assert.equal(blocked.candidates, undefined);
  const anthropic = new Anthropic({ baseURL: mock.url('anthropic'), apiKey: session.apiKey, maxRetries: 0 });
  const refused = await anthropic.messages
    .create({ model: 'claude-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'forbidden words' }] })
    .catch((e: unknown) => e);
  assert.ok(refused instanceof Anthropic.BadRequestError);
});

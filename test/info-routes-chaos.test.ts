// Injected chaos on the routes that answer from what the session knows (embeddings, token counts,
// model lists), judged by the real SDKs over HTTP: a session's chaos status and a request's
// X-Mock-Status answer in each provider's error shape, latency holds the answer back, a rate limit
// counts the journalled requests, a malformed answer is a parse failure; the journal records the
// injected errors of a journalled route; a session without chaos is untouched.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { anthropicClient, anthropicRejection } from './support/anthropic-client.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

function openaiOf(session: UnderstudySession): OpenAI {
  return new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
}

async function failure(call: Promise<unknown>): Promise<Error> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof Error);
    return error;
  }
  assert.fail('the call succeeded');
}

const EMBED = { model: 'text-embedding-3-small', input: 'hello', encoding_format: 'float' } as const;

test("a session's chaos status answers embeddings, model lists and token counts in each provider's shape; embeddings are journalled", async () => {
  const session = await mock.session('chaos-status', { chaos: { status: 503 } });
  const openai = openaiOf(session);
  const embedding = await failure(openai.embeddings.create(EMBED));
  assert.ok(embedding instanceof OpenAI.InternalServerError, String(embedding));
  assert.equal(embedding.status, 503);
  const list = await failure(openai.models.list());
  assert.ok(list instanceof OpenAI.APIError && list.status === 503, String(list));
  const anthropic = anthropicClient(mock, session);
  const count = await anthropicRejection(
    anthropic.messages.countTokens({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }] }),
  );
  assert.equal(count.status, 503);
  assert.equal((count.error as { type?: string }).type, 'error', "Anthropic's error envelope");
  const gemini = new GoogleGenAI({ apiKey: session.apiKey, httpOptions: { baseUrl: mock.url('gemini'), timeout: 10_000 } });
  const geminiCount = await failure(gemini.models.countTokens({ model: 'gemini-2.5-flash', contents: 'hi' }));
  assert.match(geminiCount.message, /503/);
  const { entries, counters } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.operation, e.status]),
    [['openai.embeddings', 503]],
    'only the journalled route has an entry',
  );
  assert.equal(counters.errorsReturned, 1);
});

test('X-Mock-Status on one request, latency, a rate limit after N journalled requests, and a malformed answer', async () => {
  const session = await mock.session('chaos-request');
  const openai = openaiOf(session);
  const ok = await openai.embeddings.create(EMBED);
  assert.equal(ok.data.length, 1, 'no chaos without asking');
  const one = await failure(openai.embeddings.create(EMBED, { headers: { 'x-mock-status': '429' } }));
  assert.ok(one instanceof OpenAI.RateLimitError, String(one));
  assert.equal(one.headers?.get('retry-after'), '1');

  const slow = await mock.session('chaos-latency', { chaos: { latencyMs: 250 } });
  const started = performance.now();
  await openaiOf(slow).models.list();
  assert.ok(performance.now() - started >= 230, 'the model list waited');

  const limited = await mock.session('chaos-limit', { chaos: { rateLimitAfter: 2 } });
  const limitedSdk = openaiOf(limited);
  await limitedSdk.embeddings.create(EMBED);
  await limitedSdk.embeddings.create(EMBED);
  const third = await failure(limitedSdk.embeddings.create(EMBED));
  assert.ok(third instanceof OpenAI.RateLimitError, String(third));
  assert.match(third.message, /allows 2 requests/);

  const broken = await mock.session('chaos-malformed', { chaos: { malformedPct: 100 } });
  const malformed = await failure(openaiOf(broken).embeddings.create(EMBED));
  assert.ok(!(malformed instanceof OpenAI.APIError), `not an API error: ${String(malformed)}`);
});

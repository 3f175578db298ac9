// Issue 5 §2: each SDK's retry path against a scripted failure, then success — the Stainless SDKs
// and the AI SDK honour retry-after-ms; @google/genai retries only with retryOptions and its own
// backoff. Every test checks the attempts Understudy saw.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { GoogleGenAI } from '@google/genai';
import { generateText } from 'ai';
import OpenAI from 'openai';
import { startUnderstudy, type Understudy } from '../src/client/index.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

async function failsThenAnswers(id: string, status: number, headers?: Record<string, string>) {
  const session = await mock.session(id);
  session.scenario('flaky').fails(status, 'try again shortly', { headers }).replies('recovered');
  return session;
}

test('AI SDK (OpenAI chat): 429 with retry-after-ms, then success, in one call', async () => {
  const session = await failsThenAnswers('retry-aisdk-openai', 429, { 'retry-after-ms': '20' });
  const openai = createOpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey });
  const started = performance.now();
  const { text } = await generateText({ model: openai.chat('gpt-4o'), prompt: 'hi', maxRetries: 1 });
  assert.equal(text, 'recovered');
  assert.ok(performance.now() - started < 1500, 'retry-after-ms was honoured, not the 2 s default backoff');
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.status),
    [429, 200],
  );
});

test('AI SDK (Anthropic): 529 overloaded with retry-after-ms, then success', async () => {
  const session = await failsThenAnswers('retry-aisdk-anthropic', 529, { 'retry-after-ms': '20' });
  const anthropic = createAnthropic({ baseURL: mock.url('anthropic-v1'), apiKey: session.apiKey });
  const { text } = await generateText({ model: anthropic('claude-sonnet-4-6'), prompt: 'hi', maxRetries: 1 });
  assert.equal(text, 'recovered');
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.status),
    [529, 200],
  );
});

test('AI SDK: without retries the scripted 429 reaches the caller', async () => {
  const session = await failsThenAnswers('retry-aisdk-none', 429, { 'retry-after-ms': '20' });
  const openai = createOpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey });
  await assert.rejects(generateText({ model: openai.chat('gpt-4o'), prompt: 'hi', maxRetries: 0 }), /try again shortly/);
  assert.equal((await session.journal()).entries.length, 1);
});

test('@google/genai: no retry by default; with retryOptions a 503 is retried and succeeds', async () => {
  const once = await failsThenAnswers('retry-genai-default', 503);
  const plain = new GoogleGenAI({ apiKey: once.apiKey, httpOptions: { baseUrl: mock.url('gemini') } });
  await assert.rejects(plain.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' }), /try again shortly/);
  assert.equal((await once.journal()).entries.length, 1);

  const session = await failsThenAnswers('retry-genai-options', 503);
  const genai = new GoogleGenAI({
    apiKey: session.apiKey,
    httpOptions: { baseUrl: mock.url('gemini'), retryOptions: { attempts: 2, initialDelay: 0.05, maxDelay: 0.1 } },
  });
  const answer = await genai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' });
  assert.equal(answer.text, 'recovered');
  assert.deepEqual(
    (await session.journal()).entries.map((e) => e.status),
    [503, 200],
  );
});

test('a scripted 429 carries the provider’s rate-limit headers unless the script sets its own', async () => {
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  const session = await failsThenAnswers('ratelimit-headers-anthropic', 429, { 'retry-after': '0' });
  const client = new Anthropic({ baseURL: mock.url('anthropic'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const error = await client.messages
    .create({ model: 'claude-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
    .catch((e: unknown) => e);
  assert.ok(error instanceof Anthropic.RateLimitError);
  assert.equal(error.headers?.get('anthropic-ratelimit-requests-remaining'), '0');
  assert.equal(error.headers?.get('retry-after'), '0');
});

test("a scripted error's retry that finds its scenario used up is a 409 that says it was the SDK's retry (AWS client and openai)", async () => {
  const session = await mock.session('retry-used-up');
  session.scenario('once').fails(429, 'slow down');
  const aws = new BedrockRuntimeClient({
    endpoint: mock.url('bedrock'),
    region: 'us-east-1',
    credentials: { accessKeyId: session.apiKey, secretAccessKey: 'x' },
    maxAttempts: 2,
    requestHandler: { requestTimeout: 10_000 },
  });
  const error = await aws
    .send(new ConverseCommand({ modelId: 'amazon.nova-lite-v1:0', messages: [{ role: 'user', content: [{ text: 'hi' }] }] }))
    .then(
      () => assert.fail('expected the retry to be refused'),
      (e: unknown) => e as Error,
    );
  aws.destroy();
  assert.equal(error.name, 'ConflictException', String(error));
  assert.match(error.message, /This request is the SDK's retry \(attempt 2\).*maxAttempts: 1.*when: \{ attempt: 1 \}/);

  session.scenario('once-more').fails(500, 'boom');
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 1, timeout: 10_000 });
  const refused = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }).then(
    () => assert.fail('expected the retry to be refused'),
    (e: unknown) => e,
  );
  assert.ok(refused instanceof OpenAI.ConflictError, String(refused));
  assert.match(refused.message, /SDK's retry \(attempt 2\)/);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.status),
    [429, 409, 500, 409],
  );
});

test('a first attempt that finds its scenario used up gets no retry story', async () => {
  const session = await mock.session('used-up-first');
  session.scenario('once').replies('only once');
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const ask = () => openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
  await ask();
  const refused = await ask().then(
    () => assert.fail('expected a 409'),
    (e: unknown) => e,
  );
  assert.ok(refused instanceof OpenAI.ConflictError, String(refused));
  assert.match(refused.message, /is complete/);
  assert.doesNotMatch(refused.message, /retry/);
});

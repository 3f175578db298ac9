// Prompt-cache identity in each dialect's own usage fields: Anthropic caches only where the
// request marks cache_control (read and creation tokens), Gemini and OpenAI Responses by prefix.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { startUnderstudy, type Understudy } from '../src/client/index.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const longSystem = 'You are a meticulous assistant who answers in one line. '.repeat(40);

test('Anthropic: cache_control marks what is cached; read and creation tokens add up to the prompt', async () => {
  const session = await mock.session('anthropic-cache', { promptCache: { minTokens: 64, granularity: 1 } });
  session.scenario('s').onExhausted('repeat_last').replies('ok');
  const client = new Anthropic({ baseURL: mock.url('anthropic'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const system = [{ type: 'text' as const, text: longSystem, cache_control: { type: 'ephemeral' as const } }];
  const first = await client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 100,
    system,
    messages: [{ role: 'user', content: 'first' }],
  });
  assert.equal(first.usage.cache_read_input_tokens, 0);
  assert.ok((first.usage.cache_creation_input_tokens ?? 0) > 64);
  const total1 = first.usage.input_tokens + (first.usage.cache_creation_input_tokens ?? 0) + (first.usage.cache_read_input_tokens ?? 0);
  const second = await client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 100,
    system,
    messages: [{ role: 'user', content: 'second question' }],
  });
  assert.ok((second.usage.cache_read_input_tokens ?? 0) > 64, JSON.stringify(second.usage));
  assert.ok((second.usage.cache_read_input_tokens ?? 0) < total1, 'only the shared prefix is read');
  const { entries } = await session.journal();
  assert.equal(entries[1].usage?.cachedInputTokens, second.usage.cache_read_input_tokens);
  assert.equal(
    second.usage.input_tokens + (second.usage.cache_creation_input_tokens ?? 0) + (second.usage.cache_read_input_tokens ?? 0),
    entries[1].usage?.inputTokens,
  );
});

test('Anthropic: without cache_control nothing is cached, however often the prefix repeats', async () => {
  const session = await mock.session('anthropic-nocache', { promptCache: { minTokens: 64, granularity: 1 } });
  session.scenario('s').onExhausted('repeat_last').replies('ok');
  const client = new Anthropic({ baseURL: mock.url('anthropic'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  for (const q of ['a', 'b', 'c']) {
    const reply = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      system: longSystem,
      messages: [{ role: 'user', content: q }],
    });
    assert.equal(reply.usage.cache_read_input_tokens, 0);
    assert.equal(reply.usage.cache_creation_input_tokens, 0);
  }
});

test('Gemini and OpenAI Responses report a repeated prefix as cached tokens', async () => {
  const session = await mock.session('prefix-cache', { promptCache: { minTokens: 64, granularity: 1 } });
  session.scenario('s').onExhausted('repeat_last').replies('ok');
  const genai = new GoogleGenAI({ apiKey: session.apiKey, httpOptions: { baseUrl: mock.url('gemini') } });
  const ask = (q: string) =>
    genai.models.generateContent({ model: 'gemini-2.5-flash', contents: q, config: { systemInstruction: longSystem } });
  const cold = await ask('first');
  assert.equal(cold.usageMetadata?.cachedContentTokenCount ?? 0, 0);
  const warm = await ask('second');
  assert.ok((warm.usageMetadata?.cachedContentTokenCount ?? 0) > 64, JSON.stringify(warm.usageMetadata));

  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const r1 = await openai.responses.create({ model: 'gpt-4o', instructions: longSystem, input: 'first', store: false });
  assert.equal(r1.usage?.input_tokens_details.cached_tokens, 0);
  const r2 = await openai.responses.create({ model: 'gpt-4o', instructions: longSystem, input: 'second', store: false });
  assert.ok((r2.usage?.input_tokens_details.cached_tokens ?? 0) > 64);
});

// A reply's scripted token counts (`usage`, decision 0017): every SDK reports exactly them, JSON
// and stream; fields left out are still counted; the session's prompt cache does not overwrite a
// scripted cache count; a bad count is refused at load with the file, the path and what was expected.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { Ajv } from 'ajv';
import { startUnderstudy, type Understudy } from '../src/client/index.js';
import { formatProblems, parseFixtureText } from '../src/engine/fixture-file.js';

const USAGE = { inputTokens: 1234, outputTokens: 56, cachedInputTokens: 1000, reasoningTokens: 7, cacheWriteTokens: 34 };
const OUTPUT = USAGE.outputTokens + USAGE.reasoningTokens;

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

async function scripted(name: string, usage: Record<string, number>, options = {}) {
  const session = await mock.session(name, options);
  await session.load({ scenarios: [{ name: 's', exhausted: 'repeat_last', replies: [{ text: 'Hello there, friend.', usage }] }] });
  return session;
}

test('OpenAI Chat Completions reports the scripted counts, JSON and stream', async () => {
  const session = await scripted('usage-chat', USAGE);
  const client = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const messages = [{ role: 'user' as const, content: 'hi' }];
  const json = await client.chat.completions.create({ model: 'gpt-4o', messages });
  let streamed: OpenAI.CompletionUsage | null | undefined;
  for await (const chunk of await client.chat.completions.create({
    model: 'gpt-4o',
    messages,
    stream: true,
    stream_options: { include_usage: true },
  })) {
    if (chunk.usage) streamed = chunk.usage;
  }
  for (const usage of [json.usage, streamed]) {
    assert.equal(usage?.prompt_tokens, USAGE.inputTokens);
    assert.equal(usage?.completion_tokens, OUTPUT);
    assert.equal(usage?.total_tokens, USAGE.inputTokens + OUTPUT);
    assert.equal(usage?.prompt_tokens_details?.cached_tokens, USAGE.cachedInputTokens);
    assert.equal(usage?.completion_tokens_details?.reasoning_tokens, USAGE.reasoningTokens);
  }
  const { entries } = await session.journal();
  assert.deepEqual(entries[0].usage, USAGE);
});

test('OpenAI Responses reports the scripted counts, JSON and stream', async () => {
  const session = await scripted('usage-responses', USAGE);
  const client = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const json = await client.responses.create({ model: 'gpt-4o', input: 'hi', store: false });
  let streamed: OpenAI.Responses.ResponseUsage | undefined;
  for await (const event of await client.responses.create({ model: 'gpt-4o', input: 'hi', store: false, stream: true })) {
    if (event.type === 'response.completed') streamed = event.response.usage;
  }
  for (const usage of [json.usage, streamed]) {
    assert.equal(usage?.input_tokens, USAGE.inputTokens);
    assert.equal(usage?.input_tokens_details.cached_tokens, USAGE.cachedInputTokens);
    assert.equal(usage?.output_tokens, OUTPUT);
    assert.equal(usage?.output_tokens_details.reasoning_tokens, USAGE.reasoningTokens);
    assert.equal(usage?.total_tokens, USAGE.inputTokens + OUTPUT);
  }
});

test('Anthropic Messages reports the scripted counts, the prompt split into uncached, read and written parts', async () => {
  const session = await scripted('usage-anthropic', USAGE);
  const client = new Anthropic({ baseURL: mock.url('anthropic'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const body = { model: 'claude-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user' as const, content: 'hi' }] };
  const json = await client.messages.create(body);
  const streamed = await client.messages.stream(body).finalMessage();
  for (const { usage } of [json, streamed]) {
    assert.equal(usage.input_tokens, USAGE.inputTokens - USAGE.cachedInputTokens - USAGE.cacheWriteTokens);
    assert.equal(usage.cache_read_input_tokens, USAGE.cachedInputTokens);
    assert.equal(usage.cache_creation_input_tokens, USAGE.cacheWriteTokens);
    assert.equal(usage.output_tokens, OUTPUT);
  }
});

test('Gemini reports the scripted counts, JSON and stream', async () => {
  const session = await scripted('usage-gemini', USAGE);
  const ai = new GoogleGenAI({ apiKey: session.apiKey, httpOptions: { baseUrl: mock.url('gemini'), timeout: 10_000 } });
  const json = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' });
  let streamed: typeof json.usageMetadata;
  for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'hi' })) {
    if (chunk.usageMetadata) streamed = chunk.usageMetadata;
  }
  for (const usage of [json.usageMetadata, streamed]) {
    assert.equal(usage?.promptTokenCount, USAGE.inputTokens);
    assert.equal(usage?.candidatesTokenCount, USAGE.outputTokens);
    assert.equal(usage?.thoughtsTokenCount, USAGE.reasoningTokens);
    assert.equal(usage?.cachedContentTokenCount, USAGE.cachedInputTokens);
    assert.equal(usage?.totalTokenCount, USAGE.inputTokens + OUTPUT);
  }
});

test('fields left out are counted as without usage', async () => {
  const counted = await mock.session('usage-counted');
  await counted.load({ scenarios: [{ name: 's', replies: [{ text: 'Hello there, friend.' }] }] });
  const partial = await scripted('usage-partial', { outputTokens: 3 });
  const ask = (apiKey: string) =>
    new OpenAI({ baseURL: mock.url('openai'), apiKey, maxRetries: 0, timeout: 10_000 }).chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'how many tokens is this prompt?' }],
    });
  const base = (await ask(counted.apiKey)).usage;
  const got = (await ask(partial.apiKey)).usage;
  assert.ok(base && base.prompt_tokens > 0 && base.completion_tokens > 3);
  assert.equal(got?.prompt_tokens, base.prompt_tokens);
  assert.equal(got?.completion_tokens, 3);
  assert.equal(got?.prompt_tokens_details?.cached_tokens, 0);
});

const longSystem = 'You are a meticulous assistant who answers in one line. '.repeat(40);

test("the session's prompt cache does not overwrite scripted cache counts, and stays within a scripted prompt size", async () => {
  const cache = { promptCache: { minTokens: 64, granularity: 1 } };
  const ask = async (apiKey: string, q: string) => {
    const client = new Anthropic({ baseURL: mock.url('anthropic'), apiKey, maxRetries: 0, timeout: 10_000 });
    const system = [{ type: 'text' as const, text: longSystem, cache_control: { type: 'ephemeral' as const } }];
    return (await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 100, system, messages: [{ role: 'user', content: q }] }))
      .usage;
  };
  // Unscripted, the second request reads the first's prefix from the cache.
  const control = await scripted('usage-cache-control', { outputTokens: 1 }, cache);
  await ask(control.apiKey, 'first');
  assert.ok(((await ask(control.apiKey, 'second')).cache_read_input_tokens ?? 0) > 64);

  const fixed = await scripted('usage-cache-fixed', { inputTokens: 900, cachedInputTokens: 0 }, cache);
  await ask(fixed.apiKey, 'first');
  const warm = await ask(fixed.apiKey, 'second');
  assert.equal(warm.cache_read_input_tokens, 0);
  assert.equal(warm.cache_creation_input_tokens, 0);
  assert.equal(warm.input_tokens, 900);

  // A scripted prompt smaller than the request's: what the cache reports fits in it.
  const small = await scripted('usage-cache-small', { inputTokens: 10 }, cache);
  await ask(small.apiKey, 'first');
  const clipped = await ask(small.apiKey, 'second');
  assert.equal(clipped.input_tokens + (clipped.cache_read_input_tokens ?? 0) + (clipped.cache_creation_input_tokens ?? 0), 10);
  assert.equal(clipped.cache_read_input_tokens, 10);
});

test('a bad count is refused at load, naming the file, the path and what was expected', () => {
  const cases: [string, string, RegExp][] = [
    ['inputTokens: -1', '/scenarios/0/replies/0/usage/inputTokens', /expected a token count \(an integer ≥ 0\); found -1/],
    ['outputTokens: 1.5', '/scenarios/0/replies/0/usage/outputTokens', /expected a token count \(an integer ≥ 0\); found 1\.5/],
    ['reasoningTokens: "7"', '/scenarios/0/replies/0/usage/reasoningTokens', /expected a token count \(an integer ≥ 0\); found "7"/],
    ['cachedInputTokens: 5', '/scenarios/0/replies/0/usage/cachedInputTokens', /expected "inputTokens" beside "cachedInputTokens"/],
    ['cacheWriteTokens: 5', '/scenarios/0/replies/0/usage/cacheWriteTokens', /expected "inputTokens" beside "cacheWriteTokens"/],
    [
      'inputTokens: 10, cachedInputTokens: 8, cacheWriteTokens: 3',
      '/scenarios/0/replies/0/usage/cacheWriteTokens',
      /expected "cachedInputTokens" \+ "cacheWriteTokens" at most "inputTokens" \(10, the whole prompt\); found 11/,
    ],
    ['inputTokens: 10, cachedInputTokens: 11', '/scenarios/0/replies/0/usage/cachedInputTokens', /at most "inputTokens" \(10/],
    ['inputTokenz: 10', '/scenarios/0/replies/0/usage/inputTokenz', /unknown key "inputTokenz"; did you mean "inputTokens"\?/],
  ];
  for (const [fields, path, message] of cases) {
    const result = parseFixtureText(
      `scenarios:\n  - name: s\n    replies:\n      - text: hi\n        usage: { ${fields} }\n`,
      'usage.yaml',
    );
    assert.equal(result.ok, false, fields);
    if (result.ok) continue;
    const text = formatProblems(result.problems);
    assert.ok(
      result.problems.some((p) => p.file === 'usage.yaml' && p.path === path && p.line === 5 && message.test(p.message)),
      `${fields}:\n${text}`,
    );
  }
  const both = parseFixtureText(
    'scenarios:\n  - name: s\n    replies:\n      - { text: hi, reasoningTokens: 3, usage: { reasoningTokens: 3 } }\n',
    'both.yaml',
  );
  assert.ok(!both.ok && both.problems.some((p) => p.path === '/scenarios/0/replies/0/reasoningTokens' && /once/.test(p.message)));
  const error = parseFixtureText(
    'scenarios:\n  - name: s\n    replies:\n      - { error: { status: 429, message: slow }, usage: { inputTokens: 3 } }\n',
    'error.yaml',
  );
  assert.ok(!error.ok && error.problems.some((p) => p.path === '/scenarios/0/replies/0/usage'), 'an error reply has no usage');
  assert.ok(
    parseFixtureText(`scenarios:\n  - name: s\n    replies:\n      - { text: hi, usage: ${JSON.stringify(USAGE)} }\n`, 'ok.yaml').ok,
  );
});

test('the builder scripts usage with withUsage() or a reply option; a bad count is refused when the scenario loads', async () => {
  const session = await mock.session('usage-builder');
  await session.scenario('by-modifier').whenLatestUser('one').replies('One.').withUsage({ inputTokens: 11, outputTokens: 2 });
  await session
    .scenario('by-option')
    .whenLatestUser('two')
    .replies('Two.', { usage: { outputTokens: 9, reasoningTokens: 4 } });
  const client = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const ask = (content: string) => client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content }] });
  const one = (await ask('one')).usage;
  assert.equal(one?.prompt_tokens, 11);
  assert.equal(one?.completion_tokens, 2);
  const two = (await ask('two')).usage;
  assert.equal(two?.completion_tokens, 13);
  assert.equal(two?.completion_tokens_details?.reasoning_tokens, 4);
  await assert.rejects(
    async () => session.scenario('bad').replies('x').withUsage({ inputTokens: 2, cachedInputTokens: 3 }),
    /steps\/0\/reply\/usage\/cachedInputTokens.*at most "inputTokens" \(2/,
  );
});

test('the JSON Schema says what it can of the same rules: integers ≥ 0, the cache counts beside inputTokens, reasoning tokens once', async () => {
  const schema = JSON.parse(await readFile(new URL('../schema/fixtures.schema.json', import.meta.url), 'utf8')) as object;
  const validate = new Ajv({ allErrors: true, logger: false }).compile(schema);
  const withReply = (reply: object) => ({ scenarios: [{ name: 's', replies: [reply] }] });
  assert.ok(validate(withReply({ text: 'hi', usage: USAGE })), JSON.stringify(validate.errors));
  assert.ok(validate(withReply({ text: 'hi', reasoningTokens: 3, usage: { outputTokens: 1 } })));
  for (const reply of [
    { text: 'hi', usage: { inputTokens: -1 } },
    { text: 'hi', usage: { outputTokens: 1.5 } },
    { text: 'hi', usage: { cachedInputTokens: 1 } },
    { text: 'hi', usage: { cacheWriteTokens: 1 } },
    { text: 'hi', usage: { tokens: 1 } },
    { text: 'hi', reasoningTokens: 3, usage: { reasoningTokens: 3 } },
    { error: { status: 500, message: 'x' }, usage: { inputTokens: 1 } },
  ])
    assert.equal(validate(withReply(reply)), false, JSON.stringify(reply));
});

// DeepSeek through the clients its users point at it: the `openai` SDK at DeepSeek's base URL, and
// the Vercel AI SDK's DeepSeek provider. What DeepSeek adds to OpenAI's Chat Completions: the
// prompt's cache split in usage, `reasoning_content`, and no structured outputs (JSON mode only).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createDeepSeek } from '@ai-sdk/deepseek';
import OpenAI from 'openai';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import {
  expectStreamedWeatherRound,
  expectStreamTextRefused,
  scriptParisWeather,
  scriptZipCodeCall,
  typedWeatherTool,
} from './support/aisdk.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

function client(session: UnderstudySession, path = ''): OpenAI {
  return new OpenAI({ baseURL: mock.url('deepseek') + path, apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
}

interface DeepSeekUsage {
  prompt_tokens: number;
  prompt_cache_hit_tokens: number;
  prompt_cache_miss_tokens: number;
}

const LONG_SYSTEM = 'You answer questions about the weather in short sentences. '.repeat(12);

test('DeepSeek chat: text at /chat/completions and /v1/…, usage with the prompt-cache split from the session’s cache [deepseek-chat.text.json +]', async () => {
  const session = await mock.session('deepseek-text', { promptCache: { minTokens: 32, granularity: 1 } });
  session.scenario('weather').onExhausted('repeat_last').replies('Sunny in Paris.');
  const ask = (path: string) =>
    client(session, path).chat.completions.create({
      model: 'deepseek-chat',
      messages: [
        { role: 'system', content: LONG_SYSTEM },
        { role: 'user', content: 'Weather in Paris?' },
      ],
    });

  const first = await ask('');
  assert.equal(first.choices[0].message.content, 'Sunny in Paris.');
  const cold = first.usage as unknown as DeepSeekUsage;
  assert.equal(cold.prompt_cache_hit_tokens, 0);
  assert.equal(cold.prompt_cache_miss_tokens, cold.prompt_tokens);

  const second = await ask('/v1');
  const warm = second.usage as unknown as DeepSeekUsage;
  assert.ok(warm.prompt_cache_hit_tokens > 0, JSON.stringify(warm));
  assert.equal(warm.prompt_cache_hit_tokens + warm.prompt_cache_miss_tokens, warm.prompt_tokens);
  assert.equal(second.usage?.prompt_tokens_details?.cached_tokens, warm.prompt_cache_hit_tokens);

  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.route, e.operation]),
    [
      [200, 'POST /deepseek/chat/completions', 'deepseek.chat.completions'],
      [200, 'POST /deepseek/v1/chat/completions', 'deepseek.chat.completions'],
    ],
  );
  await session.verify();
});

test('DeepSeek chat: a malformed request is a 400 in OpenAI’s shape, which DeepSeek shares [deepseek-chat.text.json -]', async () => {
  const session = await mock.session('deepseek-malformed');
  session.scenario('never').replies('unused');
  const error = await client(session)
    .chat.completions.create({ model: 'deepseek-chat', messages: [{ role: 'user', content: 'hi' }], temperature: 'warm' as never })
    .catch((e: unknown) => e);
  assert.ok(error instanceof OpenAI.BadRequestError, String(error));
  assert.equal(error.type, 'invalid_request_error');
  assert.equal(error.param, 'temperature');
  const { entries, counters } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.operation]),
    [[400, 'deepseek.chat.completions']],
  );
  assert.equal(counters.matched, 0);
});

test('DeepSeek chat: streamed reasoning_content before the answer, and usage with the split [deepseek-chat.text.stream +]', async () => {
  const session = await mock.session('deepseek-reasoner');
  session.scenario('think').reply({ text: 'It is 42.', reasoning: 'Six times seven.' });
  const stream = await client(session).chat.completions.create({
    model: 'deepseek-reasoner',
    messages: [{ role: 'user', content: 'What is six times seven?' }],
    stream: true,
    stream_options: { include_usage: true },
  });
  const reasoning: string[] = [];
  let text = '';
  let usage: DeepSeekUsage | undefined;
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta as { content?: string | null; reasoning_content?: string } | undefined;
    if (delta?.reasoning_content) {
      assert.equal(text, '', 'reasoning comes before any content');
      reasoning.push(delta.reasoning_content);
    }
    text += delta?.content ?? '';
    if (chunk.usage) usage = chunk.usage as unknown as DeepSeekUsage;
  }
  assert.deepEqual(reasoning, ['Six times seven.']);
  assert.equal(text, 'It is 42.');
  assert.ok(usage && usage.prompt_cache_miss_tokens === usage.prompt_tokens, JSON.stringify(usage));

  const json = await mock.session('deepseek-reasoner-json');
  json.scenario('think').reply({ text: 'It is 42.', reasoning: 'Six times seven.' });
  const answer = await client(json).chat.completions.create({
    model: 'deepseek-reasoner',
    messages: [{ role: 'user', content: 'Six times seven?' }],
  });
  assert.equal((answer.choices[0].message as { reasoning_content?: string }).reasoning_content, 'Six times seven.');
  assert.equal(answer.choices[0].message.content, 'It is 42.');
});

test('DeepSeek chat: a streamed request that no script matches is a 409 before the stream starts [deepseek-chat.text.stream -]', async () => {
  const session = await mock.session('deepseek-stream-nomatch');
  session.scenario('paris').whenLatestUser({ contains: 'Paris' }).replies('Sunny.');
  const error = await client(session)
    .chat.completions.create({ model: 'deepseek-chat', messages: [{ role: 'user', content: 'Tokyo?' }], stream: true })
    .catch((e: unknown) => e);
  assert.ok(error instanceof OpenAI.ConflictError, String(error));
  assert.equal(error.code, 'no_match');
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream, e.error?.code]),
    [[409, true, 'no_match']],
  );
});

test('DeepSeek chat: JSON mode (json_object) is answered with the scripted JSON [deepseek-chat.structured.json +]', async () => {
  const session = await mock.session('deepseek-json-mode');
  session.scenario('facts').repliesJson({ city: 'Paris', population: 2102650 });
  const answer = await client(session).chat.completions.create({
    model: 'deepseek-chat',
    messages: [{ role: 'user', content: 'Facts about Paris as json' }],
    response_format: { type: 'json_object' },
  });
  assert.deepEqual(JSON.parse(answer.choices[0].message.content ?? ''), { city: 'Paris', population: 2102650 });
  const { entries } = await session.journal();
  assert.deepEqual(entries[0].request?.output, { type: 'json_object' });
});

test('DeepSeek chat: a json_schema format is refused with DeepSeek’s 400, and nothing is consumed [deepseek-chat.structured.json -]', async () => {
  const session = await mock.session('deepseek-json-schema');
  session.scenario('facts').repliesJson({ city: 'Paris' });
  const error = await client(session)
    .chat.completions.create({
      model: 'deepseek-chat',
      messages: [{ role: 'user', content: 'Facts about Paris' }],
      response_format: { type: 'json_schema', json_schema: { name: 'facts', schema: { type: 'object' } } },
    })
    .catch((e: unknown) => e);
  assert.ok(error instanceof OpenAI.BadRequestError, String(error));
  assert.equal(error.message, '400 This response_format type is unavailable now');
  assert.equal(error.code, 'invalid_request_error');
  assert.equal(error.type, 'invalid_request_error');
  const { counters } = await session.journal();
  assert.deepEqual([counters.matched, counters.unmatched ?? 0], [0, 0]);
  assert.equal(
    (
      await client(session).chat.completions.create({
        model: 'deepseek-chat',
        messages: [{ role: 'user', content: 'Facts about Paris in json' }],
        response_format: { type: 'json_object' },
      })
    ).choices[0].message.content,
    '{"city":"Paris"}',
  );
});

test('Vercel AI SDK createDeepSeek: streamText completes a tool round [deepseek-chat.tools.stream +]', async () => {
  const session = await mock.session('deepseek-aisdk');
  scriptParisWeather(session, 'Paris is sunny.');
  await expectStreamedWeatherRound(
    createDeepSeek({ baseURL: mock.url('deepseek'), apiKey: session.apiKey })('deepseek-chat'),
    'Paris is sunny.',
  );
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream, e.operation]),
    [
      [200, true, 'deepseek.chat.completions'],
      [200, true, 'deepseek.chat.completions'],
    ],
  );
  await session.verify();
});

test('Vercel AI SDK createDeepSeek: a scripted call that fails the tool schema is an APICallError 409 and runs nothing [deepseek-chat.tools.stream -]', async () => {
  const session = await mock.session('deepseek-aisdk-mismatch');
  scriptZipCodeCall(session);
  const ran: unknown[] = [];
  await expectStreamTextRefused({
    model: createDeepSeek({ baseURL: mock.url('deepseek'), apiKey: session.apiKey })('deepseek-chat'),
    tools: typedWeatherTool('string', ran),
    ran,
    session,
  });
});

// Ollama's OpenAI-compatible layer (`/ollama/v1/chat/completions`) through the clients pointed at
// it: the Vercel AI SDK's OpenAI-compatible provider for a streamed tool round, and the `openai`
// SDK for what Ollama's layer changes (tool calls streamed whole, its system fingerprint).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { stepCountIs, streamText } from 'ai';
import OpenAI from 'openai';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { expectStreamTextRefused, scriptParisWeather, scriptZipCodeCall, typedWeatherTool } from './support/aisdk.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

function compatible(session: UnderstudySession) {
  return createOpenAICompatible({ name: 'ollama', baseURL: mock.url('ollama-openai'), apiKey: session.apiKey, includeUsage: true })(
    'llama3.2',
  );
}

test('Vercel AI SDK createOpenAICompatible at /ollama/v1: streamText completes a tool round [aisdk-ollama-openai.tools.stream +]', async () => {
  const session = await mock.session('ollama-openai-aisdk');
  scriptParisWeather(session, 'Paris is sunny.');
  const ran: unknown[] = [];
  const errors: unknown[] = [];
  const result = streamText({
    model: compatible(session),
    tools: typedWeatherTool('string', ran),
    stopWhen: stepCountIs(3),
    maxRetries: 0,
    abortSignal: AbortSignal.timeout(10_000),
    prompt: 'Weather in Paris?',
    onError: ({ error }) => void errors.push(error),
  });
  let text = '';
  for await (const delta of result.textStream) text += delta;
  assert.deepEqual(errors, []);
  assert.equal(text, 'Paris is sunny.');
  assert.deepEqual(ran, [{ city: 'Paris' }]);
  const usage = await result.totalUsage;
  assert.ok((usage.inputTokens ?? 0) > 0, JSON.stringify(usage));
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream, e.operation, e.route]),
    [
      [200, true, 'ollama-openai.chat.completions', 'POST /ollama/v1/chat/completions'],
      [200, true, 'ollama-openai.chat.completions', 'POST /ollama/v1/chat/completions'],
    ],
  );
  await session.verify();
});

test('Vercel AI SDK createOpenAICompatible at /ollama/v1: a call that fails the tool schema is an APICallError 409 and runs nothing [aisdk-ollama-openai.tools.stream -]', async () => {
  const session = await mock.session('ollama-openai-aisdk-mismatch');
  scriptZipCodeCall(session);
  const ran: unknown[] = [];
  await expectStreamTextRefused({ model: compatible(session), tools: typedWeatherTool('string', ran), ran, session });
});

test('openai SDK at /ollama/v1: a tool call streams whole in one chunk, with fp_ollama [ollama-openai-chat.tools.stream +]', async () => {
  const session = await mock.session('ollama-openai-whole');
  session.scenario('call').callsTool('get_weather', { city: 'Paris', unit: 'celsius' }, 'call_paris');
  const openai = new OpenAI({ baseURL: mock.url('ollama-openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const stream = await openai.chat.completions.create({
    model: 'llama3.2',
    stream: true,
    messages: [{ role: 'user', content: 'Weather?' }],
    tools: [
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
    ],
  });
  const fragments: { id?: string; arguments?: string }[] = [];
  const fingerprints = new Set<string | undefined>();
  for await (const chunk of stream) {
    fingerprints.add(chunk.system_fingerprint);
    for (const call of chunk.choices[0]?.delta.tool_calls ?? []) fragments.push({ id: call.id, arguments: call.function?.arguments });
  }
  assert.deepEqual(fragments, [{ id: 'call_paris', arguments: '{"city":"Paris","unit":"celsius"}' }]);
  assert.deepEqual([...fingerprints], ['fp_ollama']);
});

test('openai SDK at /ollama/v1: a scripted call of an undeclared tool is a 409 in OpenAI’s shape, not consumed [ollama-openai-chat.tools.stream -]', async () => {
  const session = await mock.session('ollama-openai-undeclared');
  session.scenario('call').callsTool('get_time', { city: 'Paris' }, 'call_time');
  const openai = new OpenAI({ baseURL: mock.url('ollama-openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const error = await openai.chat.completions
    .create({
      model: 'llama3.2',
      stream: true,
      messages: [{ role: 'user', content: 'Weather?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } }],
    })
    .catch((e: unknown) => e);
  assert.ok(error instanceof OpenAI.ConflictError, String(error));
  assert.match(error.message, /get_time/);
  assert.equal((await session.check()).ok, false, 'the refused step is still unused');
});

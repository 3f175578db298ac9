// OpenRouter through the clients its users point at it: the `openai` SDK at mock.url('openrouter')
// (Chat Completions and the stateless Responses API) and the Vercel AI SDK's OpenAI-compatible
// provider. Each test asserts what the SDK returned and what Understudy journalled.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, generateText, stepCountIs, streamText, tool } from 'ai';
import OpenAI from 'openai';
import type { ChatCompletionChunk, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { z } from 'zod';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { expectGenerateTextRefusedThenAnswered, expectStreamTextRefused, typedWeatherTool } from './support/aisdk.js';

const MODEL = 'openai/gpt-4o-mini';
const CHAT_ROUTE = 'POST /openrouter/api/v1/chat/completions';
const RESPONSES_ROUTE = 'POST /openrouter/api/v1/responses';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

function client(session: UnderstudySession): OpenAI {
  return new OpenAI({ baseURL: mock.url('openrouter'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000, logLevel: 'off' });
}

/** OpenRouter's own request members, which the `openai` SDK's types do not know. */
const ROUTING = {
  models: [MODEL, 'anthropic/claude-3.5-haiku'],
  provider: { order: ['openai', 'azure'], allow_fallbacks: true, sort: 'price', max_price: { prompt: 1, completion: '2' } },
  reasoning: { effort: 'low', exclude: true },
  usage: { include: true },
  transforms: ['middle-out'],
  route: 'fallback',
  top_k: 40,
  plugins: [{ id: 'response-healing' }, { id: 'web', max_results: 3 }],
  modalities: ['text', 'image'],
  image_config: { aspect_ratio: '16:9' },
};

const WEATHER_TOOL = {
  type: 'function' as const,
  function: {
    name: 'weather',
    description: 'Current weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  },
};

type Body = ChatCompletionCreateParamsNonStreaming & Record<string, unknown>;

async function rejection(promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const thrown = await promise.then(
    (value) => assert.fail(`expected the SDK to throw, got ${JSON.stringify(value)}`),
    (error: unknown) => error,
  );
  assert.ok(thrown instanceof OpenAI.APIError, `got ${String(thrown)}`);
  return thrown;
}

/** OpenRouter's error body: a numeric code equal to the status, and a message. */
function assertOpenRouterError(error: InstanceType<typeof OpenAI.APIError>, status: number, message: RegExp) {
  assert.equal(error.status, status);
  const body = error.error as { code?: unknown; message?: unknown; type?: unknown };
  assert.equal(body.code, status, 'error.code is the HTTP status');
  assert.match(String(body.message), message);
  assert.equal(body.type, undefined, 'OpenRouter errors carry no type');
}

describe('OpenRouter Chat Completions through the openai SDK', () => {
  test('a plain answer names its provider, native_finish_reason and cost; routing members are accepted [openrouter-chat.text.json +]', async () => {
    const session = await mock.session('or-plain');
    session.scenario('hello').whenLatestUser({ contains: 'capital' }).replies('Paris.');
    const completion = await client(session).chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'The capital of France?' }],
      ...ROUTING,
    } as Body);
    assert.equal(completion.choices[0].message.content, 'Paris.');
    const wire = completion as unknown as { provider: string; choices: { native_finish_reason: string }[]; usage: Record<string, unknown> };
    assert.equal(wire.provider, 'Understudy');
    assert.equal(wire.choices[0].native_finish_reason, 'stop');
    assert.deepEqual([wire.usage.cost, wire.usage.is_byok], [0, false]);
    const [entry] = (await session.journal()).entries;
    assert.deepEqual(
      [entry.route, entry.operation, entry.status, entry.request?.model],
      [CHAT_ROUTE, 'openrouter.chat.completions', 200, MODEL],
    );
    assert.equal(completion.usage?.prompt_tokens, entry.usage?.inputTokens);
    await session.verify();
  });

  test('with no model, the first of `models` is the model; a script names the provider [openrouter-chat.routing.json +]', async () => {
    const session = await mock.session('or-models');
    session.scenario('fallback').replies('From the fallback list.').withHostFields({ provider: 'Anthropic' });
    const { models } = ROUTING;
    const completion = (await client(session).chat.completions.create({
      messages: [{ role: 'user', content: 'Hi' }],
      models,
    } as unknown as Body)) as unknown as { model: string; provider: string; choices: { message: { content: string } }[] };
    assert.deepEqual([completion.model, completion.provider], [MODEL, 'Anthropic']);
    assert.equal(completion.choices[0].message.content, 'From the fallback list.');
    const [entry] = (await session.journal()).entries;
    assert.equal(entry.request?.model, MODEL);
  });

  test('a malformed routing member gets OpenRouter’s 400 and consumes nothing [openrouter-chat.routing.json -]', async () => {
    const session = await mock.session('or-bad-routing');
    session.scenario('kept').replies('Still here.');
    const error = await rejection(
      client(session).chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'Hi' }],
        provider: { sort: 'cheapest' },
      } as Body),
    );
    assert.ok(error instanceof OpenAI.BadRequestError);
    assertOpenRouterError(error, 400, /'cheapest'.*'price'/);
    assert.equal((error.error as { metadata?: { param?: string } }).metadata?.param, 'provider.sort');
    const plugin = await rejection(
      client(session).chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'Hi' }],
        plugins: [{ id: 'telepathy' }],
      } as Body),
    );
    assertOpenRouterError(plugin, 400, /'telepathy'/);
    assert.equal((plugin.error as { metadata?: { param?: string } }).metadata?.param, 'plugins[0].id');
    const answer = await client(session).chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] });
    assert.equal(answer.choices[0].message.content, 'Still here.');
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.route, e.status, e.step]),
      [
        [CHAT_ROUTE, 400, undefined],
        [CHAT_ROUTE, 400, undefined],
        [CHAT_ROUTE, 200, 'step-1'],
      ],
    );
  });

  test('a malformed OpenAI member gets OpenRouter’s 400 [openrouter-chat.text.json -]', async () => {
    const session = await mock.session('or-bad-temperature');
    const error = await rejection(
      client(session).chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], temperature: 3 }),
    );
    assert.ok(error instanceof OpenAI.BadRequestError);
    assertOpenRouterError(error, 400, /temperature/);
    const [entry] = (await session.journal()).entries;
    assert.deepEqual([entry.status, entry.route], [400, CHAT_ROUTE]);
  });

  test('a scripted reasoning is the message’s reasoning, unless the request excludes it [openrouter-chat.reasoning.json +]', async () => {
    const session = await mock.session('or-reasoning');
    session.scenario('thinking').replies('42.', { reasoning: 'Six times seven.' }).onExhausted('repeat_last');
    const ask = (reasoning: Record<string, unknown>) =>
      client(session).chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Answer?' }], reasoning } as Body);
    const shown = (await ask({ effort: 'high' })).choices[0].message as unknown as { reasoning?: string; reasoning_details?: unknown[] };
    assert.equal(shown.reasoning, 'Six times seven.');
    assert.deepEqual(shown.reasoning_details, [{ type: 'reasoning.text', text: 'Six times seven.', format: 'unknown', index: 0 }]);
    const hidden = (await ask({ effort: 'high', exclude: true })).choices[0].message as unknown as Record<string, unknown>;
    assert.equal(hidden.content, '42.');
    assert.deepEqual([hidden.reasoning, hidden.reasoning_details], [undefined, undefined]);
  });

  test('a malformed reasoning member gets OpenRouter’s 400 [openrouter-chat.reasoning.json -]', async () => {
    const session = await mock.session('or-reasoning-bad');
    const error = await rejection(
      client(session).chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'Answer?' }],
        reasoning: { effort: 'extreme' },
      } as Body),
    );
    assertOpenRouterError(error, 400, /'extreme'/);
    assert.deepEqual((error.error as { metadata?: unknown }).metadata, {
      error_type: 'invalid_request',
      code: 'invalid_value',
      param: 'reasoning.effort',
    });
    const contradicted = await rejection(
      client(session).chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'Answer?' }],
        reasoning_effort: 'low',
        reasoning: { effort: 'high' },
      } as Body),
    );
    assertOpenRouterError(contradicted, 400, /'reasoning_effort' \('low'\) and 'reasoning.effort' \('high'\) differ/);
  });

  test('a stream carries provider on every chunk and ends with usage it was not asked for [openrouter-chat.text.stream +]', async () => {
    const session = await mock.session('or-stream');
    session.scenario('streamed').replies('Sunny in Paris.').inChunks(['Sunny ', 'in Paris.']);
    const stream = await client(session).chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Weather?' }],
      stream: true,
    });
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    assert.equal(chunks.map((c) => c.choices[0]?.delta.content ?? '').join(''), 'Sunny in Paris.');
    for (const chunk of chunks) assert.equal((chunk as unknown as { provider: string }).provider, 'Understudy');
    const last = chunks.at(-1);
    assert.ok(last?.usage, 'the last chunk carries usage');
    assert.equal((last.usage as unknown as { cost: number }).cost, 0);
    const finish = chunks.find((c) => c.choices[0]?.finish_reason);
    assert.equal((finish?.choices[0] as unknown as { native_finish_reason: string }).native_finish_reason, 'stop');
    const [entry] = (await session.journal()).entries;
    assert.deepEqual([entry.route, entry.status, entry.stream], [CHAT_ROUTE, 200, true]);
    assert.equal(last.usage.completion_tokens, entry.usage?.outputTokens);
  });

  test('in a stream, a script’s provider names every chunk, its other host fields the first and last', async () => {
    const session = await mock.session('or-stream-fields');
    session
      .scenario('routed')
      .replies('One two three.')
      .inChunks(['One ', 'two ', 'three.'])
      .withHostFields({ provider: 'Anthropic', openrouter_metadata: { region: 'test' } });
    const stream = await client(session).chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Count' }],
      stream: true,
    });
    const chunks: Record<string, unknown>[] = [];
    for await (const chunk of stream) chunks.push(chunk as unknown as Record<string, unknown>);
    assert.ok(chunks.length >= 5, `${chunks.length} chunks`);
    assert.deepEqual(
      chunks.map((c) => c.provider),
      chunks.map(() => 'Anthropic'),
    );
    assert.deepEqual(
      chunks.map((c) => c.openrouter_metadata),
      chunks.map((_, i) => (i === 0 || i === chunks.length - 1 ? { region: 'test' } : undefined)),
    );
  });

  test('a stream opens with OpenRouter’s keep-alive comment, which the SDKs skip (raw bytes)', async () => {
    const session = await mock.session('or-comment');
    session.scenario('streamed').replies('Hi.').onExhausted('repeat_last');
    for (const path of ['chat/completions', 'responses']) {
      const body =
        path === 'responses'
          ? { model: MODEL, input: 'Hi', stream: true }
          : { model: MODEL, messages: [{ role: 'user', content: 'Hi' }], stream: true };
      const response = await fetch(`${mock.url('openrouter')}/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${session.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
      assert.equal(response.status, 200);
      const text = await response.text();
      assert.ok(text.startsWith(': OPENROUTER PROCESSING\n\n'), `${path} stream begins ${JSON.stringify(text.slice(0, 40))}`);
      assert.equal(text.split(': OPENROUTER PROCESSING').length, 2, 'once, before every other event');
    }
  });

  test('GET /_understudy/health lists OpenRouter’s routes', async () => {
    const health = await (await fetch(`${mock.baseUrl}/_understudy/health`, { signal: AbortSignal.timeout(10_000) })).text();
    for (const route of ['/openrouter/api/v1/chat/completions', '/openrouter/api/v1/responses']) assert.ok(health.includes(route), route);
  });

  test('a scripted 429 surfaces as RateLimitError in OpenRouter’s shape, in a stream too [openrouter-chat.text.stream -]', async () => {
    const session = await mock.session('or-429');
    session
      .scenario('limited')
      .fails(429, 'Rate limit exceeded: slow down.', { headers: { 'retry-after': '1' } })
      .reply({ error: { status: 502, message: 'Provider returned error', inStream: true } });
    const error = await rejection(
      client(session).chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], stream: true }),
    );
    assert.ok(error instanceof OpenAI.RateLimitError);
    assertOpenRouterError(error, 429, /slow down/);
    assert.equal((error.error as { metadata?: { error_type?: string } }).metadata?.error_type, 'rate_limit_exceeded');
    assert.equal(error.headers?.get('retry-after'), '1');
    const stream = await client(session).chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    });
    const inStream = await rejection(
      (async () => {
        for await (const chunk of stream) void chunk;
      })(),
    );
    assert.match(inStream.message, /Provider returned error/);
    assert.equal((inStream.error as { code?: unknown }).code, 502, 'the error chunk is OpenRouter’s body');
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.event]),
      [
        [429, 'error_returned'],
        [200, 'error_returned'],
      ],
    );
  });

  for (const stream of [false, true]) {
    const mode = stream ? 'stream' : 'json';
    const tags = stream
      ? { plus: '[openrouter-chat.tools.stream +]', minus: '[openrouter-chat.tools.stream -]' }
      : { plus: '[openrouter-chat.tools.json +]', minus: '[openrouter-chat.tools.json -]' };
    test(`a tool round ${tags.plus}`, async () => {
      const session = await mock.session(`or-tools-${mode}`);
      session
        .scenario('weather')
        .whenHasTool('weather')
        .callsTool('weather', { city: 'Paris' }, 'call_paris')
        .thenWhenToolResult('weather', 'call_paris')
        .replies('Paris is sunny.');
      const openai = client(session);
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
      const ask = async () => {
        if (!stream) return (await openai.chat.completions.create({ model: MODEL, messages, tools: [WEATHER_TOOL] })).choices[0].message;
        const helper = openai.chat.completions.stream({ model: MODEL, messages, tools: [WEATHER_TOOL], stream: true });
        return (await helper.finalChatCompletion()).choices[0].message;
      };
      const first = await ask();
      const call = first.tool_calls?.[0];
      assert.ok(call?.type === 'function');
      assert.deepEqual([call.id, call.function.name, JSON.parse(call.function.arguments)], ['call_paris', 'weather', { city: 'Paris' }]);
      messages.push({ role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: call.id, content: 'sunny' });
      const second = await ask();
      assert.equal(second.content, 'Paris is sunny.');
      const { entries } = await session.journal();
      assert.deepEqual(
        entries.map((e) => [e.route, e.status, e.step, e.stream]),
        [
          [CHAT_ROUTE, 200, 'step-1', stream],
          [CHAT_ROUTE, 200, 'step-2', stream],
        ],
      );
      assert.deepEqual(
        entries[1].request?.messages.map((m) => m.role),
        ['user', 'assistant', 'tool'],
      );
      await session.verify();
    });

    test(`a scripted call failing the tool's schema gets 409 and is not consumed ${tags.minus}`, async () => {
      const session = await mock.session(`or-tools-mismatch-${mode}`);
      session.scenario('zip').callsTool('weather', { city: 75001 }, 'call_zip');
      const openai = client(session);
      const ask = (parameters: Record<string, unknown>) => {
        const tool = { ...WEATHER_TOOL, function: { ...WEATHER_TOOL.function, parameters } };
        const body = { model: MODEL, messages: [{ role: 'user' as const, content: 'Weather?' }], tools: [tool] };
        return stream
          ? openai.chat.completions.stream({ ...body, stream: true }).finalChatCompletion()
          : openai.chat.completions.create(body);
      };
      const error = await rejection(ask(WEATHER_TOOL.function.parameters));
      assert.ok(error instanceof OpenAI.ConflictError);
      assertOpenRouterError(error, 409, /weather/);
      assert.equal((error.error as { metadata?: { code?: string } }).metadata?.code, 'fixture_mismatch');
      const answered = await ask({ type: 'object', properties: { city: { type: 'integer' } }, required: ['city'] });
      assert.deepEqual(
        JSON.parse(
          answered.choices[0].message.tool_calls?.[0].type === 'function'
            ? answered.choices[0].message.tool_calls[0].function.arguments
            : 'null',
        ),
        { city: 75001 },
      );
      const { entries } = await session.journal();
      assert.deepEqual(
        entries.map((e) => [e.status, e.error?.code, e.step]),
        [
          [409, 'fixture_mismatch', 'step-1'],
          [200, undefined, 'step-1'],
        ],
      );
    });
  }

  const CITY_SCHEMA = {
    type: 'object',
    properties: { city: { type: 'string' }, population: { type: 'integer' } },
    required: ['city', 'population'],
    additionalProperties: false,
  };
  function askJson(session: UnderstudySession, schema: Record<string, unknown>, strict = true) {
    return client(session).chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Paris facts' }],
      response_format: { type: 'json_schema', json_schema: { name: 'city', schema, strict } },
    });
  }

  test('structured output: the scripted JSON, checked against the schema [openrouter-chat.structured.json +]', async () => {
    const session = await mock.session('or-structured');
    session.scenario('facts').repliesJson({ city: 'Paris', population: 2102650 });
    const completion = await askJson(session, CITY_SCHEMA);
    assert.deepEqual(JSON.parse(completion.choices[0].message.content ?? ''), { city: 'Paris', population: 2102650 });
    const [entry] = (await session.journal()).entries;
    assert.ok(entry.request?.output.type === 'json_schema');
    assert.deepEqual(entry.request.output.schema, CITY_SCHEMA);
  });

  test('structured output: JSON failing the schema gets 409 and is not consumed [openrouter-chat.structured.json -]', async () => {
    const session = await mock.session('or-structured-mismatch');
    session.scenario('short').repliesJson({ city: 'Paris' });
    const error = await rejection(askJson(session, CITY_SCHEMA));
    assertOpenRouterError(error, 409, /population/);
    const loose = { ...CITY_SCHEMA, required: ['city'] };
    const completion = await askJson(session, loose, false);
    assert.deepEqual(JSON.parse(completion.choices[0].message.content ?? ''), { city: 'Paris' });
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.error?.code, e.step]),
      [
        [409, 'fixture_mismatch', 'step-1'],
        [200, undefined, 'step-1'],
      ],
    );
  });
});

describe('OpenRouter Responses through the openai SDK: stateless', () => {
  test('a plain answer, store false without being asked [openrouter-responses.text.json +]', async () => {
    const session = await mock.session('or-responses');
    session
      .scenario('hello')
      .replies('Bonjour.')
      .withHostFields({ openrouter_metadata: { region: 'test' } });
    const response = await client(session).responses.create({
      model: MODEL,
      input: 'Say hello in French',
      ...{ provider: { only: ['openai'] } },
    });
    assert.equal(response.output_text, 'Bonjour.');
    assert.equal((response as unknown as { store: boolean }).store, false);
    assert.deepEqual((response.usage as unknown as { cost: number; is_byok: boolean }).cost, 0);
    assert.deepEqual((response as unknown as { openrouter_metadata: unknown }).openrouter_metadata, { region: 'test' });
    const [entry] = (await session.journal()).entries;
    assert.deepEqual([entry.route, entry.operation, entry.status], [RESPONSES_ROUTE, 'openrouter.responses', 200]);
  });

  test('store: true and previous_response_id are refused with OpenRouter’s 400 [openrouter-responses.text.json -]', async () => {
    const session = await mock.session('or-responses-stateful');
    session.scenario('hello').replies('Bonjour.').onExhausted('repeat_last');
    const openai = client(session);
    const stored = await rejection(openai.responses.create({ model: MODEL, input: 'Hi', store: true }));
    assert.ok(stored instanceof OpenAI.BadRequestError);
    assertOpenRouterError(stored, 400, /stateless.*'store'/);
    const first = await openai.responses.create({ model: MODEL, input: 'Hi' });
    const continued = await rejection(openai.responses.create({ model: MODEL, input: 'And again?', previous_response_id: first.id }));
    assertOpenRouterError(continued, 400, /previous_response_id/);
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.route, e.status, e.step]),
      [
        [RESPONSES_ROUTE, 400, undefined],
        [RESPONSES_ROUTE, 200, 'step-1'],
        [RESPONSES_ROUTE, 400, undefined],
      ],
    );
  });

  test('a streamed tool round, the history sent whole [openrouter-responses.tools.stream +]', async () => {
    const session = await mock.session('or-responses-tools');
    session
      .scenario('weather')
      .callsTool('weather', { city: 'Paris' }, 'call_paris')
      .thenWhenToolResult('weather', 'call_paris')
      .replies('Paris is sunny.');
    const openai = client(session);
    const tools = [{ type: 'function' as const, name: 'weather', parameters: WEATHER_TOOL.function.parameters, strict: true }];
    const first = await openai.responses.stream({ model: MODEL, input: 'Weather in Paris?', tools }).finalResponse();
    const call = first.output.find((item) => item.type === 'function_call');
    assert.ok(call?.type === 'function_call');
    assert.deepEqual([call.call_id, call.name, JSON.parse(call.arguments)], ['call_paris', 'weather', { city: 'Paris' }]);
    const second = await openai.responses
      .stream({
        model: MODEL,
        tools,
        input: [
          { role: 'user', content: 'Weather in Paris?' },
          { type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments },
          { type: 'function_call_output', call_id: call.call_id, output: 'sunny' },
        ],
      })
      .finalResponse();
    assert.equal(second.output_text, 'Paris is sunny.');
    assert.equal((second.usage as unknown as { cost: number }).cost, 0, 'the completed event’s usage carries the cost');
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.route, e.status, e.step, e.stream]),
      [
        [RESPONSES_ROUTE, 200, 'step-1', true],
        [RESPONSES_ROUTE, 200, 'step-2', true],
      ],
    );
    await session.verify();
  });

  test('a streamed call failing the tool schema gets 409 and is not consumed [openrouter-responses.tools.stream -]', async () => {
    const session = await mock.session('or-responses-mismatch');
    session.scenario('zip').callsTool('weather', { city: 75001 }, 'call_zip');
    const openai = client(session);
    const error = await rejection(
      openai.responses
        .stream({
          model: MODEL,
          input: 'Weather?',
          tools: [{ type: 'function', name: 'weather', parameters: WEATHER_TOOL.function.parameters, strict: true }],
        })
        .finalResponse(),
    );
    assertOpenRouterError(error, 409, /weather/);
    const report = await session.check();
    assert.equal(report.ok, false, 'the refused step is still unused');
  });
});

describe('Vercel AI SDK OpenAI-compatible provider against OpenRouter', () => {
  function model(session: UnderstudySession) {
    return createOpenAICompatible({ name: 'openrouter', baseURL: mock.url('openrouter'), apiKey: session.apiKey }).chatModel(MODEL);
  }

  test('streamText completes a tool round, OpenRouter members passed as provider options [aisdk-openrouter.tools.stream +]', async () => {
    const session = await mock.session('or-aisdk');
    session
      .scenario('weather')
      .whenLatestUser({ contains: 'weather in Paris' })
      .callsTool('weather', { city: 'Paris' }, 'call_paris')
      .thenWhenToolResult('weather', 'call_paris')
      .replies('Paris is sunny, 21 °C.', { reasoning: 'The tool said sunny.' });
    const ran: unknown[] = [];
    const tools = {
      weather: tool({
        description: 'Current weather for a city',
        inputSchema: z.object({ city: z.string() }),
        execute: async (input: { city: string }) => {
          ran.push(input);
          return { city: input.city, sky: 'sunny' };
        },
      }),
    };
    const errors: unknown[] = [];
    const parts: string[] = [];
    const result = streamText({
      model: model(session),
      tools,
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(10_000),
      prompt: 'What is the weather in Paris?',
      providerOptions: { openrouter: { provider: { order: ['openai'] }, transforms: ['middle-out'] } },
      onError: ({ error }) => void errors.push(error),
    });
    for await (const part of result.fullStream) parts.push(part.type);
    assert.deepEqual(errors, []);
    assert.ok(parts.includes('tool-call'));
    assert.equal(await result.text, 'Paris is sunny, 21 °C.');
    assert.equal(await result.reasoningText, 'The tool said sunny.', 'the reasoning streamed as OpenRouter’s delta.reasoning');
    assert.deepEqual(ran, [{ city: 'Paris' }]);
    assert.equal(await result.finishReason, 'stop');
    const usage = await result.totalUsage;
    assert.ok((usage.inputTokens ?? 0) > 0 && (usage.outputTokens ?? 0) > 0, `usage ${JSON.stringify(usage)}`);
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.route, e.status, e.step, e.stream]),
      [
        [CHAT_ROUTE, 200, 'step-1', true],
        [CHAT_ROUTE, 200, 'step-2', true],
      ],
    );
    await session.verify();
  });

  test('streamText against a call failing the tool schema gets 409, runs nothing [aisdk-openrouter.tools.stream -]', async () => {
    const session = await mock.session('or-aisdk-mismatch');
    session.scenario('weather').callsTool('weather', { city: 75001 }, 'call_zip').then().replies('Done.');
    const ran: unknown[] = [];
    await expectStreamTextRefused({ model: model(session), tools: typedWeatherTool('string', ran), ran, session });
  });

  test('generateText completes a tool round [aisdk-openrouter.tools.json +]', async () => {
    const session = await mock.session('or-aisdk-generate');
    session.scenario('weather').callsTool('weather', { city: 'Paris' }, 'call_paris').then().replies('Sunny.');
    const ran: unknown[] = [];
    const result = await generateText({
      model: model(session),
      tools: typedWeatherTool('string', ran),
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(10_000),
      prompt: 'Weather in Paris?',
    });
    assert.equal(result.text, 'Sunny.');
    assert.deepEqual(ran, [{ city: 'Paris' }]);
    assert.equal(result.steps[0].toolCalls[0].toolCallId, 'call_paris');
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.route, e.status, e.stream]),
      [
        [CHAT_ROUTE, 200, false],
        [CHAT_ROUTE, 200, false],
      ],
    );
  });

  test('generateText against a call failing the tool schema gets 409, then the same script answers a tool it satisfies [aisdk-openrouter.tools.json -]', async () => {
    const session = await mock.session('or-aisdk-generate-mismatch');
    await expectGenerateTextRefusedThenAnswered(session, model(session));
  });

  test('a malformed OpenRouter member from provider options gets OpenRouter’s 400 as APICallError', async () => {
    const session = await mock.session('or-aisdk-bad');
    const errors: unknown[] = [];
    const result = streamText({
      model: model(session),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(10_000),
      prompt: 'Hi',
      providerOptions: { openrouter: { route: 'cheapest' } },
      onError: ({ error }) => void errors.push(error),
    });
    for await (const part of result.fullStream) void part;
    const [error] = errors;
    assert.ok(APICallError.isInstance(error), `got ${String(error)}`);
    assert.equal(error.statusCode, 400);
    assert.deepEqual((JSON.parse(error.responseBody ?? '{}') as { error: { code: number } }).error.code, 400);
  });
});

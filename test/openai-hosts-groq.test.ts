// Groq as a host of the OpenAI dialects: Chat Completions through groq-sdk (`baseURL:
// mock.url('groq')`), Responses through the `openai` SDK (`mock.url('groq-v1')`), and the Vercel
// AI SDK's Groq provider. Each test asserts what the SDK returned and what Understudy journalled.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { createGroq } from '@ai-sdk/groq';
import Groq from 'groq-sdk';
import type { ChatCompletionChunk, ChatCompletionCreateParamsBase } from 'groq-sdk/resources/chat/completions';
import OpenAI from 'openai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { expectStreamedWeatherRound, expectStreamTextRefused, scriptZipCodeCall, typedWeatherTool } from './support/aisdk.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const MODEL = 'llama-3.3-70b-versatile';
const ROUTE = 'POST /groq/openai/v1/chat/completions';

function groqClient(session: UnderstudySession): Groq {
  return new Groq({ baseURL: mock.url('groq'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
}

function openaiAtGroq(session: UnderstudySession): OpenAI {
  return new OpenAI({ baseURL: mock.url('groq-v1'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
}

const WEATHER = {
  type: 'function' as const,
  function: {
    name: 'weather',
    description: 'Current weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  },
};

/** The response id's unique part: x_groq.id is `req_` and it. */
function requestIdFor(completionId: string): string {
  return `req_${completionId.slice('chatcmpl-'.length)}`;
}

/** groq-sdk's APIError: its `error` is the whole error body. */
function bodyOf(error: unknown): { error: Record<string, unknown> } {
  assert.ok(error instanceof Groq.APIError, `expected a groq-sdk APIError, got ${String(error)}`);
  return error.error as { error: Record<string, unknown> };
}

async function collect(stream: AsyncIterable<ChatCompletionChunk>): Promise<ChatCompletionChunk[]> {
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('groq-sdk: Chat Completions', () => {
  test('plain text: the answer carries x_groq (its request id, the prompt cache share) and Groq’s timings in usage [groq-chat.text.json +]', async () => {
    const session = await mock.session('groq-plain');
    session.scenario('hello').whenLatestUser({ contains: 'Hello' }).replies('Hi from Groq.');
    const completion = await groqClient(session).chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello?' }] });
    assert.equal(completion.choices[0].message.content, 'Hi from Groq.');
    assert.equal(completion.x_groq?.id, requestIdFor(completion.id));
    assert.deepEqual(completion.x_groq?.usage, { sram_cached_tokens: 0, dram_cached_tokens: 0 });
    const usage = completion.usage!;
    assert.ok((usage.prompt_time ?? 0) > 0 && (usage.completion_time ?? 0) > 0 && (usage.queue_time ?? 0) > 0, JSON.stringify(usage));
    assert.equal(usage.total_time, Math.round(((usage.prompt_time ?? 0) + (usage.completion_time ?? 0)) * 1e6) / 1e6);
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.route, e.operation, e.status, e.request?.model]),
      [[ROUTE, 'groq.chat.completions', 200, MODEL]],
    );
    assert.deepEqual([usage.prompt_tokens, usage.completion_tokens], [entries[0].usage?.inputTokens, entries[0].usage?.outputTokens]);
    await session.verify();
  });

  test('a scripted reasoning is the message’s reasoning, and in a stream the first chunk’s [groq-chat.text.json +] [groq-chat.text.stream +]', async () => {
    const session = await mock.session('groq-reasoning');
    session.scenario('think').replies('42.', { reasoning: 'Six times seven.' }).onExhausted('repeat_last');
    const client = groqClient(session);
    const ask = {
      model: 'openai/gpt-oss-20b',
      messages: [{ role: 'user' as const, content: 'Answer?' }],
      reasoning_format: 'parsed' as const,
    };
    const completion = await client.chat.completions.create(ask);
    assert.deepEqual([completion.choices[0].message.reasoning, completion.choices[0].message.content], ['Six times seven.', '42.']);
    const chunks = await collect(await client.chat.completions.create({ ...ask, stream: true }));
    assert.deepEqual(
      chunks.map((c) => c.choices[0]?.delta.reasoning).filter((r) => r),
      ['Six times seven.'],
    );
    assert.equal(chunks[0].choices[0].delta.reasoning, 'Six times seven.');
    assert.equal(chunks.map((c) => c.choices[0]?.delta.content ?? '').join(''), '42.');
  });

  test('no script matches: 409 in OpenAI’s shape through groq-sdk’s ConflictError [groq-chat.text.json -]', async () => {
    const session = await mock.session('groq-no-match');
    session.scenario('tokyo').whenLatestUser({ contains: 'Tokyo' }).replies('Rain.');
    const error = await groqClient(session)
      .chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Paris?' }] })
      .catch((e: unknown) => e);
    assert.ok(error instanceof Groq.ConflictError, String(error));
    assert.equal(bodyOf(error).error.type, 'understudy_error');
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.error?.code]),
      [[409, 'no_match']],
    );
  });

  test('a streamed tool round: x_groq.id on the first chunk, x_groq.usage on the finishing one, the result answered in pieces [groq-chat.tools.stream +] [groq-chat.text.stream +]', async () => {
    const session = await mock.session('groq-stream-tools');
    session
      .scenario('weather')
      .whenLatestUser({ contains: 'weather in Paris' })
      .callsTool('weather', { city: 'Paris' }, 'call_paris')
      .thenWhenToolResult('weather', 'call_paris')
      .replies('Paris is sunny.', { chunks: ['Paris ', 'is ', 'sunny.'] });
    const client = groqClient(session);
    const ask: ChatCompletionCreateParamsBase = {
      model: MODEL,
      messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
      tools: [WEATHER],
    };
    const first = await collect(await client.chat.completions.create({ ...ask, stream: true }));
    assert.equal(first[0].x_groq?.id, requestIdFor(first[0].id));
    const finishing = first.filter((c) => c.choices[0]?.finish_reason);
    assert.deepEqual(
      finishing.map((c) => c.choices[0].finish_reason),
      ['tool_calls'],
    );
    assert.ok(
      first.slice(1, -1).every((c) => c.x_groq === undefined),
      'x_groq rides on the first and the finishing chunk only',
    );
    const call = first.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    assert.equal(call.length, 1, 'the call arrives whole, in one delta, as Groq sends it');
    assert.equal(call[0].id, 'call_paris');
    assert.deepEqual(JSON.parse(call.map((c) => c.function?.arguments ?? '').join('')), { city: 'Paris' });

    const second = await collect(
      await client.chat.completions.create({
        ...ask,
        stream: true,
        messages: [
          ...ask.messages,
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_paris', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }],
          },
          { role: 'tool', tool_call_id: 'call_paris', content: 'sunny, 21 C' },
        ],
      }),
    );
    const deltas = second.map((c) => c.choices[0]?.delta.content).filter((d) => d);
    assert.deepEqual(deltas, ['Paris ', 'is ', 'sunny.']);
    const groqUsage = second.at(-1)?.x_groq?.usage;
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.route, e.operation, e.status, e.stream, e.step]),
      [
        [ROUTE, 'groq.chat.completions', 200, true, 'step-1'],
        [ROUTE, 'groq.chat.completions', 200, true, 'step-2'],
      ],
    );
    assert.deepEqual(
      [groqUsage?.prompt_tokens, groqUsage?.completion_tokens, groqUsage?.total_tokens],
      [
        entries[1].usage?.inputTokens,
        entries[1].usage?.outputTokens,
        (entries[1].usage?.inputTokens ?? 0) + (entries[1].usage?.outputTokens ?? 0),
      ],
    );
    assert.ok((groqUsage?.completion_time ?? 0) > 0);
    const result = entries[1].request?.messages.flatMap((m) => m.parts).find((p) => p.type === 'tool_result');
    assert.deepEqual(result && result.type === 'tool_result' && [result.callId, result.name, result.content], [
      'call_paris',
      'weather',
      'sunny, 21 C',
    ]);
    await session.verify();
  });

  test('a streamed request Groq refuses (n: 2) gets its 400 before the stream, journalled as streamed [groq-chat.text.stream -]', async () => {
    const session = await mock.session('groq-stream-refused');
    session.scenario('kept').replies('Kept.');
    const error = await groqClient(session)
      .chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], n: 2, stream: true })
      .catch((e: unknown) => e);
    assert.ok(error instanceof Groq.BadRequestError, String(error));
    assert.equal(bodyOf(error).error.param, 'n');
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.stream, e.step]),
      [[400, true, undefined]],
    );
  });

  test('with stream_options.include_usage, x_groq.usage moves to the last chunk, OpenAI’s usage chunk, which carries Groq’s timings too [groq-chat.text.stream +]', async () => {
    const session = await mock.session('groq-stream-usage');
    session.scenario('hi').replies('Hello there.', { chunks: ['Hello ', 'there.'] });
    const chunks = await collect(
      await groqClient(session).chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
        // Not in groq-sdk's request type; OpenAI's, which Groq's host takes.
        ...({ stream_options: { include_usage: true } } as object),
      }),
    );
    const last = chunks.at(-1) as ChatCompletionChunk & { usage?: { prompt_tokens: number; total_time?: number } };
    assert.deepEqual(last.choices, []);
    const [entry] = (await session.journal()).entries;
    assert.deepEqual(
      [last.x_groq?.usage?.prompt_tokens, last.x_groq?.usage?.completion_tokens, last.usage?.prompt_tokens],
      [entry.usage?.inputTokens, entry.usage?.outputTokens, entry.usage?.inputTokens],
    );
    assert.ok(last.usage?.total_time);
    assert.deepEqual(
      chunks.map((c) => c.x_groq !== undefined),
      chunks.map((_, i) => i === 0 || i === chunks.length - 1),
      'x_groq on the first and the last chunk only',
    );
  });

  test('a tool round as JSON, with Groq’s own request members (reasoning_format, service_tier, include_reasoning) [groq-chat.tools.json +] [groq-chat.validation.json +]', async () => {
    const session = await mock.session('groq-json-tools');
    session
      .scenario('weather')
      .callsTool('weather', { city: 'Paris' }, 'call_paris')
      .thenWhenToolResult('weather', 'call_paris')
      .replies('Sunny.');
    const client = groqClient(session);
    const ask = {
      model: MODEL,
      tools: [WEATHER],
      reasoning_format: 'hidden' as const,
      service_tier: 'on_demand' as const,
      include_reasoning: false,
      disable_tool_validation: false,
    };
    const first = await client.chat.completions.create({ ...ask, messages: [{ role: 'user', content: 'Weather?' }] });
    const call = first.choices[0].message.tool_calls?.[0];
    assert.deepEqual([first.choices[0].finish_reason, call?.id, call?.function.name], ['tool_calls', 'call_paris', 'weather']);
    const second = await client.chat.completions.create({
      ...ask,
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: null, tool_calls: first.choices[0].message.tool_calls },
        { role: 'tool', tool_call_id: 'call_paris', content: 'sunny' },
      ],
    });
    assert.equal(second.choices[0].message.content, 'Sunny.');
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.step]),
      [
        [200, 'step-1'],
        [200, 'step-2'],
      ],
    );
    assert.deepEqual(
      entries[0].request?.tools.map((t) => t.name),
      ['weather'],
    );
    await session.verify();
  });

  for (const stream of [false, true]) {
    const tag = stream ? '[groq-chat.tools.stream -]' : '[groq-chat.tools.json -]';
    test(`a scripted call whose arguments fail the tool's schema: 409, not consumed; the same script answers a request it satisfies (${stream ? 'stream' : 'JSON'}) ${tag}`, async () => {
      const session = await mock.session(`groq-mismatch-${stream}`);
      session.scenario('zip').callsTool('weather', { city: 75001 }, 'call_zip');
      const client = groqClient(session);
      const messages = [{ role: 'user' as const, content: 'Weather?' }];
      const error = await client.chat.completions.create({ model: MODEL, messages, tools: [WEATHER], stream }).catch((e: unknown) => e);
      assert.ok(error instanceof Groq.ConflictError, String(error));
      assert.match(error.message, /weather/);
      assert.equal(bodyOf(error).error.code, 'fixture_mismatch');
      const numeric = {
        ...WEATHER,
        function: { ...WEATHER.function, parameters: { type: 'object', properties: { city: { type: 'number' } } } },
      };
      if (stream) {
        const chunks = await collect(await client.chat.completions.create({ model: MODEL, messages, tools: [numeric], stream: true }));
        assert.equal(chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? [])[0].id, 'call_zip');
      } else {
        const answer = await client.chat.completions.create({ model: MODEL, messages, tools: [numeric] });
        assert.equal(answer.choices[0].message.tool_calls?.[0].id, 'call_zip');
      }
      const { entries, counters } = await session.journal();
      assert.deepEqual(
        entries.map((e) => [e.status, e.error?.code, e.step]),
        [
          [409, 'fixture_mismatch', 'step-1'],
          [200, undefined, 'step-1'],
        ],
      );
      assert.deepEqual([counters.mismatched, counters.matched], [1, 1]);
    });
  }

  test('structured output: json_schema answered with JSON that fits [groq-chat.structured.json +]', async () => {
    const session = await mock.session('groq-structured');
    session.scenario('city').repliesJson({ city: 'Paris' });
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
    const completion = await groqClient(session).chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'A city?' }],
      response_format: { type: 'json_schema', json_schema: { name: 'city', schema } },
    });
    assert.deepEqual(JSON.parse(completion.choices[0].message.content ?? ''), { city: 'Paris' });
    const [entry] = (await session.journal()).entries;
    assert.deepEqual(entry.request?.output, { type: 'json_schema', name: 'city', schema, strict: undefined });
  });

  test('structured output: scripted JSON that fails the schema is a 409 and stays unused [groq-chat.structured.json -]', async () => {
    const session = await mock.session('groq-structured-mismatch');
    session.scenario('city').repliesJson({ town: 'Paris' });
    const error = await groqClient(session)
      .chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'A city?' }],
        response_format: { type: 'json_schema', json_schema: { name: 'city', schema: { type: 'object', required: ['city'] } } },
      })
      .catch((e: unknown) => e);
    assert.ok(error instanceof Groq.ConflictError, String(error));
    assert.equal((await session.check()).ok, false, 'the refused step is still unused');
  });

  test('what Groq refuses (logprobs, logit_bias, top_logprobs, a message name, n other than 1) and a wrong type: 400 BadRequestError, nothing consumed [groq-chat.validation.json -]', async () => {
    const session = await mock.session('groq-refused');
    session.scenario('kept').replies('Still here.');
    const client = groqClient(session);
    const messages = [{ role: 'user' as const, content: 'Hi' }];
    const refused: [Partial<ChatCompletionCreateParamsBase>, string | null, RegExp][] = [
      [{ logprobs: true }, 'logprobs', /logprobs/],
      [{ logit_bias: { '42': 1 } }, 'logit_bias', /logit_bias/],
      [{ top_logprobs: 2 }, 'top_logprobs', /top_logprobs/],
      [{ n: 2 }, 'n', /'n'/],
      [
        { messages: [{ role: 'user', content: 'Hi', name: 'ann' }] },
        'messages.0.name',
        /'messages.0' : for 'role:user' .*property 'name' is unsupported/,
      ],
      // What applications keep in messages: another provider's reasoning_content, their own timestamp.
      [
        {
          messages: [
            { role: 'user', content: 'Hi' },
            { role: 'assistant', content: 'Yes', reasoning_content: 'hm' } as never,
            { role: 'user', content: 'And?' },
          ],
        },
        'messages.1.reasoning_content',
        /'messages.1' : for 'role:assistant' the following must be satisfied\[\('messages.1' : property 'reasoning_content' is unsupported\)\]/,
      ],
      [
        { messages: [{ role: 'user', content: 'Hi', timestamp: 1 } as never] },
        'messages.0.timestamp',
        /property 'timestamp' is unsupported/,
      ],
      [{ stored: true } as never, 'stored', /property 'stored' is unsupported/],
      [{ temperature: 'hot' as never }, 'temperature', /temperature/],
      [{ reasoning_format: 'verbose' as never }, 'reasoning_format', /reasoning_format|verbose/],
    ];
    for (const [extra, param, message] of refused) {
      const error = await client.chat.completions.create({ model: MODEL, messages, ...extra }).catch((e: unknown) => e);
      assert.ok(error instanceof Groq.BadRequestError, `${JSON.stringify(extra)}: ${String(error)}`);
      assert.match(error.message, message);
      assert.deepEqual([bodyOf(error).error.type, bodyOf(error).error.param], ['invalid_request_error', param], JSON.stringify(extra));
    }
    const kept = await client.chat.completions.create({ model: MODEL, messages, n: 1 });
    assert.equal(kept.choices[0].message.content, 'Still here.');
    const { entries, counters } = await session.journal();
    assert.deepEqual(
      entries.map((e) => e.status),
      [...refused.map(() => 400), 200],
    );
    assert.equal(counters.invalid, refused.length);
  });
});

test('GET /_understudy/health lists Groq’s routes and base URLs', async () => {
  const health = (await (await fetch(`${mock.baseUrl}/_understudy/health`)).json()) as {
    routes: string[];
    providerPaths: Record<string, string>;
  };
  assert.ok(health.routes.includes(ROUTE) && health.routes.includes('POST /groq/openai/v1/responses'), JSON.stringify(health.routes));
  assert.deepEqual([health.providerPaths.groq, health.providerPaths['groq-v1']], ['/groq', '/groq/openai/v1']);
});

describe('groq-sdk: scripted errors in Groq’s shape', () => {
  const FAILED = '<function=weather>{"city": Paris}</function>';

  for (const stream of [false, true]) {
    const tag = stream ? '[groq-chat.errors.stream +]' : '[groq-chat.errors.json +]';
    test(`tool_use_failed with failed_generation inside error, as groq-sdk’s BadRequestError; the next step answers (${stream ? 'stream' : 'JSON'}) ${tag}`, async () => {
      const session = await mock.session(`groq-tool-use-failed-${stream}`);
      session
        .scenario('broken')
        .fails(400, 'Failed to call a function. Please adjust your prompt. See failed_generation for more details.', {
          code: 'tool_use_failed',
          extra: { failed_generation: FAILED },
        })
        .replies('Recovered.');
      const client = groqClient(session);
      const error = await client.chat.completions
        .create({ model: MODEL, messages: [{ role: 'user', content: 'Weather?' }], tools: [WEATHER], stream })
        .catch((e: unknown) => e);
      assert.ok(error instanceof Groq.BadRequestError, String(error));
      assert.deepEqual(bodyOf(error).error, {
        message: 'Failed to call a function. Please adjust your prompt. See failed_generation for more details.',
        type: 'invalid_request_error',
        param: null,
        code: 'tool_use_failed',
        failed_generation: FAILED,
      });
      const after = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Weather?' }] });
      assert.equal(after.choices[0].message.content, 'Recovered.');
      const { entries } = await session.journal();
      assert.deepEqual(
        entries.map((e) => [e.status, e.stream, e.error?.code, e.step]),
        [
          [400, stream, 'tool_use_failed', 'step-1'],
          [200, false, undefined, 'step-2'],
        ],
      );
    });
  }

  test('extra members named like the error’s own do not replace them; a scripted 429 is RateLimitError [groq-chat.errors.json -]', async () => {
    const session = await mock.session('groq-extra-own-names');
    session.scenario('limited').fails(429, 'Rate limit reached for model.', {
      code: 'rate_limit_exceeded',
      headers: { 'retry-after': '2' },
      extra: { message: 'not this', code: 'nor this', type: 'nor this', failed_generation: 'kept' },
    });
    const error = await groqClient(session)
      .chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((e: unknown) => e);
    assert.ok(error instanceof Groq.RateLimitError, String(error));
    assert.equal(error.headers?.get('retry-after'), '2');
    assert.deepEqual(bodyOf(error).error, {
      message: 'Rate limit reached for model.',
      type: 'requests',
      param: null,
      code: 'rate_limit_exceeded',
      failed_generation: 'kept',
    });
  });

  test('an error inside the stream reaches groq-sdk as an APIError with failed_generation [groq-chat.errors.stream -]', async () => {
    const session = await mock.session('groq-in-stream');
    session.scenario('broken').reply({
      error: {
        status: 400,
        message: 'Failed to call a function.',
        code: 'tool_use_failed',
        inStream: true,
        extra: { failed_generation: 'x' },
      },
    });
    const stream = await groqClient(session).chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    });
    const error = await collect(stream).catch((e: unknown) => e);
    assert.ok(error instanceof Groq.APIError, String(error));
    assert.match(error.message, /Failed to call a function/);
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.error?.code]),
      [[200, 'tool_use_failed']],
    );
  });
});

describe('openai SDK at Groq’s Responses', () => {
  const ROUTE_RESPONSES = 'POST /groq/openai/v1/responses';

  test('plain text, JSON and streamed [groq-responses.text.json +] [groq-responses.text.stream +]', async () => {
    const session = await mock.session('groq-responses-text');
    session
      .scenario('hi')
      .replies('Hello from Groq Responses.', { chunks: ['Hello ', 'from Groq Responses.'] })
      .onExhausted('repeat_last');
    const client = openaiAtGroq(session);
    const json = await client.responses.create({ model: 'openai/gpt-oss-20b', input: 'Hi' });
    assert.equal(json.output_text, 'Hello from Groq Responses.');
    const deltas: string[] = [];
    const stream = client.responses.stream({ model: 'openai/gpt-oss-20b', input: 'Hi' });
    stream.on('response.output_text.delta', (e) => deltas.push(e.delta));
    const final = await stream.finalResponse();
    assert.equal(final.output_text, 'Hello from Groq Responses.');
    assert.deepEqual(deltas, ['Hello ', 'from Groq Responses.']);
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.route, e.operation, e.status, e.stream]),
      [
        [ROUTE_RESPONSES, 'groq.responses', 200, false],
        [ROUTE_RESPONSES, 'groq.responses', 200, true],
      ],
    );
  });

  test('a tool round over function_call and function_call_output [groq-responses.tools.json +]', async () => {
    const session = await mock.session('groq-responses-tools');
    session
      .scenario('weather')
      .callsTool('weather', { city: 'Paris' }, 'call_paris')
      .thenWhenToolResult('weather', 'call_paris')
      .replies('Sunny.');
    const client = openaiAtGroq(session);
    const tools = [{ type: 'function' as const, name: 'weather', parameters: WEATHER.function.parameters, strict: false }];
    const first = await client.responses.create({ model: 'openai/gpt-oss-20b', input: 'Weather?', tools });
    const call = first.output.find((item) => item.type === 'function_call');
    assert.ok(call?.type === 'function_call' && call.call_id === 'call_paris');
    const second = await client.responses.create({
      model: 'openai/gpt-oss-20b',
      tools,
      input: [
        { role: 'user', content: 'Weather?' },
        { type: 'function_call', call_id: 'call_paris', name: 'weather', arguments: call.arguments },
        { type: 'function_call_output', call_id: 'call_paris', output: 'sunny' },
      ],
    });
    assert.equal(second.output_text, 'Sunny.');
    await session.verify();
  });

  test('a scripted call that fails the tool schema: 409, not consumed [groq-responses.tools.json -]', async () => {
    const session = await mock.session('groq-responses-mismatch');
    session.scenario('zip').callsTool('weather', { city: 75001 }, 'call_zip');
    const tools = [{ type: 'function' as const, name: 'weather', parameters: WEATHER.function.parameters, strict: false }];
    const error = await openaiAtGroq(session)
      .responses.create({ model: 'openai/gpt-oss-20b', input: 'Weather?', tools })
      .catch((e: unknown) => e);
    assert.ok(error instanceof OpenAI.ConflictError, String(error));
    assert.equal((await session.check()).ok, false);
  });

  test('no script matches a streamed request: 409 before the stream [groq-responses.text.stream -]', async () => {
    const session = await mock.session('groq-responses-no-match');
    session.scenario('tokyo').whenLatestUser({ contains: 'Tokyo' }).replies('Rain.');
    const error = await openaiAtGroq(session)
      .responses.stream({ model: 'openai/gpt-oss-20b', input: 'Paris?' })
      .finalResponse()
      .catch((e: unknown) => e);
    assert.ok(error instanceof OpenAI.ConflictError, String(error));
  });

  test('a scripted 429 is the openai SDK’s RateLimitError in OpenAI’s shape; the next step answers [groq-responses.errors.json +]', async () => {
    const session = await mock.session('groq-responses-429');
    session
      .scenario('limited')
      .fails(429, 'Rate limit reached.', { code: 'rate_limit_exceeded', headers: { 'retry-after': '1' } })
      .replies('After.');
    const client = openaiAtGroq(session);
    const error = await client.responses.create({ model: 'openai/gpt-oss-20b', input: 'Hi' }).catch((e: unknown) => e);
    assert.ok(error instanceof OpenAI.RateLimitError, String(error));
    assert.deepEqual([error.type, error.code, error.headers.get('retry-after')], ['requests', 'rate_limit_exceeded', '1']);
    assert.equal((await client.responses.create({ model: 'openai/gpt-oss-20b', input: 'Hi' })).output_text, 'After.');
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.route, e.status, e.error?.code]),
      [
        [ROUTE_RESPONSES, 429, 'rate_limit_exceeded'],
        [ROUTE_RESPONSES, 200, undefined],
      ],
    );
  });

  test('Groq’s tool error on Responses: tool_use_failed with failed_generation, as BadRequestError [groq-responses.errors.json -]', async () => {
    const session = await mock.session('groq-responses-tool-error');
    session
      .scenario('broken')
      .fails(400, 'Failed to call a function.', { code: 'tool_use_failed', extra: { failed_generation: '<function=x>' } });
    const error = await openaiAtGroq(session)
      .responses.create({ model: 'openai/gpt-oss-20b', input: 'Hi' })
      .catch((e: unknown) => e);
    assert.ok(error instanceof OpenAI.BadRequestError, String(error));
    assert.deepEqual(error.error, {
      message: 'Failed to call a function.',
      type: 'invalid_request_error',
      param: null,
      code: 'tool_use_failed',
      failed_generation: '<function=x>',
    });
  });

  test('stateless: store true and previous_response_id are refused with a 400; store false passes [groq-responses.validation.json -] [groq-responses.validation.json +] [groq-responses.text.json -]', async () => {
    const session = await mock.session('groq-responses-stateless');
    session.scenario('hi').replies('Hi.');
    const client = openaiAtGroq(session);
    for (const extra of [{ store: true }, { previous_response_id: 'resp_earlier' }]) {
      const error = await client.responses.create({ model: 'openai/gpt-oss-20b', input: 'Hi', ...extra }).catch((e: unknown) => e);
      assert.ok(error instanceof OpenAI.BadRequestError, `${JSON.stringify(extra)}: ${String(error)}`);
      assert.equal(error.param, Object.keys(extra)[0]);
    }
    const answer = await client.responses.create({ model: 'openai/gpt-oss-20b', input: 'Hi', store: false });
    assert.equal(answer.output_text, 'Hi.');
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => e.status),
      [400, 400, 200],
    );
  });
});

describe('Vercel AI SDK Groq provider', () => {
  test('streamText completes a tool round, usage read from x_groq [aisdk-groq.tools.stream +]', async () => {
    const session = await mock.session('aisdk-groq-round');
    session
      .scenario('weather')
      .whenLatestUser({ contains: 'weather' })
      .callsTool('weather', { city: 'Paris' }, 'call_paris')
      .thenWhenToolResult('weather', 'call_paris')
      .replies('Paris is sunny.', { chunks: ['Paris ', 'is sunny.'] });
    const result = await expectStreamedWeatherRound(
      createGroq({ baseURL: mock.url('groq-v1'), apiKey: session.apiKey })(MODEL),
      'Paris is sunny.',
    );
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.route, e.status, e.stream, e.step]),
      [
        [ROUTE, 200, true, 'step-1'],
        [ROUTE, 200, true, 'step-2'],
      ],
    );
    const usage = await result.totalUsage;
    assert.equal(
      usage.inputTokens,
      entries.reduce((sum, e) => sum + (e.usage?.inputTokens ?? 0), 0),
      'the AI SDK read usage from x_groq',
    );
    await session.verify();
  });

  test('streamText reports APICallError 409 and runs no tool [aisdk-groq.tools.stream -]', async () => {
    const session = await mock.session('aisdk-groq-mismatch');
    scriptZipCodeCall(session);
    const ran: unknown[] = [];
    const model = createGroq({ baseURL: mock.url('groq-v1'), apiKey: session.apiKey })(MODEL);
    await expectStreamTextRefused({ model, tools: typedWeatherTool('string', ran), ran, session });
  });
});

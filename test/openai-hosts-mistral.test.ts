// Mistral as a host of the OpenAI Chat dialect, through its own SDK (`@mistralai/mistralai`, which
// validates every answer and chunk with zod: each answer below passing it is part of the evidence)
// and the Vercel AI SDK's Mistral provider. Raw fetch only where the SDK cannot send the request.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { createMistral } from '@ai-sdk/mistral';
import { Mistral } from '@mistralai/mistralai';
import type { ChatCompletionStreamRequest, CompletionChunk } from '@mistralai/mistralai/models/components';
import { HTTPValidationError, SDKError } from '@mistralai/mistralai/models/errors';
import { stepCountIs, streamText } from 'ai';
import fc from 'fast-check';
import OpenAI from 'openai';
import { z } from 'zod';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { isNeutralError } from '../src/core/errors.js';
import type { WireContext } from '../src/dialects/dialect.js';
import { DIALECTS } from '../src/dialects/registry.js';
import { expectStreamedWeatherRound, expectStreamTextRefused, scriptZipCodeCall, typedWeatherTool } from './support/aisdk.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const MODEL = 'mistral-small-latest';
const ROUTE = 'POST /mistral/v1/chat/completions';
const MISTRAL_ID = /^[A-Za-z0-9]{9}$/;

function client(session: UnderstudySession): Mistral {
  return new Mistral({ apiKey: session.apiKey, serverURL: mock.url('mistral'), timeoutMs: 10_000 });
}

const WEATHER = {
  type: 'function' as const,
  function: {
    name: 'weather',
    description: 'Current weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  },
};

async function collect(stream: AsyncIterable<{ data: CompletionChunk }>): Promise<CompletionChunk[]> {
  const chunks: CompletionChunk[] = [];
  for await (const event of stream) chunks.push(event.data);
  return chunks;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => assert.fail(`expected a rejection, got ${JSON.stringify(value)}`),
    (e: unknown) => e,
  );
}

/** A body the SDK would not send (its own checks would refuse it first), straight to the route. */
async function post(session: UnderstudySession, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${mock.url('mistral')}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('Mistral SDK: chat', () => {
  test('plain text with Mistral’s own members (random_seed, safe_prompt, prompt_mode): the SDK’s validation passes [mistral-chat.text.json +] [mistral-chat.validation.json +]', async () => {
    const session = await mock.session('mistral-plain');
    session.scenario('hello').whenLatestUser({ contains: 'Bonjour' }).replies('Bonjour !');
    const completion = await client(session).chat.complete({
      model: MODEL,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Bonjour ?' },
      ],
      randomSeed: 7,
      safePrompt: true,
      promptMode: 'reasoning',
      presencePenalty: 0.5,
      frequencyPenalty: 0.1,
      topP: 0.9,
      maxTokens: 100,
      metadata: { team: 'qa' },
    });
    assert.equal(completion.choices[0].message?.content, 'Bonjour !');
    assert.equal(completion.choices[0].finishReason, 'stop');
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.route, e.operation, e.status, e.request?.model, e.request?.maxOutputTokens]),
      [[ROUTE, 'mistral.chat.completions', 200, MODEL, 100]],
    );
    assert.deepEqual(
      [completion.usage.promptTokens, completion.usage.completionTokens, completion.usage.totalTokens],
      [
        entries[0].usage?.inputTokens,
        entries[0].usage?.outputTokens,
        (entries[0].usage?.inputTokens ?? 0) + (entries[0].usage?.outputTokens ?? 0),
      ],
    );
    await session.verify();
  });

  test('content chunks as Mistral spells them: an image_url that is the URL itself, decoded as an image [mistral-chat.validation.json +]', async () => {
    const session = await mock.session('mistral-image');
    session.scenario('cat').replies('Un chat.');
    const completion = await client(session).chat.complete({
      model: 'pixtral-12b-latest',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', imageUrl: 'https://example.com/cat.png' },
            { type: 'image_url', imageUrl: { url: 'https://example.com/dog.png', detail: 'low' } },
          ],
        },
      ],
    });
    assert.equal(completion.choices[0].message?.content, 'Un chat.');
    const [entry] = (await session.journal()).entries;
    assert.deepEqual(entry.request?.messages[0].parts, [
      { type: 'text', text: 'What is this?' },
      { type: 'image', url: 'https://example.com/cat.png' },
      { type: 'image', url: 'https://example.com/dog.png' },
    ]);
  });

  test('GET /_understudy/health lists Mistral’s route and base URLs', async () => {
    const health = (await (await fetch(`${mock.baseUrl}/_understudy/health`)).json()) as Record<string, unknown>;
    assert.ok((health.routes as string[]).includes(ROUTE), JSON.stringify(health.routes));
    assert.deepEqual(
      [(health.providerPaths as Record<string, string>).mistral, (health.providerPaths as Record<string, string>)['mistral-v1']],
      ['/mistral', '/mistral/v1'],
    );
  });

  test('a scripted reasoning is a thinking chunk before the text (Magistral), in a stream on the first chunk [mistral-chat.text.json +] [mistral-chat.text.stream +]', async () => {
    const session = await mock.session('mistral-thinking');
    session.scenario('think').replies('42.', { reasoning: 'Six times seven.' }).onExhausted('repeat_last');
    const mistral = client(session);
    const ask = {
      model: 'magistral-small-latest',
      messages: [{ role: 'user' as const, content: 'Answer?' }],
      promptMode: 'reasoning' as const,
    };
    const completion = await mistral.chat.complete(ask);
    assert.deepEqual(completion.choices[0].message?.content, [
      { type: 'thinking', thinking: [{ type: 'text', text: 'Six times seven.' }] },
      { type: 'text', text: '42.' },
    ]);
    const chunks = await collect(await mistral.chat.stream(ask));
    assert.deepEqual(chunks[0].choices[0].delta.content, [{ type: 'thinking', thinking: [{ type: 'text', text: 'Six times seven.' }] }]);
    assert.equal(
      chunks
        .slice(1)
        .map((c) => c.choices[0]?.delta.content ?? '')
        .join(''),
      '42.',
    );
  });

  test('the answer is Mistral-shaped on the wire: no service_tier, system_fingerprint, logprobs or refusal; usage of three counts', async () => {
    const session = await mock.session('mistral-wire');
    session.scenario('hello').replies('Salut.');
    const { status, body } = await post(session, { model: MODEL, messages: [{ role: 'user', content: 'Salut' }] });
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(body).sort(), ['choices', 'created', 'id', 'model', 'object', 'usage']);
    const [choice] = body.choices as Record<string, Record<string, unknown>>[];
    assert.deepEqual(Object.keys(choice).sort(), ['finish_reason', 'index', 'message']);
    assert.deepEqual(choice.message, { role: 'assistant', content: 'Salut.' });
    assert.deepEqual(Object.keys(body.usage as object).sort(), ['completion_tokens', 'prompt_tokens', 'total_tokens']);
  });

  test('no script matches: 409 in Mistral’s shape as the SDK’s SDKError [mistral-chat.text.json -]', async () => {
    const session = await mock.session('mistral-no-match');
    session.scenario('tokyo').whenLatestUser({ contains: 'Tokyo' }).replies('Pluie.');
    const error = await rejection(client(session).chat.complete({ model: MODEL, messages: [{ role: 'user', content: 'Paris ?' }] }));
    assert.ok(error instanceof SDKError, String(error));
    assert.equal(error.statusCode, 409);
    const body = JSON.parse(error.body) as Record<string, unknown>;
    assert.deepEqual([body.object, body.type, body.code], ['error', 'understudy_error', 'no_match']);
    assert.match(String(body.message), /tokyo/);
  });

  test('a streamed tool call with tool_choice "any": whole in one chunk, a nine-character id, usage on the finishing chunk; the result round matches that id [mistral-chat.tools.stream +] [mistral-chat.text.stream +]', async () => {
    const session = await mock.session('mistral-stream-tools');
    session
      .scenario('weather')
      .whenLatestUser({ contains: 'weather in Paris' })
      .callsTool('weather', { city: 'Paris' })
      .thenWhenToolResult('weather')
      .replies('Paris est ensoleillé.', { chunks: ['Paris ', 'est ', 'ensoleillé.'] });
    const mistral = client(session);
    const ask: ChatCompletionStreamRequest = {
      model: MODEL,
      messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
      tools: [WEATHER],
      toolChoice: 'any',
      parallelToolCalls: false,
    };
    const first = await collect(await mistral.chat.stream(ask));
    const withCalls = first.filter((c) => c.choices[0]?.delta.toolCalls?.length);
    assert.equal(withCalls.length, 1, 'the call arrives whole, in one chunk');
    const [call] = withCalls[0].choices[0].delta.toolCalls!;
    assert.match(call.id ?? '', MISTRAL_ID);
    assert.deepEqual([call.function.name, JSON.parse(call.function.arguments as string)], ['weather', { city: 'Paris' }]);
    const usageChunks = first.filter((c) => c.usage);
    assert.deepEqual(
      usageChunks.map((c) => c.choices[0]?.finishReason),
      ['tool_calls'],
      'usage rides on the finishing chunk, and only there',
    );

    const second = await collect(
      await mistral.chat.stream({
        ...ask,
        toolChoice: 'auto',
        messages: [
          ...ask.messages,
          { role: 'assistant', toolCalls: [call] },
          { role: 'tool', toolCallId: call.id, name: 'weather', content: 'sunny, 24 C' },
        ],
      }),
    );
    assert.deepEqual(
      second.map((c) => c.choices[0]?.delta.content).filter((d) => d),
      ['Paris ', 'est ', 'ensoleillé.'],
    );
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.route, e.status, e.stream, e.step]),
      [
        [ROUTE, 200, true, 'step-1'],
        [ROUTE, 200, true, 'step-2'],
      ],
    );
    assert.deepEqual(entries[0].request?.toolChoice, { type: 'required' }, '"any" is required');
    assert.equal(entries[0].request?.parallelToolCalls, false);
    assert.deepEqual(
      entries[0].reply?.toolCalls.map((c) => c.id),
      [call.id],
      'the id the client saw is the id journalled',
    );
    const result = entries[1].request?.messages.flatMap((m) => m.parts).find((p) => p.type === 'tool_result');
    assert.deepEqual(result?.type === 'tool_result' && [result.callId, result.name, result.content], [call.id, 'weather', 'sunny, 24 C']);
    assert.deepEqual(
      [first.at(-1)?.usage?.promptTokens, second.at(-1)?.usage?.completionTokens],
      [entries[0].usage?.inputTokens, entries[1].usage?.outputTokens],
    );
    await session.verify();
  });

  test('a streamed request with a member Mistral does not have (stream_options) gets its 422 before the stream [mistral-chat.text.stream -]', async () => {
    const session = await mock.session('mistral-stream-refused');
    session.scenario('kept').replies('Kept.');
    const { status, body } = await post(session, {
      model: MODEL,
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'Hi' }],
    });
    assert.equal(status, 422);
    assert.deepEqual(body.message, {
      detail: [{ type: 'extra_forbidden', loc: ['body', 'stream_options'], msg: 'Extra inputs are not permitted' }],
    });
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.stream]),
      [[422, true]],
    );
  });

  test('a JSON tool round; the assistant’s call sent back with its arguments as an object, as Mistral allows [mistral-chat.tools.json +]', async () => {
    const session = await mock.session('mistral-json-tools');
    session.scenario('weather').callsTool('weather', { city: 'Lyon' }).thenWhenToolResult('weather').replies('Lyon : nuageux.');
    const mistral = client(session);
    const first = await mistral.chat.complete({ model: MODEL, messages: [{ role: 'user', content: 'Météo ?' }], tools: [WEATHER] });
    const [call] = first.choices[0].message?.toolCalls ?? [];
    assert.match(call?.id ?? '', MISTRAL_ID);
    assert.equal(first.choices[0].finishReason, 'tool_calls');
    const second = await mistral.chat.complete({
      model: MODEL,
      tools: [WEATHER],
      messages: [
        { role: 'user', content: 'Météo ?' },
        { role: 'assistant', toolCalls: [{ ...call, function: { name: 'weather', arguments: { city: 'Lyon' } } }] },
        { role: 'tool', toolCallId: call.id, content: 'cloudy' },
      ],
    });
    assert.equal(second.choices[0].message?.content, 'Lyon : nuageux.');
    const { entries } = await session.journal();
    const history = entries[1].request?.messages.flatMap((m) => m.parts).find((p) => p.type === 'tool_call');
    assert.deepEqual(history?.type === 'tool_call' && [history.id, history.arguments], [call.id, { city: 'Lyon' }]);
    await session.verify();
  });

  for (const stream of [false, true]) {
    const tag = stream ? '[mistral-chat.tools.stream -]' : '[mistral-chat.tools.json -]';
    test(`a scripted call whose arguments fail the tool's schema: 409, not consumed; the same script answers a request it satisfies (${stream ? 'stream' : 'JSON'}) ${tag}`, async () => {
      const session = await mock.session(`mistral-mismatch-${stream}`);
      session.scenario('zip').callsTool('weather', { city: 75001 }, 'zip750010');
      const mistral = client(session);
      const messages = [{ role: 'user' as const, content: 'Météo ?' }];
      const ask = (tools: { type: 'function'; function: { name: string; parameters: Record<string, unknown> } }[]) =>
        stream
          ? mistral.chat.stream({ model: MODEL, messages, tools }).then(collect)
          : mistral.chat.complete({ model: MODEL, messages, tools });
      const error = await rejection(ask([WEATHER]));
      assert.ok(error instanceof SDKError, String(error));
      assert.equal(error.statusCode, 409);
      assert.equal((JSON.parse(error.body) as { code: string }).code, 'fixture_mismatch');
      const numeric = {
        ...WEATHER,
        function: { ...WEATHER.function, parameters: { type: 'object', properties: { city: { type: 'number' } } } },
      };
      const answered = await ask([numeric]);
      const calls = Array.isArray(answered)
        ? answered.flatMap((c) => c.choices[0]?.delta.toolCalls ?? [])
        : (answered.choices[0].message?.toolCalls ?? []);
      assert.deepEqual(
        calls.map((c) => c.id),
        ['zip750010'],
      );
      const { entries, counters } = await session.journal();
      assert.deepEqual(
        entries.map((e) => [e.status, e.error?.code]),
        [
          [409, 'fixture_mismatch'],
          [200, undefined],
        ],
      );
      assert.deepEqual([counters.mismatched, counters.matched], [1, 1]);
    });
  }

  for (const stream of [false, true]) {
    const mode = stream ? 'stream' : 'json';
    const tags = stream
      ? { plus: '[mistral-chat.structured.stream +]', minus: '[mistral-chat.structured.stream -]' }
      : { plus: '[mistral-chat.structured.json +]', minus: '[mistral-chat.structured.json -]' };
    test(`structured output (json_schema from responseFormat.jsonSchema), ${mode} ${tags.plus}`, async () => {
      const session = await mock.session(`mistral-structured-${mode}`);
      session.scenario('city').repliesJson({ city: 'Paris', population: 2102650 });
      const schema = {
        type: 'object',
        properties: { city: { type: 'string' }, population: { type: 'integer' } },
        required: ['city', 'population'],
        additionalProperties: false,
      };
      const ask = {
        model: MODEL,
        messages: [{ role: 'user' as const, content: 'Une ville ?' }],
        responseFormat: { type: 'json_schema' as const, jsonSchema: { name: 'city', schemaDefinition: schema, strict: true } },
      };
      const text = stream
        ? (await collect(await client(session).chat.stream(ask))).map((c) => c.choices[0]?.delta.content ?? '').join('')
        : ((await client(session).chat.complete(ask)).choices[0].message?.content as string);
      assert.deepEqual(JSON.parse(text), { city: 'Paris', population: 2102650 });
      const [entry] = (await session.journal()).entries;
      assert.deepEqual(entry.request?.output, { type: 'json_schema', name: 'city', schema, strict: true });
    });

    test(`structured output: scripted JSON that fails the schema is a 409, nothing consumed (${mode}) ${tags.minus}`, async () => {
      const session = await mock.session(`mistral-structured-mismatch-${mode}`);
      session.scenario('city').repliesJson({ town: 'Paris' });
      const ask = {
        model: MODEL,
        messages: [{ role: 'user' as const, content: 'Une ville ?' }],
        responseFormat: {
          type: 'json_schema' as const,
          jsonSchema: { name: 'city', schemaDefinition: { type: 'object', required: ['city'] } },
        },
      };
      const error = await rejection(stream ? client(session).chat.stream(ask).then(collect) : client(session).chat.complete(ask));
      assert.ok(error instanceof SDKError, String(error));
      assert.equal(error.statusCode, 409);
      assert.equal((await session.check()).ok, false, 'the refused step is still unused');
    });
  }

  test('the SDK’s chat.parse helper (a zod schema, made strict by the SDK) gets its parsed object [mistral-chat.structured.json +]', async () => {
    const session = await mock.session('mistral-parse');
    session.scenario('city').repliesJson({ city: 'Paris', population: 2102650 });
    const parsed = await client(session).chat.parse({
      model: MODEL,
      messages: [{ role: 'user', content: 'Une ville ?' }],
      responseFormat: z.object({ city: z.string(), population: z.number() }),
    });
    assert.deepEqual(parsed.choices?.[0].message?.parsed, { city: 'Paris', population: 2102650 });
    const [entry] = (await session.journal()).entries;
    assert.equal(entry.request?.output.type, 'json_schema');
  });

  test('strict on a JSON schema or a tool is Mistral’s, not OpenAI’s Structured Outputs rules: a schema without additionalProperties passes, strict kept in the journal [mistral-chat.structured.json +]', async () => {
    const session = await mock.session('mistral-strict');
    session.scenario('answer').repliesJson({ answer: 'Paris' }).then().callsTool('lookup', { city: 'Paris' }, 'lookup001');
    const mistral = client(session);
    // The request the Mistral SDK sent in the reference capture (mistral-chat-structured).
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
    const answer = await mistral.chat.complete({
      model: MODEL,
      messages: [{ role: 'user', content: 'Capital?' }],
      responseFormat: { type: 'json_schema', jsonSchema: { name: 'answer', schemaDefinition: schema, strict: true } },
    });
    assert.equal(answer.choices[0].message?.content, '{"answer":"Paris"}');
    const lookup = {
      type: 'function' as const,
      function: { name: 'lookup', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: true },
    };
    const call = await mistral.chat.complete({ model: MODEL, messages: [{ role: 'user', content: 'Look up Paris' }], tools: [lookup] });
    assert.equal(call.choices[0].message?.toolCalls?.[0].id, 'lookup001');
    const { entries } = await session.journal();
    assert.deepEqual(entries[0].request?.output, { type: 'json_schema', name: 'answer', schema, strict: true });
    assert.deepEqual(
      entries[1].request?.tools.map((t) => [t.name, t.strict]),
      [['lookup', true]],
    );
  });

  test('what Mistral’s request schema refuses is a 422 HTTPValidationError with detail[]; what its handlers refuse is a 400; nothing consumed [mistral-chat.validation.json -]', async () => {
    const session = await mock.session('mistral-refused');
    session.scenario('kept').replies('Toujours là.');
    const mistral = client(session);
    const below = await rejection(mistral.chat.complete({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], temperature: -1 }));
    assert.ok(below instanceof HTTPValidationError, String(below));
    assert.equal(below.statusCode, 422);
    assert.deepEqual(JSON.parse(below.body), {
      object: 'error',
      message: {
        detail: [
          {
            type: 'greater_than_equal',
            loc: ['body', 'temperature'],
            msg: "Invalid 'temperature': decimal below minimum value. Expected a value >= 0, but got -1 instead.",
          },
        ],
      },
      type: 'invalid_request_error',
      param: null,
      code: null,
    });
    const raw: [unknown, string, (string | number)[]][] = [
      [
        { model: MODEL, messages: [{ role: 'user', content: 'Hi' }], max_completion_tokens: 5 },
        'extra_forbidden',
        ['body', 'max_completion_tokens'],
      ],
      [{ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], seed: 5 }, 'extra_forbidden', ['body', 'seed']],
      [{ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], top_p: 'high' }, 'float_type', ['body', 'top_p']],
      [{ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], safe_prompt: 'yes' }, 'bool_type', ['body', 'safe_prompt']],
      [{ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], random_seed: 1.5 }, 'int_type', ['body', 'random_seed']],
      [{ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], prompt_mode: 'fast' }, 'enum', ['body', 'prompt_mode']],
      [{ model: MODEL, messages: [{ role: 'user' }] }, 'missing', ['body', 'messages', 0, 'content']],
      // What OpenAI clients keep in messages and Mistral refuses.
      [
        { model: MODEL, messages: [{ role: 'user', content: 'Hi', name: 'ann' }] },
        'extra_forbidden',
        ['body', 'messages', 0, 'user', 'name'],
      ],
      [
        {
          model: MODEL,
          messages: [
            { role: 'user', content: 'Hi' },
            { role: 'assistant', content: 'Yes', reasoning_content: 'hm' },
            { role: 'user', content: 'And?' },
          ],
        },
        'extra_forbidden',
        ['body', 'messages', 1, 'assistant', 'reasoning_content'],
      ],
      [{ model: MODEL, messages: [{ role: 'developer', content: 'Be brief.' }] }, 'union_tag_invalid', ['body', 'messages', 0]],
    ];
    for (const [body, type, loc] of raw) {
      const answer = await post(session, body);
      assert.equal(answer.status, 422, JSON.stringify(body));
      const detail = (answer.body.message as { detail: { type: string; loc: unknown[] }[] }).detail;
      assert.deepEqual([detail[0].type, detail[0].loc], [type, loc], JSON.stringify(answer.body));
    }
    const handler = await rejection(
      mistral.chat.complete({ model: MODEL, messages: [{ role: 'tool', toolCallId: 'abc123XYZ', content: 'x' }] }),
    );
    assert.ok(handler instanceof SDKError && !(handler instanceof HTTPValidationError), String(handler));
    assert.equal(handler.statusCode, 400);
    const flat = JSON.parse(handler.body) as Record<string, unknown>;
    assert.deepEqual([flat.object, flat.type, typeof flat.message], ['error', 'invalid_request_error', 'string']);
    const kept = await mistral.chat.complete({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] });
    assert.equal(kept.choices[0].message?.content, 'Toujours là.');
    const { entries, counters } = await session.journal();
    assert.deepEqual(
      entries.map((e) => e.status),
      [422, ...raw.map(() => 422), 400, 200],
    );
    assert.equal(counters.invalid, raw.length + 2);
  });
});

describe("the openai SDK at Mistral (mock.url('mistral-v1'))", () => {
  test('a streamed tool call through chat.completions.stream: whole, with a nine-character id, the usage on the finishing chunk', async () => {
    const session = await mock.session('openai-at-mistral');
    session.scenario('weather').callsTool('weather', { city: 'Nice' });
    const openai = new OpenAI({ baseURL: mock.url('mistral-v1'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
    const stream = openai.chat.completions.stream({ model: MODEL, messages: [{ role: 'user', content: 'Météo ?' }], tools: [WEATHER] });
    let usage: OpenAI.CompletionUsage | undefined;
    stream.on('chunk', (chunk) => (usage = chunk.usage ?? usage));
    const final = await stream.finalChatCompletion();
    const [call] = final.choices[0].message.tool_calls ?? [];
    assert.ok(call?.type === 'function');
    assert.match(call.id, MISTRAL_ID);
    assert.deepEqual(JSON.parse(call.function.arguments), { city: 'Nice' });
    const [entry] = (await session.journal()).entries;
    assert.deepEqual([usage?.prompt_tokens, usage?.completion_tokens], [entry.usage?.inputTokens, entry.usage?.outputTokens]);
  });

  test('an OpenAI habit Mistral refuses, stream_options, is the openai SDK’s UnprocessableEntityError', async () => {
    const session = await mock.session('openai-at-mistral-422');
    const openai = new OpenAI({ baseURL: mock.url('mistral-v1'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
    const error = await openai.chat.completions
      .create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], stream: true, stream_options: { include_usage: true } })
      .catch((e: unknown) => e);
    assert.ok(error instanceof OpenAI.UnprocessableEntityError, String(error));
    assert.equal(error.status, 422);
  });
});

describe('Mistral SDK: scripted errors in Mistral’s shape', () => {
  test('a scripted 429 is the SDK’s SDKError with type rate_limited and the scripted code and extra member; the next step answers [mistral-chat.errors.json +]', async () => {
    const session = await mock.session('mistral-429');
    session
      .scenario('limited')
      .fails(429, 'Rate limit exceeded', { code: '1300', headers: { 'retry-after': '1' }, extra: { raw_status_code: 429 } })
      .replies('Après.');
    const mistral = client(session);
    const error = await rejection(mistral.chat.complete({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] }));
    assert.ok(error instanceof SDKError, String(error));
    assert.equal(error.statusCode, 429);
    assert.equal(error.headers.get('retry-after'), '1');
    assert.deepEqual(JSON.parse(error.body), {
      object: 'error',
      message: 'Rate limit exceeded',
      type: 'rate_limited',
      param: null,
      code: '1300',
      raw_status_code: 429,
    });
    const after = await mistral.chat.complete({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] });
    assert.equal(after.choices[0].message?.content, 'Après.');
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.error?.code, e.step]),
      [
        [429, '1300', 'step-1'],
        [200, undefined, 'step-2'],
      ],
    );
  });

  test('extra members named like the error’s own do not replace them; a scripted type wins over the default [mistral-chat.errors.json -]', async () => {
    const session = await mock.session('mistral-extra-own-names');
    session
      .scenario('broken')
      .fails(500, 'Service unavailable.', { type: 'service_unavailable', extra: { object: 'nope', message: 'nope', hint: 'kept' } });
    const error = await rejection(client(session).chat.complete({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] }));
    assert.ok(error instanceof SDKError, String(error));
    assert.deepEqual(JSON.parse(error.body), {
      object: 'error',
      message: 'Service unavailable.',
      type: 'service_unavailable',
      param: null,
      code: null,
      hint: 'kept',
    });
  });

  test('a scripted error before a stream is the SDK’s SDKError from chat.stream [mistral-chat.errors.stream +]', async () => {
    const session = await mock.session('mistral-stream-503');
    session.scenario('down').fails(503, 'Overloaded.');
    const error = await rejection(
      client(session)
        .chat.stream({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] })
        .then(collect),
    );
    assert.ok(error instanceof SDKError, String(error));
    assert.equal(error.statusCode, 503);
    assert.equal((JSON.parse(error.body) as { type: string }).type, 'internal_server_error');
  });

  test('an error inside the stream ends it with finish_reason "error", which the SDK’s validation accepts; the message is journalled [mistral-chat.errors.stream -]', async () => {
    const session = await mock.session('mistral-in-stream');
    session
      .scenario('broken')
      .reply({ error: { status: 500, message: 'Broke inside the stream.', inStream: true } })
      .then()
      .replies('Partial answer here.', { chunks: ['Partial ', 'answer ', 'here.'], fault: { kind: 'error', afterChunks: 2 } });
    const mistral = client(session);
    for (let i = 0; i < 2; i++) {
      const chunks = await collect(await mistral.chat.stream({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] }));
      assert.equal(chunks.at(-1)?.choices[0]?.finishReason, 'error', JSON.stringify(chunks));
    }
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.step]),
      [
        [200, 'step-1'],
        [200, 'step-2'],
      ],
    );
    assert.match(entries[0].error?.message ?? '', /Broke inside the stream/);
  });
});

describe('Vercel AI SDK Mistral provider', () => {
  test('streamText completes a tool round with a nine-character generated id, usage from the finishing chunk [aisdk-mistral.tools.stream +]', async () => {
    const session = await mock.session('aisdk-mistral-round');
    session
      .scenario('weather')
      .whenLatestUser({ contains: 'weather' })
      .callsTool('weather', { city: 'Paris' })
      .thenWhenToolResult('weather')
      .replies('Paris is sunny.', { chunks: ['Paris ', 'is sunny.'] });
    const result = await expectStreamedWeatherRound(
      createMistral({ baseURL: mock.url('mistral-v1'), apiKey: session.apiKey })(MODEL),
      'Paris is sunny.',
    );
    const steps = await result.steps;
    assert.match(steps[0].toolCalls[0].toolCallId, MISTRAL_ID);
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
      usage.outputTokens,
      entries.reduce((sum, e) => sum + (e.usage?.outputTokens ?? 0), 0),
      'the AI SDK read usage from the finishing chunk',
    );
    await session.verify();
  });

  test('streamText with a reasoning model: the thinking reaches the caller, and sent back in the next step’s history it is read past [aisdk-mistral.tools.stream +]', async () => {
    const session = await mock.session('aisdk-mistral-thinking');
    session
      .scenario('weather')
      .reply({ reasoning: 'I should look it up.', toolCalls: [{ name: 'weather', arguments: { city: 'Paris' } }] })
      .thenWhenToolResult('weather')
      .replies('Sunny.');
    const ran: unknown[] = [];
    const result = streamText({
      model: createMistral({ baseURL: mock.url('mistral-v1'), apiKey: session.apiKey })('magistral-small-latest'),
      tools: typedWeatherTool('string', ran),
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(10_000),
      prompt: 'Weather in Paris?',
    });
    assert.equal(await result.text, 'Sunny.');
    assert.equal((await result.steps)[0].reasoningText, 'I should look it up.');
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.step]),
      [
        [200, 'step-1'],
        [200, 'step-2'],
      ],
    );
    await session.verify();
  });

  test('streamText reports APICallError 409 and runs no tool [aisdk-mistral.tools.stream -]', async () => {
    const session = await mock.session('aisdk-mistral-mismatch');
    scriptZipCodeCall(session);
    const ran: unknown[] = [];
    const model = createMistral({ baseURL: mock.url('mistral-v1'), apiKey: session.apiKey })(MODEL);
    await expectStreamTextRefused({ model, tools: typedWeatherTool('string', ran), ran, session });
  });
});

describe('Mistral’s refusals, for any value (property)', () => {
  const route = DIALECTS.flatMap((d) => d.routes).find((r) => r.operation === 'mistral.chat.completions')!;
  const wire: WireContext = {
    operation: route.operation,
    params: {},
    query: new URLSearchParams(),
    headers: {},
    state: { sessionId: 'property', store: (_name, create) => create() },
  };
  const base = { model: MODEL, messages: [{ role: 'user', content: 'Hi' }] };
  const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
  const FIELDS: Record<string, (v: unknown) => boolean> = {
    temperature: (v) => num(v) && v >= 0,
    top_p: (v) => num(v) && v >= 0 && v <= 1,
    presence_penalty: (v) => num(v) && v >= -2 && v <= 2,
    random_seed: (v) => num(v) && Number.isSafeInteger(v) && v >= 0,
    safe_prompt: (v) => typeof v === 'boolean',
    prompt_cache_key: (v) => typeof v === 'string',
    prompt_mode: (v) => v === 'reasoning',
    service_tier: (v) => v === 'auto' || v === 'standard_only',
  };
  const value = fc.oneof(
    fc.jsonValue(),
    fc.double(),
    fc.integer(),
    fc.constantFrom('reasoning', 'auto', 'standard_only', 0, 1, -1, 0.5, true),
  );

  /** The answer a refusal gets, as the client reads it. */
  function encoded(body: unknown): { status: number; body: Record<string, unknown> } | undefined {
    const decoded = route.dialect.decode(JSON.parse(JSON.stringify(body)), wire);
    if (!isNeutralError(decoded)) return undefined;
    const answer = route.dialect.encodeError(decoded, { requestId: 'req_property' });
    assert.equal(answer.status, decoded.status, 'the journal and the wire say the same status');
    return { status: answer.status, body: JSON.parse(answer.body) as Record<string, unknown> };
  }

  test('a member of Mistral’s list is accepted exactly when its type and range allow; refused, it is a 422 whose detail names it', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(FIELDS)), value, (field, raw) => {
        const v = JSON.parse(JSON.stringify({ v: raw })).v as unknown;
        const refusal = encoded({ ...base, [field]: v });
        if (v === null || v === undefined || FIELDS[field](v)) {
          assert.equal(refusal, undefined, `${field}: ${JSON.stringify(v)} refused: ${JSON.stringify(refusal)}`);
          return;
        }
        assert.ok(refusal, `${field}: ${JSON.stringify(v)} accepted`);
        assert.equal(refusal.status, 422, JSON.stringify(refusal.body));
        const { detail } = refusal.body.message as { detail: { loc: unknown[]; type: string; msg: string }[] };
        assert.deepEqual(detail[0].loc, ['body', field]);
        assert.ok(detail[0].type.length > 0 && detail[0].msg.length > 0);
        assert.deepEqual(
          [refusal.body.object, refusal.body.type, refusal.body.param, refusal.body.code],
          ['error', 'invalid_request_error', null, null],
        );
      }),
      { numRuns: 300 },
    );
  });

  test('any member not in Mistral’s list is a 422 extra_forbidden naming it', () => {
    const listed = new Set([
      ...Object.keys(FIELDS),
      'model',
      'messages',
      'tools',
      'tool_choice',
      'parallel_tool_calls',
      'response_format',
      'stream',
      'n',
      'max_tokens',
      'stop',
      'metadata',
      'frequency_penalty',
      'prediction',
      'reasoning_effort',
      'guardrails',
    ]);
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((k) => !listed.has(k) && k !== '__proto__'),
        fc.jsonValue(),
        (key, v) => {
          const refusal = encoded({ ...base, [key]: v });
          assert.ok(refusal, `${key} accepted`);
          assert.equal(refusal.status, 422);
          assert.deepEqual((refusal.body.message as { detail: unknown[] }).detail, [
            { type: 'extra_forbidden', loc: ['body', key], msg: 'Extra inputs are not permitted' },
          ]);
        },
      ),
      { numRuns: 200 },
    );
  });

  test('ids made for calls a script names none for: nine letters and digits, distinct, the same on every run', async () => {
    const ids: string[][] = [];
    for (const run of [0, 1]) {
      // The same session on a second server: the same ids.
      const server = run === 0 ? mock : await startUnderstudy();
      const session = await server.session('mistral-ids', { fallback: 'auto' });
      const mistral = new Mistral({ apiKey: session.apiKey, serverURL: server.url('mistral'), timeoutMs: 10_000 });
      const seen: string[] = [];
      for (let i = 0; i < 25; i++) {
        const answer = await mistral.chat.complete({
          model: MODEL,
          messages: [{ role: 'user', content: `Weather ${i}?` }],
          tools: [WEATHER],
        });
        seen.push(answer.choices[0].message?.toolCalls?.[0].id ?? '');
      }
      ids.push(seen);
      if (server !== mock) await server.close();
    }
    for (const id of ids[0]) assert.match(id, MISTRAL_ID);
    assert.equal(new Set(ids[0]).size, ids[0].length, 'distinct in the session');
    assert.deepEqual(ids[0], ids[1], 'deterministic');
  });
});

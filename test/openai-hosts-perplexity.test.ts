// Perplexity Sonar through the `openai` SDK at mock.url('perplexity'): chat, streaming, structured
// output (json_schema without a name), Perplexity's search members, scripted citations and
// search results, and function tools refused in Perplexity's error shape.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, generateText, streamText } from 'ai';
import OpenAI from 'openai';
import type { ChatCompletionChunk, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';

import type { JsonValue } from '../src/core/model.js';
import { connectUnderstudy, startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { parseFixtureText } from '../src/engine/fixture-file.js';
import { typedWeatherTool } from './support/aisdk.js';

const MODEL = 'sonar';
const ROUTE = 'POST /perplexity/chat/completions';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

function client(session: UnderstudySession, baseURL = mock.url('perplexity')): OpenAI {
  return new OpenAI({ baseURL, apiKey: session.apiKey, maxRetries: 0, timeout: 10_000, logLevel: 'off' });
}

type Body = ChatCompletionCreateParamsNonStreaming & Record<string, unknown>;

const CITATIONS = ['https://en.wikipedia.org/wiki/Paris', 'https://www.paris.fr/'];
const SEARCH_RESULTS: JsonValue = [
  { title: 'Paris - Wikipedia', url: CITATIONS[0], date: '2025-01-01', snippet: 'Paris is the capital of France.' },
  { title: 'Paris.fr', url: CITATIONS[1], date: null },
];

/** Perplexity's own request members, which the `openai` SDK's types do not know. */
const SEARCH = {
  search_mode: 'academic',
  search_domain_filter: ['wikipedia.org', '-reddit.com'],
  search_recency_filter: 'month',
  search_after_date_filter: '3/1/2025',
  return_images: false,
  return_related_questions: true,
  web_search_options: { search_context_size: 'high', user_location: { country: 'FR', city: 'Paris', latitude: 48.85, longitude: 2.35 } },
};

async function rejection(promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const thrown = await promise.then(
    (value) => assert.fail(`expected the SDK to throw, got ${JSON.stringify(value)}`),
    (error: unknown) => error,
  );
  assert.ok(thrown instanceof OpenAI.APIError, `got ${String(thrown)}`);
  return thrown;
}

/** Perplexity's error body: message, type, and the status as a numeric code. */
function assertPerplexityError(error: InstanceType<typeof OpenAI.APIError>, status: number, type: string, message: RegExp) {
  assert.equal(error.status, status);
  const body = error.error as { code?: unknown; message?: unknown; type?: unknown };
  assert.deepEqual([body.code, body.type], [status, type]);
  assert.match(String(body.message), message);
}

describe('Perplexity Sonar Chat Completions through the openai SDK', () => {
  test('a plain answer with scripted citations and search results; search members accepted [perplexity-chat.text.json +]', async () => {
    const session = await mock.session('pplx-plain');
    session
      .scenario('cited')
      .whenLatestUser({ contains: 'capital' })
      .replies('Paris is the capital of France [1][2].')
      .withHostFields({ citations: CITATIONS, search_results: SEARCH_RESULTS });
    const completion = await client(session).chat.completions.create({
      model: MODEL,
      messages: [
        { role: 'system', content: 'Be precise.' },
        { role: 'user', content: 'The capital of France?' },
      ],
      ...SEARCH,
    } as unknown as Body);
    assert.equal(completion.choices[0].message.content, 'Paris is the capital of France [1][2].');
    const wire = completion as unknown as { citations: string[]; search_results: unknown[]; usage: Record<string, unknown> };
    assert.deepEqual(wire.citations, CITATIONS);
    assert.deepEqual(wire.search_results, SEARCH_RESULTS);
    assert.deepEqual([wire.usage.citation_tokens, wire.usage.num_search_queries], [0, 0]);
    const [entry] = (await session.journal()).entries;
    assert.deepEqual(
      [entry.route, entry.operation, entry.status, entry.request?.model],
      [ROUTE, 'perplexity.chat.completions', 200, MODEL],
    );
    assert.equal(completion.usage?.prompt_tokens, entry.usage?.inputTokens);
    await session.verify();
  });

  test('a fixture file’s hostFields reach the answer; a malformed one is reported with its path', async () => {
    const yaml = [
      'scenarios:',
      '  - name: cited',
      '    steps:',
      '      - reply:',
      '          text: "Paris [1]."',
      '          hostFields:',
      '            citations: ["https://en.wikipedia.org/wiki/Paris"]',
    ].join('\n');
    const loaded = parseFixtureText(yaml, 'cited.yaml');
    assert.ok(loaded.ok, JSON.stringify(loaded));
    const session = await mock.session('pplx-fixture');
    await session.load(loaded.fixture);
    const completion = await client(session).chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Capital?' }] });
    assert.deepEqual((completion as unknown as { citations: string[] }).citations, ['https://en.wikipedia.org/wiki/Paris']);
    for (const [reply, message] of [
      ['{ text: "x", hostFields: [1] }', /expected host answer members/],
      ['{ error: { status: 429, message: "slow" }, hostFields: { citations: [] } }', /nothing but "delayMs" beside "error"/],
    ] as const) {
      const bad = parseFixtureText(`scenarios:\n  - name: bad\n    steps:\n      - reply: ${reply}\n`, 'bad.yaml');
      assert.ok(!bad.ok);
      const problem = bad.problems.find((p) => p.path === '/scenarios/0/steps/0/reply/hostFields');
      assert.ok(problem, JSON.stringify(bad.problems));
      assert.match(problem.message, message);
    }
  });

  test('hostFields scripted over the control API, as from any language', async () => {
    const control = await connectUnderstudy(mock.baseUrl);
    const session = await control.session('pplx-control');
    session
      .scenario('cited')
      .replies('Paris [1].')
      .withHostFields({ citations: CITATIONS.slice(0, 1) });
    await session.push();
    const completion = await client(session).chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Capital?' }] });
    assert.deepEqual((completion as unknown as { citations: string[] }).citations, CITATIONS.slice(0, 1));
    const { entries } = await session.journal();
    assert.deepEqual([entries[0].status, entries[0].script], [200, 'cited']);
  });

  test('/v1/chat/completions answers too; host fields never replace the answer’s own members', async () => {
    const session = await mock.session('pplx-v1');
    session
      .scenario('plain')
      .replies('Hello.')
      .withHostFields({ choices: [], model: 'not-this', related_questions: ['Why?'] });
    const completion = await client(session, `${mock.url('perplexity')}/v1`).chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    assert.equal(completion.choices[0].message.content, 'Hello.');
    assert.equal(completion.model, MODEL);
    assert.deepEqual((completion as unknown as { related_questions: string[] }).related_questions, ['Why?']);
    // Perplexity's search members are there even when no script gives them.
    assert.deepEqual((completion as unknown as { citations: unknown[]; search_results: unknown[] }).citations, []);
    assert.deepEqual((completion as unknown as { citations: unknown[]; search_results: unknown[] }).search_results, []);
    const [entry] = (await session.journal()).entries;
    assert.equal(entry.route, 'POST /perplexity/v1/chat/completions');
  });

  test('GET /_understudy/health lists Perplexity’s routes', async () => {
    const health = await (await fetch(`${mock.baseUrl}/_understudy/health`, { signal: AbortSignal.timeout(10_000) })).text();
    for (const route of ['/perplexity/chat/completions', '/perplexity/v1/chat/completions']) assert.ok(health.includes(route), route);
  });

  test('a malformed search member gets Perplexity’s 400 and consumes nothing [perplexity-chat.text.json -]', async () => {
    const session = await mock.session('pplx-bad-search');
    session.scenario('kept').replies('Still here.');
    const error = await rejection(
      client(session).chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'Hi' }],
        search_recency_filter: 'decade',
      } as Body),
    );
    assert.ok(error instanceof OpenAI.BadRequestError);
    assertPerplexityError(error, 400, 'invalid_parameter', /'decade'/);
    const dated = await rejection(
      client(session).chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'Hi' }],
        search_after_date_filter: '2025-03-01',
      } as Body),
    );
    assertPerplexityError(dated, 400, 'invalid_parameter', /%m\/%d\/%Y/);
    const answer = await client(session).chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] });
    assert.equal(answer.choices[0].message.content, 'Still here.');
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.step]),
      [
        [400, undefined],
        [400, undefined],
        [200, 'step-1'],
      ],
    );
  });

  test('turns that do not alternate, OpenAI’s developer role and a max_tokens under 16 get Perplexity’s 400', async () => {
    const session = await mock.session('pplx-turns');
    const error = await rejection(
      client(session).chat.completions.create({
        model: MODEL,
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'user', content: 'Again' },
        ],
      }),
    );
    assertPerplexityError(error, 400, 'invalid_parameter', /should alternate/);
    const developer = await rejection(
      client(session).chat.completions.create({
        model: MODEL,
        messages: [
          { role: 'developer', content: 'Be brief.' },
          { role: 'user', content: 'Hi' },
        ],
      }),
    );
    assertPerplexityError(
      developer,
      400,
      'invalid_parameter',
      /messages\.0\.role: Input should be 'system', 'user', 'assistant' or 'tool'/,
    );
    const short = await rejection(
      client(session).chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], max_tokens: 8 }),
    );
    assertPerplexityError(short, 400, 'invalid_parameter', /max_tokens must be at least 16 for sonar/);
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.error?.message.slice(0, 20)]),
      [
        [400, 'After the (optional)'],
        [400, 'messages.0.role: Inp'],
        [400, 'max_tokens must be a'],
      ],
    );
  });

  test('a stream carries the citations on its first and last chunks and ends with usage [perplexity-chat.text.stream +]', async () => {
    const session = await mock.session('pplx-stream');
    session
      .scenario('streamed')
      .replies('Sunny in Paris [1].')
      .inChunks(['Sunny ', 'in Paris [1].'])
      .withHostFields({ citations: CITATIONS.slice(0, 1) });
    const stream = await client(session).chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      stream: true,
      ...{ search_mode: 'web' },
    });
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    assert.equal(chunks.map((c) => c.choices[0]?.delta.content ?? '').join(''), 'Sunny in Paris [1].');
    // On the first chunk and the last: not once per piece of a long stream.
    assert.deepEqual(
      chunks.map((chunk) => (chunk as unknown as { citations?: string[] }).citations),
      chunks.map((_, i) => (i === 0 || i === chunks.length - 1 ? CITATIONS.slice(0, 1) : undefined)),
    );
    assert.deepEqual(
      chunks.map((chunk) => (chunk as unknown as { search_results?: unknown[] }).search_results),
      chunks.map((_, i) => (i === 0 || i === chunks.length - 1 ? [] : undefined)),
    );
    const usage = chunks.at(-1)?.usage;
    assert.ok(usage, 'the last chunk carries usage it was not asked for');
    const [entry] = (await session.journal()).entries;
    assert.deepEqual([entry.route, entry.status, entry.stream], [ROUTE, 200, true]);
    assert.equal(usage.completion_tokens, entry.usage?.outputTokens);
  });

  test('a reasoning_effort Perplexity does not have gets its 400 [perplexity-chat.reasoning.json -]', async () => {
    const session = await mock.session('pplx-effort');
    // OpenAI takes 'max'; Perplexity's values are minimal, low, medium and high.
    const error = await rejection(
      client(session).chat.completions.create({
        model: 'sonar-deep-research',
        messages: [{ role: 'user', content: 'Research' }],
        reasoning_effort: 'max',
      } as Body),
    );
    assertPerplexityError(error, 400, 'invalid_parameter', /'max'/);
    const [entry] = (await session.journal()).entries;
    assert.equal(entry.status, 400);
  });

  test('a streamed reasoning is the first chunk’s <think> section', async () => {
    const session = await mock.session('pplx-think-stream');
    session.scenario('reasoned').replies('Sunny.', { reasoning: 'Check the forecast.' });
    const stream = client(session).chat.completions.stream({
      model: 'sonar-reasoning',
      messages: [{ role: 'user', content: 'Weather?' }],
      stream: true,
    });
    const deltas: string[] = [];
    stream.on('content.delta', ({ delta }) => deltas.push(delta));
    const completion = await stream.finalChatCompletion();
    assert.equal(completion.choices[0].message.content, '<think>Check the forecast.</think>Sunny.');
    assert.equal(deltas[0], '<think>Check the forecast.</think>');
  });

  test('a scripted 429, and an error inside a stream, in Perplexity’s shape [perplexity-chat.text.stream -]', async () => {
    const session = await mock.session('pplx-429');
    session
      .scenario('limited')
      .fails(429, 'Too many requests.')
      .reply({ error: { status: 500, message: 'Search backend failed.', inStream: true } });
    const error = await rejection(
      client(session)
        .chat.completions.stream({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], stream: true })
        .finalChatCompletion(),
    );
    assert.ok(error instanceof OpenAI.RateLimitError);
    assertPerplexityError(error, 429, 'rate_limit_exceeded', /Too many requests/);
    const inStream = await rejection(
      client(session)
        .chat.completions.stream({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], stream: true })
        .finalChatCompletion(),
    );
    assert.match(inStream.message, /Search backend failed/);
    assert.equal((inStream.error as { type?: unknown }).type, 'internal_server_error', 'the error chunk is Perplexity’s body');
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.event, e.step]),
      [
        [429, 'error_returned', 'step-1'],
        [200, 'error_returned', 'step-2'],
      ],
    );
  });

  const CITY_SCHEMA = {
    type: 'object',
    properties: { city: { type: 'string' }, population: { type: 'integer' } },
    required: ['city', 'population'],
  };

  for (const stream of [false, true]) {
    const mode = stream ? 'stream' : 'json';
    const tags = stream
      ? { plus: '[perplexity-chat.structured.stream +]', minus: '[perplexity-chat.structured.stream -]' }
      : { plus: '[perplexity-chat.structured.json +]', minus: '[perplexity-chat.structured.json -]' };
    const ask = (session: UnderstudySession, schema: Record<string, unknown>) => {
      // Perplexity's json_schema needs no name; the openai SDK's types want one.
      const body = {
        model: MODEL,
        messages: [{ role: 'user' as const, content: 'Paris facts' }],
        response_format: { type: 'json_schema', json_schema: { schema } } as unknown as OpenAI.ResponseFormatJSONSchema,
      };
      return stream
        ? client(session)
            .chat.completions.stream({ ...body, stream: true })
            .finalChatCompletion()
        : client(session).chat.completions.create(body);
    };

    test(`structured output with json_schema and no name ${tags.plus}`, async () => {
      const session = await mock.session(`pplx-structured-${mode}`);
      session.scenario('facts').repliesJson({ city: 'Paris', population: 2102650 });
      const completion = await ask(session, CITY_SCHEMA);
      assert.deepEqual(JSON.parse(completion.choices[0].message.content ?? ''), { city: 'Paris', population: 2102650 });
      const [entry] = (await session.journal()).entries;
      const output = entry.request?.output;
      assert.ok(output?.type === 'json_schema');
      assert.deepEqual(output.schema, CITY_SCHEMA);
      assert.equal('name' in output, false, 'no name invented');
      assert.equal(entry.stream, stream);
    });

    test(`structured output failing the schema gets 409 and is not consumed ${tags.minus}`, async () => {
      const session = await mock.session(`pplx-structured-mismatch-${mode}`);
      session.scenario('short').repliesJson({ city: 'Paris' });
      const error = await rejection(ask(session, CITY_SCHEMA));
      assert.ok(error instanceof OpenAI.ConflictError);
      assertPerplexityError(error, 409, 'understudy_error', /population/);
      const completion = await ask(session, { ...CITY_SCHEMA, required: ['city'] });
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
  }

  test('a scripted reasoning opens the content as a <think> section, structured output too [perplexity-chat.reasoning.json +]', async () => {
    const session = await mock.session('pplx-think');
    session.scenario('reasoned').repliesJson({ city: 'Paris', population: 2102650 }, { reasoning: 'Look up the census.' });
    const completion = await client(session).chat.completions.create({
      model: 'sonar-reasoning-pro',
      messages: [{ role: 'user', content: 'Paris facts' }],
      response_format: { type: 'json_schema', json_schema: { schema: CITY_SCHEMA } } as unknown as OpenAI.ResponseFormatJSONSchema,
    });
    const content = completion.choices[0].message.content ?? '';
    assert.ok(content.startsWith('<think>Look up the census.</think>'), content);
    assert.deepEqual(JSON.parse(content.slice(content.indexOf('</think>') + 8)), { city: 'Paris', population: 2102650 });
    const [entry] = (await session.journal()).entries;
    assert.equal(entry.reply?.content, JSON.stringify({ city: 'Paris', population: 2102650 }), 'the contract checked the JSON alone');
  });

  test('regex and json_object formats are refused with Perplexity’s 400', async () => {
    const session = await mock.session('pplx-formats');
    for (const format of [{ type: 'regex', regex: { regex: '^\\d+$' } }, { type: 'json_object' }]) {
      const error = await rejection(
        client(session).chat.completions.create({
          model: MODEL,
          messages: [{ role: 'user', content: 'A number, as json' }],
          response_format: format as unknown as OpenAI.ResponseFormatJSONObject,
        }),
      );
      assertPerplexityError(error, 400, 'invalid_parameter', new RegExp(format.type));
    }
  });

  for (const stream of [false, true]) {
    const mode = stream ? 'stream' : 'json';
    test(`function tools are refused with Perplexity’s 400 before any script is read (${mode})`, async () => {
      const session = await mock.session(`pplx-tools-${mode}`);
      session.scenario('plain').replies('Plain text.');
      const openai = client(session);
      const ask = (body: ChatCompletionCreateParamsNonStreaming) =>
        stream ? openai.chat.completions.stream({ ...body, stream: true }).finalChatCompletion() : openai.chat.completions.create(body);
      const messages = [{ role: 'user' as const, content: 'Weather?' }];
      const tools = [{ type: 'function' as const, function: { name: 'weather', parameters: { type: 'object', properties: {} } } }];
      const error = await rejection(ask({ model: MODEL, messages, tools }));
      assert.ok(error instanceof OpenAI.BadRequestError);
      assertPerplexityError(error, 400, 'invalid_parameter', /Tool calling is not supported/);
      const refusedChoice = await rejection(ask({ model: MODEL, messages, tool_choice: 'none' }));
      assertPerplexityError(refusedChoice, 400, 'invalid_parameter', /Tool calling is not supported/);
      // Nothing was consumed: asked without tools, the script answers.
      const completion = await ask({ model: MODEL, messages });
      assert.equal(completion.choices[0].message.content, 'Plain text.');
      const { entries, counters } = await session.journal();
      assert.deepEqual(
        entries.map((e) => [e.route, e.status, e.stream, e.step]),
        [
          [ROUTE, 400, stream, undefined],
          [ROUTE, 400, stream, undefined],
          [ROUTE, 200, stream, 'step-1'],
        ],
      );
      assert.equal(entries[0].error?.message, 'Tool calling is not supported for this model.');
      assert.equal(counters.invalid, 2);
    });
  }
});

describe('Vercel AI SDK OpenAI-compatible provider against Perplexity', () => {
  function model(session: UnderstudySession) {
    return createOpenAICompatible({ name: 'perplexity', baseURL: mock.url('perplexity'), apiKey: session.apiKey }).chatModel(MODEL);
  }

  test('streamText gets the scripted text; Perplexity members pass as provider options', async () => {
    const session = await mock.session('pplx-aisdk');
    session.scenario('plain').replies('Paris is the capital of France.').withHostFields({ citations: CITATIONS });
    const result = streamText({
      model: model(session),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(10_000),
      prompt: 'The capital of France?',
      providerOptions: { perplexity: { search_mode: 'web', search_recency_filter: 'week' } },
    });
    assert.equal(await result.text, 'Paris is the capital of France.');
    assert.equal(await result.finishReason, 'stop');
    const [entry] = (await session.journal()).entries;
    assert.deepEqual([entry.route, entry.status, entry.stream], [ROUTE, 200, true]);
    // The provider options reach the wire: a malformed one is Perplexity's 400.
    const refused = await generateText({
      model: model(session),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(10_000),
      prompt: 'Again?',
      providerOptions: { perplexity: { search_recency_filter: 'decade' } },
    }).catch((e: unknown) => e);
    assert.ok(APICallError.isInstance(refused), `got ${String(refused)}`);
    assert.equal(refused.statusCode, 400);
    assert.match(refused.responseBody ?? '', /"type":"invalid_parameter"/);
  });

  test('generateText with tools gets Perplexity’s 400 as APICallError, and runs nothing', async () => {
    const session = await mock.session('pplx-aisdk-tools');
    const ran: unknown[] = [];
    const error = await generateText({
      model: model(session),
      tools: typedWeatherTool('string', ran),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(10_000),
      prompt: 'Weather?',
    }).catch((e: unknown) => e);
    assert.ok(APICallError.isInstance(error), `got ${String(error)}`);
    assert.equal(error.statusCode, 400);
    const body = JSON.parse(error.responseBody ?? '{}') as { error: { type: string; code: number; message: string } };
    assert.deepEqual(
      [body.error.type, body.error.code, body.error.message],
      ['invalid_parameter', 400, 'Tool calling is not supported for this model.'],
    );
    assert.deepEqual(ran, []);
  });
});

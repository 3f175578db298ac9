// The cases every Azure and Foundry operation is held to, through the client its users point at
// it (`AzureOpenAI` on deployment routes, the `openai` client on v1 and inference routes): plain,
// streamed, a tool round, structured output, a contract failure (409, nothing consumed), a
// malformed request (400) and a scripted error, each asserting what the SDK returned and what the
// journal recorded. The test files pass each case's capability tags (docs/capabilities.md) as
// literal strings, so that test/capabilities.test.ts finds them in their source.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import OpenAI from 'openai';
import type { ChatCompletionFunctionTool, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { JournalSnapshot, UnderstudySession } from '../../src/client/index.js';

export const CLIENT_TIMEOUT_MS = 10_000;

/** What a call that must fail threw (the test fails if it resolves). */
export async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => assert.fail('expected the call to fail'),
    (error: unknown) => error,
  );
}

/** A Chat Completions route of the family, and how its users reach it. */
export interface ChatHost {
  operation: string;
  /** The journal's route of a request (method and path, no query). */
  route: string;
  /** The model the client sends. */
  model: string;
  /** The request's model as decoded (a deployment route's is its deployment). */
  decodedModel: string;
  client(session: UnderstudySession): OpenAI;
}

/** A Responses route of the family. */
export interface ResponsesHost {
  operation: string;
  route: string;
  model: string;
  client(session: UnderstudySession): OpenAI;
}

/** The positive and the negative test name tag of a capability row, e.g. `['[x.text.json +]', '[x.text.json -]']`. */
export type Tags = readonly [plus: string, minus: string];

export function weatherTool(cityType: 'string' | 'number'): ChatCompletionFunctionTool {
  return {
    type: 'function',
    function: {
      name: 'weather',
      description: 'Current weather for a city',
      parameters: { type: 'object', properties: { city: { type: cityType } }, required: ['city'], additionalProperties: false },
    },
  };
}

const user = (content: string): ChatCompletionMessageParam => ({ role: 'user', content });

const PERSON = {
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'integer' } },
  required: ['name', 'age'],
  additionalProperties: false,
};

/** Azure's filter results, as every answer of the family carries them. */
export function assertFilterResults(answer: unknown): void {
  const body = answer as {
    prompt_filter_results?: { prompt_index: number; content_filter_results: Record<string, unknown> }[];
    choices: { content_filter_results?: Record<string, unknown> }[];
  };
  assert.deepEqual(body.prompt_filter_results?.[0]?.content_filter_results.jailbreak, { filtered: false, detected: false });
  assert.deepEqual(body.prompt_filter_results?.[0]?.content_filter_results.hate, { filtered: false, severity: 'safe' });
  assert.deepEqual(body.choices[0]?.content_filter_results?.violence, { filtered: false, severity: 'safe' });
  assert.deepEqual(body.choices[0]?.content_filter_results?.protected_material_text, { filtered: false, detected: false });
}

function statuses(journal: JournalSnapshot): [number, string, string][] {
  return journal.entries.map((e) => [e.status, e.route, e.operation]);
}

export interface ChatTags {
  text: Tags;
  stream: Tags;
  tools: Tags;
  toolsStream: Tags;
  structured: Tags;
  validation: Tags;
}

/** The Chat Completions cases over one host (named `label`), each test named with its tags. */
export function chatCases(label: string, host: ChatHost, session: () => Promise<UnderstudySession>, tags: ChatTags): void {
  const post = `POST ${host.route}`;

  test(`${label}: a plain answer with Azure's filter results ${tags.text[0]}`, async () => {
    const s = await session();
    s.scenario('hello').whenLatestUser('Hello').replies('Hello from Azure.');
    const answer = await host.client(s).chat.completions.create({ model: host.model, messages: [user('Hello')] });
    assert.equal(answer.choices[0]?.message.content, 'Hello from Azure.');
    assert.equal(answer.choices[0]?.finish_reason, 'stop');
    assert.equal(answer.model, host.decodedModel);
    assertFilterResults(answer);
    const journal = await s.journal();
    assert.deepEqual(statuses(journal), [[200, post, host.operation]]);
    assert.equal(journal.entries[0]?.request?.model, host.decodedModel);
    assert.equal(journal.entries[0]?.request?.stream, false);
    await s.verify();
  });

  test(`${label}: a scripted error is the client's own error class ${tags.text[1]}`, async () => {
    const s = await session();
    s.scenario('busy').fails(429, 'Requests to this deployment are throttled', { code: 'rate_limit_exceeded' });
    const error = await caught(host.client(s).chat.completions.create({ model: host.model, messages: [user('Hello')] }));
    assert.ok(error instanceof OpenAI.RateLimitError, `got ${String(error)}`);
    assert.equal(error.status, 429);
    assert.equal(error.code, 'rate_limit_exceeded');
    assert.match(error.message, /throttled/);
    const journal = await s.journal();
    assert.deepEqual(statuses(journal), [[429, post, host.operation]]);
    assert.equal(journal.entries[0]?.error?.code, 'rate_limit_exceeded');
  });

  test(`${label}: a streamed answer ${tags.stream[0]}`, async () => {
    const s = await session();
    s.scenario('hello').replies('Streamed from Azure.', { chunks: ['Streamed ', 'from ', 'Azure.'] });
    const stream = await host.client(s).chat.completions.create({
      model: host.model,
      messages: [user('Hello')],
      stream: true,
      stream_options: { include_usage: true },
    });
    const deltas: string[] = [];
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta?.content;
      if (delta) deltas.push(delta);
      usage = chunk.usage ?? usage;
    }
    assert.deepEqual(deltas, ['Streamed ', 'from ', 'Azure.']);
    assert.ok(usage && usage.completion_tokens > 0);
    const journal = await s.journal();
    assert.deepEqual(statuses(journal), [[200, post, host.operation]]);
    assert.equal(journal.entries[0]?.stream, true);
    assert.equal(journal.entries[0]?.request?.streamUsage, true);
  });

  test(`${label}: a scripted error before the stream is the client's own error class ${tags.stream[1]}`, async () => {
    const s = await session();
    s.scenario('down').fails(500, 'The server had an error while processing your request');
    const error = await caught(
      (async () => {
        const stream = await host.client(s).chat.completions.create({ model: host.model, messages: [user('Hello')], stream: true });
        for await (const chunk of stream) void chunk;
      })(),
    );
    assert.ok(error instanceof OpenAI.InternalServerError, `got ${String(error)}`);
    const journal = await s.journal();
    assert.deepEqual(statuses(journal), [[500, post, host.operation]]);
    assert.equal(journal.entries[0]?.stream, true);
  });

  const roundScript = (s: UnderstudySession) =>
    s
      .scenario('weather')
      .whenLatestUser('Weather in Paris?')
      .callsTool('weather', { city: 'Paris' }, 'call_paris')
      .thenWhenToolResult('weather', 'call_paris')
      .replies('Paris is sunny.');
  const afterCall = (args: string): ChatCompletionMessageParam[] => [
    user('Weather in Paris?'),
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_paris', type: 'function', function: { name: 'weather', arguments: args } }],
    },
    { role: 'tool', tool_call_id: 'call_paris', content: 'sunny, 21 °C' },
  ];

  test(`${label}: a tool round ${tags.tools[0]}`, async () => {
    const s = await session();
    roundScript(s);
    const client = host.client(s);
    const first = await client.chat.completions.create({
      model: host.model,
      messages: [user('Weather in Paris?')],
      tools: [weatherTool('string')],
    });
    const call = first.choices[0]?.message.tool_calls?.[0];
    assert.equal(first.choices[0]?.finish_reason, 'tool_calls');
    assert.ok(call?.type === 'function');
    assert.deepEqual([call.id, call.function.name, JSON.parse(call.function.arguments)], ['call_paris', 'weather', { city: 'Paris' }]);
    const second = await client.chat.completions.create({
      model: host.model,
      messages: afterCall(call.function.arguments),
      tools: [weatherTool('string')],
    });
    assert.equal(second.choices[0]?.message.content, 'Paris is sunny.');
    const journal = await s.journal();
    assert.deepEqual(statuses(journal), [
      [200, post, host.operation],
      [200, post, host.operation],
    ]);
    const result = journal.entries[1]?.request?.messages.at(-1)?.parts[0];
    assert.deepEqual(result && result.type === 'tool_result' && [result.callId, result.name], ['call_paris', 'weather']);
    await s.verify();
  });

  test(`${label}: a call whose arguments fail the tool's schema is 409, and nothing is consumed ${tags.tools[1]}`, async () => {
    const s = await session();
    s.scenario('zip').callsTool('weather', { city: 75001 }, 'call_zip');
    const client = host.client(s);
    const ask = (cityType: 'string' | 'number') =>
      client.chat.completions.create({ model: host.model, messages: [user('Weather?')], tools: [weatherTool(cityType)] });
    const error = await caught(ask('string'));
    assert.ok(error instanceof OpenAI.ConflictError, `got ${String(error)}`);
    assert.equal(error.code, 'fixture_mismatch');
    const answered = await ask('number');
    assert.equal(answered.choices[0]?.message.tool_calls?.[0]?.id, 'call_zip');
    const journal = await s.journal();
    assert.deepEqual(
      journal.entries.map((e) => [e.status, e.error?.code]),
      [
        [409, 'fixture_mismatch'],
        [200, undefined],
      ],
    );
    assert.deepEqual([journal.counters.mismatched, journal.counters.matched], [1, 1]);
  });

  test(`${label}: a streamed tool round through the SDK's stream helper ${tags.toolsStream[0]}`, async () => {
    const s = await session();
    roundScript(s);
    const client = host.client(s);
    const stream = client.chat.completions.stream({
      model: host.model,
      messages: [user('Weather in Paris?')],
      tools: [weatherTool('string')],
      stream: true,
    });
    const first = await stream.finalChatCompletion();
    const call = first.choices[0]?.message.tool_calls?.[0];
    assert.ok(call?.type === 'function');
    assert.deepEqual([call.id, call.function.name, JSON.parse(call.function.arguments)], ['call_paris', 'weather', { city: 'Paris' }]);
    const second = await client.chat.completions
      .stream({ model: host.model, messages: afterCall(call.function.arguments), tools: [weatherTool('string')], stream: true })
      .finalChatCompletion();
    assert.equal(second.choices[0]?.message.content, 'Paris is sunny.');
    const journal = await s.journal();
    assert.deepEqual(
      journal.entries.map((e) => [e.status, e.stream, e.operation]),
      [
        [200, true, host.operation],
        [200, true, host.operation],
      ],
    );
    await s.verify();
  });

  test(`${label}: a streamed call whose arguments fail the tool's schema is 409, and nothing is consumed ${tags.toolsStream[1]}`, async () => {
    const s = await session();
    s.scenario('zip').callsTool('weather', { city: 75001 }, 'call_zip');
    const client = host.client(s);
    const ask = (cityType: 'string' | 'number') =>
      client.chat.completions
        .stream({ model: host.model, messages: [user('Weather?')], tools: [weatherTool(cityType)], stream: true })
        .finalChatCompletion();
    const error = await caught(ask('string'));
    assert.ok(error instanceof OpenAI.ConflictError, `got ${String(error)}`);
    const answered = await ask('number');
    assert.equal(answered.choices[0]?.message.tool_calls?.[0]?.id, 'call_zip');
    const journal = await s.journal();
    assert.deepEqual(
      journal.entries.map((e) => [e.status, e.stream, e.error?.code]),
      [
        [409, true, 'fixture_mismatch'],
        [200, true, undefined],
      ],
    );
  });

  const format = (schema: Record<string, unknown>) => ({
    type: 'json_schema' as const,
    json_schema: { name: 'person', schema, strict: true },
  });

  test(`${label}: structured output ${tags.structured[0]}`, async () => {
    const s = await session();
    s.scenario('person').repliesJson({ name: 'Ada', age: 36 });
    const answer = await host.client(s).chat.completions.create({
      model: host.model,
      messages: [user('Who?')],
      response_format: format(PERSON),
    });
    assert.deepEqual(JSON.parse(answer.choices[0]?.message.content ?? ''), { name: 'Ada', age: 36 });
    const output = (await s.journal()).entries[0]?.request?.output;
    assert.deepEqual(output && output.type === 'json_schema' && [output.name, output.strict], ['person', true]);
  });

  test(`${label}: JSON that fails the requested schema is 409, and nothing is consumed ${tags.structured[1]}`, async () => {
    const s = await session();
    s.scenario('person').repliesJson({ name: 'Ada' });
    const client = host.client(s);
    const error = await caught(
      client.chat.completions.create({ model: host.model, messages: [user('Who?')], response_format: format(PERSON) }),
    );
    assert.ok(error instanceof OpenAI.ConflictError, `got ${String(error)}`);
    assert.equal(error.code, 'fixture_mismatch');
    const nameOnly = { ...PERSON, properties: { name: { type: 'string' } }, required: ['name'] };
    const answer = await client.chat.completions.create({ model: host.model, messages: [user('Who?')], response_format: format(nameOnly) });
    assert.deepEqual(JSON.parse(answer.choices[0]?.message.content ?? ''), { name: 'Ada' });
    assert.deepEqual(
      (await s.journal()).entries.map((e) => e.status),
      [409, 200],
    );
  });

  test(`${label}: documented request fields are accepted ${tags.validation[0]}`, async () => {
    const s = await session();
    s.scenario('hello').replies('Fine.');
    const answer = await host.client(s).chat.completions.create({
      model: host.model,
      messages: [{ role: 'system', content: 'Be brief.' }, user('Hello')],
      temperature: 0.2,
      top_p: 0.9,
      max_tokens: 50,
      seed: 7,
      stop: ['\n\n'],
      user: 'tester',
    });
    assert.equal(answer.choices[0]?.message.content, 'Fine.');
    assert.equal((await s.journal()).entries[0]?.request?.maxOutputTokens, 50);
  });

  test(`${label}: a malformed field is the model's 400 in OpenAI's shape, before anything is selected ${tags.validation[1]}`, async () => {
    const s = await session();
    s.scenario('hello').replies('Fine.');
    const client = host.client(s);
    const error = await caught(
      client.chat.completions.create({ model: host.model, messages: [user('Hello')], temperature: 'hot' as unknown as number }),
    );
    assert.ok(error instanceof OpenAI.BadRequestError, `got ${String(error)}`);
    assert.equal(error.type, 'invalid_request_error');
    assert.equal(error.param, 'temperature');
    const journal = await s.journal();
    assert.deepEqual(statuses(journal), [[400, post, host.operation]]);
    assert.equal(journal.counters.invalid, 1);
    // Nothing was consumed: the script still answers.
    const answer = await client.chat.completions.create({ model: host.model, messages: [user('Hello')] });
    assert.equal(answer.choices[0]?.message.content, 'Fine.');
  });
}

export interface ResponsesTags {
  text: Tags;
  stream: Tags;
  tools: Tags;
}

/** The Responses cases over one host. */
export function responsesCases(label: string, host: ResponsesHost, session: () => Promise<UnderstudySession>, tags: ResponsesTags): void {
  const post = `POST ${host.route}`;
  const weather = {
    type: 'function' as const,
    name: 'weather',
    description: 'Current weather for a city',
    parameters: weatherTool('string').function.parameters ?? {},
    strict: true,
  };

  test(`${label}: a plain answer ${tags.text[0]}`, async () => {
    const s = await session();
    s.scenario('hello').replies('Hello from Azure.');
    const response = await host.client(s).responses.create({ model: host.model, input: 'Hello' });
    assert.equal(response.output_text, 'Hello from Azure.');
    assert.equal(response.status, 'completed');
    const journal = await s.journal();
    assert.deepEqual(statuses(journal), [[200, post, host.operation]]);
    assert.equal(journal.entries[0]?.request?.model, host.model);
  });

  test(`${label}: a malformed field is the model's 400 ${tags.text[1]}`, async () => {
    const s = await session();
    s.scenario('hello').replies('Hello from Azure.');
    const error = await caught(
      host.client(s).responses.create({ model: host.model, input: 'Hello', temperature: 'hot' as unknown as number }),
    );
    assert.ok(error instanceof OpenAI.BadRequestError, `got ${String(error)}`);
    assert.equal(error.type, 'invalid_request_error');
    assert.deepEqual(statuses(await s.journal()), [[400, post, host.operation]]);
  });

  test(`${label}: a streamed answer ${tags.stream[0]}`, async () => {
    const s = await session();
    s.scenario('hello').replies('Streamed from Azure.', { chunks: ['Streamed ', 'from ', 'Azure.'] });
    const stream = host.client(s).responses.stream({ model: host.model, input: 'Hello' });
    const deltas: string[] = [];
    for await (const event of stream) if (event.type === 'response.output_text.delta') deltas.push(event.delta);
    assert.deepEqual(deltas, ['Streamed ', 'from ', 'Azure.']);
    assert.equal((await stream.finalResponse()).output_text, 'Streamed from Azure.');
    const journal = await s.journal();
    assert.deepEqual(statuses(journal), [[200, post, host.operation]]);
    assert.equal(journal.entries[0]?.stream, true);
  });

  test(`${label}: a scripted error before the stream is the client's own error class ${tags.stream[1]}`, async () => {
    const s = await session();
    s.scenario('busy').fails(429, 'Requests to this deployment are throttled', { code: 'rate_limit_exceeded' });
    const error = await caught(
      (async () => {
        for await (const event of host.client(s).responses.stream({ model: host.model, input: 'Hello' })) void event;
      })(),
    );
    assert.ok(error instanceof OpenAI.RateLimitError, `got ${String(error)}`);
    assert.deepEqual(statuses(await s.journal()), [[429, post, host.operation]]);
  });

  test(`${label}: a tool round ${tags.tools[0]}`, async () => {
    const s = await session();
    s.scenario('weather')
      .callsTool('weather', { city: 'Paris' }, 'call_paris')
      .thenWhenToolResult('weather', 'call_paris')
      .replies('Paris is sunny.');
    const client = host.client(s);
    const first = await client.responses.create({ model: host.model, input: 'Weather in Paris?', tools: [weather] });
    const call = first.output.find((item) => item.type === 'function_call');
    assert.ok(call && call.type === 'function_call');
    assert.deepEqual([call.call_id, call.name, JSON.parse(call.arguments)], ['call_paris', 'weather', { city: 'Paris' }]);
    const second = await client.responses.create({
      model: host.model,
      input: [
        { role: 'user', content: 'Weather in Paris?' },
        { type: 'function_call', call_id: 'call_paris', name: 'weather', arguments: call.arguments },
        { type: 'function_call_output', call_id: 'call_paris', output: 'sunny' },
      ],
      tools: [weather],
    });
    assert.equal(second.output_text, 'Paris is sunny.');
    assert.deepEqual(
      (await s.journal()).entries.map((e) => [e.status, e.operation]),
      [
        [200, host.operation],
        [200, host.operation],
      ],
    );
    await s.verify();
  });

  test(`${label}: a call whose arguments fail the tool's schema is 409, and nothing is consumed ${tags.tools[1]}`, async () => {
    const s = await session();
    s.scenario('zip').callsTool('weather', { city: 75001 }, 'call_zip');
    const client = host.client(s);
    const error = await caught(client.responses.create({ model: host.model, input: 'Weather?', tools: [weather] }));
    assert.ok(error instanceof OpenAI.ConflictError, `got ${String(error)}`);
    assert.equal(error.code, 'fixture_mismatch');
    const numeric = { ...weather, parameters: weatherTool('number').function.parameters ?? {} };
    const answered = await client.responses.create({ model: host.model, input: 'Weather?', tools: [numeric] });
    assert.ok(answered.output.some((item) => item.type === 'function_call' && item.call_id === 'call_zip'));
    assert.deepEqual(
      (await s.journal()).entries.map((e) => [e.status, e.error?.code]),
      [
        [409, 'fixture_mismatch'],
        [200, undefined],
      ],
    );
  });
}

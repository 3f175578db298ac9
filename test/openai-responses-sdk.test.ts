// The OpenAI Responses dialect, judged by the real SDKs: the pinned `openai` client
// (`responses.create`, `responses.stream(...).finalResponse()`, `responses.parse`) and the Vercel AI
// SDK's default `openai(model)` provider talk to an in-process Understudy over real HTTP. Every test
// asserts what the SDK returned and what Understudy recorded in its journal.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import OpenAI from 'openai';
import { zodTextFormat } from 'openai/helpers/zod';
import type {
  FunctionTool,
  Response,
  ResponseCreateParamsNonStreaming,
  ResponseFunctionToolCall,
  ResponseInputItem,
  ResponseStreamEvent,
} from 'openai/resources/responses/responses';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';

import { startUnderstudy, VerificationError } from '../src/index.js';
import type { Understudy, UnderstudySession } from '../src/index.js';
import { expectGenerateTextRefusedThenAnswered, expectStreamTextRefused, scriptZipCodeCall, typedWeatherTool } from './support/aisdk.js';
import { OPENAI_THROWS_STREAM_ERROR_EVENTS } from './support/sdk-versions.js';

// ------------------------------------------------------------------ helpers

let mock: Understudy;

before(async () => {
  mock = await startUnderstudy();
});

after(async () => {
  await mock.close();
});

const MODEL = 'gpt-4.1-mini';
const ZERO_CONFIG_TEXT = 'This is a scripted answer from Understudy.';

function sdk(session: UnderstudySession, baseURL = mock.url('openai')): OpenAI {
  return new OpenAI({ baseURL, apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
}

async function open(name: string, options?: Parameters<Understudy['session']>[1]): Promise<{ session: UnderstudySession; client: OpenAI }> {
  const session = await mock.session(name, options);
  return { session, client: sdk(session) };
}

const weatherTool: FunctionTool = {
  type: 'function',
  name: 'weather',
  description: 'Current weather for a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
    required: ['city', 'unit'],
    additionalProperties: false,
  },
  strict: true,
};

const timeTool: FunctionTool = {
  type: 'function',
  name: 'time',
  description: 'Local time in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  strict: true,
};

type Params = Omit<ResponseCreateParamsNonStreaming, 'stream'>;

function ask(input: ResponseCreateParamsNonStreaming['input'], extra: Partial<Params> = {}): Params {
  return { model: MODEL, input, ...extra };
}

type Conflict = InstanceType<typeof OpenAI.ConflictError>;

/** Awaits a request that must fail with 409 and the given Understudy code. */
async function conflict(request: PromiseLike<unknown>, code: string, ...mentions: string[]): Promise<Conflict> {
  let caught: unknown;
  try {
    await request;
  } catch (error) {
    caught = error;
  }
  assert.ok(caught !== undefined, `expected a 409 ${code}, but the request succeeded`);
  assert.ok(caught instanceof OpenAI.ConflictError, `expected OpenAI.ConflictError, got ${String(caught)}`);
  assert.equal(caught.status, 409);
  assert.equal(caught.code, code, caught.message);
  assert.equal(caught.type, 'understudy_error');
  for (const text of mentions) {
    assert.ok(caught.message.includes(text), `expected the message to mention ${JSON.stringify(text)}:\n${caught.message}`);
  }
  return caught;
}

async function collect(stream: AsyncIterable<ResponseStreamEvent>): Promise<ResponseStreamEvent[]> {
  const events: ResponseStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** sequence_number starts at 0 and rises by one across the whole stream. */
function assertSequence(events: { sequence_number: number }[]): void {
  assert.deepEqual(
    events.map((e) => e.sequence_number),
    events.map((_, i) => i),
    'sequence_number rises by one from 0',
  );
}

/** `store` is on the wire but not on this SDK version's Response type. */
function storeOf(response: Response): unknown {
  return (response as unknown as { store?: unknown }).store;
}

function functionCalls(response: Response): ResponseFunctionToolCall[] {
  return response.output.filter((item): item is ResponseFunctionToolCall => item.type === 'function_call');
}

/** The function_call items of a response as input items for the next request. */
function echoCalls(response: Response): ResponseInputItem[] {
  return functionCalls(response).map((c) => ({ type: 'function_call', call_id: c.call_id, name: c.name, arguments: c.arguments }));
}

const TEXT_EVENTS = (deltas: number) => [
  'response.created',
  'response.in_progress',
  'response.output_item.added',
  'response.content_part.added',
  ...Array<string>(deltas).fill('response.output_text.delta'),
  'response.output_text.done',
  'response.content_part.done',
  'response.output_item.done',
  'response.completed',
];

// ------------------------------------------------------------------ 1. plain text

test('plain text: response object, message item, usage, echoed fields and deterministic ids [openai-responses.text.json +]', async () => {
  const make = async (name: string, seed: string) => {
    const opened = await open(name, { seed, clock: 1_700_000_000 });
    opened.session.scenario('greeting').whenLatestUser({ contains: 'Hello' }).replies('Hi! How can I help?');
    return opened;
  };
  const a = await make('text-a', 'same-seed');
  const b = await make('text-b', 'same-seed');
  const params = ask('Hello there', { instructions: 'be brief' });
  const [ra, rb] = await Promise.all([a.client.responses.create(params), b.client.responses.create(params)]);

  assert.equal(ra.output_text, 'Hi! How can I help?');
  assert.equal(ra.object, 'response');
  assert.equal(ra.status, 'completed');
  assert.equal(ra.model, MODEL);
  assert.equal(ra.created_at, 1_700_000_000, 'created_at comes from the session clock');
  assert.match(ra.id, /^resp_[A-Za-z0-9]+$/);
  assert.equal(ra.output.length, 1);
  const message = ra.output[0];
  assert.ok(message.type === 'message');
  assert.match(message.id, /^msg_/);
  assert.equal(message.role, 'assistant');
  assert.equal(message.status, 'completed');
  assert.deepEqual(message.content, [{ type: 'output_text', text: 'Hi! How can I help?', annotations: [], logprobs: [] }]);
  assert.equal(ra.instructions, 'be brief');
  assert.equal(storeOf(ra), true);
  assert.equal(ra.previous_response_id, null);
  assert.equal(ra.error, null);
  assert.deepEqual(ra.tools, []);
  assert.equal(ra.tool_choice, 'auto');
  assert.deepEqual(ra.text?.format, { type: 'text' });
  assert.ok(ra.usage && ra.usage.input_tokens > 0 && ra.usage.output_tokens > 0);
  assert.equal(ra.usage.total_tokens, ra.usage.input_tokens + ra.usage.output_tokens);
  assert.equal(ra.usage.output_tokens_details.reasoning_tokens, 0);

  // Same seed, same request: the same bytes.
  assert.equal(ra.id, rb.id);
  assert.deepEqual(JSON.parse(JSON.stringify(ra)), JSON.parse(JSON.stringify(rb)));

  const { entries, counters } = await a.session.journal();
  assert.equal(entries.length, 1);
  const [entry] = entries;
  assert.equal(entry.operation, 'openai.responses');
  assert.equal(entry.route, 'POST /v1/responses');
  assert.equal(entry.status, 200);
  assert.equal(entry.stream, false);
  assert.equal(entry.step, 'step-1');
  assert.equal(entry.requestId, ra._request_id);
  assert.equal(entry.reply?.content, 'Hi! How can I help?');
  assert.deepEqual(
    entry.request?.messages.map((m) => [m.role, m.parts]),
    [
      ['system', [{ type: 'text', text: 'be brief' }]],
      ['user', [{ type: 'text', text: 'Hello there' }]],
    ],
    'instructions become a system message before the input',
  );
  assert.equal(entry.usage?.inputTokens, ra.usage.input_tokens);
  assert.equal(entry.usage?.outputTokens, ra.usage.output_tokens);
  assert.deepEqual([counters.requests, counters.matched], [1, 1]);
  await a.session.verify();

  // The Azure-style "v1" base URL reaches the same dialect.
  const c = await open('text-openai-v1');
  c.session.scenario('one').replies('via /openai/v1');
  const viaAzure = await sdk(c.session, `${mock.baseUrl}/openai/v1`).responses.create(ask('Hi'));
  assert.equal(viaAzure.output_text, 'via /openai/v1');
  assert.equal((await c.session.journal()).entries[0].route, 'POST /openai/v1/responses');
});

test('reasoning and a length stop: reasoning item first, status incomplete with its reason [openai-responses.text.json +] [openai-responses.text.stream +]', async () => {
  const { session, client } = await open('text-reasoning');
  const reply = {
    text: 'The answer is',
    reasoning: 'The user wants a short answer.',
    finishReason: 'length' as const,
    reasoningTokens: 12,
  };
  await session.load({ name: 'cut', replies: [reply, reply] });

  const json = await client.responses.create(ask('Answer?', { max_output_tokens: 16 }));
  assert.equal(json.status, 'incomplete');
  assert.deepEqual(json.incomplete_details, { reason: 'max_output_tokens' });
  assert.deepEqual(
    json.output.map((item) => item.type),
    ['reasoning', 'message'],
  );
  const reasoning = json.output[0];
  assert.ok(reasoning.type === 'reasoning');
  assert.match(reasoning.id, /^rs_/);
  assert.deepEqual(reasoning.summary, [{ type: 'summary_text', text: 'The user wants a short answer.' }]);
  assert.equal(json.output_text, 'The answer is');
  assert.equal(json.max_output_tokens, 16);
  assert.equal(json.usage?.output_tokens_details.reasoning_tokens, 12);
  assert.ok((json.usage?.output_tokens ?? 0) > 12, 'output tokens include the reasoning tokens');

  const events = await collect(await client.responses.create({ ...ask('Answer?'), stream: true }));
  assertSequence(events);
  assert.deepEqual(
    events.map((e) => e.type),
    [
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.incomplete',
    ],
  );
  const last = events[events.length - 1];
  assert.ok(last.type === 'response.incomplete');
  assert.equal(last.response.status, 'incomplete');
  assert.deepEqual(
    last.response.output.map((item) => item.type),
    ['reasoning', 'message'],
  );
  await session.verify();
});

test('text that cannot be sent: 409 under tool_choice required, a near miss, nothing consumed [openai-responses.text.json -]', async () => {
  const { session, client } = await open('text-negative');
  session.scenario('greeting').whenLatestUser({ contains: 'Hello' }).replies('Hi!');

  await conflict(
    client.responses.create(ask('Hello', { tools: [weatherTool], tool_choice: 'required' })),
    'fixture_mismatch',
    'scenario "greeting" step "step-1"',
    'requires a tool call',
  );
  await conflict(client.responses.create(ask('Goodbye')), 'no_match', 'greeting');

  const ok = await client.responses.create(ask('Hello'));
  assert.equal(ok.output_text, 'Hi!');
  const { entries, counters } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.error?.code ?? null]),
    [
      [409, 'fixture_mismatch'],
      [409, 'no_match'],
      [200, null],
    ],
  );
  assert.deepEqual([counters.mismatched, counters.unmatched, counters.matched], [1, 1, 1]);
});

// ------------------------------------------------------------------ 2. streaming

test('streamed text: the stream helper and raw iteration, named events in order, sequence_number rising by one [openai-responses.text.stream +]', async () => {
  const { session, client } = await open('text-stream');
  const chunks = ['Once', ' upon', ' a time', '.'];
  await session.load({ name: 'story', replies: [0, 1, 2].map(() => ({ text: 'Once upon a time.', chunks })) });

  // The helper (its accumulator throws on events out of order).
  const helper = client.responses.stream(ask('Tell me a story'));
  const deltas: string[] = [];
  const sequence: number[] = [];
  helper.on('response.output_text.delta', (e) => deltas.push(e.delta));
  helper.on('event', (e) => sequence.push(e.sequence_number));
  const final = await helper.finalResponse();
  assert.deepEqual(deltas, chunks, 'the scripted chunks arrive as the text deltas');
  assert.equal(final.output_text, 'Once upon a time.');
  assert.equal(final.status, 'completed');
  assert.ok(final.usage && final.usage.output_tokens > 0);
  assert.deepEqual(
    sequence,
    sequence.map((_, i) => i),
  );

  // Raw iteration: the exact order.
  const events = await collect(await client.responses.create({ ...ask('Tell me a story'), stream: true }));
  assertSequence(events);
  assert.deepEqual(
    events.map((e) => e.type),
    TEXT_EVENTS(chunks.length),
  );
  const created = events[0];
  assert.ok(created.type === 'response.created');
  assert.equal(created.response.status, 'in_progress');
  assert.deepEqual(created.response.output, []);
  assert.equal(created.response.usage, null);
  const added = events[2];
  assert.ok(added.type === 'response.output_item.added' && added.item.type === 'message');
  const itemId = added.item.id;
  assert.ok(
    events
      .filter((e) => e.type === 'response.output_text.delta')
      .every((e) => e.type === 'response.output_text.delta' && e.item_id === itemId),
  );
  const completed = events[events.length - 1];
  assert.ok(completed.type === 'response.completed');
  assert.equal(completed.response.id, created.response.id);
  assert.equal(completed.response.status, 'completed');
  assert.ok(completed.response.usage && completed.response.usage.total_tokens > 0);

  // The bytes: every event has an `event:` line naming its type, and no [DONE] sentinel.
  const raw = await fetch(`${mock.url('openai')}/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: MODEL, input: 'Tell me a story', stream: true }),
  });
  assert.equal(raw.status, 200);
  assert.match(raw.headers.get('content-type') ?? '', /^text\/event-stream/);
  const body = await raw.text();
  assert.ok(!body.includes('[DONE]'));
  const blocks = body.trim().split('\n\n');
  assert.equal(blocks.length, TEXT_EVENTS(chunks.length).length);
  for (const block of blocks) {
    const [eventLine, dataLine] = block.split('\n');
    const data = JSON.parse(dataLine.slice('data: '.length)) as { type: string };
    assert.equal(eventLine, `event: ${data.type}`);
  }

  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream, e.step]),
    [
      [200, true, 'step-1'],
      [200, true, 'step-2'],
      [200, true, 'step-3'],
    ],
  );
  assert.deepEqual(entries[0].reply?.chunks, chunks);
  await session.verify();
});

test('streamed text that cannot be sent gets 409 before the stream starts; the step is still there [openai-responses.text.stream -]', async () => {
  const { session, client } = await open('text-stream-negative');
  await session.load({ name: 'chatty', replies: [{ text: 'Once upon a time.', chunks: ['Once', ' upon', ' a time.'] }] });
  // Chunks that do not spell the text are refused as the script is built.
  assert.throws(() => session.scenario('bad').replies('Once upon a time.').inChunks(['Once', ' upon', ' a tme.']), /chunks/);

  await conflict(
    client.responses.stream(ask('Tell me a story', { tools: [weatherTool], tool_choice: 'required' })).finalResponse(),
    'fixture_mismatch',
    'requires a tool call',
  );
  await conflict(
    client.responses.create({
      ...ask('Tell me a story', { tools: [weatherTool], tool_choice: { type: 'function', name: 'weather' } }),
      stream: true,
    }),
    'fixture_mismatch',
    'weather',
  );
  const events = await collect(await client.responses.create({ ...ask('Tell me a story', { tools: [weatherTool] }), stream: true }));
  assert.deepEqual(
    events.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : [])),
    ['Once', ' upon', ' a time.'],
  );
  const { entries, counters } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream, e.error?.code ?? null]),
    [
      [409, true, 'fixture_mismatch'],
      [409, true, 'fixture_mismatch'],
      [200, true, null],
    ],
  );
  assert.equal(counters.mismatched, 2);
});

// ------------------------------------------------------------------ 3. tool rounds

function scriptWeather(session: UnderstudySession, args: Record<string, string> = { city: 'Paris', unit: 'celsius' }) {
  session
    .scenario('weather')
    .whenLatestUser({ contains: 'weather in Paris' })
    .callsTool('weather', args, 'call_paris')
    .thenWhenToolResult('weather', 'call_paris')
    .replies('Paris is sunny, 21 °C.');
}

describe('tool rounds', () => {
  test('two-step tool round: function_call with distinct id and call_id, then the answer after function_call_output [openai-responses.tools.json +]', async () => {
    const { session, client } = await open('tools-json');
    scriptWeather(session);
    const question: ResponseInputItem = { role: 'user', content: [{ type: 'input_text', text: 'What is the weather in Paris?' }] };

    const first = await client.responses.create(ask([question], { tools: [weatherTool, timeTool] }));
    assert.equal(first.status, 'completed');
    assert.equal(first.output_text, '');
    const calls = functionCalls(first);
    assert.equal(calls.length, 1);
    const [call] = calls;
    assert.equal(call.call_id, 'call_paris');
    assert.match(call.id ?? '', /^fc_/);
    assert.notEqual(call.id, call.call_id, 'the item id and the call id are different things');
    assert.equal(call.name, 'weather');
    assert.equal(call.status, 'completed');
    assert.equal(typeof call.arguments, 'string');
    assert.deepEqual(JSON.parse(call.arguments), { city: 'Paris', unit: 'celsius' });
    assert.deepEqual(
      first.tools.map((t) => t.type === 'function' && t.name),
      ['weather', 'time'],
    );

    const second = await client.responses.create(
      ask([question, ...echoCalls(first), { type: 'function_call_output', call_id: call.call_id, output: '{"temp":21}' }], {
        tools: [weatherTool, timeTool],
      }),
    );
    assert.equal(second.output_text, 'Paris is sunny, 21 °C.');
    assert.equal(functionCalls(second).length, 0);
    assert.notEqual(second.id, first.id);

    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.script, e.step]),
      [
        [200, 'weather', 'step-1'],
        [200, 'weather', 'step-2'],
      ],
    );
    assert.deepEqual(entries[0].reply?.toolCalls, [
      { id: 'call_paris', name: 'weather', argumentsText: '{"city":"Paris","unit":"celsius"}' },
    ]);
    const messages = entries[1].request?.messages ?? [];
    assert.deepEqual(
      messages.map((m) => m.role),
      ['user', 'assistant', 'tool'],
    );
    assert.deepEqual(messages[2].parts[0], {
      type: 'tool_result',
      callId: 'call_paris',
      name: 'weather',
      content: '{"temp":21}',
      isError: false,
    });
    await session.verify();
  });

  test('two-step tool round streamed through the stream helper: argument fragments, then the answer [openai-responses.tools.stream +]', async () => {
    const { session, client } = await open('tools-stream');
    scriptWeather(session);
    const question = 'What is the weather in Paris, in celsius?';

    const firstStream = client.responses.stream(ask(question, { tools: [weatherTool] }));
    const fragments: string[] = [];
    const types: string[] = [];
    firstStream.on('response.function_call_arguments.delta', (e) => fragments.push(e.delta));
    firstStream.on('event', (e) => types.push(e.type));
    const first = await firstStream.finalResponse();
    const [call] = functionCalls(first);
    assert.equal(call.call_id, 'call_paris');
    assert.match(call.id ?? '', /^fc_/);
    assert.deepEqual(JSON.parse(call.arguments), { city: 'Paris', unit: 'celsius' });
    assert.ok(fragments.length > 1, `arguments should arrive in fragments, got ${JSON.stringify(fragments)}`);
    assert.equal(fragments.join(''), call.arguments);
    assert.deepEqual(types, [
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      ...fragments.map(() => 'response.function_call_arguments.delta'),
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);

    const second = await client.responses
      .stream(
        ask(
          [
            { role: 'user', content: question },
            ...echoCalls(first),
            { type: 'function_call_output', call_id: call.call_id, output: 'sunny, 21' },
          ],
          {
            tools: [weatherTool],
          },
        ),
      )
      .finalResponse();
    assert.equal(second.output_text, 'Paris is sunny, 21 °C.');

    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.stream, e.step]),
      [
        [200, true, 'step-1'],
        [200, true, 'step-2'],
      ],
    );
    await session.verify();
  });

  test('parallel calls: two function_call items when allowed, 409 and nothing consumed when parallel_tool_calls is false [openai-responses.tools.json +] [openai-responses.tools.json -]', async () => {
    const { session, client } = await open('tools-parallel');
    session.scenario('both').callsTools([
      { name: 'weather', arguments: { city: 'Paris', unit: 'celsius' }, id: 'call_w' },
      { name: 'time', arguments: { city: 'Paris' }, id: 'call_t' },
    ]);
    const params = ask('Weather and time in Paris?', { tools: [weatherTool, timeTool] });
    await conflict(client.responses.create({ ...params, parallel_tool_calls: false }), 'fixture_mismatch', 'disables parallel tool calls');

    const ok = await client.responses.create(params);
    const calls = functionCalls(ok);
    assert.deepEqual(
      calls.map((c) => [c.call_id, c.name]),
      [
        ['call_w', 'weather'],
        ['call_t', 'time'],
      ],
    );
    assert.equal(new Set(calls.map((c) => c.id)).size, 2, 'each function_call item has its own id');
    const { counters } = await session.journal();
    assert.deepEqual([counters.mismatched, counters.matched], [1, 1]);
    // verify() reports the refused request even though the step was used afterwards.
    await assert.rejects(session.verify(), /disables parallel tool calls/);
  });

  test('contract failures: undeclared tool, arguments failing the schema, wrong named tool → 409 fixture_mismatch, nothing consumed [openai-responses.tools.json -]', async () => {
    const { session, client } = await open('tools-contract');
    session.scenario('bad-args').callsTool('weather', { city: 75001, unit: 'kelvin' }, 'call_zip');

    await conflict(
      client.responses.create(ask('Weather?', { tools: [timeTool] })),
      'fixture_mismatch',
      'tool "weather" is not declared',
      'time',
    );
    await conflict(
      client.responses.create(ask('Weather?', { tools: [weatherTool] })),
      'fixture_mismatch',
      "do not match the tool's declared parameters",
      '/city',
    );
    await conflict(
      client.responses.create(ask('Weather?', { tools: [weatherTool, timeTool], tool_choice: { type: 'function', name: 'time' } })),
      'fixture_mismatch',
      'requires tool "time"',
    );
    const { entries, counters } = await session.journal();
    assert.equal(counters.mismatched, 3);
    assert.equal(counters.matched, 0);
    assert.ok(entries.every((e) => e.status === 409 && e.step === 'step-1'));
    await assert.rejects(session.verify(), VerificationError);
  });

  test('streamed contract failures get 409 before any event; a good call streams afterwards [openai-responses.tools.stream -]', async () => {
    const { session, client } = await open('tools-stream-contract');
    session.scenario('pair').callsTools([
      { name: 'weather', arguments: { city: 'Paris', unit: 'celsius' } },
      { name: 'time', arguments: { city: 'Paris' } },
    ]);
    const params = ask('Weather and time?', { tools: [weatherTool, timeTool] });
    const seen: string[] = [];
    const helper = client.responses.stream({ ...params, parallel_tool_calls: false });
    helper.on('event', (e) => seen.push(e.type));
    await conflict(helper.finalResponse(), 'fixture_mismatch', 'disables parallel tool calls');
    assert.deepEqual(seen, [], 'no event reached the SDK');
    await conflict(
      client.responses.create({ ...ask('Weather and time?', { tools: [weatherTool] }), stream: true }),
      'fixture_mismatch',
      'tool "time" is not declared',
    );

    const events = await collect(await client.responses.create({ ...params, stream: true }));
    assertSequence(events);
    const done = events.filter((e) => e.type === 'response.function_call_arguments.done');
    assert.deepEqual(
      done.map((e) => e.type === 'response.function_call_arguments.done' && [e.name, e.output_index]),
      [
        ['weather', 0],
        ['time', 1],
      ],
    );
    const { counters } = await session.journal();
    assert.deepEqual([counters.mismatched, counters.matched], [2, 1]);
  });
});

// ------------------------------------------------------------------ 4. structured output

const Report = z.object({ city: z.string(), temperature: z.number() });

test('structured output through responses.parse with zodTextFormat [openai-responses.structured.json +]', async () => {
  const { session, client } = await open('structured');
  session.scenario('report').repliesJson({ city: 'Paris', temperature: 21 });
  const parsed = await client.responses.parse(
    ask('Weather report for Paris', { text: { format: zodTextFormat(Report, 'weather_report') } }),
  );
  assert.deepEqual(parsed.output_parsed, { city: 'Paris', temperature: 21 });
  assert.equal(parsed.output_text, '{"city":"Paris","temperature":21}');
  const format = parsed.text?.format;
  assert.ok(format && format.type === 'json_schema');
  assert.equal(format.name, 'weather_report');
  const { entries } = await session.journal();
  const output = entries[0].request?.output;
  assert.ok(output && output.type === 'json_schema');
  assert.equal(output.name, 'weather_report');
  assert.equal(output.strict, true);
  await session.verify();
});

test('structured output that fails the schema or is not JSON → 409, nothing consumed [openai-responses.structured.json -]', async () => {
  const { session, client } = await open('structured-negative');
  session.scenario('wrong').whenLatestUser({ contains: 'report' }).repliesJson({ city: 'Paris', temperature: 'warm' });
  session.scenario('prose').whenLatestUser({ contains: 'prose' }).replies('It is warm in Paris.');
  const format = { format: zodTextFormat(Report, 'weather_report') };

  await conflict(
    client.responses.parse(ask('Weather report for Paris', { text: format })),
    'fixture_mismatch',
    'does not match the requested output schema "weather_report"',
    '/temperature',
  );
  await conflict(client.responses.parse(ask('In prose please', { text: format })), 'fixture_mismatch', 'not valid JSON');
  await conflict(
    client.responses.create(ask('In prose, json please', { text: { format: { type: 'json_object' } } })),
    'fixture_mismatch',
    'json_object',
  );
  const { counters } = await session.journal();
  assert.deepEqual([counters.mismatched, counters.matched], [3, 0]);
});

test('structured output streamed: the helper parses the final response [openai-responses.structured.stream +]', async () => {
  const { session, client } = await open('structured-stream');
  session.scenario('report').repliesJson({ city: 'Paris', temperature: 21 });
  const stream = client.responses.stream(ask('Weather report for Paris', { text: { format: zodTextFormat(Report, 'weather_report') } }));
  const deltas: string[] = [];
  stream.on('response.output_text.delta', (e) => deltas.push(e.delta));
  const final = await stream.finalResponse();
  assert.deepEqual(final.output_parsed, { city: 'Paris', temperature: 21 });
  assert.equal(deltas.join(''), '{"city":"Paris","temperature":21}');
  const { entries } = await session.journal();
  assert.equal(entries[0].stream, true);
  assert.equal(entries[0].request?.output.type, 'json_schema');
  await session.verify();
});

test('structured output streamed that fails the schema → 409 before the stream [openai-responses.structured.stream -]', async () => {
  const { session, client } = await open('structured-stream-negative');
  session.scenario('wrong').repliesJson({ city: 'Paris' });
  await conflict(
    client.responses.stream(ask('Weather report', { text: { format: zodTextFormat(Report, 'weather_report') } })).finalResponse(),
    'fixture_mismatch',
    'temperature',
  );
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream]),
    [[409, true]],
  );
});

// ------------------------------------------------------------------ 5. scripted errors

test('a scripted 429 surfaces as RateLimitError with its code and headers, then the next step answers [openai-responses.errors.json +]', async () => {
  const { session, client } = await open('errors-json');
  session
    .scenario('throttled')
    .fails(429, 'Rate limit reached for gpt-4.1-mini', { code: 'rate_limit_exceeded', headers: { 'retry-after-ms': '20' } })
    .replies('after the limit');
  const error = await client.responses.create(ask('Hi')).catch((e: unknown) => e);
  assert.ok(error instanceof OpenAI.RateLimitError, `got ${String(error)}`);
  assert.equal(error.code, 'rate_limit_exceeded');
  assert.equal(error.type, 'requests');
  assert.equal(error.headers?.get('retry-after-ms'), '20');
  const next = await client.responses.create(ask('Hi'));
  assert.equal(next.output_text, 'after the limit');
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.status),
    [429, 200],
  );
  await session.verify();
});

test('scripted 500 and 401 become InternalServerError and AuthenticationError; each is consumed once [openai-responses.errors.json -]', async () => {
  const { session, client } = await open('errors-json-negative');
  session
    .scenario('broken')
    .fails(500, 'The server had an error')
    .then()
    .fails(401, 'Incorrect API key provided', { code: 'invalid_api_key' });
  const crashed = await client.responses.create(ask('Hi')).catch((e: unknown) => e);
  assert.ok(crashed instanceof OpenAI.InternalServerError, `got ${String(crashed)}`);
  assert.equal(crashed.type, 'server_error');
  const denied = await client.responses.create(ask('Hi')).catch((e: unknown) => e);
  assert.ok(denied instanceof OpenAI.AuthenticationError, `got ${String(denied)}`);
  assert.equal(denied.code, 'invalid_api_key');
  await conflict(client.responses.create(ask('Hi')), 'scenario_exhausted');
});

test('an in-stream scripted failure: response.failed or an error event after the stream started; the SDK yields them [openai-responses.errors.stream +]', async () => {
  const { session, client } = await open('errors-stream');
  session
    .scenario('mid-stream')
    .reply({ error: { status: 500, message: 'The model crashed mid-answer', code: 'server_error', inStream: true } })
    .then()
    .reply({ error: { status: 400, message: 'Your input exceeds the context window', code: 'context_length_exceeded', inStream: true } })
    .then()
    .reply({ error: { status: 500, message: 'Crashed again', inStream: true } });

  // A code a failed response can carry → response.failed; the helper resolves with that response.
  const helper = client.responses.stream(ask('Hi'));
  const types: string[] = [];
  helper.on('event', (e) => types.push(e.type));
  const failed = await helper.finalResponse();
  assert.deepEqual(types, ['response.created', 'response.in_progress', 'response.failed']);
  assert.equal(failed.status, 'failed');
  assert.deepEqual(failed.error, { code: 'server_error', message: 'The model crashed mid-answer' });

  // Any other code → an `error` event. openai 6 yields it on raw iteration; openai 7 (the
  // current-SDK lane) throws it as an APIError carrying the event's code and message.
  const seen: ResponseStreamEvent[] = [];
  const thrown = await (async () => {
    for await (const event of await client.responses.create({ ...ask('Hi'), stream: true })) seen.push(event);
  })().catch((e: unknown) => e);
  if (OPENAI_THROWS_STREAM_ERROR_EVENTS) {
    assert.ok(thrown instanceof OpenAI.APIError, String(thrown));
    assert.deepEqual(
      seen.map((e) => e.type),
      ['response.created', 'response.in_progress'],
    );
    assert.equal(thrown.code, 'context_length_exceeded');
    assert.match(thrown.message, /Your input exceeds the context window/);
  } else {
    assert.equal(thrown, undefined);
    assertSequence(seen);
    assert.deepEqual(
      seen.map((e) => e.type),
      ['response.created', 'response.in_progress', 'error'],
    );
    const last = seen[2];
    assert.ok(last?.type === 'error');
    assert.equal(last.code, 'context_length_exceeded');
    assert.equal(last.message, 'Your input exceeds the context window');
  }

  // No code → response.failed with server_error.
  const third = await collect(await client.responses.create({ ...ask('Hi'), stream: true }));
  const end = third[third.length - 1];
  assert.ok(end.type === 'response.failed');
  assert.equal(end.response.error?.code, 'server_error');
  assert.equal(end.sequence_number, 2);

  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream, e.error?.code]),
    [
      [200, true, 'server_error'],
      [200, true, 'context_length_exceeded'],
      [200, true, null],
    ],
  );
  await session.verify();
});

test('a scripted error on a stream request without inStream is an HTTP error before the stream; inStream on a JSON request is too [openai-responses.errors.stream -]', async () => {
  const { session, client } = await open('errors-stream-negative');
  session
    .scenario('plain')
    .fails(503, 'The server is overloaded')
    .then()
    .reply({ error: { status: 500, message: 'Crashed', code: 'server_error', inStream: true } });
  const seen: string[] = [];
  const helper = client.responses.stream(ask('Hi'));
  helper.on('event', (e) => seen.push(e.type));
  const error = await helper.finalResponse().catch((e: unknown) => e);
  assert.ok(error instanceof OpenAI.InternalServerError, `got ${String(error)}`);
  assert.equal(error.status, 503);
  assert.deepEqual(seen, []);
  const json = await client.responses.create(ask('Hi')).catch((e: unknown) => e);
  assert.ok(json instanceof OpenAI.InternalServerError, `got ${String(json)}`);
  assert.equal(json.code, 'server_error');
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream]),
    [
      [503, true],
      [500, false],
    ],
  );
});

// ------------------------------------------------------------------ 6. zero-config

test('zero-config: a call to the first declared tool, then text after the output, JSON and streamed [openai-responses.zero-config.json +] [openai-responses.zero-config.stream +]', async () => {
  const { session, client } = await open('zero-config', { fallback: 'auto' });
  const tools = { tools: [weatherTool, timeTool] };

  const first = await client.responses.create(ask('What is the weather in Paris?', tools));
  const [call] = functionCalls(first);
  assert.equal(functionCalls(first).length, 1);
  assert.equal(call.name, 'weather', 'the first declared tool');
  // The smallest arguments the strict schema accepts: every property is required, the enum's first value.
  assert.equal(call.arguments, '{"city":"","unit":"celsius"}');
  assert.match(call.call_id, /^call_/);
  assert.match(call.id ?? '', /^fc_/);

  // Streamed: the arguments come whole, in one delta.
  const streamed = client.responses.stream(ask('What is the weather in Paris?', tools));
  const fragments: string[] = [];
  streamed.on('response.function_call_arguments.delta', (e) => fragments.push(e.delta));
  const streamedCall = functionCalls(await streamed.finalResponse())[0];
  assert.equal(streamedCall.name, 'weather');
  assert.deepEqual(fragments, ['{"city":"","unit":"celsius"}']);

  // After the output, text — statelessly, and through previous_response_id.
  const answer = await client.responses.create(
    ask(
      [
        { role: 'user', content: 'What is the weather in Paris?' },
        ...echoCalls(first),
        { type: 'function_call_output', call_id: call.call_id, output: 'sunny' },
      ],
      tools,
    ),
  );
  assert.equal(answer.output_text, ZERO_CONFIG_TEXT);
  const continued = await client.responses
    .stream(
      ask([{ type: 'function_call_output', call_id: streamedCall.call_id, output: 'sunny' }], {
        ...tools,
        previous_response_id: (await streamed.finalResponse()).id,
      }),
    )
    .finalResponse();
  assert.equal(continued.output_text, ZERO_CONFIG_TEXT);

  const noTools = await client.responses.create(ask('Hi'));
  assert.equal(noTools.output_text, ZERO_CONFIG_TEXT);

  const { entries, counters } = await session.journal();
  assert.equal(entries.length, 5);
  assert.ok(entries.every((e) => e.status === 200 && e.source === 'zero_config'));
  assert.equal(counters.unmatched, 0);
});

test('zero-config never calls a tool under tool_choice none, still validates the wire, and is opt-in [openai-responses.zero-config.json -]', async () => {
  const { session, client } = await open('zero-config-negative', { fallback: 'auto' });
  const none = await client.responses.create(ask('Weather?', { tools: [weatherTool], tool_choice: 'none' }));
  assert.equal(none.output_text, ZERO_CONFIG_TEXT);
  assert.equal(functionCalls(none).length, 0);

  const bad = await client.responses
    .create(ask('Weather?', { tools: [weatherTool], tool_choice: { type: 'function', name: 'forecast' } }))
    .catch((e: unknown) => e);
  assert.ok(bad instanceof OpenAI.BadRequestError, `got ${String(bad)}`);
  assert.equal(bad.param, 'tool_choice');
  const { counters } = await session.journal();
  assert.deepEqual([counters.requests, counters.invalid], [2, 1]);

  const strict = await open('zero-config-strict');
  await conflict(strict.client.responses.create(ask('Weather?', { tools: [weatherTool] })), 'no_match');
});

test('zero-config streamed: no function_call item under tool_choice none; a malformed stream request gets 400 [openai-responses.zero-config.stream -]', async () => {
  const { session, client } = await open('zero-config-stream-negative', { fallback: 'auto' });
  const events = await collect(
    await client.responses.create({ ...ask('Weather?', { tools: [weatherTool], tool_choice: 'none' }), stream: true }),
  );
  assert.ok(events.every((e) => !e.type.startsWith('response.function_call')));
  assert.deepEqual(
    events.map((e) => e.type),
    TEXT_EVENTS(events.filter((e) => e.type === 'response.output_text.delta').length),
  );
  const bad = await client.responses.create({ ...ask('Weather?', { tool_choice: 'required' }), stream: true }).catch((e: unknown) => e);
  assert.ok(bad instanceof OpenAI.BadRequestError, `got ${String(bad)}`);
  assert.equal(bad.param, 'tool_choice');
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.source ?? null]),
    [
      [200, 'zero_config'],
      [400, null],
    ],
  );
});

// ------------------------------------------------------------------ 7. Vercel AI SDK (default openai(model) = Responses)

describe('Vercel AI SDK: openai(model) speaks the Responses API', () => {
  function setup(session: UnderstudySession) {
    session
      .scenario('weather')
      .whenLatestUser({ contains: 'weather in Paris' })
      .reply({ text: 'Let me check.', toolCalls: [{ id: 'call_paris', name: 'weather', arguments: { city: 'Paris' } }] })
      .thenWhenToolResult('weather', 'call_paris')
      .replies('Paris is sunny, 21 °C.');
    const ran: unknown[] = [];
    const tools = {
      weather: tool({
        description: 'Current weather for a city',
        inputSchema: z.object({ city: z.string() }),
        execute: async (input: { city: string }) => {
          ran.push(input);
          return { city: input.city, temperature: 21, sky: 'sunny' };
        },
      }),
    };
    const model = createOpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey })(MODEL);
    return { ran, tools, model };
  }

  async function checkJournal(session: UnderstudySession, stream: boolean) {
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.operation, e.step, e.stream]),
      [
        [200, 'openai.responses', 'step-1', stream],
        [200, 'openai.responses', 'step-2', stream],
      ],
    );
    const messages = entries[1].request?.messages ?? [];
    // The AI SDK refers to the stored text item by id (item_reference) and echoes the call.
    const assistant = messages.find((m) => m.role === 'assistant');
    assert.ok(assistant);
    assert.deepEqual(
      assistant.parts.map((p) => p.type),
      ['text', 'tool_call'],
    );
    assert.deepEqual(assistant.parts[0], { type: 'text', text: 'Let me check.' });
    const result = messages.flatMap((m) => m.parts).find((p) => p.type === 'tool_result');
    assert.ok(result && result.type === 'tool_result');
    assert.equal(result.callId, 'call_paris');
    assert.equal(result.name, 'weather');
    assert.deepEqual(JSON.parse(result.content), { city: 'Paris', temperature: 21, sky: 'sunny' });
    await session.verify();
  }

  test('generateText completes a tool round [aisdk-openai-responses.tools.json +]', async () => {
    const session = await mock.session('aisdk-generate');
    const { ran, tools, model } = setup(session);
    const result = await generateText({ model, tools, stopWhen: stepCountIs(3), maxRetries: 0, prompt: 'What is the weather in Paris?' });
    assert.equal(result.text, 'Paris is sunny, 21 °C.');
    assert.deepEqual(ran, [{ city: 'Paris' }]);
    assert.equal(result.steps.length, 2);
    assert.equal(result.steps[0].finishReason, 'tool-calls');
    assert.equal(result.steps[0].toolCalls[0].toolCallId, 'call_paris');
    assert.equal(result.steps[0].text, 'Let me check.');
    assert.equal(result.finishReason, 'stop');
    assert.ok((result.totalUsage.inputTokens ?? 0) > 0);
    await checkJournal(session, false);
  });

  test('streamText completes a tool round [aisdk-openai-responses.tools.stream +]', async () => {
    const session = await mock.session('aisdk-stream');
    const { ran, tools, model } = setup(session);
    const errors: unknown[] = [];
    const result = streamText({
      model,
      tools,
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      prompt: 'What is the weather in Paris?',
      onError: ({ error }) => void errors.push(error),
    });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    assert.deepEqual(errors, []);
    assert.equal(deltas.join(''), 'Let me check.Paris is sunny, 21 °C.');
    assert.ok(deltas.length > 2, 'the text arrives in pieces');
    assert.deepEqual(ran, [{ city: 'Paris' }]);
    assert.equal((await result.steps).length, 2);
    assert.equal(await result.finishReason, 'stop');
    await checkJournal(session, true);
  });
});

describe('Vercel AI SDK: a scripted call that fails the tool schema', () => {
  const model = (session: UnderstudySession) => createOpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey })(MODEL);

  test('generateText throws APICallError 409 and nothing is consumed [aisdk-openai-responses.tools.json -]', async () => {
    const session = await mock.session('aisdk-generate-mismatch');
    await expectGenerateTextRefusedThenAnswered(session, model(session));
  });

  test('streamText reports APICallError 409 and runs no tool [aisdk-openai-responses.tools.stream -]', async () => {
    const session = await mock.session('aisdk-stream-mismatch');
    scriptZipCodeCall(session);
    const ran: unknown[] = [];
    await expectStreamTextRefused({ model: model(session), tools: typedWeatherTool('string', ran), ran, session });
  });

  test('streamText sees an in-stream response.failed as an error part [aisdk-openai-responses.tools.stream -]', async () => {
    const session = await mock.session('aisdk-stream-failed');
    session.scenario('crash').reply({ error: { status: 500, message: 'The model crashed', code: 'server_error', inStream: true } });
    const model = createOpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey })(MODEL);
    const errors: unknown[] = [];
    const result = streamText({ model, maxRetries: 0, prompt: 'Hi', onError: ({ error }) => void errors.push(error) });
    let streamed = '';
    for await (const delta of result.textStream) streamed += delta;
    assert.equal(streamed, '');
    assert.equal(errors.length, 1);
    assert.match(String((errors[0] as Error).message ?? errors[0]), /The model crashed/);
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.error?.code]),
      [[200, 'server_error']],
    );
  });
});

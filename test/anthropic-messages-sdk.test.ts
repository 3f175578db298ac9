// The Anthropic Messages dialect, judged by the real SDKs: @anthropic-ai/sdk 1.14 (anthropic-version
// 2026-10-21, `Authorization: Bearer`) and 0.137 under the alias `anthropic-0x` (2023-06-01,
// `x-api-key`) talk to an in-process Understudy over real HTTP. Every test asserts both what the SDK
// returned and what Understudy recorded in its journal.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import Anthropic from '@anthropic-ai/sdk';
import { zodOutputFormat } from '@anthropic-ai/sdk/helpers/zod';
import Anthropic0x from 'anthropic-0x';
import { z } from 'zod';

import { startUnderstudy } from '../src/index.js';
import type { JournalSnapshot, Reply, Understudy, UnderstudySession } from '../src/index.js';

let mock: Understudy;

before(async () => {
  mock = await startUnderstudy();
});

after(async () => {
  await mock.close();
});

const MODEL = 'claude-sonnet-4-6';
const ZERO_CONFIG_TEXT = 'This is a scripted answer from Understudy.';

type Params = Anthropic.MessageCreateParamsNonStreaming;
type Conflict = InstanceType<typeof Anthropic.ConflictError>;

function v1(session: UnderstudySession, options: { maxRetries?: number } = {}): Anthropic {
  return new Anthropic({ baseURL: mock.url('anthropic'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000, ...options });
}

function v0(session: UnderstudySession): Anthropic0x {
  return new Anthropic0x({ baseURL: mock.url('anthropic'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
}

/** The same body for the 0.x client, whose parameter types differ in details we do not use. */
function old(params: Params): Anthropic0x.MessageCreateParamsNonStreaming {
  return params as unknown as Anthropic0x.MessageCreateParamsNonStreaming;
}

function ask(content: string, extra: Partial<Params> = {}): Params {
  return { model: MODEL, max_tokens: 256, messages: [{ role: 'user', content }], ...extra };
}

const weatherTool: Anthropic.Tool = {
  name: 'weather',
  description: 'Current weather for a city',
  input_schema: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] }, days: { type: 'integer' } },
    required: ['city'],
    additionalProperties: false,
  },
};

const timeTool: Anthropic.Tool = {
  name: 'time',
  description: 'Local time in a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** Awaits a request that must fail with 409 in Anthropic's shape and the given Understudy code. */
async function conflict(request: PromiseLike<unknown>, code: string, ...mentions: string[]): Promise<Conflict> {
  let caught: unknown;
  try {
    await request;
  } catch (error) {
    caught = error;
  }
  assert.ok(caught !== undefined, `expected a 409 ${code}, but the request succeeded`);
  assert.ok(caught instanceof Anthropic.ConflictError, `expected Anthropic.ConflictError, got ${String(caught)}`);
  assert.equal(caught.status, 409);
  assert.equal(caught.type, 'conflict_error');
  assert.equal(caught.errorCode, code, caught.message);
  assert.equal(caught.headers?.get('x-should-retry'), 'false');
  const body = caught.error as { type: string; error: { type: string; message: string }; request_id: string };
  assert.equal(body.type, 'error');
  assert.match(body.request_id, /^req_/);
  assert.equal(body.error.type, 'conflict_error');
  for (const text of mentions) {
    assert.ok(body.error.message.includes(text), `expected the message to mention ${JSON.stringify(text)}:\n${body.error.message}`);
  }
  return caught;
}

function textOf(message: { content: { type: string }[] }): string {
  return message.content
    .filter((b): b is { type: 'text'; text: string } => b.type === 'text')
    .map((b) => b.text)
    .join('');
}

/** Reads an SSE body into [event name, parsed data] pairs. */
async function sse(response: Response): Promise<[string, Record<string, unknown>][]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((frame) => frame.trim() !== '')
    .map((frame) => {
      const name = /^event: (.+)$/m.exec(frame)?.[1] ?? '';
      const data = /^data: (.+)$/m.exec(frame)?.[1] ?? 'null';
      return [name, JSON.parse(data) as Record<string, unknown>];
    });
}

function post(session: UnderstudySession | null, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${mock.baseUrl}/v1/messages`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'anthropic-version': '2023-06-01',
      ...(session && { 'x-api-key': session.apiKey }),
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

function lastRequest(journal: JournalSnapshot) {
  const request = journal.entries[journal.entries.length - 1].request;
  assert.ok(request, 'the journal holds the decoded request');
  return request;
}

// ------------------------------------------------------------------ text

test('plain text with SDK 1.x (Bearer, 2026-10-21) and SDK 0.x (x-api-key, 2023-06-01) [anthropic-messages.text.json +]', async () => {
  const session = await mock.session('text-both-majors');
  session.scenario('greeting').whenLatestUser({ contains: 'Hello' }).replies('Hi! How can I help?').onExhausted('repeat_last');

  const a = await v1(session).messages.create(ask('Hello there', { system: 'be brief' }));
  assert.deepEqual(a.content, [{ type: 'text', text: 'Hi! How can I help?' }]);
  assert.equal(a.type, 'message');
  assert.equal(a.role, 'assistant');
  assert.equal(a.model, MODEL);
  assert.equal(a.stop_reason, 'end_turn');
  assert.equal(a.stop_sequence, null);
  assert.match(a.id, /^msg_/);
  assert.ok(a.usage.input_tokens > 0);
  assert.ok(a.usage.output_tokens > 0);
  assert.equal(a.usage.cache_read_input_tokens, 0);
  assert.equal(a.usage.cache_creation_input_tokens, 0);

  const b = await v0(session).messages.create(
    old(ask('Hello again', { system: [{ type: 'text', text: 'be brief', cache_control: { type: 'ephemeral' } }] })),
  );
  assert.equal(textOf(b), 'Hi! How can I help?');
  assert.equal(b.stop_reason, 'end_turn');
  assert.notEqual(b.id, a.id);

  const journal = await session.journal();
  assert.deepEqual(
    journal.entries.map((e) => [e.route, e.operation, e.status, e.script, e.stream]),
    [
      ['POST /v1/messages', 'anthropic.messages', 200, 'greeting', false],
      ['POST /v1/messages', 'anthropic.messages', 200, 'greeting', false],
    ],
  );
  assert.equal(a._request_id, journal.entries[0].requestId, 'request-id header names the journal entry');
  const request = lastRequest(journal);
  assert.deepEqual(request.messages, [
    { role: 'system', parts: [{ type: 'text', text: 'be brief' }] },
    { role: 'user', parts: [{ type: 'text', text: 'Hello again' }] },
  ]);
  assert.equal(request.maxOutputTokens, 256);
  assert.equal(journal.entries[0].usage?.inputTokens, a.usage.input_tokens);
  assert.equal(journal.entries[0].usage?.outputTokens, a.usage.output_tokens);
});

test('a text reply when tool_choice "any" demands a tool: 409 conflict_error, nothing consumed [anthropic-messages.text.json -]', async () => {
  const session = await mock.session('text-any');
  session.scenario('chatty').replies('Just words.');
  const client = v1(session);
  await conflict(
    client.messages.create(ask('Weather?', { tools: [weatherTool], tool_choice: { type: 'any' } })),
    'fixture_mismatch',
    'requires a tool call',
  );
  const ok = await client.messages.create(ask('Weather?', { tools: [weatherTool] }));
  assert.equal(textOf(ok), 'Just words.', 'the step was still there');
  const { counters, entries } = await session.journal();
  assert.deepEqual([counters.mismatched, counters.matched], [1, 1]);
  assert.deepEqual(
    entries.map((e) => [e.status, e.error?.code]),
    [
      [409, 'fixture_mismatch'],
      [200, undefined],
    ],
  );
});

test('streamed text: messages.stream().finalMessage() on 1.x, raw iteration on 0.x, and the raw event order with ping [anthropic-messages.text.stream +]', async () => {
  const session = await mock.session('text-stream');
  session.scenario('story').replies('Once upon a time, a test passed.').onExhausted('repeat_last');

  const helper = v1(session).messages.stream(ask('Tell me a story'));
  const deltas: string[] = [];
  helper.on('text', (delta) => deltas.push(delta));
  const final = await helper.finalMessage();
  assert.equal(textOf(final), 'Once upon a time, a test passed.');
  assert.ok(deltas.length > 1, 'the text arrives in pieces');
  assert.equal(deltas.join(''), 'Once upon a time, a test passed.');
  assert.equal(final.stop_reason, 'end_turn');

  const raw = await v0(session).messages.create({ ...old(ask('Tell me a story')), stream: true });
  const types: string[] = [];
  let outputTokens = -1;
  let text = '';
  for await (const event of raw) {
    types.push(event.type);
    if (event.type === 'message_delta') outputTokens = event.usage.output_tokens;
    if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
  }
  assert.equal(text, 'Once upon a time, a test passed.');
  assert.deepEqual(
    [types[0], types[1], types[types.length - 3], types[types.length - 2], types[types.length - 1]],
    ['message_start', 'content_block_start', 'content_block_stop', 'message_delta', 'message_stop'],
  );

  // The wire itself: every event is named after its type, a ping follows the first block start.
  const events = await sse(await post(session, { ...ask('Tell me a story'), stream: true }));
  for (const [name, data] of events) assert.equal(name, data.type);
  assert.deepEqual(
    events.slice(0, 3).map(([name]) => name),
    ['message_start', 'content_block_start', 'ping'],
  );
  const delta = events.find(([name]) => name === 'message_delta')?.[1] as {
    delta: { stop_reason: string };
    usage: { output_tokens: number; input_tokens: number };
  };
  assert.equal(delta.delta.stop_reason, 'end_turn');

  const journal = await session.journal();
  assert.deepEqual(
    journal.entries.map((e) => [e.status, e.stream]),
    [
      [200, true],
      [200, true],
      [200, true],
    ],
  );
  assert.equal(outputTokens, journal.entries[1].usage?.outputTokens, 'message_delta usage is the journal usage');
  assert.equal(delta.usage.input_tokens, journal.entries[2].usage?.inputTokens);
});

test('one streamed reply answered many times, in parallel and in turn: each message keeps its own id and usage', async () => {
  // Repeated unpaced streams are written from byte templates with recycled bodies (keyed by usage):
  // no id or usage may leak from one answer into another.
  const session = await mock.session('text-stream-repeated');
  const chunks = Array.from({ length: 20 }, (_, i) => `w${i} `);
  await session.load({ name: 'again', exhausted: 'repeat_last', steps: [{ id: 'say', reply: { text: chunks.join(''), chunks } }] });
  const prompts = ['Hi', 'Tell me a much longer story about a lighthouse keeper and the sea', 'x '.repeat(150)];
  const one = async (i: number) => {
    const prompt = prompts[i % prompts.length];
    const message = await v1(session).messages.stream(ask(prompt)).finalMessage();
    return { prompt, message };
  };
  const answers: { prompt: string; message: Anthropic.Message }[] = [...(await Promise.all([0, 1, 2, 3, 4, 5].map(one)))];
  for (let i = 6; i < 12; i++) answers.push(await one(i));
  // The same reply non-streamed: message bodies come from templates too.
  for (let i = 0; i < 6; i++) {
    const prompt = prompts[i % prompts.length];
    answers.push({ prompt, message: await v1(session).messages.create(ask(prompt)) });
  }

  assert.equal(new Set(answers.map((a) => a.message.id)).size, answers.length, 'every message has its own id');
  const { entries } = await session.journal();
  for (const { prompt, message } of answers) {
    assert.equal(message.content.length, 1);
    assert.equal(message.content[0].type === 'text' && message.content[0].text, chunks.join(''));
    const entry = entries.find((e) => e.request?.messages.at(-1)?.parts.some((p) => p.type === 'text' && p.text === prompt));
    assert.ok(entry?.usage);
    assert.equal(message.usage.input_tokens, entry.usage.inputTokens, `"${prompt.slice(0, 12)}": its own prompt's usage`);
    assert.equal(message.usage.output_tokens, entry.usage.outputTokens);
  }
});

test('streamed text that cannot be sent: bad chunks never load, a text reply under a named tool_choice gets 409 before the stream starts [anthropic-messages.text.stream -]', async () => {
  const session = await mock.session('text-stream-bad');
  assert.throws(() => session.scenario('broken').reply({ text: 'abc', chunks: ['a', 'b'] }), /chunks/);
  session.scenario('chatty').replies('Just words.');
  const helper = v1(session).messages.stream(ask('Weather?', { tools: [weatherTool], tool_choice: { type: 'tool', name: 'weather' } }));
  await conflict(helper.finalMessage(), 'fixture_mismatch', 'weather');
  const { entries, counters } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream]),
    [[409, true]],
  );
  assert.equal(counters.matched, 0);
  const check = await session.check();
  assert.equal(check.ok, false, 'the step is still unused');
});

// ------------------------------------------------------------------ tools

describe('tool rounds', () => {
  test('two-step tool round, non-streamed, with an is_error tool result [anthropic-messages.tools.json +]', async () => {
    const session = await mock.session('tools-json');
    session
      .scenario('weather')
      .whenLatestUser({ contains: 'weather in Paris' })
      .callsTool('weather', { city: 'Paris' }, 'toolu_paris')
      .thenWhenToolResult('weather', 'toolu_paris')
      .replies('The weather service failed; try again later.');
    const client = v1(session);
    const params = ask('What is the weather in Paris?', { tools: [weatherTool, timeTool] });
    const first = await client.messages.create(params);
    assert.equal(first.stop_reason, 'tool_use');
    assert.deepEqual(first.content, [
      { type: 'tool_use', id: 'toolu_paris', name: 'weather', input: { city: 'Paris' }, caller: { type: 'direct' } },
    ]);

    const second = await client.messages.create({
      ...params,
      messages: [
        ...params.messages,
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_paris', content: 'upstream timeout', is_error: true }] },
      ],
    });
    assert.equal(textOf(second), 'The weather service failed; try again later.');
    assert.equal(second.stop_reason, 'end_turn');

    const journal = await session.journal();
    assert.deepEqual(
      journal.entries.map((e) => [e.status, e.step]),
      [
        [200, 'step-1'],
        [200, 'step-2'],
      ],
    );
    const request = lastRequest(journal);
    assert.deepEqual(
      request.messages.map((m) => m.role),
      ['user', 'assistant', 'tool'],
    );
    assert.deepEqual(request.messages[2].parts, [
      { type: 'tool_result', callId: 'toolu_paris', name: 'weather', content: 'upstream timeout', isError: true },
    ]);
    assert.deepEqual(
      request.tools.map((t) => t.name),
      ['weather', 'time'],
    );
    await session.verify();
  });

  test('two-step tool round, streamed: input_json_delta fragments reassemble to the scripted arguments [anthropic-messages.tools.stream +]', async () => {
    const session = await mock.session('tools-stream');
    const args = { city: 'Paris', unit: 'celsius', days: 3 };
    session
      .scenario('weather')
      .whenLatestUser({ contains: 'Paris' })
      .reply({ text: 'Let me check.', toolCalls: [{ id: 'toolu_stream', name: 'weather', arguments: args }] })
      .thenWhenToolResult('weather', 'toolu_stream')
      .replies('Paris: 21 °C for three days.');
    const params = ask('Weather in Paris for three days?', { tools: [weatherTool] });

    // Step 1 through the 1.x helper: it accumulates partial JSON and parses it at content_block_stop.
    const helper = v1(session).messages.stream(params);
    const fragments: string[] = [];
    helper.on('inputJson', (partial) => fragments.push(partial));
    const first = await helper.finalMessage();
    assert.ok(fragments.length > 1, `the arguments arrive in fragments (${fragments.length})`);
    assert.deepEqual(JSON.parse(fragments.join('')), args);
    assert.equal(first.stop_reason, 'tool_use');
    assert.equal(textOf(first), 'Let me check.');
    const use = first.content.find((b) => b.type === 'tool_use');
    assert.ok(use && use.type === 'tool_use');
    assert.deepEqual([use.id, use.name, use.input], ['toolu_stream', 'weather', args]);

    // Step 2 through the 0.x client, iterated raw.
    const stream = await v0(session).messages.create({
      ...old(params),
      stream: true,
      messages: [
        ...old(params).messages,
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me check.' },
            { type: 'tool_use', id: 'toolu_stream', name: 'weather', input: args },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_stream', content: [{ type: 'text', text: '21' }] }] },
      ],
    });
    let text = '';
    let stop: string | null = null;
    for await (const event of stream) {
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
      if (event.type === 'message_delta') stop = event.delta.stop_reason;
    }
    assert.equal(text, 'Paris: 21 °C for three days.');
    assert.equal(stop, 'end_turn');
    const journal = await session.journal();
    assert.deepEqual(
      journal.entries.map((e) => [e.status, e.step, e.stream]),
      [
        [200, 'step-1', true],
        [200, 'step-2', true],
      ],
    );
    const result = lastRequest(journal).messages[2].parts[0];
    assert.deepEqual(result, { type: 'tool_result', callId: 'toolu_stream', name: 'weather', content: '21', isError: false });
    await session.verify();
  });

  test('streamed: a call whose arguments fail the declared schema gets 409 before the stream starts [anthropic-messages.tools.stream -]', async () => {
    const session = await mock.session('tools-stream-bad');
    session.scenario('weather').callsTool('weather', { city: 75001 }, 'toolu_zip');
    const helper = v1(session).messages.stream(ask('Weather?', { tools: [weatherTool] }));
    const error = await conflict(helper.finalMessage(), 'fixture_mismatch', '/city', 'must be string');
    assert.match((error.error as { error: { message: string } }).error.message, /tool call #1 \("weather"\)/);
    const { entries, counters } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.stream]),
      [[409, true]],
    );
    assert.deepEqual([counters.mismatched, counters.matched], [1, 0]);
  });

  test('two parallel tool calls: distinct indexes in the stream, both blocks in the message', async () => {
    const session = await mock.session('tools-parallel');
    session.scenario('both').callsTools([
      { id: 'toolu_a', name: 'weather', arguments: { city: 'Paris' } },
      { id: 'toolu_b', name: 'time', arguments: { city: 'Paris' } },
    ]);
    const final = await v1(session)
      .messages.stream(ask('Weather and time in Paris?', { tools: [weatherTool, timeTool] }))
      .finalMessage();
    assert.deepEqual(
      final.content.map((b) => (b.type === 'tool_use' ? [b.id, b.name, b.input] : b.type)),
      [
        ['toolu_a', 'weather', { city: 'Paris' }],
        ['toolu_b', 'time', { city: 'Paris' }],
      ],
    );
    const { entries } = await session.journal();
    assert.equal(entries[0].reply?.toolCalls.length, 2);
  });
});

// ------------------------------------------------------------------ contract failures

describe('contract failures answer 409 fixture_mismatch and consume nothing', () => {
  async function mismatch(name: string, reply: Reply, bad: Params, good: Params, ...mentions: string[]) {
    const session = await mock.session(name);
    session.scenario('s').reply(reply);
    const client = v1(session);
    await conflict(client.messages.create(bad), 'fixture_mismatch', ...mentions);
    const ok = await client.messages.create(good);
    const { counters } = await session.journal();
    assert.deepEqual([counters.mismatched, counters.matched], [1, 1]);
    return ok;
  }

  test('a call to a tool the request does not declare [anthropic-messages.tools.json -]', async () => {
    const ok = await mismatch(
      'mismatch-undeclared',
      { toolCalls: [{ id: 'toolu_t', name: 'time', arguments: { city: 'Oslo' } }] },
      ask('Time?', { tools: [weatherTool] }),
      ask('Time?', { tools: [weatherTool, timeTool] }),
      'tool "time" is not declared',
      'declared tools: weather',
    );
    assert.equal(ok.content[0].type, 'tool_use');
  });

  test('arguments that fail the declared input_schema', async () => {
    await mismatch(
      'mismatch-args',
      { toolCalls: [{ id: 'toolu_w', name: 'weather', arguments: { city: 'Paris', unit: 'kelvin' } }] },
      ask('Weather?', { tools: [weatherTool] }),
      ask('Weather?', { tools: [{ ...weatherTool, input_schema: { type: 'object', properties: { city: { type: 'string' } } } }] }),
      '/unit',
    );
  });

  test('JSON text that fails the output_config.format schema [anthropic-messages.structured.json -]', async () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };
    await mismatch(
      'mismatch-json',
      { json: { answer: 42 } },
      ask('Capital?', { output_config: { format: { type: 'json_schema', schema } } }),
      ask('Capital?'),
      'does not match the requested output schema',
      '/answer',
    );
  });

  test('two calls when disable_parallel_tool_use is true', async () => {
    await mismatch(
      'mismatch-parallel',
      {
        toolCalls: [
          { id: 'toolu_1', name: 'weather', arguments: { city: 'Paris' } },
          { id: 'toolu_2', name: 'weather', arguments: { city: 'Rome' } },
        ],
      },
      ask('Weather in Paris and Rome?', { tools: [weatherTool], tool_choice: { type: 'auto', disable_parallel_tool_use: true } }),
      ask('Weather in Paris and Rome?', { tools: [weatherTool], tool_choice: { type: 'auto' } }),
      'disables parallel tool calls',
    );
  });

  test('tool_choice "tool" naming another tool than the scripted call', async () => {
    await mismatch(
      'mismatch-named',
      { toolCalls: [{ id: 'toolu_w', name: 'weather', arguments: { city: 'Paris' } }] },
      ask('Time?', { tools: [weatherTool, timeTool], tool_choice: { type: 'tool', name: 'time' } }),
      ask('Time?', { tools: [weatherTool, timeTool], tool_choice: { type: 'tool', name: 'weather' } }),
      'requires tool "time"',
    );
  });

  test('tool_choice "none" with a tool-call reply', async () => {
    await mismatch(
      'mismatch-none',
      { toolCalls: [{ id: 'toolu_w', name: 'weather', arguments: { city: 'Paris' } }] },
      ask('Weather?', { tools: [weatherTool], tool_choice: { type: 'none' } }),
      ask('Weather?', { tools: [weatherTool], tool_choice: { type: 'any' } }),
      'tool choice "none"',
    );
  });
});

// ------------------------------------------------------------------ structured output

const Capital = z.object({ answer: z.string() });

test('structured output through output_config.format: messages.parse() with zodOutputFormat [anthropic-messages.structured.json +]', async () => {
  const session = await mock.session('structured-json');
  session.scenario('capital').repliesJson({ answer: 'Paris' });
  const message = await v1(session).messages.parse(ask('Capital of France?', { output_config: { format: zodOutputFormat(Capital) } }));
  assert.deepEqual(message.parsed_output, { answer: 'Paris' });
  assert.equal(textOf(message), '{"answer":"Paris"}');
  const request = lastRequest(await session.journal());
  assert.equal(request.output.type, 'json_schema');
  assert.ok(request.output.type === 'json_schema' && typeof request.output.schema === 'object');
});

test('structured output streamed through messages.stream() [anthropic-messages.structured.stream +]', async () => {
  const session = await mock.session('structured-stream');
  session.scenario('capital').repliesJson({ answer: 'Paris' });
  const helper = v1(session).messages.stream(ask('Capital of France?', { output_config: { format: zodOutputFormat(Capital) } }));
  const final = await helper.finalMessage();
  assert.deepEqual(JSON.parse(textOf(final)), { answer: 'Paris' });
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream, e.request?.output.type]),
    [[200, true, 'json_schema']],
  );
});

test('streamed text that is not JSON under output_config.format: 409 before the stream starts [anthropic-messages.structured.stream -]', async () => {
  const session = await mock.session('structured-stream-bad');
  session.scenario('capital').replies('Paris, obviously.');
  const helper = v1(session).messages.stream(ask('Capital?', { output_config: { format: zodOutputFormat(Capital) } }));
  await conflict(helper.finalMessage(), 'fixture_mismatch', 'not valid JSON');
  const { counters } = await session.journal();
  assert.deepEqual([counters.mismatched, counters.matched], [1, 0]);
});

// ------------------------------------------------------------------ thinking

test('a reply with reasoning becomes a thinking block with a signature, and comes back as reasoning [anthropic-messages.thinking.json +]', async () => {
  const session = await mock.session('thinking-json');
  session.scenario('think').reply({ reasoning: 'The user greets me; greet back.', text: 'Hello!' }).replies('Still here.');
  const client = v1(session);
  const params = ask('Hi', { max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 1024 } });
  const first = await client.messages.create(params);
  assert.equal(first.content.length, 2);
  const [thinking, text] = first.content;
  assert.ok(thinking.type === 'thinking');
  assert.equal(thinking.thinking, 'The user greets me; greet back.');
  assert.ok(thinking.signature.length > 0);
  assert.deepEqual(text, { type: 'text', text: 'Hello!' });

  const second = await client.messages.create({
    ...params,
    messages: [...params.messages, { role: 'assistant', content: first.content }, { role: 'user', content: 'Are you there?' }],
  });
  assert.equal(textOf(second), 'Still here.');
  const request = lastRequest(await session.journal());
  assert.deepEqual(request.messages[1].parts, [
    { type: 'reasoning', text: 'The user greets me; greet back.' },
    { type: 'text', text: 'Hello!' },
  ]);
});

test('thinking streamed: thinking_delta pieces, then signature_delta, then the text [anthropic-messages.thinking.stream +]', async () => {
  const session = await mock.session('thinking-stream');
  session.scenario('think').reply({ reasoning: 'Two plus two is four, surely.', text: '4' });
  const helper = v1(session).messages.stream(ask('2+2?', { max_tokens: 4000, thinking: { type: 'enabled', budget_tokens: 2048 } }));
  const pieces: string[] = [];
  const signatures: string[] = [];
  helper.on('thinking', (delta) => pieces.push(delta));
  helper.on('signature', (signature) => signatures.push(signature));
  const final = await helper.finalMessage();
  assert.ok(pieces.length > 1);
  assert.equal(pieces.join(''), 'Two plus two is four, surely.');
  assert.equal(signatures.length, 1);
  const [thinking, text] = final.content;
  assert.ok(thinking.type === 'thinking');
  assert.equal(thinking.signature, signatures[0]);
  assert.deepEqual(text, { type: 'text', text: '4' });
  const { entries } = await session.journal();
  assert.equal(entries[0].reply?.reasoning, 'Two plus two is four, surely.');
});

test('thinking requests the API refuses: budget below 1024, a forced tool choice [anthropic-messages.thinking.json -]', async () => {
  const session = await mock.session('thinking-bad');
  session.scenario('think').reply({ reasoning: 'hmm', text: 'ok' });
  const client = v1(session);
  const low = await client.messages
    .create(ask('Hi', { max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 500 } }))
    .catch((e: unknown) => e);
  assert.ok(low instanceof Anthropic.BadRequestError, String(low));
  assert.equal(low.type, 'invalid_request_error');
  assert.match(low.message, /thinking\.enabled\.budget_tokens: Input should be greater than or equal to 1024/);
  const forced = await client.messages
    .create(
      ask('Hi', {
        max_tokens: 2000,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        tools: [weatherTool],
        tool_choice: { type: 'any' },
      }),
    )
    .catch((e: unknown) => e);
  assert.ok(forced instanceof Anthropic.BadRequestError);
  assert.match(forced.message, /Thinking may not be enabled when tool_choice forces tool use/);
  const { counters } = await session.journal();
  assert.deepEqual([counters.invalid, counters.matched], [2, 0]);
});

test('thinking streamed with max_tokens not above the budget gets 400 from the stream helper [anthropic-messages.thinking.stream -]', async () => {
  const session = await mock.session('thinking-stream-bad');
  session.scenario('think').reply({ reasoning: 'hmm', text: 'ok' });
  const helper = v1(session).messages.stream(ask('Hi', { max_tokens: 1024, thinking: { type: 'enabled', budget_tokens: 1024 } }));
  const error = await helper.finalMessage().catch((e: unknown) => e);
  assert.ok(error instanceof Anthropic.BadRequestError, String(error));
  assert.match(error.message, /`max_tokens` must be greater than `thinking.budget_tokens`/);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.status),
    [400],
  );
});

// ------------------------------------------------------------------ zero-config

test('zero-config: a tool call for the first declared tool, text after its result, again on a new user turn; text without tools [anthropic-messages.zero-config.json +]', async () => {
  const session = await mock.session('zero-config', { fallback: 'auto' });
  const client = v0(session);
  const params = old(ask('Weather?', { tools: [weatherTool, timeTool] }));
  const first = await client.messages.create(params);
  assert.equal(first.stop_reason, 'tool_use');
  assert.equal(first.content.length, 1);
  const use = first.content[0];
  assert.ok(use.type === 'tool_use');
  // The smallest input the tool's schema accepts: its one required property, an empty string.
  assert.deepEqual([use.name, use.input], ['weather', { city: '' }]);
  assert.match(use.id, /^[a-zA-Z0-9_-]+$/);

  const history: Anthropic0x.MessageParam[] = [
    ...params.messages,
    { role: 'assistant', content: [{ type: 'tool_use', id: use.id, name: use.name, input: use.input }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'sunny' }] },
  ];
  const second = await client.messages.create({ ...params, messages: history });
  assert.equal(textOf(second), ZERO_CONFIG_TEXT);
  assert.equal(second.stop_reason, 'end_turn');

  const third = await client.messages.create({
    ...params,
    messages: [...history, { role: 'assistant', content: ZERO_CONFIG_TEXT }, { role: 'user', content: 'And tomorrow?' }],
  });
  assert.equal(third.content[0].type, 'tool_use');
  const plain = await client.messages.create(old(ask('Hello')));
  assert.equal(textOf(plain), ZERO_CONFIG_TEXT);

  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.source]),
    [
      [200, 'zero_config'],
      [200, 'zero_config'],
      [200, 'zero_config'],
      [200, 'zero_config'],
    ],
  );
});

test('zero-config streamed: the tool call arrives as one input_json_delta, then text after the result [anthropic-messages.zero-config.stream +]', async () => {
  const session = await mock.session('zero-config-stream', { fallback: 'auto' });
  const events = await sse(await post(session, { ...ask('Weather?', { tools: [weatherTool] }), stream: true }));
  const jsonDeltas = events.filter(([, d]) => (d.delta as { type?: string } | undefined)?.type === 'input_json_delta');
  assert.equal(jsonDeltas.length, 1);
  assert.equal((jsonDeltas[0][1].delta as { partial_json: string }).partial_json, '{"city":""}');
  const start = events.find(([name]) => name === 'content_block_start')?.[1].content_block as { type: string; id: string; name: string };
  assert.deepEqual([start.type, start.name], ['tool_use', 'weather']);

  const final = await v1(session)
    .messages.stream(
      ask('Weather?', {
        tools: [weatherTool],
        messages: [
          { role: 'user', content: 'Weather?' },
          { role: 'assistant', content: [{ type: 'tool_use', id: start.id, name: 'weather', input: { city: '' } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: start.id, content: 'sunny' }] },
        ],
      }),
    )
    .finalMessage();
  assert.equal(textOf(final), ZERO_CONFIG_TEXT);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream, e.source]),
    [
      [200, true, 'zero_config'],
      [200, true, 'zero_config'],
    ],
  );
});

test('zero-config never calls a tool it may not call, still validates the wire, and is opt-in [anthropic-messages.zero-config.json -]', async () => {
  const session = await mock.session('zero-config-none', { fallback: 'auto' });
  const client = v1(session);
  const none = await client.messages.create(ask('Weather?', { tools: [weatherTool], tool_choice: { type: 'none' } }));
  assert.deepEqual(none.content, [{ type: 'text', text: ZERO_CONFIG_TEXT }]);
  const invalid = await client.messages.create({ ...ask('Weather?'), max_tokens: undefined } as unknown as Params).catch((e: unknown) => e);
  assert.ok(invalid instanceof Anthropic.BadRequestError);
  assert.match(invalid.message, /max_tokens: Field required/);

  const strict = await mock.session('zero-config-off');
  const refused = await v1(strict)
    .messages.create(ask('Weather?', { tools: [weatherTool] }))
    .catch((e: unknown) => e);
  await conflict(Promise.reject(refused), 'no_match');
  // A strict session wants the anthropic-version header the real API requires.
  const headerless = await post(strict, ask('Hi'), { 'anthropic-version': '' });
  assert.equal(headerless.status, 400);
  assert.deepEqual(await headerless.json(), {
    type: 'error',
    error: { type: 'invalid_request_error', message: 'anthropic-version: header is required' },
    request_id: headerless.headers.get('request-id'),
  });
  const { counters } = await session.journal();
  assert.equal(counters.invalid, 1);
});

test('zero-config streamed: no tool-call block under tool_choice none, and a malformed stream request gets 400 [anthropic-messages.zero-config.stream -]', async () => {
  const session = await mock.session('zero-config-stream-none', { fallback: 'auto' });
  const events = await sse(
    await post(session, { ...ask('Weather?', { tools: [weatherTool], tool_choice: { type: 'none' } }), stream: true }),
  );
  const blocks = events.filter(([name]) => name === 'content_block_start').map(([, d]) => (d.content_block as { type: string }).type);
  assert.deepEqual(blocks, ['text']);
  const helper = v1(session).messages.stream({ ...ask('Hi'), messages: [] });
  const error = await helper.finalMessage().catch((e: unknown) => e);
  assert.ok(error instanceof Anthropic.BadRequestError, String(error));
  assert.match(error.message, /messages: at least one message is required/);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.status),
    [200, 400],
  );
});

describe('the seed example (VidaiMock’s Anthropic curl) against a zero-config default session', () => {
  // Sent verbatim: no API key, no anthropic-version header, only Content-Type.
  const SEED_BODY = `{"model": "claude", "max_tokens": 200,
       "messages": [{"role": "user", "content": "Weather?"}],
       "tools": [{"name": "get_weather", "description": "x",
                  "input_schema": {"type": "object"}}]}`;

  test('returns a tool_use block for get_weather with caller.type "direct" [anthropic-messages.zero-config.json +]', async () => {
    const server = await startUnderstudy({ defaultSession: { fallback: 'auto' } });
    try {
      const response = await fetch(`${server.baseUrl}/v1/messages`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: SEED_BODY,
      });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'application/json');
      const body = (await response.json()) as Anthropic.Message;
      assert.equal(body.type, 'message');
      assert.equal(body.stop_reason, 'tool_use');
      assert.equal(body.content.length, 1);
      const use = body.content[0];
      assert.ok(use.type === 'tool_use');
      assert.equal(use.name, 'get_weather');
      assert.deepEqual(use.input, {});
      assert.deepEqual(use.caller, { type: 'direct' });
      const { entries } = await server.defaultSession.journal();
      assert.deepEqual(
        entries.map((e) => [e.status, e.source, e.request?.tools[0].name]),
        [[200, 'zero_config', 'get_weather']],
      );
    } finally {
      await server.close();
    }
  });

  test('a strict default session answers the same bytes with the 400 the real API gives without the header', async () => {
    const server = await startUnderstudy();
    try {
      const response = await fetch(`${server.baseUrl}/v1/messages`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: SEED_BODY,
      });
      assert.equal(response.status, 400);
      const body = (await response.json()) as { error: { type: string; message: string } };
      assert.deepEqual(body.error, { type: 'invalid_request_error', message: 'anthropic-version: header is required' });
    } finally {
      await server.close();
    }
  });
});

// cohere-ai 8.1.0's CohereClientV2 against the Cohere v2 Chat dialect: chat and chatStream, a tool
// round with its tool plan, tool_choice REQUIRED and NONE held by the contract check, json_object
// with a schema, a 409 that consumes nothing, Cohere's 400 for a malformed request, and scripted
// errors as the SDK's own classes.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { Cohere, CohereClientV2, CohereError } from 'cohere-ai';
import fc from 'fast-check';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { ZERO_CONFIG_TEXT } from '../src/engine/zero-config.js';

const MODEL = 'command-a-03-2025';
const WEATHER: Cohere.ToolV2 = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  },
};
const PLAN = 'I will look up the weather in Paris.';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

function client(session: UnderstudySession): CohereClientV2 {
  return new CohereClientV2({ token: session.apiKey, environment: mock.url('cohere'), maxRetries: 0, timeoutInSeconds: 10 });
}

async function rejection(promise: Promise<unknown>): Promise<CohereError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  assert.ok('error' in outcome, `expected the SDK to throw, it returned ${JSON.stringify(outcome)}`);
  assert.ok(outcome.error instanceof CohereError, `a CohereError: ${String(outcome.error)}`);
  return outcome.error;
}

interface Streamed {
  types: string[];
  text: string;
  plan: string;
  calls: { id?: string; name?: string; arguments: string }[];
  finish: string | undefined;
  usage: Cohere.Usage | undefined;
}

async function readStream(stream: AsyncIterable<Cohere.V2ChatStreamResponse>): Promise<Streamed> {
  const out: Streamed = { types: [], text: '', plan: '', calls: [], finish: undefined, usage: undefined };
  for await (const event of stream) {
    out.types.push(event.type);
    if (event.type === 'content-delta') out.text += event.delta?.message?.content?.text ?? '';
    if (event.type === 'tool-plan-delta') out.plan += event.delta?.message?.toolPlan ?? '';
    if (event.type === 'tool-call-start') {
      const call = event.delta?.message?.toolCalls;
      out.calls.push({ id: call?.id, name: call?.function?.name, arguments: call?.function?.arguments ?? '' });
    }
    if (event.type === 'tool-call-delta')
      out.calls[out.calls.length - 1].arguments += event.delta?.message?.toolCalls?.function?.arguments ?? '';
    if (event.type === 'message-end') {
      out.finish = event.delta?.finishReason;
      out.usage = event.delta?.usage;
    }
  }
  return out;
}

describe('cohere-ai CohereClientV2: text', () => {
  test('chat answers the scripted text with usage in tokens and billed_units [cohere-chat.text.json +]', async () => {
    const session = await mock.session('cohere-text-json');
    session.scenario('hello').whenLatestUser({ contains: 'Hello' }).replies('Hello from Understudy.');
    const response = await client(session).chat({
      model: MODEL,
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'Hello' },
      ],
    });
    assert.equal(response.finishReason, 'COMPLETE');
    assert.deepEqual(response.message.content, [{ type: 'text', text: 'Hello from Understudy.' }]);
    assert.match(response.id, /^c-/);
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.operation, e.route, e.status, e.stream]),
      [['cohere.chat', 'POST /v2/chat', 200, false]],
    );
    assert.deepEqual(
      entries[0].request?.messages.map((m) => m.role),
      ['system', 'user'],
    );
    assert.equal(response.usage?.tokens?.inputTokens, entries[0].reply?.usage.inputTokens);
    assert.equal(response.usage?.tokens?.outputTokens, entries[0].reply?.usage.outputTokens);
    assert.equal(response.usage?.billedUnits?.outputTokens, entries[0].reply?.usage.outputTokens);
    await session.verify();
  });

  test("chat: an unknown top-level field is refused with Cohere's 400 and consumes nothing [cohere-chat.text.json -]", async () => {
    const session = await mock.session('cohere-text-json-bad');
    session.scenario('kept').replies('kept');
    const request = { model: MODEL, messages: [{ role: 'user' as const, content: 'Hello' }], preamble: 'v1 only' } as Cohere.V2ChatRequest;
    const error = await rejection(client(session).chat(request));
    assert.equal(error.constructor.name, 'BadRequestError');
    assert.equal(error.statusCode, 400);
    const body = error.body as { id: string; message: string };
    assert.equal(body.message, 'invalid request: unknown field: parameter preamble is not a valid field');
    assert.match(body.id, /^req_/);
    const after = await client(session).chat({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] });
    assert.deepEqual(after.message.content, [{ type: 'text', text: 'kept' }]);
  });

  test("chatStream delivers Cohere's events, one content-delta per chunk, then message-end [cohere-chat.text.stream +]", async () => {
    const session = await mock.session('cohere-text-stream');
    session.scenario('hello').replies('Hello from Understudy.').inChunks(['Hello ', 'from ', 'Understudy.']);
    const streamed = await readStream(await client(session).chatStream({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }));
    assert.deepEqual(streamed.types, [
      'message-start',
      'content-start',
      'content-delta',
      'content-delta',
      'content-delta',
      'content-end',
      'message-end',
    ]);
    assert.equal(streamed.text, 'Hello from Understudy.');
    assert.equal(streamed.finish, 'COMPLETE');
    const { entries } = await session.journal();
    assert.deepEqual([entries[0].status, entries[0].stream], [200, true]);
    assert.equal(streamed.usage?.tokens?.outputTokens, entries[0].reply?.usage.outputTokens);
  });

  test('chatStream: text holding [DONE] arrives whole, though cohere-ai stops at any data line with it [cohere-chat.text.stream +]', async () => {
    const session = await mock.session('cohere-text-done');
    session.scenario('done').replies('Say [DONE] when finished.').inChunks(['Say [DONE] ', 'when finished.']);
    const streamed = await readStream(await client(session).chatStream({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }));
    assert.equal(streamed.text, 'Say [DONE] when finished.');
    assert.equal(streamed.finish, 'COMPLETE');
  });

  test("chatStream: a wrong-valued safety_mode is Cohere's 400 before any event, nothing consumed [cohere-chat.text.stream -]", async () => {
    const session = await mock.session('cohere-text-stream-bad');
    session.scenario('kept').replies('kept');
    const error = await rejection(
      client(session).chatStream({
        model: MODEL,
        messages: [{ role: 'user', content: 'Hello' }],
        safetyMode: 'LOUD' as Cohere.V2ChatStreamRequestSafetyMode,
      }),
    );
    assert.equal(error.constructor.name, 'BadRequestError');
    assert.equal((error.body as { message: string }).message, 'invalid request: safety_mode must be one of: CONTEXTUAL, STRICT, OFF');
    const { entries, counters } = await session.journal();
    assert.deepEqual([entries[0].status, entries[0].stream, entries[0].step, counters.invalid], [400, true, undefined, 1]);
    const streamed = await readStream(await client(session).chatStream({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }));
    assert.equal(streamed.text, 'kept');
  });
});

describe('cohere-ai CohereClientV2: a tool round with a tool plan', () => {
  function script(session: UnderstudySession) {
    session
      .scenario('weather')
      .whenLatestUser({ contains: 'Paris' })
      .reply({ reasoning: PLAN, toolCalls: [{ id: 'get_weather_1', name: 'get_weather', arguments: { city: 'Paris' } }] })
      .thenWhenToolResult('get_weather', 'get_weather_1')
      .replies('Paris is sunny, 21 °C.');
  }

  /** The turns after the call, as a Cohere app sends them: the assistant's plan and call echoed, then the result. */
  function secondTurn(plan: string, call: { id: string; name: string; arguments: string }): Cohere.ChatMessages {
    return [
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        toolPlan: plan,
        toolCalls: [{ id: call.id!, type: 'function', function: { name: call.name!, arguments: call.arguments } }],
      },
      {
        role: 'tool',
        toolCallId: call.id,
        content: [{ type: 'document', document: { data: { city: 'Paris', sky: 'sunny', celsius: 21 } } }],
      },
    ];
  }

  async function checkJournal(session: UnderstudySession) {
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.step]),
      [
        [200, 'step-1'],
        [200, 'step-2'],
      ],
    );
    const second = entries[1].request!;
    assert.deepEqual(
      second.messages.map((m) => m.role),
      ['user', 'assistant', 'tool'],
    );
    assert.deepEqual(second.messages[1].parts[0], { type: 'reasoning', text: PLAN });
    const result = second.messages[2].parts[0];
    assert.ok(result.type === 'tool_result');
    assert.deepEqual([result.callId, result.name], ['get_weather_1', 'get_weather']);
    assert.deepEqual(JSON.parse(result.content), { city: 'Paris', sky: 'sunny', celsius: 21 });
    await session.verify();
  }

  test('chat: tool_plan and tool_calls, then the answer to the tool result [cohere-chat.tools.json +]', async () => {
    const session = await mock.session('cohere-tools-json');
    script(session);
    const co = client(session);
    const first = await co.chat({ model: MODEL, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [WEATHER] });
    assert.equal(first.finishReason, 'TOOL_CALL');
    assert.equal(first.message.toolPlan, PLAN);
    assert.deepEqual(first.message.toolCalls, [
      { id: 'get_weather_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
    ]);
    const call = first.message.toolCalls![0];
    const second = await co.chat({
      model: MODEL,
      messages: secondTurn(first.message.toolPlan!, { id: call.id, name: call.function!.name!, arguments: call.function!.arguments! }),
      tools: [WEATHER],
    });
    assert.equal(second.finishReason, 'COMPLETE');
    assert.deepEqual(second.message.content, [{ type: 'text', text: 'Paris is sunny, 21 °C.' }]);
    await checkJournal(session);
  });

  test('chat: a scripted call whose arguments break the declared schema is a 409, not consumed [cohere-chat.tools.json -]', async () => {
    const session = await mock.session('cohere-tools-json-bad');
    session.scenario('careless').callsTool('get_weather', { town: 'Paris' }, 'get_weather_1');
    const error = await rejection(
      client(session).chat({ model: MODEL, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [WEATHER] }),
    );
    assert.equal(error.statusCode, 409);
    assert.equal(error.constructor.name, 'CohereError');
    const body = error.body as { message: string; code: string };
    assert.equal(body.code, 'fixture_mismatch');
    assert.match(body.message, /get_weather/);
    const report = await session.check();
    assert.equal(report.ok, false, 'the refused step is still unused');
  });

  test('chatStream: tool-plan-delta, tool-call-start/-delta/-end, then the answer [cohere-chat.tools.stream +]', async () => {
    const session = await mock.session('cohere-tools-stream');
    script(session);
    const co = client(session);
    const first = await readStream(
      await co.chatStream({ model: MODEL, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [WEATHER] }),
    );
    assert.equal(first.types[0], 'message-start');
    assert.ok(first.types.includes('tool-plan-delta') && first.types.includes('tool-call-end'), first.types.join(' '));
    assert.equal(first.plan, PLAN);
    assert.deepEqual(first.calls, [{ id: 'get_weather_1', name: 'get_weather', arguments: '{"city":"Paris"}' }]);
    assert.equal(first.finish, 'TOOL_CALL');
    const call = first.calls[0];
    const second = await readStream(
      await co.chatStream({
        model: MODEL,
        messages: secondTurn(first.plan, { id: call.id!, name: call.name!, arguments: call.arguments }),
        tools: [WEATHER],
      }),
    );
    assert.equal(second.text, 'Paris is sunny, 21 °C.');
    await checkJournal(session);
  });

  test("chatStream: a tool turn answering no earlier call is Cohere's 400 [cohere-chat.tools.stream -]", async () => {
    const session = await mock.session('cohere-tools-stream-bad');
    session.scenario('kept').replies('kept');
    const error = await rejection(
      client(session).chatStream({
        model: MODEL,
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          { role: 'tool', toolCallId: 'nowhere', content: 'sunny' },
        ],
        tools: [WEATHER],
      }),
    );
    assert.equal(error.constructor.name, 'BadRequestError');
    assert.match((error.body as { message: string }).message, /^invalid request: tool_call_id 'nowhere' does not match/);
    const { entries } = await session.journal();
    assert.deepEqual([entries[0].status, entries[0].step], [400, undefined]);
  });

  test('zero-config: a request with tools gets a call of the declared tool and a default tool plan [cohere-chat.zero-config.json +]', async () => {
    const session = await mock.session('cohere-zero-config', { fallback: 'auto' });
    const response = await client(session).chat({
      model: MODEL,
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [WEATHER],
    });
    assert.equal(response.message.toolPlan, 'I will call get_weather.');
    assert.equal(response.message.toolCalls?.[0].function?.name, 'get_weather');
    assert.equal(typeof (JSON.parse(response.message.toolCalls![0].function!.arguments!) as { city: unknown }).city, 'string');
    const streamed = await readStream(
      await client(session).chatStream({ model: MODEL, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [WEATHER] }),
    );
    assert.equal(streamed.plan, 'I will call get_weather.');
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => e.source),
      ['zero_config', 'zero_config'],
    );
  });

  test('zero-config streamed: the call whole in one tool-call-delta, then the sentence once its result is back [cohere-chat.zero-config.stream +]', async () => {
    const session = await mock.session('cohere-zero-config-stream', { fallback: 'auto' });
    const ask = [{ role: 'user' as const, content: 'Weather in Paris?' }];
    const first = await readStream(await client(session).chatStream({ model: MODEL, messages: ask, tools: [WEATHER] }));
    assert.equal(first.calls.length, 1);
    assert.equal(first.types.filter((t) => t === 'tool-call-delta').length, 1, `events: ${first.types.join(' ')}`);
    const [call] = first.calls;
    assert.equal(typeof (JSON.parse(call.arguments) as { city: unknown }).city, 'string');
    assert.equal(first.finish, 'TOOL_CALL');
    const second = await readStream(
      await client(session).chatStream({
        model: MODEL,
        messages: [
          ...ask,
          {
            role: 'assistant',
            toolPlan: first.plan,
            toolCalls: [{ id: call.id!, type: 'function', function: { name: call.name!, arguments: call.arguments } }],
          },
          { role: 'tool', toolCallId: call.id!, content: '{"sky":"sunny"}' },
        ],
        tools: [WEATHER],
      }),
    );
    assert.equal(second.text, ZERO_CONFIG_TEXT);
    assert.deepEqual([second.calls.length, second.finish], [0, 'COMPLETE']);
  });

  test('zero-config streamed, off: an unscripted stream request is a 409 no_match before any event [cohere-chat.zero-config.stream -]', async () => {
    const session = await mock.session('cohere-zero-config-stream-off');
    const error = await rejection(
      client(session).chatStream({ model: MODEL, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [WEATHER] }),
    );
    assert.equal(error.statusCode, 409);
    assert.equal((error.body as { code: string }).code, 'no_match');
  });

  test('zero-config: a scripted-free session without fallback answers 409 no_match [cohere-chat.zero-config.json -]', async () => {
    const session = await mock.session('cohere-zero-config-off');
    const error = await rejection(
      client(session).chat({ model: MODEL, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [WEATHER] }),
    );
    assert.equal(error.statusCode, 409);
    assert.equal((error.body as { code: string }).code, 'no_match');
  });
});

describe('cohere-ai CohereClientV2: tool_choice REQUIRED and NONE', () => {
  test('REQUIRED: zero-config calls a tool, a script calling one passes, strict_tools is journalled [cohere-chat.tool-choice.json +]', async () => {
    const scripted = await mock.session('cohere-required');
    scripted.scenario('calls').callsTool('get_weather', { city: 'Paris' }, 'get_weather_9');
    const answer = await client(scripted).chat({
      model: MODEL,
      messages: [{ role: 'user', content: 'Paris?' }],
      tools: [WEATHER],
      toolChoice: 'REQUIRED',
      strictTools: true,
    });
    assert.equal(answer.message.toolCalls?.[0].id, 'get_weather_9');
    const [entry] = (await scripted.journal()).entries;
    assert.deepEqual(entry.request?.toolChoice, { type: 'required' });
    assert.equal(entry.request?.tools[0].strict, true);
    const session = await mock.session('cohere-required-zero', { fallback: 'auto' });
    const co = client(session);
    const zero = await co.chat({ model: MODEL, messages: [{ role: 'user', content: 'Paris?' }], tools: [WEATHER], toolChoice: 'REQUIRED' });
    assert.equal(zero.finishReason, 'TOOL_CALL');
    const none = await co.chat({ model: MODEL, messages: [{ role: 'user', content: 'Paris?' }], tools: [WEATHER], toolChoice: 'NONE' });
    assert.equal(none.finishReason, 'COMPLETE');
    assert.deepEqual(none.message.toolCalls, undefined);
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => e.request?.toolChoice),
      [{ type: 'required' }, { type: 'none' }],
    );
  });

  test('REQUIRED refuses a scripted text reply and NONE a scripted call, with 409s that consume nothing [cohere-chat.tool-choice.json -]', async () => {
    const session = await mock.session('cohere-required-bad');
    session.scenario('talks').replies('No tools today.');
    const co = client(session);
    const required = await rejection(
      co.chat({ model: MODEL, messages: [{ role: 'user', content: 'Paris?' }], tools: [WEATHER], toolChoice: 'REQUIRED' }),
    );
    assert.equal(required.statusCode, 409);
    assert.match((required.body as { message: string }).message, /requires a tool call/);
    const other = await mock.session('cohere-none-bad');
    other.scenario('calls').callsTool('get_weather', { city: 'Paris' }, 'get_weather_9');
    const none = await rejection(
      client(other).chat({ model: MODEL, messages: [{ role: 'user', content: 'Paris?' }], tools: [WEATHER], toolChoice: 'NONE' }),
    );
    assert.equal(none.statusCode, 409);
    assert.equal((none.body as { code: string }).code, 'fixture_mismatch');
    // Neither reply was consumed: each still answers a request that allows it.
    const text = await co.chat({ model: MODEL, messages: [{ role: 'user', content: 'Paris?' }], tools: [WEATHER] });
    assert.deepEqual(text.message.content, [{ type: 'text', text: 'No tools today.' }]);
    const call = await client(other).chat({ model: MODEL, messages: [{ role: 'user', content: 'Paris?' }], tools: [WEATHER] });
    assert.equal(call.message.toolCalls?.[0].id, 'get_weather_9');
    // Without tools, Cohere's tool_choice is refused as malformed.
    const alone = await rejection(co.chat({ model: MODEL, messages: [{ role: 'user', content: 'Paris?' }], toolChoice: 'REQUIRED' }));
    assert.equal(alone.statusCode, 400);
  });

  test('chatStream under REQUIRED streams the call [cohere-chat.tool-choice.stream +]', async () => {
    const session = await mock.session('cohere-required-stream');
    session
      .scenario('calls')
      .reply({ reasoning: PLAN, toolCalls: [{ id: 'get_weather_3', name: 'get_weather', arguments: { city: 'Paris' } }] });
    const streamed = await readStream(
      await client(session).chatStream({
        model: MODEL,
        messages: [{ role: 'user', content: 'Paris?' }],
        tools: [WEATHER],
        toolChoice: 'REQUIRED',
      }),
    );
    assert.deepEqual(streamed.calls, [{ id: 'get_weather_3', name: 'get_weather', arguments: '{"city":"Paris"}' }]);
  });

  test('chatStream under NONE refuses a scripted call before any event [cohere-chat.tool-choice.stream -]', async () => {
    const session = await mock.session('cohere-none-stream');
    session.scenario('calls').callsTool('get_weather', { city: 'Paris' }, 'get_weather_3');
    const error = await rejection(
      client(session).chatStream({ model: MODEL, messages: [{ role: 'user', content: 'Paris?' }], tools: [WEATHER], toolChoice: 'NONE' }),
    );
    assert.equal(error.statusCode, 409);
    const { entries } = await session.journal();
    assert.deepEqual([entries[0].status, entries[0].error?.code, entries[0].stream], [409, 'fixture_mismatch', true]);
  });
});

describe('cohere-ai CohereClientV2: json_object with a schema', () => {
  const CAPITAL = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };

  test('a scripted JSON value valid against json_schema is the answer text, JSON and stream [cohere-chat.structured.json +] [cohere-chat.structured.stream +]', async () => {
    const session = await mock.session('cohere-structured');
    session.scenario('capital').onExhausted('repeat_last').repliesJson({ answer: 'Paris' });
    const co = client(session);
    const request = {
      model: MODEL,
      messages: [{ role: 'user' as const, content: 'Capital?' }],
      responseFormat: { type: 'json_object' as const, jsonSchema: CAPITAL },
    };
    const response = await co.chat(request);
    assert.deepEqual(response.message.content, [{ type: 'text', text: '{"answer":"Paris"}' }]);
    const streamed = await readStream(await co.chatStream(request));
    assert.deepEqual(JSON.parse(streamed.text), { answer: 'Paris' });
    const { entries } = await session.journal();
    assert.deepEqual(entries[0].request?.output, { type: 'json_schema', schema: CAPITAL, strict: true });
  });

  test('a scripted JSON value failing json_schema is a 409, not consumed; a schema that does not compile is a 400 [cohere-chat.structured.json -] [cohere-chat.structured.stream -]', async () => {
    const session = await mock.session('cohere-structured-bad');
    session.scenario('wrong').repliesJson({ answer: 42 });
    const co = client(session);
    const request = {
      model: MODEL,
      messages: [{ role: 'user' as const, content: 'Capital?' }],
      responseFormat: { type: 'json_object' as const, jsonSchema: CAPITAL },
    };
    const json = await rejection(co.chat(request));
    assert.equal(json.statusCode, 409);
    const stream = await rejection(co.chatStream(request));
    assert.equal(stream.statusCode, 409);
    // Plain json_object takes any JSON object: the same step answers, it was never consumed.
    const plain = await co.chat({ ...request, responseFormat: { type: 'json_object' } });
    assert.deepEqual(plain.message.content, [{ type: 'text', text: '{"answer":42}' }]);
    const broken = await rejection(
      co.chat({ ...request, responseFormat: { type: 'json_object', jsonSchema: { type: 'object', properties: 3 } } }),
    );
    assert.equal(broken.constructor.name, 'BadRequestError');
    assert.match((broken.body as { message: string }).message, /^invalid request: response_format\.json_schema is not a valid JSON schema/);
  });
});

describe("cohere-ai CohereClientV2: scripted errors as the SDK's classes", () => {
  const CASES: [number, string][] = [
    [400, 'BadRequestError'],
    [401, 'UnauthorizedError'],
    [404, 'NotFoundError'],
    [422, 'UnprocessableEntityError'],
    [429, 'TooManyRequestsError'],
    [499, 'ClientClosedRequestError'],
    [500, 'InternalServerError'],
  ];

  test("each scripted status is the SDK's class for it, with Cohere's {id, message} body [cohere-chat.errors.json +]", async () => {
    const session = await mock.session('cohere-errors');
    const scenario = session.scenario('errors');
    for (const [status] of CASES) scenario.fails(status, `scripted ${status}`);
    const co = client(session);
    for (const [status, name] of CASES) {
      const error = await rejection(co.chat({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }));
      assert.deepEqual([error.constructor.name, error.statusCode], [name, status]);
      const body = error.body as { id: string; message: string };
      assert.equal(body.message, `scripted ${status}`);
      assert.match(body.id, /^req_/);
    }
    const { entries, counters } = await session.journal();
    assert.deepEqual(
      entries.map((e) => e.status),
      CASES.map(([status]) => status),
    );
    assert.equal(counters.errorsReturned, CASES.length);
  });

  test('a 429 with retry-after is retried by the SDK after that many seconds when retries are on [cohere-chat.errors.json -]', async () => {
    const session = await mock.session('cohere-errors-retry');
    session
      .scenario('limited')
      .fails(429, 'Slow down.', { headers: { 'retry-after': '1' } })
      .replies('after the wait');
    const co = new CohereClientV2({ token: session.apiKey, environment: mock.url('cohere'), maxRetries: 1, timeoutInSeconds: 10 });
    const started = Date.now();
    const response = await co.chat({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] });
    assert.deepEqual(response.message.content, [{ type: 'text', text: 'after the wait' }]);
    assert.ok(Date.now() - started >= 900, 'the SDK waited for retry-after');
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => e.status),
      [429, 200],
    );
  });

  test('a scripted error inside the stream is a message-end with ERROR and its message [cohere-chat.errors.stream +]', async () => {
    const session = await mock.session('cohere-errors-stream');
    session.scenario('broken').reply({ error: { status: 500, message: 'Broke inside the stream.', inStream: true } });
    const streamed: Cohere.V2ChatStreamResponse[] = [];
    for await (const event of await client(session).chatStream({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }))
      streamed.push(event);
    assert.deepEqual(
      streamed.map((e) => e.type),
      ['message-start', 'message-end'],
    );
    const end = streamed[1];
    assert.ok(end.type === 'message-end');
    assert.deepEqual([end.delta?.finishReason, end.delta?.error], ['ERROR', 'Broke inside the stream.']);
  });

  test("a scripted 429 on a stream request is the SDK's TooManyRequestsError before any event [cohere-chat.errors.stream -]", async () => {
    const session = await mock.session('cohere-errors-stream-429');
    session.scenario('limited').fails(429, 'Slow down.');
    const error = await rejection(client(session).chatStream({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }));
    assert.deepEqual([error.constructor.name, error.statusCode], ['TooManyRequestsError', 429]);
  });
});

describe('cohere-ai CohereClientV2: scripted citations', () => {
  const DOCUMENTS = [
    { id: 'paris', data: { title: 'Paris', text: 'Paris is the capital of France.' } },
    { data: { title: 'Lyon', text: 'Lyon is known for its food.' } },
  ];
  const TEXT = 'Paris is the capital; Lyon is known for food.';
  function script(session: UnderstudySession) {
    session
      .scenario('cited')
      .onExhausted('repeat_last')
      .reply({
        text: TEXT,
        citations: [
          { text: 'Paris is the capital', sources: ['paris'] },
          { text: 'Lyon', sources: ['doc:1'] },
        ],
      });
  }

  test('chat answers message.citations with offsets and the cited documents; chatStream as citation-start/-end [cohere-chat.citations.json +] [cohere-chat.citations.stream +]', async () => {
    const session = await mock.session('cohere-citations');
    script(session);
    const co = client(session);
    const request = { model: MODEL, messages: [{ role: 'user' as const, content: 'Tell me about French cities.' }], documents: DOCUMENTS };
    const response = await co.chat(request);
    assert.deepEqual(
      response.message.citations?.map((c) => [c.start, c.end, c.text, c.type, c.contentIndex]),
      [
        [0, 20, 'Paris is the capital', 'TEXT_CONTENT', 0],
        [22, 26, 'Lyon', 'TEXT_CONTENT', 0],
      ],
    );
    assert.equal(TEXT.slice(22, 26), 'Lyon');
    assert.deepEqual(response.message.citations?.[0].sources, [
      { type: 'document', id: 'paris', document: { id: 'paris', title: 'Paris', text: 'Paris is the capital of France.' } },
    ]);
    assert.deepEqual(response.message.citations?.[1].sources, [
      { type: 'document', id: 'doc:1', document: { id: 'doc:1', title: 'Lyon', text: 'Lyon is known for its food.' } },
    ]);
    const events: Cohere.V2ChatStreamResponse[] = [];
    for await (const event of await co.chatStream(request)) events.push(event);
    const types = events.map((e) => e.type);
    assert.deepEqual(types.slice(-6), ['citation-start', 'citation-end', 'citation-start', 'citation-end', 'content-end', 'message-end']);
    const starts = events.filter((e) => e.type === 'citation-start');
    assert.deepEqual(
      starts.map((e) =>
        e.type === 'citation-start' ? [e.index, e.delta?.message?.citations?.text, e.delta?.message?.citations?.start] : [],
      ),
      [
        [0, 'Paris is the capital', 0],
        [1, 'Lyon', 22],
      ],
    );
    assert.ok(
      types.indexOf('citation-start') > types.lastIndexOf('content-delta') && types.indexOf('citation-end') < types.indexOf('content-end'),
      types.join(' '),
    );
  });

  test('a citation whose words are not in the text is refused when the script is loaded [cohere-chat.citations.json -] [cohere-chat.citations.stream -]', async () => {
    const session = await mock.session('cohere-citations-bad');
    assert.throws(
      () => session.scenario('miscited').reply({ text: TEXT, citations: [{ text: 'Marseille', sources: ['paris'] }] }),
      /\/citations\/0\/text {2}expected cited words that occur in the reply's text; found "Marseille"/,
    );
    // Nor may a later citation come before an earlier one.
    assert.throws(
      () => session.scenario('reordered').reply({ text: TEXT, citations: [{ text: 'Lyon' }, { text: 'Paris' }] }),
      /citations\/1\/text {2}expected cited words that occur in the reply's text after the previous citation/,
    );
  });
});

describe('cohere-ai CohereClientV2: thinking', () => {
  test('reasoning without tool calls is a thinking content item, JSON and stream', async () => {
    const session = await mock.session('cohere-thinking');
    session.scenario('think').onExhausted('repeat_last').reply({ text: '42.', reasoning: 'Six times seven.' });
    const co = client(session);
    const request = {
      model: MODEL,
      messages: [{ role: 'user' as const, content: 'The answer?' }],
      thinking: { type: 'enabled' as const, tokenBudget: 1024 },
    };
    const response = await co.chat(request);
    assert.deepEqual(response.message.content, [
      { type: 'thinking', thinking: 'Six times seven.' },
      { type: 'text', text: '42.' },
    ]);
    assert.equal(response.message.toolPlan, undefined);
    let thinking = '';
    let text = '';
    for await (const event of await co.chatStream(request)) {
      if (event.type !== 'content-delta') continue;
      thinking += event.delta?.message?.content?.thinking ?? '';
      text += event.delta?.message?.content?.text ?? '';
    }
    assert.deepEqual([thinking, text], ['Six times seven.', '42.']);
  });
});

describe('cohere-ai CohereClientV2: routes', () => {
  test('under the /cohere prefix the same dialect answers', async () => {
    const session = await mock.session('cohere-routes');
    session.scenario('hello').replies('Hello.');
    const prefixed = new CohereClientV2({
      token: session.apiKey,
      environment: `${mock.baseUrl}/cohere`,
      maxRetries: 0,
      timeoutInSeconds: 10,
    });
    const response = await prefixed.chat({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] });
    assert.deepEqual(response.message.content, [{ type: 'text', text: 'Hello.' }]);
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.route, e.operation, e.status]),
      [['POST /cohere/v2/chat', 'cohere.chat', 200]],
    );
  });
});

describe('cohere-ai CohereClientV2: citations, as a property', () => {
  // Text in pieces (each with a character that is not whitespace, as a citation's words must
  // have); some pieces are cited. Whatever the characters (outside the BMP too), each
  // citation's start and end pick its words out of the text, counted in code points.
  const pieces = fc.array(
    fc.record({ text: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }).filter((t) => /\S/.test(t)), cited: fc.boolean() }),
    {
      minLength: 1,
      maxLength: 8,
    },
  );

  test('any cited pieces of any text come back at offsets that pick them out, JSON and stream', { timeout: 60_000 }, async () => {
    const session = await mock.session('cohere-citations-property');
    const co = client(session);
    await fc.assert(
      fc.asyncProperty(pieces, async (parts) => {
        const text = parts.map((p) => p.text).join('');
        const citations = parts.filter((p) => p.cited).map((p) => ({ text: p.text, sources: ['doc:0'] }));
        await session.reset();
        session.scenario('cited').onExhausted('repeat_last').reply({ text, citations });
        const request = { model: MODEL, messages: [{ role: 'user' as const, content: 'Cite it.' }], documents: ['The source.'] };
        const response = await co.chat(request);
        const codePoints = [...text];
        const placed = response.message.citations ?? [];
        assert.equal(placed.length, citations.length);
        let previousEnd = 0;
        for (const [i, citation] of placed.entries()) {
          assert.equal(codePoints.slice(citation.start, citation.end).join(''), citations[i].text);
          assert.ok(citation.start! >= previousEnd, 'in order, not overlapping');
          previousEnd = citation.end!;
        }
        const streamed: Cohere.Citation[] = [];
        for await (const event of await co.chatStream(request)) {
          if (event.type === 'citation-start' && event.delta?.message?.citations) streamed.push(event.delta.message.citations);
        }
        assert.deepEqual(streamed, placed);
      }),
      { numRuns: 40, seed: 20261201 },
    );
  });
});

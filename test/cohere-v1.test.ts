// Cohere's v1 Chat API (`POST /v1/chat`) through LangChain's ChatCohere (@langchain/cohere 1.0.5,
// given a CohereClient of the cohere-ai 7 it bundles) and through that CohereClient itself: plain
// invoke and stream, a tool round with bindTools (tool call, ToolMessage, answer), JSON and
// streamed, a 409 contract failure that consumes nothing, and Cohere's 400 for a malformed request.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { ChatCohere } from '@langchain/cohere';
import { AIMessage, AIMessageChunk, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { z } from 'zod';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { CohereClient, CohereError } from './support/cohere-v1-client.js';

const MODEL = 'command-r-plus';
const ASK = 'What is the weather in Paris?';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

function cohereClient(session: UnderstudySession) {
  return new CohereClient({ token: session.apiKey, environment: mock.url('cohere'), maxRetries: 0, timeoutInSeconds: 10 });
}

function chatModel(session: UnderstudySession): ChatCohere {
  return new ChatCohere({ client: cohereClient(session), model: MODEL, maxRetries: 0 });
}

function weatherTool(ran: unknown[]) {
  return tool(
    async (input: { city: string }) => {
      ran.push(input);
      return `sunny in ${input.city}`;
    },
    { name: 'weather', description: 'Current weather for a city', schema: z.object({ city: z.string() }) },
  );
}

async function rejection(promise: Promise<unknown>): Promise<Error & { status?: number; statusCode?: number; body?: unknown }> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  assert.ok('error' in outcome, `expected a rejection, got ${JSON.stringify(outcome)}`);
  assert.ok(outcome.error instanceof CohereError, `the bundled cohere-ai's CohereError: ${String(outcome.error)}`);
  return outcome.error;
}

async function streamed(model: { stream: (input: BaseMessage[]) => Promise<AsyncIterable<AIMessageChunk>> }, input: BaseMessage[]) {
  let whole: AIMessageChunk | undefined;
  const texts: string[] = [];
  for await (const chunk of await model.stream(input)) {
    if (typeof chunk.content === 'string' && chunk.content !== '') texts.push(chunk.content);
    whole = whole === undefined ? chunk : whole.concat(chunk);
  }
  assert.ok(whole, 'the stream yielded nothing');
  return { whole, texts };
}

/** ChatCohere's streamed calls arrive as tool_call_chunks whose `args` is v1's parameters object,
 * which @langchain/core cannot parse into `tool_calls`: an application builds the calls from the
 * chunks. */
function callsOfChunks(chunk: AIMessageChunk): { name: string; args: Record<string, unknown>; id: string }[] {
  return (chunk.tool_call_chunks ?? []).map((c) => ({
    name: c.name ?? '',
    args: c.args as unknown as Record<string, unknown>,
    id: c.id ?? '',
  }));
}

describe('ChatCohere: text', () => {
  test('invoke answers the scripted text, with the token counts Understudy counted [langchain-cohere.text.json +]', async () => {
    const session = await mock.session('v1-text-json');
    session.scenario('hello').whenLatestUser({ contains: 'Hello' }).replies('Hello from Understudy.');
    const reply = await chatModel(session).invoke([new SystemMessage('Be brief.'), new HumanMessage('Hello there')]);
    assert.equal(reply.content, 'Hello from Understudy.');
    const { entries } = await session.journal();
    assert.equal(entries.length, 1);
    const [entry] = entries;
    assert.deepEqual([entry.status, entry.operation, entry.route, entry.stream], [200, 'cohere.v1.chat', 'POST /v1/chat', false]);
    assert.deepEqual(
      entry.request?.messages.map((m) => [m.role, m.parts.map((p) => (p.type === 'text' ? p.text : p.type)).join('')]),
      [
        ['system', 'Be brief.'],
        ['user', 'Hello there'],
      ],
      'the SYSTEM history turn and the message, as decoded',
    );
    assert.equal(reply.usage_metadata?.input_tokens, entry.reply?.usage.inputTokens);
    assert.equal(reply.usage_metadata?.output_tokens, entry.reply?.usage.outputTokens);
    assert.equal(reply.response_metadata.finishReason, 'COMPLETE');
    assert.deepEqual((reply.response_metadata.meta as { apiVersion?: unknown } | undefined)?.apiVersion, { version: '1' });
    await session.verify();
  });

  test("a malformed request is Cohere's 400 {id, message}, before any script is consulted [langchain-cohere.text.json -]", async () => {
    const session = await mock.session('v1-text-json-bad');
    session.scenario('hello').replies('Hello.');
    const post = (body: unknown) =>
      fetch(`${mock.url('cohere')}/v1/chat`, {
        method: 'POST',
        headers: { authorization: `Bearer ${session.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
    const cases: [unknown, string][] = [
      [{ model: MODEL, message: 'Hi', temprature: 0.3 }, 'invalid request: unknown field: parameter temprature is not a valid field'],
      [{ model: MODEL, message: '' }, 'invalid request: message must be at least 1 token long or tool results must be specified.'],
      [{ model: MODEL, message: 'Hi', chat_history: [{ role: 'USER' }] }, 'invalid request: all elements in history must have a message.'],
      [
        { model: MODEL, message: 'Hi', chat_history: [{ role: 'ASSISTANT', message: 'x' }] },
        'invalid request: chat_history.0.role must be one of: USER, CHATBOT, SYSTEM, TOOL',
      ],
      [{ model: MODEL, message: 'Hi', temperature: -1 }, 'invalid request: temperature must be greater than or equal to 0.'],
    ];
    for (const [body, message] of cases) {
      const response = await post(body);
      assert.equal(response.status, 400, JSON.stringify(body));
      const error = (await response.json()) as { id: string; message: string };
      assert.deepEqual(Object.keys(error).sort(), ['id', 'message']);
      assert.equal(error.message, message);
      assert.equal(error.id, response.headers.get('x-request-id'));
    }
    const { entries, counters } = await session.journal();
    assert.deepEqual([entries.length, counters.invalid], [cases.length, cases.length]);
    assert.equal((await session.check()).ok, false, 'the scripted step is still unused');
  });

  test('stream yields one chunk per scripted piece and the usage from stream-end [langchain-cohere.text.stream +]', async () => {
    const session = await mock.session('v1-text-stream');
    session
      .scenario('hello')
      .whenLatestUser({ contains: 'Hello' })
      .replies('Hello from Understudy.')
      .inChunks(['Hello ', 'from ', 'Understudy.']);
    const { whole, texts } = await streamed(chatModel(session), [new HumanMessage('Hello there')]);
    assert.deepEqual(texts, ['Hello ', 'from ', 'Understudy.']);
    assert.equal(whole.content, 'Hello from Understudy.');
    const [entry] = (await session.journal()).entries;
    assert.deepEqual([entry.status, entry.stream], [200, true]);
    assert.equal(whole.usage_metadata?.output_tokens, entry.reply?.usage.outputTokens);
    assert.equal(whole.usage_metadata?.input_tokens, entry.reply?.usage.inputTokens);
  });

  test("a scripted 429 on a stream is the SDK's TooManyRequestsError before any event [langchain-cohere.text.stream -]", async () => {
    const session = await mock.session('v1-text-stream-429');
    session.scenario('busy').fails(429, 'Slow down.');
    const error = await rejection(streamed(chatModel(session), [new HumanMessage('Hello')]));
    assert.deepEqual([error.constructor.name, error.statusCode], ['TooManyRequestsError', 429]);
    assert.equal((error.body as { message: string }).message, 'Slow down.');
    const [entry] = (await session.journal()).entries;
    assert.deepEqual([entry.status, entry.stream], [429, true]);
  });
});

describe('ChatCohere: a tool round', () => {
  /** With an id, the result is matched by it: the id never reaches the client (v1 calls have
   * none), Understudy gives it back to the call it delivered. Without, by name. */
  function scriptRound(session: UnderstudySession, id?: string): void {
    session
      .scenario('weather')
      .whenLatestUser({ contains: 'weather in Paris' })
      .reply({
        reasoning: 'I will look up the weather in Paris.',
        toolCalls: [{ name: 'weather', arguments: { city: 'Paris' }, ...(id && { id }) }],
      })
      .thenWhenToolResult('weather', id)
      .replies('Paris is sunny, 21 °C.');
  }

  test('bindTools: the call, the ToolMessage back as tool_results, then the answer [langchain-cohere.tools.json +]', async () => {
    const session = await mock.session('v1-tools-json');
    scriptRound(session, 'call_paris');
    const ran: unknown[] = [];
    const weather = weatherTool(ran);
    const model = chatModel(session).bindTools([weather]);
    const history: BaseMessage[] = [new HumanMessage(ASK)];
    const first = await model.invoke(history);
    assert.deepEqual(
      first.tool_calls?.map((c) => [c.name, c.args]),
      [['weather', { city: 'Paris' }]],
    );
    assert.equal(first.content, 'I will look up the weather in Paris.', "v1 says a turn's tool plan as its text");
    history.push(first);
    for (const call of first.tool_calls ?? []) history.push((await weather.invoke(call)) as ToolMessage);
    const second = await model.invoke(history);
    assert.equal(second.content, 'Paris is sunny, 21 °C.');
    assert.deepEqual(second.tool_calls, []);
    assert.deepEqual(ran, [{ city: 'Paris' }]);

    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.script, e.source]),
      [
        [200, 'weather', 'script'],
        [200, 'weather', 'script'],
      ],
    );
    assert.deepEqual(
      entries[0].request?.tools.map((t) => [t.name, t.parameters]),
      [['weather', { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }]],
      'parameter_definitions as the schema the contract holds calls to',
    );
    const parts = entries[1].request?.messages.flatMap((m) => m.parts.map((p) => ({ role: m.role, ...p }))) ?? [];
    const call = parts.find((p) => p.type === 'tool_call');
    const result = parts.find((p) => p.type === 'tool_result');
    assert.ok(call?.type === 'tool_call' && result?.type === 'tool_result', JSON.stringify(parts));
    assert.deepEqual([call.role, call.name, call.arguments], ['assistant', 'weather', { city: 'Paris' }]);
    assert.deepEqual(
      [call.id, result.role, result.name, result.callId],
      ['call_paris', 'tool', 'weather', 'call_paris'],
      'the delivered id, back',
    );
    assert.deepEqual(JSON.parse(result.content), { output: 'sunny in Paris' });
    await session.verify({ toolCalled: [{ name: 'weather', id: 'call_paris', result: { output: 'sunny in Paris' } }] });
  });

  test('a scripted call whose arguments break the declared schema is a 409, not consumed [langchain-cohere.tools.json -]', async () => {
    const session = await mock.session('v1-tools-json-bad');
    session.scenario('careless').whenLatestUser({ contains: 'Paris' }).callsTool('weather', { city: 42 });
    const model = chatModel(session).bindTools([weatherTool([])]);
    const error = await rejection(model.invoke([new HumanMessage(ASK)]));
    assert.deepEqual([error.constructor.name, error.statusCode, error.status], ['CohereError', 409, 409]);
    const body = error.body as { message: string; code: string };
    assert.equal(body.code, 'fixture_mismatch');
    assert.match(body.message, /weather/);
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.event]),
      [[409, 'error_returned']],
    );
    assert.equal((await session.check()).ok, false, 'the refused step is still unused');
  });

  test('stream: the call in stream-end, the ToolMessage back, the streamed answer [langchain-cohere.tools.stream +]', async () => {
    const session = await mock.session('v1-tools-stream');
    scriptRound(session);
    const ran: unknown[] = [];
    const weather = weatherTool(ran);
    const model = chatModel(session).bindTools([weather]);
    const history: BaseMessage[] = [new HumanMessage(ASK)];
    const first = await streamed(model, history);
    const calls = callsOfChunks(first.whole);
    assert.deepEqual(
      calls.map((c) => [c.name, c.args]),
      [['weather', { city: 'Paris' }]],
    );
    assert.deepEqual(first.texts, [], 'the plan is no text-generation');
    history.push(new AIMessage({ content: '', tool_calls: calls }));
    for (const call of calls) history.push((await weather.invoke({ ...call, type: 'tool_call' })) as ToolMessage);
    const second = await streamed(model, history);
    assert.equal(second.whole.content, 'Paris is sunny, 21 °C.');
    assert.deepEqual(ran, [{ city: 'Paris' }]);
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.stream]),
      [
        [200, true],
        [200, true],
      ],
    );
    await session.verify();
  });

  test('stream: a scripted call with a parameter the tool does not declare is a 409 before any event, not consumed [langchain-cohere.tools.stream -]', async () => {
    const session = await mock.session('v1-tools-stream-bad');
    session.scenario('careless').callsTool('weather', { city: 'Paris', when: 'now' });
    const model = chatModel(session).bindTools([weatherTool([])]);
    const error = await rejection(streamed(model, [new HumanMessage(ASK)]));
    assert.deepEqual([error.constructor.name, error.statusCode], ['CohereError', 409]);
    assert.equal((error.body as { code: string }).code, 'fixture_mismatch');
    assert.match((error.body as { message: string }).message, /when/);
    assert.equal((await session.check()).ok, false, 'the refused step is still unused');
  });

  test('zero-config: a request with tools gets a call of the declared tool, its text the default plan', async () => {
    const session = await mock.session('v1-zero-config', { fallback: 'auto' });
    const model = chatModel(session).bindTools([weatherTool([])]);
    const reply = await model.invoke([new HumanMessage(ASK)]);
    assert.deepEqual(
      reply.tool_calls?.map((c) => c.name),
      ['weather'],
    );
    assert.equal(reply.content, 'I will call weather.');
  });
});

describe("cohere-ai 7's CohereClient (bundled by @langchain/cohere)", () => {
  test('chat: text, generation and response ids, meta with api_version 1 [cohere-v1-chat.text.json +]', async () => {
    const session = await mock.session('v1-client-json');
    session.scenario('hello').replies('Hello.');
    const { data, rawResponse } = await cohereClient(session).chat({ model: MODEL, message: 'Hello' }).withRawResponse();
    assert.equal(data.text, 'Hello.');
    assert.equal(data.finishReason, 'COMPLETE');
    assert.equal(data.toolCalls, undefined);
    assert.match(data.responseId ?? '', /^c1-/);
    assert.equal(data.generationId, `gen-${data.responseId}`);
    const [entry] = (await session.journal()).entries;
    assert.equal(rawResponse.headers.get('x-request-id'), entry.requestId);
    assert.deepEqual(data.meta, {
      apiVersion: { version: '1' },
      billedUnits: { inputTokens: entry.reply?.usage.inputTokens, outputTokens: entry.reply?.usage.outputTokens },
      tokens: { inputTokens: entry.reply?.usage.inputTokens, outputTokens: entry.reply?.usage.outputTokens },
      cachedTokens: 0,
    });
  });

  test("chat: a wrong-typed preamble is Cohere's 400, the SDK's BadRequestError [cohere-v1-chat.text.json -]", async () => {
    const session = await mock.session('v1-client-json-bad');
    const fetchWith: typeof fetch = (input, init) =>
      fetch(input, { ...init, body: JSON.stringify({ ...(JSON.parse(String(init?.body)) as object), preamble: 7 }) });
    const client = new CohereClient({
      token: session.apiKey,
      environment: mock.url('cohere'),
      maxRetries: 0,
      timeoutInSeconds: 10,
      fetch: fetchWith,
    });
    const error = await rejection(client.chat({ model: MODEL, message: 'Hello' }));
    assert.deepEqual([error.constructor.name, error.statusCode], ['BadRequestError', 400]);
    assert.equal((error.body as { message: string }).message, 'invalid request: preamble must be a string');
  });

  test('chatStream: newline-delimited JSON events, stream-start to stream-end, tool calls in chunks [cohere-v1-chat.tools.stream +]', async () => {
    const session = await mock.session('v1-client-stream');
    session.scenario('calls').reply({
      reasoning: 'I will check.',
      toolCalls: [{ name: 'weather', arguments: { city: 'Paris', days: 3, detail: 'a long enough value' } }],
    });
    const stream = await cohereClient(session).chatStream({
      model: MODEL,
      message: ASK,
      tools: [
        {
          name: 'weather',
          description: 'Weather',
          parameterDefinitions: {
            city: { type: 'str', required: true },
            days: { type: 'int' },
            detail: { type: 'str' },
          },
        },
      ],
    });
    const types: string[] = [];
    let plan = '';
    let parameters = '';
    let generated: unknown;
    let end: { finishReason?: string; response?: { toolCalls?: unknown; text?: string } } | undefined;
    for await (const event of stream) {
      types.push(event.eventType);
      if (event.eventType === 'tool-calls-chunk') {
        plan += event.toolCallDelta.text ?? '';
        parameters += event.toolCallDelta.parameters ?? '';
      }
      if (event.eventType === 'tool-calls-generation') generated = event.toolCalls;
      if (event.eventType === 'stream-end') end = event;
    }
    assert.equal(types[0], 'stream-start');
    assert.deepEqual(types.slice(-2), ['tool-calls-generation', 'stream-end']);
    assert.ok(types.filter((t) => t === 'tool-calls-chunk').length > 3, types.join(' '));
    assert.equal(plan, 'I will check.');
    const call = { name: 'weather', parameters: { city: 'Paris', days: 3, detail: 'a long enough value' } };
    assert.deepEqual(JSON.parse(parameters), call.parameters);
    assert.deepEqual(generated, [call]);
    assert.equal(end?.finishReason, 'COMPLETE');
    assert.deepEqual(end?.response?.toolCalls, [call]);
    assert.equal(end?.response?.text, 'I will check.');

    const zeroConfig = await mock.session('v1-client-stream-raw', { fallback: 'auto' });
    const raw = await fetch(`${mock.url('cohere')}/v1/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${zeroConfig.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Hi', stream: true }),
      signal: AbortSignal.timeout(10_000),
    });
    assert.equal(raw.headers.get('content-type'), 'application/stream+json');
    const lines = (await raw.text()).split('\n');
    assert.equal(lines.pop(), '', 'every event ends with a newline');
    const events = lines.map((l) => JSON.parse(l) as { event_type: string; is_finished: boolean });
    assert.deepEqual(events.map((e) => [e.event_type, e.is_finished]).at(-1), ['stream-end', true]);
  });

  test("chatStream: a wrong-typed member of parameter_definitions is Cohere's 400, nothing consumed [cohere-v1-chat.tools.stream -]", async () => {
    const session = await mock.session('v1-client-stream-bad');
    session.scenario('calls').callsTool('weather', { city: 'Paris' });
    // The SDK checks `required` itself: the wrong type goes in through its fetch.
    const fetchWith: typeof fetch = (input, init) => {
      const body = JSON.parse(String(init?.body)) as { tools: { parameter_definitions: { city: { required: unknown } } }[] };
      body.tools[0].parameter_definitions.city.required = 'yes';
      return fetch(input, { ...init, body: JSON.stringify(body) });
    };
    const client = new CohereClient({
      token: session.apiKey,
      environment: mock.url('cohere'),
      maxRetries: 0,
      timeoutInSeconds: 10,
      fetch: fetchWith,
    });
    const tools = [{ name: 'weather', description: 'Weather', parameterDefinitions: { city: { type: 'str', required: true } } }];
    const error = await rejection(client.chatStream({ model: MODEL, message: ASK, tools }));
    assert.deepEqual([error.constructor.name, error.statusCode], ['BadRequestError', 400]);
    assert.equal(
      (error.body as { message: string }).message,
      'invalid request: tools.0.parameter_definitions.city.required must be a boolean',
    );
    assert.equal((await session.check()).ok, false, 'the scripted step is still unused');
  });

  const CAPITAL = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };

  test('response_format json_object with a schema: a scripted JSON value valid against it is the text, JSON and stream [cohere-v1-chat.structured.json +]', async () => {
    const session = await mock.session('v1-client-structured');
    session.scenario('capital').onExhausted('repeat_last').repliesJson({ answer: 'Paris' });
    const request = { message: 'Capital?', responseFormat: { type: 'json_object' as const, schema: CAPITAL } };
    const response = await cohereClient(session).chat(request);
    assert.deepEqual(JSON.parse(response.text), { answer: 'Paris' });
    let text = '';
    for await (const event of await cohereClient(session).chatStream(request))
      if (event.eventType === 'text-generation') text += event.text;
    assert.deepEqual(JSON.parse(text), { answer: 'Paris' });
    const { entries } = await session.journal();
    assert.deepEqual(entries[0].request?.output, { type: 'json_schema', schema: CAPITAL, strict: true });
  });

  test('a scripted JSON value failing the schema is a 409, not consumed; a schema that does not compile is a 400 [cohere-v1-chat.structured.json -]', async () => {
    const session = await mock.session('v1-client-structured-bad');
    session.scenario('wrong').repliesJson({ answer: 42 });
    const request = { message: 'Capital?', responseFormat: { type: 'json_object' as const, schema: CAPITAL } };
    const error = await rejection(cohereClient(session).chat(request));
    assert.deepEqual([error.statusCode, (error.body as { code: string }).code], [409, 'fixture_mismatch']);
    // Plain json_object takes any JSON object: the same step answers, it was never consumed.
    const plain = await cohereClient(session).chat({ ...request, responseFormat: { type: 'json_object' } });
    assert.deepEqual(JSON.parse(plain.text), { answer: 42 });
    const broken = await rejection(
      cohereClient(session).chat({ ...request, responseFormat: { type: 'json_object', schema: { type: 'object', properties: 3 } } }),
    );
    assert.equal(broken.statusCode, 400);
    assert.match((broken.body as { message: string }).message, /^invalid request: response_format\.schema is not a valid JSON schema/);
  });

  test('a scripted error inside the stream ends it with a stream-end that says ERROR and why [cohere-v1-chat.errors.stream +]', async () => {
    const session = await mock.session('v1-client-stream-error');
    session.scenario('broken').reply({ error: { status: 500, message: 'Broke inside the stream.', inStream: true } });
    const events: { eventType: string; finishReason?: string; error?: unknown }[] = [];
    for await (const event of await cohereClient(session).chatStream({ message: 'Hello' })) events.push(event);
    assert.deepEqual(
      events.map((e) => e.eventType),
      ['stream-start', 'stream-end'],
    );
    assert.deepEqual([events[1].finishReason, events[1].error], ['ERROR', 'Broke inside the stream.']);
    const [entry] = (await session.journal()).entries;
    assert.match(entry.error?.message ?? '', /Broke inside the stream\./);
  });

  test("scripted statuses before a stream are the SDK's classes, with Cohere's body [cohere-v1-chat.errors.stream -]", async () => {
    const session = await mock.session('v1-client-stream-statuses');
    const cases: [number, string][] = [
      [401, 'UnauthorizedError'],
      [422, 'UnprocessableEntityError'],
      [499, 'ClientClosedRequestError'],
      [500, 'InternalServerError'],
    ];
    const scenario = session.scenario('errors');
    for (const [status] of cases) scenario.fails(status, `scripted ${status}`);
    for (const [status, name] of cases) {
      const error = await rejection(cohereClient(session).chatStream({ message: 'Hello' }));
      assert.deepEqual(
        [error.constructor.name, error.statusCode, (error.body as { message: string }).message],
        [name, status, `scripted ${status}`],
      );
    }
  });

  test('the same dialect answers under /cohere/v1/chat', async () => {
    const session = await mock.session('v1-prefix');
    session.scenario('hello').replies('Hello.');
    const client = new CohereClient({
      token: session.apiKey,
      environment: `${mock.url('cohere')}/cohere`,
      maxRetries: 0,
      timeoutInSeconds: 10,
    });
    assert.equal((await client.chat({ message: 'Hello' })).text, 'Hello.');
    const [entry] = (await session.journal()).entries;
    assert.deepEqual([entry.route, entry.operation, entry.request?.model], ['POST /cohere/v1/chat', 'cohere.v1.chat', MODEL]);
  });
});

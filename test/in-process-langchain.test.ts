// The in-process LangChain chat model (llm-understudy/langchain) against sessions of
// createUnderstudy(), with no server listening: invoke, bindTools, stream, structured output and
// LangChain's createAgent tool loops, with the same contract checks, journal and verify() as over
// HTTP, and refusals surfacing as UnderstudyModelError.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import fc from 'fast-check';
import { z } from 'zod';
import { connectUnderstudy, createUnderstudy, startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import type { JsonValue } from '../src/core/model.js';
import { ZERO_CONFIG_TEXT } from '../src/engine/zero-config.js';
import { UnderstudyChatModel, UnderstudyFaultError, UnderstudyModelError } from '../src/in-process/langchain/index.js';
import { createAgent } from 'langchain';

let understudy: Understudy;
before(async () => {
  understudy = await createUnderstudy();
});
after(() => understudy.close());

const TIMEOUT = 10_000;

function chatModel(session: UnderstudySession, fields: { model?: string; maxRetries?: number } = {}) {
  return new UnderstudyChatModel({ session, maxRetries: 0, ...fields });
}

/** The geocode → forecast tools, recording each run. */
function tripTools(ran: [string, unknown][]) {
  const geocode = tool(
    async (input: { city: string }) => {
      ran.push(['geocode', input]);
      return JSON.stringify({ lat: 45.76, lon: 4.84 });
    },
    { name: 'geocode', description: 'Coordinates of a city', schema: z.object({ city: z.string() }) },
  );
  const forecast = tool(
    async (input: { lat: number; lon: number }) => {
      ran.push(['forecast', input]);
      return 'sunny, 24 °C';
    },
    { name: 'forecast', description: 'Forecast at coordinates', schema: z.object({ lat: z.number(), lon: z.number() }) },
  );
  return [geocode, forecast];
}

/** Scripts user → geocode → (its result) forecast → (its result) the final text. */
function scriptTrip(session: UnderstudySession, geocodeArgs: JsonValue = { city: 'Lyon' }) {
  session
    .scenario('trip')
    .whenLatestUser({ contains: 'Lyon' })
    .callsTool('geocode', geocodeArgs, 'call_geo')
    .thenWhenToolResult('geocode', 'call_geo')
    .callsTool('forecast', { lat: 45.76, lon: 4.84 }, 'call_fc')
    .thenWhenToolResult('forecast', 'call_fc')
    .replies('Lyon is sunny, 24 °C.');
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => assert.fail(`expected an error, got ${JSON.stringify(value)?.slice(0, 200)}`),
    (error: unknown) => error,
  );
}

function modelError(error: unknown, status: number, code: string | null): UnderstudyModelError {
  assert.ok(error instanceof UnderstudyModelError, `got ${String(error)}`);
  assert.equal(error.status, status);
  assert.equal(error.code, code);
  return error;
}

async function streamed(run: AsyncIterable<AIMessageChunk>) {
  const chunks: AIMessageChunk[] = [];
  for await (const chunk of run) chunks.push(chunk);
  const whole = chunks.reduce((all, chunk) => all.concat(chunk));
  return { chunks, whole };
}

test('invoke: a scripted text, usage and response metadata, journalled, with nothing listening [langchain-inprocess.chat.json +]', async () => {
  const session = await understudy.session('lc-in-text');
  assert.throws(() => session.url('openai'), /no server is listening/);
  assert.throws(() => understudy.url(), /no server is listening/);
  session.scenario('hello').whenModel('understudy-small').whenLatestUser({ contains: 'hello' }).replies('Hello from the script.');

  const reply = await chatModel(session, { model: 'understudy-small' }).invoke(
    [new SystemMessage('Be brief.'), new HumanMessage('Say hello')],
    { signal: AbortSignal.timeout(TIMEOUT) },
  );
  assert.equal(reply.content, 'Hello from the script.');
  assert.equal(reply.response_metadata.finish_reason, 'stop');
  assert.equal(reply.response_metadata.model_name, 'understudy-small');
  assert.ok((reply.usage_metadata?.input_tokens ?? 0) > 0);
  assert.ok((reply.usage_metadata?.output_tokens ?? 0) > 0);
  assert.equal(reply.usage_metadata?.total_tokens, reply.usage_metadata!.input_tokens + reply.usage_metadata!.output_tokens);

  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.route, e.status, e.stream, e.script, e.requestId === reply.response_metadata.request_id]),
    [['langchain invoke', 200, false, 'hello', true]],
  );
  assert.deepEqual(
    entries[0].request?.messages.map((m) => [m.role, m.parts.map((p) => (p.type === 'text' ? p.text : p.type))]),
    [
      ['system', ['Be brief.']],
      ['user', ['Say hello']],
    ],
  );
  await session.verify();
});

test('invoke: no script matched surfaces as a 409 no_match naming the near miss [langchain-inprocess.chat.json -]', async () => {
  const session = await understudy.session('lc-in-nomatch');
  session.scenario('weather').whenLatestUser({ contains: 'Paris' }).replies('Sunny.');
  const error = modelError(await rejection(chatModel(session).invoke('What about Lyon?')), 409, 'no_match');
  assert.equal(error.kind, 'no_match');
  assert.match(error.message, /scenario "weather" step "step-1"/);
  assert.match(error.message, /Lyon/);
  const { entries, counters } = await session.journal();
  assert.deepEqual([entries.length, entries[0].status, counters.unmatched], [1, 409, 1]);
});

test('bindTools: a scripted tool call with its id and arguments, then the answer on its result [langchain-inprocess.tools.json +]', async () => {
  const session = await understudy.session('lc-in-tools');
  session
    .scenario('weather')
    .whenHasTool('weather')
    .callsTool('weather', { city: 'Paris' }, 'call_paris')
    .thenWhenToolResult('weather', 'call_paris', 'sunny in Paris')
    .replies('Paris is sunny.');
  const weather = tool(async (input: { city: string }) => `sunny in ${input.city}`, {
    name: 'weather',
    description: 'Current weather for a city',
    schema: z.object({ city: z.string() }),
  });
  const model = chatModel(session).bindTools([weather], { tool_choice: 'auto' });
  const question = new HumanMessage('Weather in Paris?');
  const first = await model.invoke([question]);
  assert.deepEqual(
    first.tool_calls?.map((c) => [c.name, c.args, c.id]),
    [['weather', { city: 'Paris' }, 'call_paris']],
  );
  assert.equal(first.response_metadata.finish_reason, 'tool_calls');
  const result = (await weather.invoke(first.tool_calls![0])) as ToolMessage;
  const second = await model.invoke([question, first, result]);
  assert.equal(second.content, 'Paris is sunny.');

  const { entries } = await session.journal();
  const sent = entries[0].request!;
  assert.equal(sent.tools[0].name, 'weather');
  assert.deepEqual((sent.tools[0].parameters as { required?: string[] }).required, ['city']);
  assert.deepEqual(sent.toolChoice, { type: 'auto' });
  await session.verify({
    toolCalled: [{ name: 'weather', id: 'call_paris', arguments: { city: 'Paris' }, result: 'sunny in Paris', times: 1 }],
  });
});

test('bindTools: a scripted call whose arguments violate the bound schema is a 409 fixture_mismatch, nothing consumed [langchain-inprocess.tools.json -]', async () => {
  const session = await understudy.session('lc-in-mismatch');
  session.scenario('weather').callsTool('weather', { city: 75001 }, 'call_zip').then().replies('Done.');
  const stringCity = tool(async () => 'sunny', { name: 'weather', description: 'Weather', schema: z.object({ city: z.string() }) });
  const error = modelError(await rejection(chatModel(session).bindTools([stringCity]).invoke('Weather?')), 409, 'fixture_mismatch');
  assert.equal(error.kind, 'mismatch');
  assert.match(error.message, /city/);

  const numberCity = tool(async () => 'sunny', { name: 'weather', description: 'Weather', schema: z.object({ city: z.number() }) });
  const reply = await chatModel(session).bindTools([numberCity]).invoke('Weather?');
  assert.deepEqual(
    reply.tool_calls?.map((c) => c.args),
    [{ city: 75001 }],
  );
  const { entries, counters } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.error?.code ?? null, e.step ?? null]),
    [
      [409, 'fixture_mismatch', 'step-1'],
      [200, null, 'step-1'],
    ],
  );
  assert.deepEqual([counters.mismatched, counters.matched], [1, 1]);
});

test('stream: the scripted chunks, one by one, then the finish reason and usage [langchain-inprocess.chat.stream +]', async () => {
  const session = await understudy.session('lc-in-stream');
  session.scenario('story').replies('Once upon a time.', { chunks: ['Once', ' upon', ' a time.'] });
  const { chunks, whole } = await streamed(await chatModel(session).stream('Tell me a story', { signal: AbortSignal.timeout(TIMEOUT) }));
  assert.deepEqual(
    chunks.map((c) => c.content),
    ['Once', ' upon', ' a time.', ''],
  );
  assert.equal(whole.content, 'Once upon a time.');
  assert.equal(whole.response_metadata.finish_reason, 'stop');
  assert.ok((whole.usage_metadata?.output_tokens ?? 0) > 0);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.route, e.stream, e.status]),
    [['langchain stream', true, 200]],
  );
});

test('stream: a fault part-way delivers the chunks before it, then throws the fault error [langchain-inprocess.chat.stream -]', async () => {
  const session = await understudy.session('lc-in-stream-fault');
  session
    .scenario('story')
    .replies('Once upon a time.', { chunks: ['Once', ' upon', ' a time.'] })
    .withFault({ kind: 'error', afterChunks: 2, error: { status: 503, message: 'overloaded' } });
  const seen: unknown[] = [];
  const error = await rejection(
    (async () => {
      for await (const chunk of await chatModel(session).stream('Tell me a story')) seen.push(chunk.content);
    })(),
  );
  assert.deepEqual(seen, ['Once', ' upon']);
  const modelErr = modelError(error, 503, null);
  assert.match(modelErr.message, /overloaded/);
});

test('bindTools stream: tool calls arrive as tool_call_chunks and merge into tool_calls [langchain-inprocess.tools.stream +]', async () => {
  const session = await understudy.session('lc-in-tools-stream');
  session.scenario('two').callsTools([
    { name: 'geocode', arguments: { city: 'Lyon' }, id: 'call_a' },
    { name: 'geocode', arguments: { city: 'Paris' }, id: 'call_b' },
  ]);
  const [geocode] = tripTools([]);
  const { chunks, whole } = await streamed(await chatModel(session).bindTools([geocode]).stream('Where are Lyon and Paris?'));
  assert.deepEqual(
    chunks.flatMap((c) => c.tool_call_chunks ?? []).map((c) => [c.index, c.id, c.name, c.args]),
    [
      [0, 'call_a', 'geocode', '{"city":"Lyon"}'],
      [1, 'call_b', 'geocode', '{"city":"Paris"}'],
    ],
  );
  assert.deepEqual(
    whole.tool_calls?.map((c) => [c.id, c.name, c.args]),
    [
      ['call_a', 'geocode', { city: 'Lyon' }],
      ['call_b', 'geocode', { city: 'Paris' }],
    ],
  );
  assert.equal(whole.response_metadata.finish_reason, 'tool_calls');
});

test('bindTools stream: a contract failure throws before any chunk, nothing consumed [langchain-inprocess.tools.stream -]', async () => {
  const session = await understudy.session('lc-in-tools-stream-mismatch');
  session.scenario('trip').callsTool('geocode', { town: 'Lyon' }, 'call_geo');
  const [geocode] = tripTools([]);
  const seen: unknown[] = [];
  const error = await rejection(
    (async () => {
      for await (const chunk of await chatModel(session).bindTools([geocode]).stream('Where is Lyon?')) seen.push(chunk);
    })(),
  );
  modelError(error, 409, 'fixture_mismatch');
  assert.deepEqual(seen, []);
  const report = await session.check();
  assert.equal(report.ok, false);
  assert.match(report.report, /was never used/);
});

function lastText(messages: BaseMessage[]): string {
  const last = messages[messages.length - 1];
  assert.ok(AIMessage.isInstance(last), `the run ends with ${last?.type}`);
  return last.text;
}

test('createAgent: the two-tool loop runs to the final text, every step used [langchain-inprocess.agent-loop.json +]', async () => {
  const session = await understudy.session('lc-in-agent');
  scriptTrip(session);
  const ran: [string, unknown][] = [];
  const agent = createAgent({ model: chatModel(session), tools: tripTools(ran) });
  const result = await agent.invoke(
    { messages: [{ role: 'user', content: 'Weather in Lyon?' }] },
    { signal: AbortSignal.timeout(TIMEOUT) },
  );
  assert.equal(lastText(result.messages), 'Lyon is sunny, 24 °C.');
  assert.deepEqual(ran, [
    ['geocode', { city: 'Lyon' }],
    ['forecast', { lat: 45.76, lon: 4.84 }],
  ]);
  await session.verify({
    toolCalled: [
      { name: 'geocode', id: 'call_geo', arguments: { city: 'Lyon' }, result: { lat: 45.76, lon: 4.84 }, times: 1 },
      { name: 'forecast', id: 'call_fc', arguments: { lat: 45.76, lon: 4.84 }, result: 'sunny, 24 °C', times: 1 },
    ],
    toolOrder: ['geocode', 'forecast'],
  });
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.step, e.status]),
    [
      ['step-1', 200],
      ['step-2', 200],
      ['step-3', 200],
    ],
  );
});

test('createAgent: zero-config calls the tool with schema-valid arguments, then says the zero-config sentence [langchain-inprocess.agent-loop.json +]', async () => {
  const session = await understudy.session('lc-in-agent-zero', { fallback: 'auto' });
  const ran: unknown[] = [];
  const booking = tool(
    async (input) => {
      ran.push(input);
      return 'booked';
    },
    {
      name: 'book_table',
      description: 'Books a table',
      schema: z.object({ restaurant: z.string().min(3), guests: z.number().int().min(1).max(12), time: z.enum(['19:00', '20:00']) }),
    },
  );
  const agent = createAgent({ model: chatModel(session), tools: [booking] });
  const result = await agent.invoke({ messages: [{ role: 'user', content: 'Book me a table' }] }, { signal: AbortSignal.timeout(TIMEOUT) });
  assert.equal(lastText(result.messages), ZERO_CONFIG_TEXT);
  assert.equal(ran.length, 1);
  const args = ran[0] as { restaurant: string; guests: number; time: string };
  assert.ok(args.restaurant.length >= 3 && args.guests >= 1 && ['19:00', '20:00'].includes(args.time), JSON.stringify(args));
  await session.verify({ toolCalled: [{ name: 'book_table', times: 1 }] });
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.source, e.status]),
    [
      ['zero_config', 200],
      ['zero_config', 200],
    ],
  );
});

test('createAgent: a contract failure stops the run with the 409, no tool runs, nothing consumed [langchain-inprocess.agent-loop.json -]', async () => {
  const session = await understudy.session('lc-in-agent-mismatch');
  scriptTrip(session, { town: 'Lyon' });
  const ran: [string, unknown][] = [];
  const agent = createAgent({ model: chatModel(session), tools: tripTools(ran) });
  const error = await rejection(
    agent.invoke({ messages: [{ role: 'user', content: 'Weather in Lyon?' }] }, { signal: AbortSignal.timeout(TIMEOUT) }),
  );
  modelError(error, 409, 'fixture_mismatch');
  assert.deepEqual(ran, []);
  const { entries, counters } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.error?.code]),
    [[409, 'fixture_mismatch']],
  );
  assert.deepEqual([counters.mismatched, counters.matched], [1, 0]);
  const report = await session.check();
  assert.match(report.report, /step "step-1" was never used/);
  assert.match(report.report, /fixture_mismatch/);
});

test('createAgent streamMode "messages": the final answer streams as the scripted chunks [langchain-inprocess.agent-loop.stream +]', async () => {
  const session = await understudy.session('lc-in-agent-stream');
  session
    .scenario('trip')
    .whenLatestUser({ contains: 'Lyon' })
    .callsTool('geocode', { city: 'Lyon' }, 'call_geo')
    .thenWhenToolResult('geocode', 'call_geo')
    .replies('Lyon is at 45.76, 4.84.', { chunks: ['Lyon is', ' at 45.76,', ' 4.84.'] });
  const ran: [string, unknown][] = [];
  const agent = createAgent({ model: chatModel(session), tools: tripTools(ran) });
  const texts: string[] = [];
  const stream = await agent.stream(
    { messages: [{ role: 'user', content: 'Where is Lyon?' }] },
    { streamMode: 'messages', signal: AbortSignal.timeout(TIMEOUT) },
  );
  for await (const [message] of stream) {
    if (AIMessage.isInstance(message) || message.type === 'ai') texts.push(message.text);
  }
  assert.deepEqual(
    texts.filter((t) => t !== ''),
    ['Lyon is', ' at 45.76,', ' 4.84.'],
  );
  assert.deepEqual(ran, [['geocode', { city: 'Lyon' }]]);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.route, e.stream]),
    [
      ['langchain stream', true],
      ['langchain stream', true],
    ],
  );
  await session.verify();
});

test('createAgent streamMode "messages": a contract failure ends the stream with the 409 [langchain-inprocess.agent-loop.stream -]', async () => {
  const session = await understudy.session('lc-in-agent-stream-mismatch');
  scriptTrip(session, { city: 69000 });
  const ran: [string, unknown][] = [];
  const agent = createAgent({ model: chatModel(session), tools: tripTools(ran) });
  const error = await rejection(
    (async () => {
      const stream = await agent.stream(
        { messages: [{ role: 'user', content: 'Weather in Lyon?' }] },
        { streamMode: 'messages', signal: AbortSignal.timeout(TIMEOUT) },
      );
      for await (const part of stream) void part;
    })(),
  );
  modelError(error, 409, 'fixture_mismatch');
  assert.deepEqual(ran, []);
});

const Person = z.object({ name: z.string(), age: z.number().int() }).describe('A person');

test('withStructuredOutput: a zod schema becomes a json_schema output, the scripted JSON is parsed [langchain-inprocess.structured.json +]', async () => {
  const session = await understudy.session('lc-in-structured');
  session.scenario('person').repliesJson({ name: 'Ada', age: 36 });
  const structured = chatModel(session).withStructuredOutput(Person, { name: 'person', includeRaw: true });
  const { parsed, raw } = await structured.invoke('Who wrote the first program?');
  assert.deepEqual(parsed, { name: 'Ada', age: 36 });
  assert.equal(raw.content, '{"name":"Ada","age":36}');
  const { entries } = await session.journal();
  const output = entries[0].request!.output;
  assert.equal(output.type, 'json_schema');
  assert.equal(output.type === 'json_schema' && output.name, 'person');
  assert.deepEqual(output.type === 'json_schema' && (output.schema as { required?: string[] }).required, ['name', 'age']);
  assert.deepEqual(entries[0].request!.tools, []);

  session.scenario('any-json').repliesJson({ ok: true });
  const jsonMode = await chatModel(session)
    .withStructuredOutput(z.object({ ok: z.boolean() }), { method: 'jsonMode' })
    .invoke('Is it ok? Answer in JSON.');
  assert.deepEqual(jsonMode, { ok: true });
  assert.deepEqual((await session.journal()).entries[1].request!.output, { type: 'json_object' });
});

test('withStructuredOutput: scripted JSON the schema refuses is a 409 fixture_mismatch [langchain-inprocess.structured.json -]', async () => {
  const session = await understudy.session('lc-in-structured-mismatch');
  session.scenario('person').repliesJson({ name: 'Ada', age: 'thirty-six' });
  const error = modelError(await rejection(chatModel(session).withStructuredOutput(Person).invoke('Who?')), 409, 'fixture_mismatch');
  assert.match(error.message, /age/);
  const { counters } = await session.journal();
  assert.deepEqual([counters.mismatched, counters.matched], [1, 0]);
});

test('createAgent responseFormat: the provider strategy asks for json_schema and returns the structured response [langchain-inprocess.structured.json +]', async () => {
  const session = await understudy.session('lc-in-agent-structured');
  session.scenario('person').repliesJson({ name: 'Grace', age: 85 });
  const agent = createAgent({ model: chatModel(session), tools: [], responseFormat: Person });
  const result = await agent.invoke(
    { messages: [{ role: 'user', content: 'Who found the first bug?' }] },
    { signal: AbortSignal.timeout(TIMEOUT) },
  );
  assert.deepEqual(result.structuredResponse, { name: 'Grace', age: 85 });
  const { entries } = await session.journal();
  assert.equal(entries[0].request!.output.type, 'json_schema');
});

test('a scripted 429 surfaces as UnderstudyModelError, retryable; a scripted 503 is retried under maxRetries [langchain-inprocess.errors.json +]', async () => {
  const session = await understudy.session('lc-in-errors');
  session
    .scenario('busy')
    .fails(429, 'Rate limit reached', { code: 'rate_limit_exceeded' })
    .then()
    .fails(503, 'Overloaded')
    .then()
    .replies('Recovered.');
  const error = modelError(await rejection(chatModel(session).invoke('Hi')), 429, 'rate_limit_exceeded');
  assert.equal(error.kind, 'scripted');
  assert.equal(error.isRetryable, true);
  assert.match(error.message, /Rate limit reached/);

  // LangChain's own retry (AsyncCaller) takes the 503 and asks again: the next step answers.
  const reply = await chatModel(session, { maxRetries: 1 }).invoke('Hi', { signal: AbortSignal.timeout(TIMEOUT) });
  assert.equal(reply.content, 'Recovered.');
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.status),
    [429, 503, 200],
  );
});

test('a 409 is never retried, whatever maxRetries says [langchain-inprocess.errors.json -]', async () => {
  const session = await understudy.session('lc-in-errors-no-retry');
  session.scenario('weather').whenLatestUser({ contains: 'Paris' }).replies('Sunny.');
  modelError(await rejection(chatModel(session, { maxRetries: 3 }).invoke('Lyon?')), 409, 'no_match');
  const { entries } = await session.journal();
  assert.equal(entries.length, 1);
});

test('abort during a delayed step: the call rejects with the abort, nothing is consumed, the step answers next time', async () => {
  const session = await understudy.session('lc-in-abort');
  session.scenario('slow').replies('Finally.').delayedBy(400);
  const controller = new AbortController();
  setTimeout(() => controller.abort(new Error('the caller gave up')), 30);
  const error = await rejection(chatModel(session).invoke('Hi', { signal: controller.signal }));
  assert.match(String((error as Error).message), /gave up|abort/i);
  const before = await session.journal();
  assert.deepEqual(
    before.entries.map((e) => [e.status, e.error?.code]),
    [[499, 'client_closed_request']],
  );
  assert.deepEqual([before.counters.aborted, before.counters.matched], [1, 0]);

  const reply = await chatModel(session).invoke('Hi', { signal: AbortSignal.timeout(TIMEOUT) });
  assert.equal(reply.content, 'Finally.');
});

test('a session reached over HTTP (connectUnderstudy) is refused with a clear message', async () => {
  const server = await startUnderstudy();
  try {
    const remote = await connectUnderstudy(server.baseUrl);
    const session = await remote.session('lc-in-remote');
    assert.throws(
      () => new UnderstudyChatModel({ session }),
      /needs a session this process's llm-understudy made.*reached over HTTP \(connectUnderstudy\(\)\)/,
    );
  } finally {
    await server.close();
  }
});

test('faults: a whole answer with a fault fails; a truncated stream ends without its last chunk; a stall waits for the timeout', async () => {
  const session = await understudy.session('lc-in-faults');
  session
    .scenario('faults')
    .replies('Cut short.')
    .withFault({ kind: 'close' })
    .then()
    .replies('One two three.', { chunks: ['One', ' two', ' three.'] })
    .withFault({ kind: 'truncate', afterChunks: 2 })
    .then()
    .replies('Never.')
    .withFault({ kind: 'stall', afterChunks: 0 });
  const closed = await rejection(chatModel(session).invoke('Hi'));
  assert.ok(closed instanceof UnderstudyFaultError && closed.fault === 'close', String(closed));

  const { chunks, whole } = await streamed(await chatModel(session).stream('Hi'));
  assert.deepEqual(
    chunks.map((c) => c.content),
    ['One', ' two'],
  );
  assert.equal(whole.usage_metadata, undefined);
  assert.equal(whole.response_metadata.finish_reason, undefined);

  const started = Date.now();
  const stalled = await rejection(chatModel(session).invoke('Hi', { timeout: 100 }));
  assert.match(String(stalled), /abort|timeout/i);
  assert.ok(Date.now() - started >= 90, 'the stall lasted until the timeout');
});

test('messages: tool results with status error, images, developer messages and tool_choice map to the neutral request', async () => {
  const session = await understudy.session('lc-in-messages', { fallback: 'auto' });
  const [geocode, forecast] = tripTools([]);
  const history = [
    new SystemMessage({ content: 'Be terse.', additional_kwargs: { __openai_role__: 'developer' } }),
    new HumanMessage({
      content: [
        { type: 'text', text: 'Where is this?' },
        { type: 'image_url', image_url: { url: 'https://example.test/lyon.png' } },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      ],
    }),
    new AIMessage({ content: '', tool_calls: [{ id: 'call_geo', name: 'geocode', args: { city: 'Lyon' } }] }),
    new ToolMessage({ content: 'geocoder down', tool_call_id: 'call_geo', status: 'error' }),
  ];
  await chatModel(session).bindTools([geocode, forecast], { tool_choice: 'any', parallel_tool_calls: false }).invoke(history);
  const request = (await session.journal()).entries[0].request!;
  assert.deepEqual(
    request.messages.map((m) => m.role),
    ['developer', 'user', 'assistant', 'tool'],
  );
  assert.deepEqual(request.messages[1].parts.slice(1), [
    { type: 'image', url: 'https://example.test/lyon.png' },
    { type: 'image', url: 'data:image/png;base64,iVBORw0KGgo=', mediaType: 'image/png' },
  ]);
  assert.deepEqual(request.messages[3].parts, [
    { type: 'tool_result', callId: 'call_geo', name: 'geocode', content: 'geocoder down', isError: true },
  ]);
  assert.deepEqual(request.toolChoice, { type: 'required' });
  assert.equal(request.parallelToolCalls, false);

  // Refused at once, before any request, and not retried under maxRetries.
  const named = chatModel(session, { maxRetries: 3 }).bindTools([geocode], { tool_choice: 'forecast' });
  const started = Date.now();
  await assert.rejects(named.invoke('Hi'), /tool_choice names "forecast", which is not a bound tool/);
  assert.ok(Date.now() - started < 900, `refused after ${Date.now() - started} ms`);
  assert.equal((await session.journal()).entries.length, 1);
});

test('createAgent: a tool that throws sends its error back as an error result, and the loop ends on it', async () => {
  const session = await understudy.session('lc-in-agent-tool-error');
  session
    .scenario('trip')
    .callsTools([
      { name: 'geocode', arguments: { city: 'Lyon' }, id: 'call_lyon' },
      { name: 'geocode', arguments: { city: 'Atlantis' }, id: 'call_atlantis' },
    ])
    .thenWhenToolResult('geocode', 'call_atlantis')
    .replies('Lyon is at 45.76, 4.84; Atlantis is nowhere.');
  const geocode = tool(
    async (input: { city: string }) => {
      if (input.city === 'Atlantis') throw new Error('no such city');
      return '45.76, 4.84';
    },
    { name: 'geocode', description: 'Coordinates of a city', schema: z.object({ city: z.string() }) },
  );
  const agent = createAgent({ model: chatModel(session), tools: [geocode] });
  const result = await agent.invoke(
    { messages: [{ role: 'user', content: 'Where are Lyon and Atlantis?' }] },
    { signal: AbortSignal.timeout(TIMEOUT) },
  );
  assert.equal(lastText(result.messages), 'Lyon is at 45.76, 4.84; Atlantis is nowhere.');
  const { entries } = await session.journal();
  const results = entries[1].request!.messages.flatMap((m) => m.parts).filter((p) => p.type === 'tool_result');
  assert.deepEqual(
    results.map((p) => [p.callId, p.name, p.isError]),
    [
      ['call_lyon', 'geocode', false],
      ['call_atlantis', 'geocode', true],
    ],
  );
  await session.verify({ toolCalled: [{ name: 'geocode', times: 2 }] });
});

test('withStructuredOutput functionCalling: the schema is the one tool the script must call, its arguments the output', async () => {
  const session = await understudy.session('lc-in-structured-tool');
  session.scenario('person').whenHasTool('person').callsTool('person', { name: 'Ada', age: 36 });
  const person = await chatModel(session).withStructuredOutput(Person, { name: 'person', method: 'functionCalling' }).invoke('Who?');
  assert.deepEqual(person, { name: 'Ada', age: 36 });
  const request = (await session.journal()).entries[0].request!;
  assert.deepEqual(
    [request.tools.map((t) => t.name), request.toolChoice, request.output.type],
    [['person'], { type: 'named', name: 'person' }, 'text'],
  );
});

test('property: any scripted chunks stream as exactly those chunks, and invoke answers their concatenation', async () => {
  const session = await understudy.session('lc-in-chunks-property');
  const model = chatModel(session);
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme' }), { minLength: 1, maxLength: 8 }),
      async (chunks) => {
        await session.reset();
        session.scenario('text').replies(chunks.join(''), { chunks }).then().replies(chunks.join(''), { chunks });
        const { chunks: streamedChunks, whole } = await streamed(await model.stream('Hi'));
        assert.deepEqual(
          streamedChunks.map((c) => c.content),
          [...chunks, ''],
        );
        assert.equal(whole.content, chunks.join(''));
        assert.equal((await model.invoke('Hi')).content, chunks.join(''));
      },
    ),
    { numRuns: 40 },
  );
});

test('property: a conversation of text, tool calls and results keeps its roles, texts and call ids in order', async () => {
  const session = await understudy.session('lc-in-history-property', { fallback: 'auto' });
  const model = chatModel(session);
  const turn = fc.oneof(
    fc.record({ kind: fc.constant('system' as const), text: fc.string({ minLength: 1 }) }),
    fc.record({ kind: fc.constant('human' as const), text: fc.string({ minLength: 1 }) }),
    fc.record({ kind: fc.constant('ai' as const), text: fc.string({ minLength: 1 }) }),
    fc.record({
      kind: fc.constant('call' as const),
      id: fc.stringMatching(/^call_[a-z0-9]{1,8}$/),
      result: fc.string(),
      failed: fc.boolean(),
    }),
  );
  await fc.assert(
    fc.asyncProperty(fc.array(turn, { minLength: 1, maxLength: 8 }), async (turns) => {
      await session.reset();
      const history: BaseMessage[] = [];
      const expected: [string, string][] = [];
      for (const t of turns) {
        if (t.kind === 'system') history.push(new SystemMessage(t.text));
        else if (t.kind === 'human') history.push(new HumanMessage(t.text));
        else if (t.kind === 'ai') history.push(new AIMessage(t.text));
        else {
          history.push(new AIMessage({ content: '', tool_calls: [{ id: t.id, name: 'lookup', args: { q: t.id } }] }));
          history.push(new ToolMessage({ content: t.result, tool_call_id: t.id, status: t.failed ? 'error' : 'success' }));
        }
        if (t.kind === 'call')
          expected.push(['assistant', `call ${t.id} lookup {"q":"${t.id}"}`], ['tool', `result ${t.id} lookup ${t.failed} ${t.result}`]);
        else expected.push([{ system: 'system', human: 'user', ai: 'assistant' }[t.kind], `text ${t.text}`]);
      }
      await model.invoke(history);
      const request = (await session.journal()).entries[0].request!;
      const actual = request.messages.map((m): [string, string] => {
        const [p] = m.parts;
        if (p.type === 'text') return [m.role, `text ${p.text}`];
        if (p.type === 'tool_call') return [m.role, `call ${p.id} ${p.name} ${p.argumentsText}`];
        if (p.type === 'tool_result') return [m.role, `result ${p.callId} ${p.name} ${p.isError} ${p.content}`];
        return [m.role, p.type];
      });
      assert.deepEqual(actual, expected);
    }),
    { numRuns: 60 },
  );
});

test('reasoning, maxTokens and a scripted finish reason reach the message; reasoning in history goes back as reasoning', async () => {
  const session = await understudy.session('lc-in-reasoning');
  session
    .scenario('think')
    .reply({ text: 'Forty-two.', reasoning: 'Six times seven.', finishReason: 'length' })
    .then()
    .reply({ text: 'Forty-two.', reasoning: 'Six times seven.', finishReason: 'length' })
    .then()
    .replies('Still forty-two.');
  const model = new UnderstudyChatModel({ session, maxRetries: 0, maxTokens: 64 });
  const whole = await model.invoke('What is the answer?');
  assert.deepEqual(
    [whole.content, whole.additional_kwargs.reasoning_content, whole.response_metadata.finish_reason],
    ['Forty-two.', 'Six times seven.', 'length'],
  );
  assert.ok((whole.usage_metadata?.output_tokens ?? 0) > 0);
  const { chunks, whole: streamedWhole } = await streamed(await model.stream('What is the answer?'));
  assert.equal(chunks[0].additional_kwargs.reasoning_content, 'Six times seven.');
  assert.deepEqual([streamedWhole.content, streamedWhole.additional_kwargs.reasoning_content], ['Forty-two.', 'Six times seven.']);

  await model.invoke([new HumanMessage('What is the answer?'), whole, new HumanMessage('Sure?')]);
  const { entries } = await session.journal();
  assert.equal(entries[0].request!.maxOutputTokens, 64);
  assert.deepEqual(entries[2].request!.messages[1].parts, [
    { type: 'reasoning', text: 'Six times seven.' },
    { type: 'text', text: 'Forty-two.' },
  ]);
});

test('streamEvents: on_chat_model_stream carries the scripted chunks, on_chat_model_end the whole answer', async () => {
  const session = await understudy.session('lc-in-stream-events');
  session.scenario('story').replies('Once upon a time.', { chunks: ['Once', ' upon', ' a time.'] });
  const streamedTexts: unknown[] = [];
  let ended: unknown;
  for await (const event of chatModel(session).streamEvents('Tell me a story', { version: 'v2', signal: AbortSignal.timeout(TIMEOUT) })) {
    if (event.event === 'on_chat_model_stream') streamedTexts.push(event.data.chunk.content);
    if (event.event === 'on_chat_model_end') ended = event.data.output.content;
  }
  assert.deepEqual(
    streamedTexts.filter((t) => t !== ''),
    ['Once', ' upon', ' a time.'],
  );
  assert.equal(ended, 'Once upon a time.');
});

// LangChain's ChatOpenAI (@langchain/openai) against Understudy: a tool round by hand (bindTools,
// a ToolMessage back), the same streamed, withStructuredOutput, and the Responses API
// (useResponsesApi). What LangChain sends is in wire-formats §16: `stream: false` spelled out,
// `stream_options.include_usage` when streaming, strict json_schema for structured output.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AIMessage, AIMessageChunk, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import OpenAI from 'openai';
import { z } from 'zod';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { scriptParisWeather, scriptZipCodeCall } from './support/aisdk.js';
import { runToolCalls, weatherTool } from './support/langchain.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

function chatModel(session: UnderstudySession, options: { useResponsesApi?: boolean } = {}): ChatOpenAI {
  return new ChatOpenAI({
    model: 'gpt-4o',
    apiKey: session.apiKey,
    configuration: { baseURL: mock.url('openai') },
    maxRetries: 0,
    timeout: 10_000,
    ...options,
  });
}

async function streamed(model: { stream: (input: BaseMessage[]) => Promise<AsyncIterable<AIMessageChunk>> }, input: BaseMessage[]) {
  let whole: AIMessageChunk | undefined;
  let chunks = 0;
  for await (const chunk of await model.stream(input)) {
    whole = whole === undefined ? chunk : whole.concat(chunk);
    chunks++;
  }
  assert.ok(whole, 'the stream yielded nothing');
  return { whole, chunks };
}

async function expectConflict(promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await promise.then(
    () => assert.fail('expected a 409'),
    (e: unknown) => e,
  );
  // LangChain passes the openai client's own error through: a ConflictError carrying the 409 body.
  assert.ok(error instanceof Error && 'status' in error, String(error));
  const apiError = error as InstanceType<typeof OpenAI.APIError>;
  assert.equal(apiError.status, 409);
  assert.equal(apiError.code, 'fixture_mismatch');
  return apiError;
}

test('ChatOpenAI.bindTools: a tool round by hand, usage and the journal [langchain-openai-chat.tools.json +]', async () => {
  const session = await mock.session('lc-tools');
  scriptParisWeather(session);
  const ran: unknown[] = [];
  const weather = weatherTool('string', ran);
  const model = chatModel(session).bindTools([weather]);

  const question = new HumanMessage('What is the weather in Paris?');
  const first = await model.invoke([question]);
  assert.deepEqual(
    first.tool_calls?.map((c) => [c.name, c.args, c.id]),
    [['weather', { city: 'Paris' }, 'call_paris']],
  );
  const toolMessages = await runToolCalls(first, weather);
  assert.deepEqual(ran, [{ city: 'Paris' }]);
  const second = await model.invoke([question, first, ...toolMessages]);
  assert.equal(second.content, 'Paris is sunny, 21 °C.');
  assert.ok((second.usage_metadata?.input_tokens ?? 0) > 0);
  assert.equal(
    second.usage_metadata?.total_tokens,
    (second.usage_metadata?.input_tokens ?? 0) + (second.usage_metadata?.output_tokens ?? 0),
  );

  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.route, e.stream]),
    [
      [200, 'POST /v1/chat/completions', false],
      [200, 'POST /v1/chat/completions', false],
    ],
  );
  const sent = entries[1].request;
  assert.equal(sent?.stream, false);
  assert.deepEqual(
    sent?.tools.map((t) => t.name),
    ['weather'],
  );
  assert.deepEqual(
    sent?.messages.map((m) => [m.role, m.parts.map((p) => p.type).join()]),
    [
      ['user', 'text'],
      ['assistant', 'tool_call'],
      ['tool', 'tool_result'],
    ],
  );
  assert.deepEqual(sent?.messages[2].parts[0], {
    type: 'tool_result',
    callId: 'call_paris',
    name: 'weather',
    content: 'sunny in Paris',
    isError: false,
  });
  await session.verify();
});

test('ChatOpenAI.bindTools: a call that fails the tool schema is a 409 ConflictError and nothing is consumed [langchain-openai-chat.tools.json -]', async () => {
  const session = await mock.session('lc-tools-mismatch');
  scriptZipCodeCall(session);
  const refused: unknown[] = [];
  const error = await expectConflict(
    chatModel(session)
      .bindTools([weatherTool('string', refused)])
      .invoke('Weather?'),
  );
  assert.match(error.message, /at \/city: must be string/);
  assert.deepEqual(refused, []);

  const ran: unknown[] = [];
  const weather = weatherTool('number', ran);
  const reply = await chatModel(session).bindTools([weather]).invoke('Weather?');
  assert.deepEqual(
    reply.tool_calls?.map((c) => c.args),
    [{ city: 75001 }],
  );
  const { counters } = await session.journal();
  assert.deepEqual([counters.mismatched, counters.matched], [1, 1]);
});

test('ChatOpenAI.stream with tools: tool-call chunks join into the call, then the answer streams [langchain-openai-chat.tools.stream +]', async () => {
  const session = await mock.session('lc-tools-stream');
  scriptParisWeather(session);
  const ran: unknown[] = [];
  const weather = weatherTool('string', ran);
  const model = chatModel(session).bindTools([weather]);
  const question = new HumanMessage('What is the weather in Paris?');

  const first = await streamed(model, [question]);
  assert.deepEqual(
    first.whole.tool_calls?.map((c) => [c.name, c.args, c.id]),
    [['weather', { city: 'Paris' }, 'call_paris']],
  );
  const toolMessages = await runToolCalls(new AIMessage({ content: '', tool_calls: first.whole.tool_calls }), weather);
  const second = await streamed(model, [question, new AIMessage({ content: '', tool_calls: first.whole.tool_calls }), ...toolMessages]);
  assert.equal(second.whole.content, 'Paris is sunny, 21 °C.');
  assert.ok(second.chunks > 2, `${second.chunks} chunks`);
  assert.ok((second.whole.usage_metadata?.output_tokens ?? 0) > 0, 'the usage chunk reached LangChain');

  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream]),
    [
      [200, true],
      [200, true],
    ],
  );
  assert.equal(entries[0].request?.streamUsage, true, 'LangChain asks for usage when streaming');
  await session.verify();
});

test('ChatOpenAI.stream: a refused call throws the 409 before any chunk and runs nothing [langchain-openai-chat.tools.stream -]', async () => {
  const session = await mock.session('lc-tools-stream-mismatch');
  scriptZipCodeCall(session);
  const ran: unknown[] = [];
  const model = chatModel(session).bindTools([weatherTool('string', ran)]);
  let chunks = 0;
  await expectConflict(
    (async () => {
      for await (const _chunk of await model.stream('Weather?')) chunks++;
    })(),
  );
  assert.equal(chunks, 0);
  assert.deepEqual(ran, []);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream, e.error?.code]),
    [[409, true, 'fixture_mismatch']],
  );
});

const Person = z.object({ name: z.string(), age: z.number() });

test('ChatOpenAI.withStructuredOutput: a strict json_schema answer parsed into the zod type [langchain-openai-chat.structured.json +]', async () => {
  const session = await mock.session('lc-structured');
  session.scenario('person').repliesJson({ name: 'Ada', age: 36 });
  const person = await chatModel(session).withStructuredOutput(Person, { name: 'person' }).invoke('Who wrote the first program?');
  assert.deepEqual(person, { name: 'Ada', age: 36 });

  const { entries } = await session.journal();
  const format = entries[0].request?.output;
  assert.ok(format?.type === 'json_schema', JSON.stringify(format));
  assert.equal(format.name, 'person');
  assert.equal(format.strict, true);
  await session.verify();
});

test('ChatOpenAI.withStructuredOutput: scripted JSON that fails the schema is a 409, not a parse error [langchain-openai-chat.structured.json -]', async () => {
  const session = await mock.session('lc-structured-mismatch');
  session.scenario('person').repliesJson({ name: 'Ada', age: 'thirty-six' });
  const error = await expectConflict(chatModel(session).withStructuredOutput(Person, { name: 'person' }).invoke('Who?'));
  assert.match(error.message, /age/);
  const { counters } = await session.journal();
  assert.equal(counters.mismatched, 1);
});

test('ChatOpenAI with useResponsesApi: text through POST /v1/responses [langchain-openai-responses.text.json +]', async () => {
  const session = await mock.session('lc-responses');
  session.scenario('greeting').whenLatestUser({ contains: 'Hello' }).replies('Hi from Responses.');
  const reply = await chatModel(session, { useResponsesApi: true }).invoke('Hello there');
  assert.equal(reply.text, 'Hi from Responses.');
  assert.ok((reply.usage_metadata?.input_tokens ?? 0) > 0);

  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.route, e.operation]),
    [[200, 'POST /v1/responses', 'openai.responses']],
  );
  await session.verify();
});

test('ChatOpenAI with useResponsesApi: a scripted 429 surfaces as the openai client’s RateLimitError [langchain-openai-responses.text.json -]', async () => {
  const session = await mock.session('lc-responses-429');
  session.scenario('throttled').fails(429, 'Rate limit reached for gpt-4o', { code: 'rate_limit_exceeded' });
  const error = await chatModel(session, { useResponsesApi: true })
    .invoke('Hello')
    .catch((e: unknown) => e);
  assert.ok(error instanceof Error && 'status' in error && 'code' in error, String(error));
  assert.equal(error.status, 429);
  assert.equal(error.code, 'rate_limit_exceeded');
  assert.match(error.message, /Rate limit reached/);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.route]),
    [[429, 'POST /v1/responses']],
  );
});

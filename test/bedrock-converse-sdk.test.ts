// @aws-sdk/client-bedrock-runtime 3.1164 against the Bedrock Converse dialect: Converse and
// ConverseStream (the binary event stream) with text, reasoning, a tool round and structured
// output, toolChoice held by the contract check, 409s that consume nothing, scripted errors as the
// client's exception classes (a 429 retried when the client retries), exception frames and faults
// inside the stream, an aborted stream, prompt caching by cachePoint, CountTokens, percent-encoded
// model ids and ARNs, and SigV4 and Bearer credentials naming the session. The client is made in
// test/support/bedrock.ts (its HTTP/1.1 handler until the port speaks h2c).

import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';

import {
  BedrockRuntimeServiceException,
  ConverseCommand,
  ConverseStreamCommand,
  CountTokensCommand,
  InvokeModelCommand,
  type ConverseCommandInput,
  type ConverseStreamOutput,
  type Message,
  type Tool,
} from '@aws-sdk/client-bedrock-runtime';

import fc from 'fast-check';

import { startUnderstudy, type Understudy } from '../src/client/index.js';
import { bedrockClient } from './support/bedrock.js';

const MODEL = 'anthropic.claude-3-haiku-20240307-v1:0';
const WEATHER: Tool = {
  toolSpec: {
    name: 'get_weather',
    description: 'Current weather for a city',
    inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } },
  },
};
const TIME: Tool = {
  toolSpec: {
    name: 'get_time',
    description: 'The time in a zone',
    inputSchema: { json: { type: 'object', properties: { zone: { type: 'string' } } } },
  },
};
const PERSON = {
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'integer' } },
  required: ['name', 'age'],
  additionalProperties: false,
};

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const user = (text: string): Message => ({ role: 'user', content: [{ text }] });

function converse(messages: Message[], extra: Partial<ConverseCommandInput> = {}): ConverseCommandInput {
  return { modelId: MODEL, messages, inferenceConfig: { maxTokens: 200 }, ...extra };
}

async function rejection(promise: Promise<unknown>): Promise<BedrockRuntimeServiceException> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  assert.ok('error' in outcome, `expected the client to throw, it returned ${JSON.stringify(outcome)}`);
  assert.ok(outcome.error instanceof BedrockRuntimeServiceException, `a Bedrock exception: ${String(outcome.error)}`);
  return outcome.error;
}

interface Streamed {
  events: string[];
  text: string;
  reasoning: string;
  signature: string;
  calls: { id: string; name: string; input: string }[];
  stopReason: string | undefined;
  usage: { inputTokens?: number; outputTokens?: number } | undefined;
}

async function readStream(stream: AsyncIterable<ConverseStreamOutput> | undefined): Promise<Streamed> {
  const out: Streamed = { events: [], text: '', reasoning: '', signature: '', calls: [], stopReason: undefined, usage: undefined };
  for await (const event of stream ?? []) {
    const [name] = Object.keys(event).filter((k) => k !== '$unknown');
    out.events.push(name);
    const delta = event.contentBlockDelta?.delta;
    if (delta?.text !== undefined) out.text += delta.text;
    if (delta?.reasoningContent?.text !== undefined) out.reasoning += delta.reasoningContent.text;
    if (delta?.reasoningContent?.signature !== undefined) out.signature += delta.reasoningContent.signature;
    if (delta?.toolUse?.input !== undefined) out.calls[out.calls.length - 1].input += delta.toolUse.input;
    const start = event.contentBlockStart?.start?.toolUse;
    if (start) out.calls.push({ id: start.toolUseId ?? '', name: start.name ?? '', input: '' });
    if (event.messageStop) out.stopReason = event.messageStop.stopReason;
    if (event.metadata) out.usage = event.metadata.usage;
  }
  return out;
}

async function open(id: string, options: Parameters<Understudy['session']>[1] = {}) {
  const session = await mock.session(id, options);
  return { session, client: bedrockClient(mock, { apiKey: session.apiKey }) };
}

describe('Converse and ConverseStream: text', () => {
  test('Converse answers the scripted text with stopReason, usage, metrics and the request id [bedrock-converse.text.json +]', async () => {
    const { session, client } = await open('text-json');
    session.scenario('hello').whenLatestUser({ contains: 'Hello' }).replies('Hello from Understudy.');
    const response = await client.send(new ConverseCommand(converse([user('Hello there')], { system: [{ text: 'Be brief.' }] })));
    assert.deepEqual(response.output?.message?.content, [{ text: 'Hello from Understudy.' }]);
    assert.equal(response.output?.message?.role, 'assistant');
    assert.equal(response.stopReason, 'end_turn');
    assert.deepEqual(response.metrics, { latencyMs: 0 });
    const { entries } = await session.journal();

    assert.equal(entries.length, 1);
    const [entry] = entries;
    assert.equal(entry.operation, 'bedrock.converse');
    assert.equal(response.$metadata.requestId, entry.requestId);
    assert.deepEqual(response.usage, {
      inputTokens: entry.usage?.inputTokens,
      outputTokens: entry.usage?.outputTokens,
      totalTokens: (entry.usage?.inputTokens ?? 0) + (entry.usage?.outputTokens ?? 0),
      cacheReadInputTokens: 0,
      cacheWriteInputTokens: 0,
    });
    assert.equal(entry.request?.model, MODEL, 'the model id, percent-decoded from the path');
    assert.deepEqual(
      entry.request?.messages.map((m) => [m.role, m.parts.map((p) => (p.type === 'text' ? p.text : p.type))]),
      [
        ['system', ['Be brief.']],
        ['user', ['Hello there']],
      ],
    );
    await session.verify();
  });

  test('a request no script matches is a ConflictException (409, code no_match) and consumes nothing [bedrock-converse.text.json -]', async () => {
    const { session, client } = await open('text-no-match');
    session.scenario('hello').whenLatestUser({ contains: 'Hello' }).replies('Hello from Understudy.');
    const error = await rejection(client.send(new ConverseCommand(converse([user('Goodbye')]))));
    assert.equal(error.name, 'ConflictException');
    assert.equal(error.$metadata.httpStatusCode, 409);
    assert.equal((error as unknown as { code?: string }).code, 'no_match');
    assert.match(error.message, /no script matched/);
    const after = await client.send(new ConverseCommand(converse([user('Hello')])));
    assert.deepEqual(after.output?.message?.content, [{ text: 'Hello from Understudy.' }]);
  });

  test('ConverseStream sends one text delta per scripted chunk, then messageStop and metadata [bedrock-converse.text.stream +]', async () => {
    const { session, client } = await open('text-stream');
    session.scenario('s').replies('one two three', { chunks: ['one ', 'two ', 'three'] });
    const response = await client.send(new ConverseStreamCommand(converse([user('count')])));
    const streamed = await readStream(response.stream);
    assert.deepEqual(streamed.events, [
      'messageStart',
      'contentBlockDelta',
      'contentBlockDelta',
      'contentBlockDelta',
      'contentBlockStop',
      'messageStop',
      'metadata',
    ]);
    assert.equal(streamed.text, 'one two three');
    assert.equal(streamed.stopReason, 'end_turn');
    const [entry] = (await session.journal()).entries;
    assert.equal(entry.operation, 'bedrock.converseStream');
    assert.equal(response.$metadata.requestId, entry.requestId);
    assert.equal(streamed.usage?.inputTokens, entry.usage?.inputTokens);
    assert.equal(streamed.usage?.outputTokens, entry.usage?.outputTokens);
    await session.verify();
  });

  test('an aborted ConverseStream consumes nothing: the next request gets the same reply [bedrock-converse.text.stream -]', async () => {
    const { session, client } = await open('text-stream-abort');
    session.scenario('slow').reply({ text: 'slow answer', delayMs: 500 }).then().replies('second answer');
    const controller = new AbortController();
    const started = Date.now();
    const aborted = client.send(new ConverseStreamCommand(converse([user('hi')])), { abortSignal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(aborted, (e: unknown) => e instanceof Error && e.name === 'AbortError');
    assert.ok(Date.now() - started < 450, 'the abort ended the request before the delay');
    await sleep(50);
    const next = await readStream((await client.send(new ConverseStreamCommand(converse([user('hi')])))).stream);
    assert.equal(next.text, 'slow answer', 'the aborted request did not consume the first reply');
    const { entries } = await session.journal();

    assert.deepEqual(
      entries.map((e) => [e.event, e.status, e.step]),
      [
        ['request_aborted', 499, 'step-1'],
        ['reply_returned', 200, 'step-1'],
      ],
    );
  });

  test('a paced stream reports its pacing as metadata.metrics.latencyMs, and takes at least its time to first token', async () => {
    const { session, client } = await open('paced');
    session.scenario('s').replies('one two three', { chunks: ['one ', 'two ', 'three'], pacing: { ttftMs: 120, chunksPerSecond: 50 } });
    const started = Date.now();
    const response = await client.send(new ConverseStreamCommand(converse([user('count')])));
    let latency: number | undefined;
    let text = '';
    for await (const event of response.stream ?? []) {
      text += event.contentBlockDelta?.delta?.text ?? '';
      if (event.metadata) latency = event.metadata.metrics?.latencyMs;
    }
    assert.equal(text, 'one two three');
    assert.ok(Date.now() - started >= 100, 'the first event waited for its time to first token');
    // messageStart, three deltas, contentBlockStop, messageStop, metadata: 120 ms, then six gaps of 20 ms.
    assert.equal(latency, 240);
  });

  test('reasoning comes back as a reasoningContent block with a signature, JSON and stream [bedrock-converse.reasoning.json +] [bedrock-converse.reasoning.stream +]', async () => {
    const { session, client } = await open('reasoning');
    session.scenario('r').onExhausted('repeat_last').reply({ text: 'It is 42.', reasoning: 'Six times seven.' });
    const response = await client.send(new ConverseCommand(converse([user('think')])));
    const [reasoning, text] = response.output?.message?.content ?? [];
    assert.equal(reasoning.reasoningContent?.reasoningText?.text, 'Six times seven.');
    assert.ok((reasoning.reasoningContent?.reasoningText?.signature ?? '').length > 10);
    assert.deepEqual(text, { text: 'It is 42.' });
    const streamed = await readStream((await client.send(new ConverseStreamCommand(converse([user('think')])))).stream);
    assert.equal(streamed.reasoning, 'Six times seven.');
    assert.equal(streamed.signature, reasoning.reasoningContent?.reasoningText?.signature);
    assert.equal(streamed.text, 'It is 42.');
  });

  test('reasoning sent back by the assistant reaches the script; from the user it is a ValidationException, JSON and stream [bedrock-converse.reasoning.json -] [bedrock-converse.reasoning.stream -]', async () => {
    const { session, client } = await open('reasoning-back');
    session.scenario('s').onExhausted('repeat_last').replies('ok');
    const thought = { reasoningContent: { reasoningText: { text: 'I thought.', signature: 'c2ln' } } };
    await client.send(new ConverseCommand(converse([user('q'), { role: 'assistant', content: [thought, { text: 'A.' }] }, user('and?')])));
    const assistant = (await session.journal()).entries[0].request?.messages[1];
    assert.deepEqual(assistant?.parts, [
      { type: 'reasoning', text: 'I thought.' },
      { type: 'text', text: 'A.' },
    ]);
    const fromUser = [{ role: 'user' as const, content: [thought] }];
    for (const error of [
      await rejection(client.send(new ConverseCommand(converse(fromUser)))),
      await rejection(client.send(new ConverseStreamCommand(converse(fromUser)))),
    ]) {
      assert.equal(error.name, 'ValidationException');
      assert.match(error.message, /reasoningContent content block is only allowed in messages with the assistant role/);
    }
  });

  test('model ids arrive percent-encoded: a version with ":", an inference profile and an ARN with "/" are one model id each', async () => {
    const { session, client } = await open('model-ids');
    session.scenario('s').onExhausted('repeat_last').replies('ok');
    const ids = [
      'anthropic.claude-3-haiku-20240307-v1:0',
      'us.anthropic.claude-3-5-sonnet-20241022-v2:0',
      'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-3-haiku-20240307-v1:0',
      'arn:aws:bedrock:us-east-1::foundation-model/amazon.nova-pro-v1:0',
    ];
    for (const modelId of ids) await client.send(new ConverseCommand({ modelId, messages: [user('hi')] }));
    await readStream((await client.send(new ConverseStreamCommand({ modelId: ids[2], messages: [user('hi')] }))).stream);
    const { entries } = await session.journal();

    assert.deepEqual(
      entries.map((e) => e.request?.model),
      [...ids, ids[2]],
    );
    assert.match(entries[2].route ?? '', /inference-profile%2Fus\.anthropic/);
  });

  test('under /bedrock too: mock.url("bedrock-prefixed") is an endpoint with a path', async () => {
    const session = await mock.session('prefixed');
    session.scenario('s').replies('prefixed ok');
    const client = bedrockClient(mock, { apiKey: session.apiKey, endpoint: mock.url('bedrock-prefixed') });
    const response = await client.send(new ConverseCommand(converse([user('hi')])));
    assert.deepEqual(response.output?.message?.content, [{ text: 'prefixed ok' }]);
    assert.match((await session.journal()).entries[0].route ?? '', /^POST \/bedrock\/model\//);
  });
});

describe('over HTTP/1.1, whatever handler the other tests use', () => {
  test("a Converse and a ConverseStream round through the client's NodeHttpHandler", async () => {
    const session = await mock.session('http1-round');
    session.scenario('s').replies('over HTTP/1.1').then().replies('streamed over HTTP/1.1');
    const client = bedrockClient(mock, { apiKey: session.apiKey, http: 'http1' });
    const response = await client.send(new ConverseCommand(converse([user('hi')])));
    assert.deepEqual(response.output?.message?.content, [{ text: 'over HTTP/1.1' }]);
    const streamed = await readStream((await client.send(new ConverseStreamCommand(converse([user('hi')])))).stream);
    assert.equal(streamed.text, 'streamed over HTTP/1.1');
    await session.verify();
  });
});

describe('credentials: the access key id (SigV4) or the bearer token names the session', () => {
  test('SigV4 and Bearer each reach the session whose key they carry; another key reaches another session', async () => {
    const a = await mock.session('auth-a');
    const b = await mock.session('auth-b');
    a.scenario('s').replies('from a');
    b.scenario('s').replies('from b');
    const sigv4 = bedrockClient(mock, { apiKey: a.apiKey });
    const bearer = bedrockClient(mock, { token: b.apiKey });
    assert.deepEqual((await sigv4.send(new ConverseCommand(converse([user('hi')])))).output?.message?.content, [{ text: 'from a' }]);
    assert.deepEqual((await bearer.send(new ConverseCommand(converse([user('hi')])))).output?.message?.content, [{ text: 'from b' }]);
    await a.verify();
    await b.verify();
  });
});

describe('tools', () => {
  test('a tool round: toolUse with the scripted id and input, then the toolResult matched by the next step [bedrock-converse.tools.json +]', async () => {
    const { session, client } = await open('tools-json');
    session
      .scenario('weather')
      .whenLatestUser({ contains: 'Paris' })
      .callsTool('get_weather', { city: 'Paris' }, 'tooluse_paris')
      .thenWhenToolResult('get_weather', 'tooluse_paris')
      .replies('Paris is sunny.');
    const toolConfig = { tools: [WEATHER] };
    const first = await client.send(new ConverseCommand(converse([user('Weather in Paris?')], { toolConfig })));
    assert.equal(first.stopReason, 'tool_use');
    const content = first.output?.message?.content ?? [];
    assert.deepEqual(content, [{ toolUse: { toolUseId: 'tooluse_paris', name: 'get_weather', input: { city: 'Paris' } } }]);
    const second = await client.send(
      new ConverseCommand(
        converse(
          [
            user('Weather in Paris?'),
            { role: 'assistant', content },
            {
              role: 'user',
              content: [{ toolResult: { toolUseId: 'tooluse_paris', content: [{ json: { sky: 'sunny' } }], status: 'success' } }],
            },
          ],
          { toolConfig },
        ),
      ),
    );
    assert.deepEqual(second.output?.message?.content, [{ text: 'Paris is sunny.' }]);
    assert.equal(second.stopReason, 'end_turn');
    const { entries } = await session.journal();

    const tool = entries[1].request?.messages.find((m) => m.role === 'tool');
    assert.deepEqual(tool?.parts, [
      { type: 'tool_result', callId: 'tooluse_paris', name: 'get_weather', content: '{"sky":"sunny"}', isError: false },
    ]);
    await session.verify();
  });

  test('a toolResult with status error reaches the script as an error result', async () => {
    const { session, client } = await open('tools-error-result');
    session.scenario('s').replies('The tool failed.');
    await client.send(
      new ConverseCommand(
        converse(
          [
            user('Weather?'),
            { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'get_weather', input: { city: 'Oslo' } } }] },
            { role: 'user', content: [{ toolResult: { toolUseId: 't1', content: [{ text: 'timeout' }], status: 'error' } }] },
          ],
          { toolConfig: { tools: [WEATHER] } },
        ),
      ),
    );
    const tool = (await session.journal()).entries[0].request?.messages.find((m) => m.role === 'tool');
    assert.deepEqual(tool?.parts, [{ type: 'tool_result', callId: 't1', name: 'get_weather', content: 'timeout', isError: true }]);
  });

  test('a toolResult for a toolUse the previous turn did not ask for is a ValidationException [bedrock-converse.tools.json -]', async () => {
    const { session, client } = await open('tools-unpaired');
    session.scenario('s').replies('never');
    const error = await rejection(
      client.send(
        new ConverseCommand(
          converse(
            [
              user('Weather?'),
              { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'get_weather', input: {} } }] },
              { role: 'user', content: [{ toolResult: { toolUseId: 't2', content: [{ text: 'sunny' }] } }] },
            ],
            { toolConfig: { tools: [WEATHER] } },
          ),
        ),
      ),
    );
    assert.equal(error.name, 'ValidationException');
    assert.equal(error.$metadata.httpStatusCode, 400);
    assert.equal(error.message, 'Expected toolResult blocks at messages.2.content for the following Ids: t1');
    const [entry] = (await session.journal()).entries;
    assert.equal(entry.status, 400);
    assert.equal(entry.step, undefined, 'nothing consumed');
    const streamed = await rejection(
      client.send(new ConverseStreamCommand(converse([user('Weather?'), { role: 'user', content: [{ text: 'again' }] }]))),
    );
    assert.equal(streamed.name, 'ValidationException');
    const refused = (await session.journal()).entries[1];
    assert.deepEqual(
      [refused.status, refused.stream, refused.operation],
      [400, true, 'bedrock.converseStream'],
      'journalled as the stream it asked for',
    );
  });

  test('a streamed tool round: contentBlockStart names the tool, toolUse.input deltas concatenate to the arguments [bedrock-converse.tools.stream +]', async () => {
    const { session, client } = await open('tools-stream');
    const args = { city: 'Paris, the capital of France, on the Seine' };
    session
      .scenario('weather')
      .callsTool('get_weather', args, 'tooluse_s1')
      .thenWhenToolResult('get_weather', 'tooluse_s1')
      .replies('Sunny all week.');
    const toolConfig = { tools: [WEATHER, TIME] };
    const first = await readStream((await client.send(new ConverseStreamCommand(converse([user('Weather?')], { toolConfig })))).stream);
    assert.equal(first.stopReason, 'tool_use');
    assert.equal(first.calls.length, 1);
    assert.deepEqual([first.calls[0].id, first.calls[0].name], ['tooluse_s1', 'get_weather']);
    assert.deepEqual(JSON.parse(first.calls[0].input), args);
    assert.ok(first.events.filter((e) => e === 'contentBlockDelta').length > 1, 'the input arrives in fragments');
    const second = await readStream(
      (
        await client.send(
          new ConverseStreamCommand(
            converse(
              [
                user('Weather?'),
                { role: 'assistant', content: [{ toolUse: { toolUseId: 'tooluse_s1', name: 'get_weather', input: args } }] },
                { role: 'user', content: [{ toolResult: { toolUseId: 'tooluse_s1', content: [{ text: 'sunny' }] } }] },
              ],
              { toolConfig },
            ),
          ),
        )
      ).stream,
    );
    assert.equal(second.text, 'Sunny all week.');
    await session.verify();
  });

  test('toolChoice tool names X but the script calls Y: a 409 fixture_mismatch that consumes nothing [bedrock-converse.tools.stream -]', async () => {
    const { session, client } = await open('tools-choice-mismatch');
    session.scenario('wrong').callsTool('get_time', { zone: 'UTC' });
    const input = converse([user('Weather?')], { toolConfig: { tools: [WEATHER, TIME], toolChoice: { tool: { name: 'get_weather' } } } });
    const streamError = await rejection(client.send(new ConverseStreamCommand(input)));
    assert.equal(streamError.name, 'ConflictException');
    assert.equal(streamError.$metadata.httpStatusCode, 409);
    const jsonError = await rejection(client.send(new ConverseCommand(input)));
    assert.equal(jsonError.name, 'ConflictException');
    assert.equal((jsonError as unknown as { code?: string }).code, 'fixture_mismatch');
    const { entries } = await session.journal();

    assert.deepEqual(
      entries.map((e) => [e.status, e.error?.code]),
      [
        [409, 'fixture_mismatch'],
        [409, 'fixture_mismatch'],
      ],
    );
    // The step is still there: a request naming get_time gets it.
    const ok = await client.send(
      new ConverseCommand(
        converse([user('Time?')], { toolConfig: { tools: [WEATHER, TIME], toolChoice: { tool: { name: 'get_time' } } } }),
      ),
    );
    assert.equal(ok.output?.message?.content?.[0].toolUse?.name, 'get_time');
  });

  test('toolChoice any: zero-config calls a declared tool; a scripted text answer is a 409 [bedrock-converse.tool-choice.json +] [bedrock-converse.tool-choice.json -]', async () => {
    const zero = await open('tool-choice-any-zero', { fallback: 'auto' });
    const forced = { toolConfig: { tools: [WEATHER], toolChoice: { any: {} } } };
    const called = await zero.client.send(new ConverseCommand(converse([user('anything')], forced)));
    assert.equal(called.stopReason, 'tool_use');
    assert.equal(called.output?.message?.content?.[0].toolUse?.name, 'get_weather');
    assert.deepEqual((await zero.session.journal()).entries[0].request?.toolChoice, { type: 'required' });
    const scripted = await open('tool-choice-any-text');
    scripted.session.scenario('s').replies('I will not call a tool.');
    const error = await rejection(scripted.client.send(new ConverseCommand(converse([user('anything')], forced))));
    assert.equal(error.name, 'ConflictException');
    assert.match(error.message, /tool/);
  });
});

describe('structured output (outputConfig.textFormat)', () => {
  const outputConfig = {
    textFormat: {
      type: 'json_schema' as const,
      structure: { jsonSchema: { name: 'person', description: 'A person', schema: JSON.stringify(PERSON) } },
    },
  };

  test('a JSON reply valid against the schema comes back as the message text [bedrock-converse.structured.json +]', async () => {
    const { session, client } = await open('structured-json');
    session.scenario('s').repliesJson({ name: 'Ada', age: 36 });
    const response = await client.send(new ConverseCommand(converse([user('Who?')], { outputConfig })));
    assert.deepEqual(JSON.parse(response.output?.message?.content?.[0].text ?? ''), { name: 'Ada', age: 36 });
    const output = (await session.journal()).entries[0].request?.output;
    assert.deepEqual(output, { type: 'json_schema', name: 'person', schema: PERSON });
  });

  test('a JSON reply the schema refuses is a 409 that consumes nothing; a schema that is not JSON is a ValidationException [bedrock-converse.structured.json -]', async () => {
    const { session, client } = await open('structured-json-bad');
    session.scenario('s').repliesJson({ name: 'Ada' });
    const error = await rejection(client.send(new ConverseCommand(converse([user('Who?')], { outputConfig }))));
    assert.equal(error.name, 'ConflictException');
    assert.equal((error as unknown as { code?: string }).code, 'fixture_mismatch');
    const broken = { textFormat: { ...outputConfig.textFormat, structure: { jsonSchema: { schema: '{"type":' } } } };
    const invalid = await rejection(client.send(new ConverseCommand(converse([user('Who?')], { outputConfig: broken }))));
    assert.equal(invalid.name, 'ValidationException');
    assert.match(invalid.message, /outputConfig\.textFormat\.structure\.jsonSchema\.schema is not valid JSON/);
    // Not consumed: the same step is tried again (a consumed one would leave the scenario exhausted).
    const again = await rejection(client.send(new ConverseCommand(converse([user('Who?')], { outputConfig }))));
    assert.equal((again as unknown as { code?: string }).code, 'fixture_mismatch');
    assert.deepEqual(
      (await session.journal()).entries.map((e) => e.status),
      [409, 400, 409],
    );
  });

  test('streamed, the JSON arrives as text deltas [bedrock-converse.structured.stream +]', async () => {
    const { session, client } = await open('structured-stream');
    session.scenario('s').repliesJson({ name: 'Ada', age: 36 });
    const streamed = await readStream((await client.send(new ConverseStreamCommand(converse([user('Who?')], { outputConfig })))).stream);
    assert.deepEqual(JSON.parse(streamed.text), { name: 'Ada', age: 36 });
  });

  test('streamed, a JSON reply the schema refuses is a 409 before the stream starts [bedrock-converse.structured.stream -]', async () => {
    const { session, client } = await open('structured-stream-bad');
    session.scenario('s').repliesJson({ name: 'Ada', age: 'old' });
    const error = await rejection(client.send(new ConverseStreamCommand(converse([user('Who?')], { outputConfig }))));
    assert.equal(error.name, 'ConflictException');
    assert.equal((error as unknown as { code?: string }).code, 'fixture_mismatch');
    const again = await rejection(client.send(new ConverseStreamCommand(converse([user('Who?')], { outputConfig }))));
    assert.equal((again as unknown as { code?: string }).code, 'fixture_mismatch', 'not consumed: the same step is tried again');
  });
});

describe('errors', () => {
  test('a scripted 429 is a ThrottlingException, retried by a client with maxAttempts 2 [bedrock-converse.errors.json +]', async () => {
    const session = await mock.session('errors-429-retried');
    session.scenario('s').fails(429, 'Too many requests, slow down.').replies('after the retry');
    const client = bedrockClient(mock, { apiKey: session.apiKey, maxAttempts: 2 });
    const response = await client.send(new ConverseCommand(converse([user('hi')])));
    assert.deepEqual(response.output?.message?.content, [{ text: 'after the retry' }]);
    assert.equal(response.$metadata.attempts, 2);
    const { entries } = await session.journal();

    assert.deepEqual(
      entries.map((e) => [e.status, e.request?.attempt]),
      [
        [429, 0],
        [200, 1],
      ],
    );
  });

  test('scripted errors are the client exception classes of their status; with maxAttempts 1 nothing is retried [bedrock-converse.errors.json -]', async () => {
    const cases: [number, string][] = [
      [400, 'ValidationException'],
      [403, 'AccessDeniedException'],
      [404, 'ResourceNotFoundException'],
      [424, 'ModelErrorException'],
      [429, 'ThrottlingException'],
      [500, 'InternalServerException'],
      [503, 'ServiceUnavailableException'],
    ];
    for (const [status, name] of cases) {
      const { session, client } = await open(`errors-${status}`);
      session.scenario('s').fails(status, `scripted ${status}`);
      const error = await rejection(client.send(new ConverseCommand(converse([user('hi')]))));
      assert.deepEqual([error.name, error.$metadata.httpStatusCode, error.message], [name, status, `scripted ${status}`]);
      assert.equal((await session.journal()).entries.length, 1, `${status}: not retried`);
    }
    const { session, client } = await open('errors-named');
    session.scenario('s').reply({ error: { status: 400, type: 'ServiceQuotaExceededException', message: 'quota' } });
    assert.equal((await rejection(client.send(new ConverseCommand(converse([user('hi')]))))).name, 'ServiceQuotaExceededException');
  });

  test('a scripted error inside the stream is an exception frame the client throws [bedrock-converse.errors.stream +]', async () => {
    for (const [status, name] of [
      [429, 'ThrottlingException'],
      [400, 'ValidationException'],
      [424, 'ModelStreamErrorException'],
      [500, 'InternalServerException'],
      [503, 'ServiceUnavailableException'],
    ] as const) {
      const { session, client } = await open(`errors-in-stream-${status}`);
      session.scenario('s').reply({ error: { status, message: `inside ${status}`, inStream: true } });
      const response = await client.send(new ConverseStreamCommand(converse([user('hi')])));
      assert.equal(response.$metadata.httpStatusCode, 200);
      const events: string[] = [];
      const error = await rejection(
        (async () => {
          for await (const event of response.stream ?? []) events.push(Object.keys(event)[0]);
        })(),
      );
      assert.deepEqual([error.name, error.message], [name, `inside ${status}`]);
      assert.deepEqual(events, ['messageStart']);
    }
  });

  test('a fault part-way: an error fault is an exception frame after the scripted chunks; a malformed one a frame whose checksum fails [bedrock-converse.errors.stream -]', async () => {
    const chunks = ['one ', 'two ', 'three ', 'four'];
    const { session, client } = await open('errors-fault');
    session
      .scenario('s')
      .reply({
        text: chunks.join(''),
        chunks,
        fault: { kind: 'error', afterChunks: 3, error: { status: 503, message: 'Overloaded mid-answer' } },
      })
      .then()
      .reply({ text: chunks.join(''), chunks, fault: { kind: 'malformed', afterChunks: 3 } });
    const first = await client.send(new ConverseStreamCommand(converse([user('hi')])));
    let text = '';
    const error = await rejection(
      (async () => {
        for await (const event of first.stream ?? []) text += event.contentBlockDelta?.delta?.text ?? '';
      })(),
    );
    assert.deepEqual([error.name, error.message], ['ServiceUnavailableException', 'Overloaded mid-answer']);
    assert.equal(text, 'one two ', 'the events before the fault arrived');
    const second = await client.send(new ConverseStreamCommand(converse([user('hi')])));
    const broken = await (async () => {
      for await (const _ of second.stream ?? []) void _;
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(broken instanceof Error && !(broken instanceof BedrockRuntimeServiceException), String(broken));
    assert.match(broken.message, /checksum/i);
  });

  test('a truncated stream ends without its metadata event; a reset is a connection error', async () => {
    const chunks = ['one ', 'two ', 'three'];
    const { session, client } = await open('errors-truncate');
    session
      .scenario('s')
      .reply({ text: chunks.join(''), chunks, fault: { kind: 'truncate', afterChunks: 2 } })
      .then()
      .reply({ text: chunks.join(''), chunks, fault: { kind: 'reset', afterChunks: 2 } });
    const outcome = await readStream((await client.send(new ConverseStreamCommand(converse([user('hi')])))).stream).catch(
      (e: unknown) => e,
    );
    if (!(outcome instanceof Error)) assert.ok(!(outcome as Streamed).events.includes('metadata'), JSON.stringify(outcome));
    const reset = await (async () => readStream((await client.send(new ConverseStreamCommand(converse([user('hi')])))).stream))().then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(reset instanceof Error && !(reset instanceof BedrockRuntimeServiceException), String(reset));
  });
});

describe('validation on ConverseStream', () => {
  test('accepted members stream; a malformed one is a ValidationException before the stream, consuming nothing [bedrock-converse.validation.stream +] [bedrock-converse.validation.stream -]', async () => {
    const { session, client } = await open('validation-stream');
    session.scenario('s').replies('streamed');
    const refused = await rejection(client.send(new ConverseStreamCommand(converse([user('hi')], { inferenceConfig: { maxTokens: 0 } }))));
    assert.equal(refused.name, 'ValidationException');
    assert.match(
      refused.message,
      /at 'inferenceConfig\.maxTokens' failed to satisfy constraint: Member must have value greater than or equal to 1/,
    );
    const streamed = await readStream(
      (
        await client.send(
          new ConverseStreamCommand(
            converse([user('hi')], {
              inferenceConfig: { maxTokens: 5, temperature: 0.2, topP: 0.9, stopSequences: ['END'] },
              guardrailConfig: { guardrailIdentifier: 'g', guardrailVersion: '1', streamProcessingMode: 'async' } as never,
              additionalModelResponseFieldPaths: ['/delta/stop_sequence'],
            }),
          ),
        )
      ).stream,
    );
    assert.equal(streamed.text, 'streamed');
    assert.deepEqual(
      (await session.journal()).entries.map((e) => [e.status, e.stream]),
      [
        [400, true],
        [200, true],
      ],
    );
  });
});

describe('zero-config', () => {
  test('with no script: a call of the first declared tool, then a sentence once its result is back [bedrock-converse.zero-config.json +]', async () => {
    const { client } = await open('zero-config', { fallback: 'auto' });
    const toolConfig = { tools: [WEATHER] };
    const first = await client.send(new ConverseCommand(converse([user('hi')], { toolConfig })));
    const use = first.output?.message?.content?.[0].toolUse;
    assert.equal(use?.name, 'get_weather');
    assert.equal(typeof (use?.input as { city?: unknown }).city, 'string');
    const second = await client.send(
      new ConverseCommand(
        converse(
          [
            user('hi'),
            { role: 'assistant', content: first.output?.message?.content },
            { role: 'user', content: [{ toolResult: { toolUseId: use?.toolUseId, content: [{ text: 'sunny' }] } }] },
          ],
          { toolConfig },
        ),
      ),
    );
    assert.equal(second.stopReason, 'end_turn');
    assert.ok((second.output?.message?.content?.[0].text ?? '').length > 0);
  });

  test('streamed with no script: the tool call whole in one input delta, then a sentence [bedrock-converse.zero-config.stream +]', async () => {
    const { client } = await open('zero-config-stream', { fallback: 'auto' });
    // Arguments longer than one input fragment, so "whole" means something.
    const FLIGHT: Tool = {
      toolSpec: {
        name: 'book_flight',
        inputSchema: {
          json: {
            type: 'object',
            properties: { destination_city_name: { type: 'string' }, departure_airport_code: { type: 'string' } },
            required: ['destination_city_name', 'departure_airport_code'],
          },
        },
      },
    };
    const toolConfig = { tools: [FLIGHT] };
    const first = await readStream((await client.send(new ConverseStreamCommand(converse([user('hi')], { toolConfig })))).stream);
    assert.equal(first.stopReason, 'tool_use');
    assert.equal(first.calls.length, 1);
    assert.equal(first.events.filter((e) => e === 'contentBlockDelta').length, 1, 'the input arrives whole');
    const call = first.calls[0];
    const input = JSON.parse(call.input) as { destination_city_name?: unknown };
    assert.equal(typeof input.destination_city_name, 'string');
    const second = await readStream(
      (
        await client.send(
          new ConverseStreamCommand(
            converse(
              [
                user('hi'),
                { role: 'assistant', content: [{ toolUse: { toolUseId: call.id, name: call.name, input: input as never } }] },
                { role: 'user', content: [{ toolResult: { toolUseId: call.id, content: [{ text: 'sunny' }] } }] },
              ],
              { toolConfig },
            ),
          ),
        )
      ).stream,
    );
    assert.equal(second.stopReason, 'end_turn');
    assert.ok(second.text.length > 0);
  });

  test('streamed, zero-config off: an unscripted request is a ConflictException before the stream starts [bedrock-converse.zero-config.stream -]', async () => {
    const { client } = await open('zero-config-stream-off');
    assert.equal((await rejection(client.send(new ConverseStreamCommand(converse([user('hi')]))))).name, 'ConflictException');
  });

  test('zero-config off: an unscripted request is a ConflictException [bedrock-converse.zero-config.json -]', async () => {
    const { client } = await open('zero-config-off');
    assert.equal((await rejection(client.send(new ConverseCommand(converse([user('hi')]))))).name, 'ConflictException');
  });
});

describe('prompt caching (cachePoint) and CountTokens', () => {
  const longSystem = 'You are a meticulous assistant who answers in one line. '.repeat(40);

  test('cachePoint marks what is cached: a write, then a read; the cache members add up to the prompt [bedrock-converse.prompt-cache.json +]', async () => {
    const { session, client } = await open('cache', { promptCache: { minTokens: 64, granularity: 1 } });
    session.scenario('s').onExhausted('repeat_last').replies('ok');
    const system = [{ text: longSystem }, { cachePoint: { type: 'default' as const } }];
    const first = await client.send(new ConverseCommand(converse([user('first')], { system })));
    assert.equal(first.usage?.cacheReadInputTokens, 0);
    assert.ok((first.usage?.cacheWriteInputTokens ?? 0) > 64, JSON.stringify(first.usage));
    const second = await client.send(new ConverseCommand(converse([user('second question')], { system })));
    assert.ok((second.usage?.cacheReadInputTokens ?? 0) > 64, JSON.stringify(second.usage));
    const { entries } = await session.journal();

    const u = second.usage ?? { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
    assert.equal((u.inputTokens ?? 0) + (u.cacheReadInputTokens ?? 0) + (u.cacheWriteInputTokens ?? 0), entries[1].usage?.inputTokens);
    assert.equal(u.totalTokens, (entries[1].usage?.inputTokens ?? 0) + (u.outputTokens ?? 0));
  });

  test('without a cachePoint nothing is cached, however often the prefix repeats [bedrock-converse.prompt-cache.json -]', async () => {
    const { session, client } = await open('cache-none', { promptCache: { minTokens: 64, granularity: 1 } });
    session.scenario('s').onExhausted('repeat_last').replies('ok');
    for (const q of ['a', 'b', 'c']) {
      const answer = await client.send(new ConverseCommand(converse([user(q)], { system: [{ text: longSystem }] })));
      assert.deepEqual([answer.usage?.cacheReadInputTokens, answer.usage?.cacheWriteInputTokens], [0, 0], JSON.stringify(answer.usage));
    }
    assert.deepEqual(
      (await session.journal()).entries.map((e) => e.usage?.cachedInputTokens),
      [0, 0, 0],
    );
  });

  test('CountTokens counts a Converse input as Converse reports its inputTokens [bedrock-converse.count-tokens.json +]', async () => {
    const { session, client } = await open('count-tokens');
    session.scenario('s').onExhausted('repeat_last').replies('ok');
    const inputs: Pick<ConverseCommandInput, 'messages' | 'system' | 'toolConfig'>[] = [
      { messages: [user('Hi')] },
      { messages: [user('What is the weather in Paris today?')], system: [{ text: 'Be brief.' }], toolConfig: { tools: [WEATHER, TIME] } },
      {
        messages: [
          user('Weather?'),
          { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'get_weather', input: { city: 'Oslo' } } }] },
          { role: 'user', content: [{ toolResult: { toolUseId: 't1', content: [{ json: { sky: 'grey' } }] } }] },
        ],
        toolConfig: { tools: [WEATHER] },
      },
    ];
    for (const input of inputs) {
      const counted = await client.send(new CountTokensCommand({ modelId: MODEL, input: { converse: input } }));
      const answered = await client.send(new ConverseCommand({ modelId: MODEL, ...input }));
      assert.equal(counted.inputTokens, answered.usage?.inputTokens, JSON.stringify(input));
      assert.ok((counted.inputTokens ?? 0) > 0);
    }
    const { entries } = await session.journal();

    assert.equal(entries.length, inputs.length, 'CountTokens is not journalled and consumes nothing');
  });

  test('CountTokens counts an InvokeModel body as InvokeModel reports its input tokens [bedrock-converse.count-tokens.json +]', async () => {
    const { session, client } = await open('count-tokens-invoke');
    session.scenario('s').onExhausted('repeat_last').replies('ok');
    const body = JSON.stringify({
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 100,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'What is the weather in Paris today?' }],
    });
    const counted = await client.send(
      new CountTokensCommand({ modelId: MODEL, input: { invokeModel: { body: new TextEncoder().encode(body) } } }),
    );
    const answered = await client.send(new InvokeModelCommand({ modelId: MODEL, body, contentType: 'application/json' }));
    const usage = JSON.parse(new TextDecoder().decode(answered.body)) as { usage: { input_tokens: number } };
    assert.ok((counted.inputTokens ?? 0) > 0);
    assert.equal(counted.inputTokens, usage.usage.input_tokens);
  });

  test('property: for any conversation, system and tools, CountTokens equals the inputTokens Converse reports', async () => {
    const { client } = await open('count-tokens-property', { fallback: 'auto' });
    const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }).filter((t) => t.trim() !== '');
    const turns = fc
      .array(text, { minLength: 1, maxLength: 5 })
      .map((texts) => texts.map((t, i): Message => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: [{ text: t }] })));
    const toolName = fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_-]{0,20}$/);
    const tools = fc.uniqueArray(toolName, { maxLength: 3 }).map((names) =>
      names.map((name): Tool => ({
        toolSpec: {
          name,
          description: `about ${name}`,
          inputSchema: { json: { type: 'object', properties: { [name]: { type: 'string' } } } },
        },
      })),
    );
    await fc.assert(
      fc.asyncProperty(turns, fc.option(text, { nil: undefined }), tools, async (messages, system, declared) => {
        // A conversation the caller continues ends with the user.
        if (messages[messages.length - 1].role !== 'user') messages.push(user('and?'));
        const input = {
          messages,
          ...(system !== undefined && { system: [{ text: system }] }),
          ...(declared.length > 0 && { toolConfig: { tools: declared } }),
        };
        const counted = await client.send(new CountTokensCommand({ modelId: MODEL, input: { converse: input } }));
        const answered = await client.send(new ConverseCommand({ modelId: MODEL, ...input }));
        assert.equal(counted.inputTokens, answered.usage?.inputTokens);
      }),
      { numRuns: 25, seed: 19 },
    );
  });

  test('CountTokens refuses what Converse and InvokeModel refuse [bedrock-converse.count-tokens.json -]', async () => {
    const { client } = await open('count-tokens-bad');
    const bad = await rejection(
      client.send(
        new CountTokensCommand({ modelId: MODEL, input: { converse: { messages: [{ role: 'assistant', content: [{ text: 'hi' }] }] } } }),
      ),
    );
    assert.equal(bad.name, 'ValidationException');
    assert.match(bad.message, /must start with a user message/);
    const invoke = await rejection(
      client.send(new CountTokensCommand({ modelId: MODEL, input: { invokeModel: { body: new TextEncoder().encode('{}') } } })),
    );
    assert.equal(invoke.name, 'ValidationException');
    assert.match(invoke.message, /required key \[anthropic_version\]/);
  });
});

test('an endpoint with a path the AWS client should not have (the OpenAI base URL) is a ResourceNotFoundException it can read, naming the URL', async () => {
  const client = bedrockClient(mock, { endpoint: mock.url('openai') });
  const error = await rejection(client.send(new ConverseCommand(converse([user('hi')]))));
  client.destroy();
  assert.equal(error.name, 'ResourceNotFoundException');
  assert.equal(error.$metadata.httpStatusCode, 404);
  assert.match(error.message, /Unrecognized request URL \(POST: \/v1\/model\/anthropic\.claude-3-haiku-20240307-v1%3A0\/converse\)/);
});

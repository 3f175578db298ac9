// LangChain's ChatBedrockConverse (@langchain/aws 1.4.5) against the Bedrock Converse dialect: a
// tool round by hand (bindTools, a ToolMessage back), the same streamed, and a scripted call that
// breaks the tool's schema refused with nothing consumed. LangChain builds its BedrockRuntimeClient
// from `endpointHost` as https only, so the test hands it a client pointed at Understudy (the
// `client` field), on the AWS client's default HTTP/2 handler.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ChatBedrockConverse } from '@langchain/aws';
import { AIMessage, AIMessageChunk, HumanMessage } from '@langchain/core/messages';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { scriptParisWeather, scriptZipCodeCall } from './support/aisdk.js';
import { runToolCalls, weatherTool } from './support/langchain.js';
import { bedrockClient } from './support/bedrock.js';

const MODEL = 'anthropic.claude-3-haiku-20240307-v1:0';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

function chatModel(session: UnderstudySession): ChatBedrockConverse {
  return new ChatBedrockConverse({
    model: MODEL,
    region: 'us-east-1',
    client: bedrockClient(mock, { apiKey: session.apiKey }),
    maxRetries: 0,
  });
}

test('ChatBedrockConverse.bindTools: a tool round by hand through Converse [langchain-bedrock.tools.json +]', async () => {
  const session = await mock.session('lc-bedrock-tools');
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
  const second = await model.invoke([question, first, ...(await runToolCalls(first, weather))]);
  assert.deepEqual(ran, [{ city: 'Paris' }]);
  assert.equal(second.content, 'Paris is sunny, 21 °C.');
  assert.ok((second.usage_metadata?.input_tokens ?? 0) > 0);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.operation, e.stream, e.step]),
    [
      [200, 'bedrock.converse', false, 'step-1'],
      [200, 'bedrock.converse', false, 'step-2'],
    ],
  );
  assert.equal(second.usage_metadata?.input_tokens, entries[1].usage?.inputTokens);
  await session.verify();
});

test('ChatBedrockConverse.stream: the tool round streamed through ConverseStream [langchain-bedrock.tools.stream +]', async () => {
  const session = await mock.session('lc-bedrock-stream');
  scriptParisWeather(session);
  const ran: unknown[] = [];
  const weather = weatherTool('string', ran);
  const model = chatModel(session).bindTools([weather]);
  const question = new HumanMessage('What is the weather in Paris?');
  let first: AIMessageChunk | undefined;
  for await (const chunk of await model.stream([question])) first = first === undefined ? chunk : first.concat(chunk);
  assert.ok(first);
  assert.deepEqual(
    first.tool_calls?.map((c) => [c.name, c.args, c.id]),
    [['weather', { city: 'Paris' }, 'call_paris']],
  );
  const toolMessages = await runToolCalls(new AIMessage({ content: first.content, tool_calls: first.tool_calls }), weather);
  let text = '';
  for await (const chunk of await model.stream([question, first, ...toolMessages]))
    text += typeof chunk.content === 'string' ? chunk.content : '';
  assert.equal(text, 'Paris is sunny, 21 °C.');
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.operation, e.stream]),
    [
      [200, 'bedrock.converseStream', true],
      [200, 'bedrock.converseStream', true],
    ],
  );
  await session.verify();
});

/** A scripted call that breaks the tool's schema: refused with the 409, the tool not run, and the
 * step left for the next request, which a tool it satisfies then gets. */
async function expectRefusedThenAnswered(mode: 'json' | 'stream'): Promise<void> {
  const session = await mock.session(`lc-bedrock-mismatch-${mode}`);
  scriptZipCodeCall(session);
  const ran: unknown[] = [];
  const model = chatModel(session).bindTools([weatherTool('string', ran)]);
  const asked =
    mode === 'json'
      ? model.invoke([new HumanMessage('Weather?')])
      : (async () => {
          for await (const chunk of await model.stream([new HumanMessage('Weather?')])) void chunk;
        })();
  const error = await asked.then(
    () => assert.fail('expected a 409'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof Error, String(error));
  assert.equal((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode, 409, String(error));
  assert.deepEqual(ran, []);
  const again = await chatModel(session)
    .bindTools([weatherTool('number', ran)])
    .invoke([new HumanMessage('Weather?')]);
  assert.deepEqual(
    again.tool_calls?.map((c) => c.args),
    [{ city: 75001 }],
    'the refused step answered the next request',
  );
}

test('ChatBedrockConverse.invoke: a scripted call that breaks the tool schema is refused, nothing consumed [langchain-bedrock.tools.json -]', () =>
  expectRefusedThenAnswered('json'));

test('ChatBedrockConverse.stream: a scripted call that breaks the tool schema is refused, nothing consumed [langchain-bedrock.tools.stream -]', () =>
  expectRefusedThenAnswered('stream'));

// LangChain's createAgent loop with more chat models than ChatOpenAI over Chat Completions
// (test/agent-loops-langchain.test.ts): ChatOpenAI streamed (`agent.stream` in `messages` mode, so
// each model call streams SSE) and on the Responses API (`useResponsesApi`), ChatBedrockConverse
// (Converse), ChatOllama (/api/chat, streamed by default) and ChatCohere (Cohere v1 chat). Each runs
// the two-tool script and the zero-config loop to their ends.
//
// Not `new ChatOpenAI({ streaming: true }).invoke()`: that path estimates token counts with
// js-tiktoken, which downloads its ranks from the internet, and so waits on a connection that never
// comes here.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ChatBedrockConverse } from '@langchain/aws';
import { ChatCohere } from '@langchain/cohere';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { ChatOllama } from '@langchain/ollama';
import { ChatOpenAI } from '@langchain/openai';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { langchainTool, langchainTools } from '../src/presets/langchain.js';
import {
  ANSWER,
  CONVERT,
  expectSchemaValidRun,
  FORECAST_DESCRIPTION,
  FORECAST_RESULT,
  FORECAST_SCHEMA,
  QUESTION,
  scriptTwoTools,
  twoToolsCalled,
  type ResultWire,
  WEATHER,
  ZERO_CONFIG_TEXT,
} from './support/agent-loops.js';
import { bedrockClient } from './support/bedrock.js';
import { CohereClient } from './support/cohere-v1-client.js';
import { createAgent, type ReactAgent } from './support/langchain-agent.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const timedFetch: typeof fetch = (input, init) => {
  const timeout = AbortSignal.timeout(10_000);
  return fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout });
};

const openai = (session: UnderstudySession, options: { useResponsesApi?: boolean }) =>
  new ChatOpenAI({
    model: 'gpt-4o',
    apiKey: session.apiKey,
    configuration: { baseURL: mock.url('openai') },
    maxRetries: 0,
    timeout: 10_000,
    ...options,
  });

/** Each model, whether its requests stream, and whether the agent is run with agent.stream(). */
const MODELS: Record<
  string,
  { model: (session: UnderstudySession) => unknown; stream: boolean; agentStream?: boolean; wire?: ResultWire; tag?: string }
> = {
  // The evidence tag of docs/capabilities.md, spelled out (test/capabilities.test.ts reads it).
  'ChatOpenAI streamed': {
    model: (s) => openai(s, {}),
    stream: true,
    agentStream: true,
    tag: ' [langchain-openai-chat.agent-loop.stream +]',
  },
  'ChatOpenAI on Responses': { model: (s) => openai(s, { useResponsesApi: true }), stream: false },
  ChatBedrockConverse: {
    model: (s) =>
      new ChatBedrockConverse({
        model: 'anthropic.claude-3-haiku-20240307-v1:0',
        region: 'us-east-1',
        client: bedrockClient(mock, { apiKey: s.apiKey }),
        maxRetries: 0,
      }),
    stream: false,
  },
  ChatOllama: {
    model: (s) =>
      new ChatOllama({
        model: 'llama3.2',
        baseUrl: mock.url('ollama'),
        headers: { Authorization: `Bearer ${s.apiKey}` },
        fetch: timedFetch,
        maxRetries: 0,
      }),
    // ChatOllama streams /api/chat unless told not to, and gives calls ids of its own.
    stream: true,
    wire: { ids: false },
  },
  ChatCohere: {
    model: (s) =>
      new ChatCohere({
        client: new CohereClient({ token: s.apiKey, environment: mock.url('cohere'), maxRetries: 0, timeoutInSeconds: 10 }),
        model: 'command-r-plus',
        maxRetries: 0,
      }),
    stream: false,
    // ChatCohere sends a tool message's text as `outputs: [{ output }]`, read as that object.
    wire: { content: (result) => ({ output: JSON.stringify(result) }) },
  },
};

const slug = (name: string) => name.replace(/\W+/g, '-');

/** Runs the agent to its end: invoke(), or stream() reading every event; the final state. */
async function ask(agent: ReactAgent, agentStream = false): Promise<{ messages: BaseMessage[] }> {
  const input = { messages: [{ role: 'user' as const, content: QUESTION }] };
  const signal = AbortSignal.timeout(15_000);
  if (!agentStream) return agent.invoke(input, { signal });
  let state: { messages: BaseMessage[] } | undefined;
  let chunks = 0;
  for await (const [mode, value] of await agent.stream(input, { signal, streamMode: ['messages', 'values'] })) {
    if (mode === 'values') state = value;
    else chunks++;
  }
  assert.ok(state, 'the stream gave no state');
  assert.ok(chunks > 0, 'the model streamed no message chunks');
  return state;
}

function finalText(messages: unknown[]): unknown {
  const last = messages.at(-1);
  assert.ok(AIMessage.isInstance(last), `the last message is ${String(last)}`);
  assert.deepEqual(last.tool_calls ?? [], []);
  // Responses and Converse give content blocks; the text is the same.
  return typeof last.content === 'string' ? last.content : last.text;
}

for (const [name, { model, stream, agentStream, wire, tag = '' }] of Object.entries(MODELS)) {
  describe(`createAgent with ${name}`, () => {
    test(`the two-tool script runs to its text, every step used${tag}`, async () => {
      const session = await mock.session(`lc-models-${slug(name)}-two`);
      await scriptTwoTools(session, wire);
      const { messages } = await ask(createAgent({ model: model(session), tools: langchainTools(WEATHER, CONVERT) }), agentStream);
      assert.equal(finalText(messages), ANSWER);
      assert.deepEqual(
        messages.map((m) => m.type),
        ['human', 'ai', 'tool', 'ai', 'tool', 'ai'],
      );
      const { entries } = await session.journal();
      assert.deepEqual(
        entries.map((e) => [e.status, e.stream, e.source, e.step]),
        ['step-1', 'step-2', 'step-3'].map((step) => [200, stream, 'script', step]),
      );
      await session.verify(twoToolsCalled(wire));
    });

    test(`zero-config calls the tool once with schema-valid arguments, then ends with the sentence${tag}`, async () => {
      const session = await mock.session(`lc-models-${slug(name)}-zc`, { fallback: 'auto' });
      const ran: unknown[] = [];
      const forecast = tool(
        async (input: unknown) => {
          ran.push(input);
          return FORECAST_RESULT;
        },
        { name: 'forecast', description: FORECAST_DESCRIPTION, schema: structuredClone(FORECAST_SCHEMA) as Record<string, unknown> },
      );
      const { messages } = await ask(createAgent({ model: model(session), tools: [forecast] }), agentStream);
      expectSchemaValidRun(ran);
      assert.equal(finalText(messages), ZERO_CONFIG_TEXT);
      const { entries } = await session.journal();
      assert.deepEqual(
        entries.map((e) => [e.status, e.stream, e.source, e.reply?.toolCalls.length]),
        [
          [200, stream, 'zero_config', 1],
          [200, stream, 'zero_config', 0],
        ],
      );
      await session.verify();
    });
  });
}

describe('createAgent streamed with ChatOpenAI: what goes wrong surfaces from agent.stream()', () => {
  async function expectConflict(agent: ReactAgent, code: string): Promise<void> {
    const error = await ask(agent, true).then(
      () => assert.fail('expected a 409'),
      (e: unknown) => e,
    );
    assert.equal((error as { status?: number }).status, 409, String(error));
    assert.equal((error as { code?: string }).code, code);
  }

  test('a tool result the script does not expect: 409 no_match, steps 2 and 3 unused [langchain-openai-chat.agent-loop.stream -]', async () => {
    const session = await mock.session('lc-models-stream-wrong-result');
    await scriptTwoTools(session);
    const agent = createAgent({
      model: openai(session, {}),
      tools: [langchainTool(WEATHER, () => ({ ...WEATHER.result, temperature: 5 })), langchainTool(CONVERT)],
    });
    await expectConflict(agent, 'no_match');
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.stream, e.step ?? null]),
      [
        [200, true, 'step-1'],
        [409, true, null],
      ],
    );
    const report = await session.check();
    assert.deepEqual(
      report.problems.filter((p) => p.kind === 'unused_step').map((p) => p.step),
      ['step-2', 'step-3'],
    );
  });

  test('a tool schema the second scripted call breaks: 409 fixture_mismatch, the tool never runs [langchain-openai-chat.agent-loop.stream -]', async () => {
    const session = await mock.session('lc-models-stream-schema');
    await scriptTwoTools(session);
    let ran = false;
    const calculator = tool(
      async () => {
        ran = true;
        return '0';
      },
      {
        name: 'calculator',
        description: 'Evaluates an expression',
        schema: { type: 'object', properties: { expression: { type: 'number' } }, required: ['expression'], additionalProperties: false },
      },
    );
    await expectConflict(createAgent({ model: openai(session, {}), tools: [langchainTool(WEATHER), calculator] }), 'fixture_mismatch');
    assert.equal(ran, false);
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.stream, e.step ?? null, e.error?.code ?? null]),
      [
        [200, true, 'step-1', null],
        [409, true, 'step-2', 'fixture_mismatch'],
      ],
    );
  });
});

// LangChain's agent (`createAgent` of langchain 1.x, a LangGraph ReAct loop; loaded through
// test/support/langchain-agent.ts) with ChatOpenAI against
// Understudy over HTTP, until the model stops calling tools: a two-tool script (weather, then
// calculator, then the answer) and zero-config with a tool whose arguments are all required. The
// preset tools come from llm-understudy/presets/langchain, one line each.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ChatOpenAI } from '@langchain/openai';
import { AIMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { langchainTool, langchainTools } from '../src/presets/langchain.js';
import {
  ANSWER,
  CONVERT,
  expectSchemaValidRun,
  expectScriptedSteps,
  expectZeroConfigRound,
  FORECAST_DESCRIPTION,
  FORECAST_RESULT,
  FORECAST_SCHEMA,
  QUESTION,
  recording,
  scriptTwoTools,
  TWO_TOOLS_CALLED,
  WEATHER,
  ZERO_CONFIG_TEXT,
} from './support/agent-loops.js';
import { createAgent, type ReactAgent } from './support/langchain-agent.js';

const ROUTE = 'POST /v1/chat/completions';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

function chatModel(session: UnderstudySession): ChatOpenAI {
  return new ChatOpenAI({
    model: 'gpt-4o',
    apiKey: session.apiKey,
    configuration: { baseURL: mock.url('openai') },
    maxRetries: 0,
    timeout: 10_000,
  });
}

function ask(agent: ReactAgent) {
  return agent.invoke({ messages: [{ role: 'user', content: QUESTION }] }, { signal: AbortSignal.timeout(15_000) });
}

function finalText(messages: unknown[]): unknown {
  const last = messages.at(-1);
  assert.ok(AIMessage.isInstance(last), `the last message is ${String(last)}`);
  assert.deepEqual(last.tool_calls ?? [], []);
  return last.content;
}

async function expectConflict(promise: Promise<unknown>, code: string): Promise<void> {
  const error = await promise.then(
    () => assert.fail('expected a 409'),
    (e: unknown) => e,
  );
  // ChatOpenAI passes the openai client's ConflictError through the agent.
  assert.ok(error instanceof Error && 'status' in error, String(error));
  assert.equal((error as { status: number }).status, 409);
  assert.equal((error as { code?: string }).code, code);
}

test('createAgent runs both tools of the script and ends with its text [langchain-openai-chat.agent-loop.json +]', async () => {
  const session = await mock.session('lc-agent-two');
  await scriptTwoTools(session);
  const ran = { weather: [] as unknown[], calculator: [] as unknown[] };
  const agent = createAgent({
    model: chatModel(session),
    tools: [langchainTool(WEATHER, recording(WEATHER, ran.weather)), langchainTool(CONVERT, recording(CONVERT, ran.calculator))],
  });
  const { messages } = await ask(agent);
  assert.equal(finalText(messages), ANSWER);
  assert.deepEqual(ran, { weather: [WEATHER.call.arguments], calculator: [CONVERT.call.arguments] });
  // human, AI(call), tool, AI(call), tool, AI(answer); each tool message carries the result as JSON.
  assert.deepEqual(
    messages.map((m) => m.type),
    ['human', 'ai', 'tool', 'ai', 'tool', 'ai'],
  );
  assert.deepEqual(
    messages.filter((m) => m.type === 'tool').map((m) => JSON.parse(String(m.content))),
    [WEATHER.result, CONVERT.result],
  );
  await expectScriptedSteps(session, ROUTE);
  await session.verify(TWO_TOOLS_CALLED);
});

test("createAgent with the presets' own tools (langchainTools) runs the same loop [langchain-openai-chat.agent-loop.json +]", async () => {
  const session = await mock.session('lc-agent-two-defaults');
  await scriptTwoTools(session);
  const agent = createAgent({ model: chatModel(session), tools: langchainTools(WEATHER, CONVERT) });
  const { messages } = await ask(agent);
  assert.equal(finalText(messages), ANSWER);
  await expectScriptedSteps(session, ROUTE);
  await session.verify(TWO_TOOLS_CALLED);
});

test('zero-config: createAgent calls the tool once with schema-valid arguments, then ends with the sentence [langchain-openai-chat.agent-loop.json +]', async () => {
  const session = await mock.session('lc-agent-zc', { fallback: 'auto' });
  const ran: unknown[] = [];
  const forecast = tool(
    async (input: unknown) => {
      ran.push(input);
      return FORECAST_RESULT;
    },
    { name: 'forecast', description: FORECAST_DESCRIPTION, schema: structuredClone(FORECAST_SCHEMA) as Record<string, unknown> },
  );
  const agent = createAgent({ model: chatModel(session), tools: [forecast] });
  const { messages } = await ask(agent);
  expectSchemaValidRun(ran);
  assert.equal(finalText(messages), ZERO_CONFIG_TEXT);
  assert.deepEqual(
    messages.map((m) => m.type),
    ['human', 'ai', 'tool', 'ai'],
  );
  await expectZeroConfigRound(session, ROUTE);
});

test('a tool result the script does not expect fails the agent with a 409, and the step stays unused [langchain-openai-chat.agent-loop.json -]', async () => {
  const session = await mock.session('lc-agent-wrong-result');
  await scriptTwoTools(session);
  const changed = { ...WEATHER.result, condition: 'rain' };
  const agent = createAgent({ model: chatModel(session), tools: [langchainTool(WEATHER, () => changed), langchainTool(CONVERT)] });
  await expectConflict(ask(agent), 'no_match');
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.step ?? null, e.error?.code ?? null]),
    [
      [200, 'step-1', null],
      [409, null, 'no_match'],
    ],
  );
  const report = await session.check();
  assert.deepEqual(
    report.problems.filter((p) => p.kind === 'unused_step').map((p) => p.step),
    ['step-2', 'step-3'],
  );
});

test('a tool schema the second scripted call breaks fails the agent with 409 fixture_mismatch [langchain-openai-chat.agent-loop.json -]', async () => {
  const session = await mock.session('lc-agent-schema');
  await scriptTwoTools(session);
  const ranCalculator: unknown[] = [];
  // The application's calculator takes a number, not the scripted expression text.
  const calculator = tool(async (input: unknown) => void ranCalculator.push(input), {
    name: 'calculator',
    description: 'Evaluates an expression',
    schema: { type: 'object', properties: { expression: { type: 'number' } }, required: ['expression'], additionalProperties: false },
  });
  const agent = createAgent({ model: chatModel(session), tools: [langchainTool(WEATHER), calculator] });
  await expectConflict(ask(agent), 'fixture_mismatch');
  assert.deepEqual(ranCalculator, []);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.step ?? null, e.error?.code ?? null]),
    [
      [200, 'step-1', null],
      [409, 'step-2', 'fixture_mismatch'],
    ],
  );
  await assert.rejects(session.verify(), /step "step-2" was never used/);
});

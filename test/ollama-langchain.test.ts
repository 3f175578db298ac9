// LangChain's ChatOllama (@langchain/ollama, on ollama-js) against Understudy's Ollama dialect: a
// tool round by hand (bindTools with a zod tool, the tool run, a ToolMessage back). ChatOllama
// always streams, and it replaces the server's call ids with ids of its own and sends a tool's
// result as `{"role":"tool","content":…}` alone, so the result answers the latest call no result
// answered yet (docs/dialects/ollama.md).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { ChatOllama } from '@langchain/ollama';
import { z } from 'zod';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

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

function chatModel(session: UnderstudySession): ChatOllama {
  return new ChatOllama({
    model: 'llama3.2',
    baseUrl: mock.url('ollama'),
    headers: { Authorization: `Bearer ${session.apiKey}` },
    fetch: timedFetch,
    maxRetries: 0,
  });
}

function weatherTool(ran: unknown[]) {
  return tool(
    async (input: { city: string; days: number }) => {
      ran.push(input);
      return `sunny in ${input.city} for ${input.days} days`;
    },
    { name: 'get_weather', description: 'Current weather for a city', schema: z.object({ city: z.string(), days: z.number().int() }) },
  );
}

test('ChatOllama: a tool call with object arguments, the tool run, its result back, the answer [langchain-ollama.tools.stream +]', async () => {
  const session = await mock.session('langchain-ollama-round');
  session
    .scenario('weather')
    .whenLatestUser({ contains: 'Paris' })
    .callsTool('get_weather', { city: 'Paris', days: 2 }, 'call_paris')
    .thenWhenToolResult('get_weather')
    .replies('Sunny in Paris for two days.');
  const ran: unknown[] = [];
  const weather = weatherTool(ran);
  const model = chatModel(session).bindTools([weather]);
  const history: BaseMessage[] = [new HumanMessage('Weather in Paris?')];
  const first = (await model.invoke(history)) as AIMessage;
  assert.deepEqual(
    first.tool_calls?.map((c) => [c.name, c.args]),
    [['get_weather', { city: 'Paris', days: 2 }]],
  );
  history.push(first);
  for (const call of first.tool_calls ?? []) history.push(await weather.invoke(call));
  assert.deepEqual(ran, [{ city: 'Paris', days: 2 }]);
  const second = await model.invoke(history);
  assert.equal(second.content, 'Sunny in Paris for two days.');

  const entries = (await session.journal()).entries;
  assert.deepEqual(
    entries.map((e) => [e.operation, e.status, e.stream, e.step]),
    [
      ['ollama.chat', 200, true, 'step-1'],
      ['ollama.chat', 200, true, 'step-2'],
    ],
  );
  const declared = entries[0].request?.tools[0];
  assert.equal(declared?.name, 'get_weather');
  const messages = entries[1].request?.messages ?? [];
  const call = messages[1]?.parts[0];
  const result = messages[2]?.parts[0];
  assert.ok(call?.type === 'tool_call' && result?.type === 'tool_result', JSON.stringify(messages));
  assert.deepEqual([result.callId, result.name], [call.id, 'get_weather'], 'the result answers the call LangChain sent back');
  assert.match(result.content, /sunny in Paris/);
  await session.verify();
});

test('ChatOllama: scripted arguments that fail the zod schema are a 409 it throws, and the step is not consumed [langchain-ollama.tools.stream -]', async () => {
  const session = await mock.session('langchain-ollama-mismatch');
  session.scenario('careless').callsTool('get_weather', { city: 'Paris', days: 'two' }, 'call_paris');
  const model = chatModel(session).bindTools([weatherTool([])]);
  await assert.rejects(model.invoke([new HumanMessage('Weather in Paris?')]), (error: Error & { status_code?: number }) => {
    assert.equal(error.status_code, 409, error.message);
    assert.match(error.message, /get_weather/);
    return true;
  });
  const [entry] = (await session.journal()).entries;
  assert.deepEqual([entry.status, entry.error?.code], [409, 'fixture_mismatch']);
  assert.equal((await session.check()).ok, false, 'the refused step is still unused');
});

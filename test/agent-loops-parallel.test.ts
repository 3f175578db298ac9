// Agent loops whose model calls two tools at once: one step answers with both calls (weather and
// calculator), the next, on both results, with the answer. Each framework runs both tools, sends
// both results back in one request, and ends with the text — as one answer and streamed, where
// the two calls arrive as frames of one stream.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOpenAI } from '@ai-sdk/openai';
import { Agent, OpenAIResponsesModel, run, setTracingDisabled, tool as agentTool } from '@openai/agents';
import { ChatOpenAI } from '@langchain/openai';
import { generateText, stepCountIs, streamText, type LanguageModel } from 'ai';
import OpenAI from 'openai';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { aiSdkTools } from '../src/presets/ai-sdk.js';
import { langchainTools } from '../src/presets/langchain.js';
import type { PresetFixture } from '../src/presets/index.js';
import { ANSWER, CONVERT, QUESTION, WEATHER } from './support/agent-loops.js';
import { createAgent } from './support/langchain-agent.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
  setTracingDisabled(true);
});
after(async () => {
  await mock.close();
});

/** One step calls both tools; the next, on both results, answers. */
async function scriptParallel(session: UnderstudySession): Promise<void> {
  await session
    .scenario('parallel')
    .whenLatestUser({ contains: 'weather in Paris' })
    .callsTools([WEATHER.call, CONVERT.call])
    .thenWhenToolResult(WEATHER.call.name, WEATHER.call.id, WEATHER.result)
    .whenToolResult(CONVERT.call.name, CONVERT.call.id, CONVERT.result)
    .replies(ANSWER);
}

/** Two requests: the one answered with both calls, the one carrying both results. */
async function expectParallelRound(session: UnderstudySession, stream: boolean): Promise<void> {
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream, e.step, e.reply?.toolCalls.map((c) => c.id)]),
    [
      [200, stream, 'step-1', ['call_paris', 'call_fahrenheit']],
      [200, stream, 'step-2', []],
    ],
  );
  const results = entries[1]?.request?.messages.flatMap((m) => m.parts.filter((p) => p.type === 'tool_result')) ?? [];
  assert.deepEqual(
    results.map((p) => (p.type === 'tool_result' ? [p.callId, JSON.parse(p.content)] : [])),
    [
      ['call_paris', WEATHER.result],
      ['call_fahrenheit', CONVERT.result],
    ],
  );
  await session.verify({
    toolCalled: [
      { name: 'weather', id: WEATHER.call.id, result: WEATHER.result, times: 1 },
      { name: 'calculator', id: CONVERT.call.id, result: CONVERT.result, times: 1 },
    ],
  });
}

describe('Vercel AI SDK', () => {
  for (const route of ['chat', 'responses'] as const) {
    for (const stream of [false, true]) {
      test(`${stream ? 'streamText' : 'generateText'} over ${route} runs both calls of one step, then ends`, async () => {
        const session = await mock.session(`parallel-aisdk-${route}-${stream}`);
        await scriptParallel(session);
        const provider = createOpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey });
        const model: LanguageModel = route === 'chat' ? provider.chat('gpt-4o') : provider.responses('gpt-4o');
        const options = {
          model,
          tools: aiSdkTools(WEATHER, CONVERT),
          stopWhen: stepCountIs(5),
          maxRetries: 0,
          prompt: QUESTION,
          abortSignal: AbortSignal.timeout(10_000),
        };
        let text: string;
        let steps: { toolCalls: { toolCallId: string }[] }[];
        if (stream) {
          const errors: unknown[] = [];
          const result = streamText({ ...options, onError: ({ error }) => void errors.push(error) });
          text = '';
          for await (const delta of result.textStream) text += delta;
          assert.deepEqual(errors, []);
          steps = await result.steps;
        } else {
          ({ text, steps } = await generateText(options));
        }
        assert.equal(text, ANSWER);
        assert.deepEqual(
          steps.map((s) => s.toolCalls.map((c) => c.toolCallId)),
          [['call_paris', 'call_fahrenheit'], []],
        );
        await expectParallelRound(session, stream);
      });
    }
  }
});

describe('LangChain createAgent with ChatOpenAI', () => {
  for (const stream of [false, true]) {
    test(`${stream ? 'agent.stream()' : 'agent.invoke()'} runs both calls of one step, then ends`, async () => {
      const session = await mock.session(`parallel-lc-${stream}`);
      await scriptParallel(session);
      const model = new ChatOpenAI({
        model: 'gpt-4o',
        apiKey: session.apiKey,
        configuration: { baseURL: mock.url('openai') },
        maxRetries: 0,
        timeout: 10_000,
      });
      const agent = createAgent({ model, tools: langchainTools(WEATHER, CONVERT) });
      const input = { messages: [{ role: 'user' as const, content: QUESTION }] };
      const signal = AbortSignal.timeout(15_000);
      let messages;
      if (stream) {
        for await (const [mode, value] of await agent.stream(input, { signal, streamMode: ['messages', 'values'] })) {
          if (mode === 'values') messages = value.messages;
        }
      } else {
        ({ messages } = await agent.invoke(input, { signal }));
      }
      assert.ok(messages);
      assert.deepEqual(
        messages.map((m) => m.type),
        ['human', 'ai', 'tool', 'tool', 'ai'],
      );
      assert.equal(messages.at(-1)?.content, ANSWER);
      await expectParallelRound(session, stream);
    });
  }
});

describe('OpenAI Agents SDK over Responses', () => {
  const presetTool = (fixture: PresetFixture) =>
    agentTool({
      name: fixture.definition.name,
      description: fixture.definition.description,
      parameters: structuredClone(fixture.definition.parameters) as never,
      strict: false,
      execute: async () => JSON.stringify(fixture.result),
    });

  for (const stream of [false, true]) {
    test(`run()${stream ? ' streamed' : ''} runs both calls of one step, then ends`, async () => {
      const session = await mock.session(`parallel-agents-${stream}`);
      await scriptParallel(session);
      const client = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
      const agent = new Agent({
        name: 'Forecaster',
        model: new OpenAIResponsesModel(client as never, 'gpt-4o'),
        tools: [presetTool(WEATHER), presetTool(CONVERT)],
      });
      const signal = AbortSignal.timeout(15_000);
      let output: unknown;
      if (stream) {
        const streamed = await run(agent, QUESTION, { maxTurns: 5, signal, stream: true });
        for await (const _event of streamed) {
          // drain
        }
        await streamed.completed;
        output = streamed.finalOutput;
      } else {
        output = (await run(agent, QUESTION, { maxTurns: 5, signal })).finalOutput;
      }
      assert.equal(output, ANSWER);
      await expectParallelRound(session, stream);
    });
  }
});

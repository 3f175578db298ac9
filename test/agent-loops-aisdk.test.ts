// The Vercel AI SDK's own tool loop (generateText and streamText with tools and stopWhen) against
// Understudy over HTTP, on Chat Completions and on Responses, until the model stops calling tools:
// a two-tool script (weather, then calculator, then the answer) and zero-config with a tool whose
// arguments are all required. stepCountIs(5) is only a bound: each loop ends because the model
// answered text. The preset tools come from llm-understudy/presets/ai-sdk, one line each.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOpenAI } from '@ai-sdk/openai';
import { APICallError, generateText, jsonSchema, stepCountIs, streamText, tool, type LanguageModel, type ToolSet } from 'ai';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { aiSdkTool, aiSdkTools } from '../src/presets/ai-sdk.js';
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

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

// The evidence tags of docs/capabilities.md, spelled out (test/capabilities.test.ts reads them).
const ROUTES = {
  chat: {
    path: 'POST /v1/chat/completions',
    json: { yes: '[aisdk-openai-chat.agent-loop.json +]', no: '[aisdk-openai-chat.agent-loop.json -]' },
    stream: { yes: '[aisdk-openai-chat.agent-loop.stream +]', no: '[aisdk-openai-chat.agent-loop.stream -]' },
  },
  responses: {
    path: 'POST /v1/responses',
    json: { yes: '[aisdk-openai-responses.agent-loop.json +]', no: '[aisdk-openai-responses.agent-loop.json -]' },
    stream: { yes: '[aisdk-openai-responses.agent-loop.stream +]', no: '[aisdk-openai-responses.agent-loop.stream -]' },
  },
} as const;
type Route = keyof typeof ROUTES;

function modelFor(session: UnderstudySession, route: Route): LanguageModel {
  const provider = createOpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey });
  return route === 'chat' ? provider.chat('gpt-4o') : provider.responses('gpt-4o');
}

/** Both presets, each recording what its execute got and giving back the fixture's result. */
function recordedTools(ran: { weather: unknown[]; calculator: unknown[] }): ToolSet {
  return {
    weather: aiSdkTool(WEATHER, recording(WEATHER, ran.weather)),
    calculator: aiSdkTool(CONVERT, recording(CONVERT, ran.calculator)),
  };
}

function forecastTool(ran: unknown[]) {
  return tool({
    description: FORECAST_DESCRIPTION,
    inputSchema: jsonSchema<{ city: string; days: number; unit: string }>(structuredClone(FORECAST_SCHEMA) as never),
    execute: async (input) => {
      ran.push(input);
      return FORECAST_RESULT;
    },
  });
}

const common = { stopWhen: stepCountIs(5), maxRetries: 0, prompt: QUESTION } as const;

for (const route of Object.keys(ROUTES) as Route[]) {
  const { path, json, stream } = ROUTES[route];

  describe(`AI SDK agent loop over ${route}`, () => {
    test(`generateText runs both tools of the script and ends with its text ${json.yes}`, async () => {
      const session = await mock.session(`aisdk-${route}-two`);
      await scriptTwoTools(session);
      const ran = { weather: [] as unknown[], calculator: [] as unknown[] };
      const result = await generateText({
        ...common,
        model: modelFor(session, route),
        tools: recordedTools(ran),
        abortSignal: AbortSignal.timeout(10_000),
      });
      assert.equal(result.text, ANSWER);
      assert.deepEqual(ran, { weather: [WEATHER.call.arguments], calculator: [CONVERT.call.arguments] });
      assert.deepEqual(
        result.steps.map((s) => [s.finishReason, s.toolCalls.map((c) => [c.toolName, c.toolCallId])]),
        [
          ['tool-calls', [['weather', 'call_paris']]],
          ['tool-calls', [['calculator', 'call_fahrenheit']]],
          ['stop', []],
        ],
      );
      await expectScriptedSteps(session, path);
      await session.verify(TWO_TOOLS_CALLED);
    });

    test(`streamText runs the two-tool loop with the presets' own executes and ends with its text ${stream.yes}`, async () => {
      const session = await mock.session(`aisdk-${route}-two-stream`);
      await scriptTwoTools(session);
      const errors: unknown[] = [];
      const result = streamText({
        ...common,
        model: modelFor(session, route),
        tools: aiSdkTools(WEATHER, CONVERT),
        abortSignal: AbortSignal.timeout(10_000),
        onError: ({ error }) => void errors.push(error),
      });
      let text = '';
      for await (const delta of result.textStream) text += delta;
      assert.deepEqual(errors, []);
      assert.equal(text, ANSWER);
      const steps = await result.steps;
      assert.equal(steps.length, 3);
      assert.deepEqual(
        steps.map((s) => s.toolResults.map((r) => [r.toolName, r.input, r.output])),
        [[['weather', WEATHER.call.arguments, WEATHER.result]], [['calculator', CONVERT.call.arguments, CONVERT.result]], []],
      );
      assert.equal(steps.at(-1)?.finishReason, 'stop');
      assert.equal(await result.finishReason, 'stop');
      await expectScriptedSteps(session, path, true);
      await session.verify(TWO_TOOLS_CALLED);
    });

    test(`zero-config: generateText calls the tool once with schema-valid arguments, then ends with the sentence ${json.yes}`, async () => {
      const session = await mock.session(`aisdk-${route}-zc`, { fallback: 'auto' });
      const ran: unknown[] = [];
      const result = await generateText({
        ...common,
        model: modelFor(session, route),
        tools: { forecast: forecastTool(ran) },
        abortSignal: AbortSignal.timeout(10_000),
      });
      expectSchemaValidRun(ran);
      assert.equal(result.text, ZERO_CONFIG_TEXT);
      assert.deepEqual(
        result.steps.map((s) => s.finishReason),
        ['tool-calls', 'stop'],
      );
      await expectZeroConfigRound(session, path);
    });

    test(`zero-config: streamText calls the tool once with schema-valid arguments, then ends with the sentence ${stream.yes}`, async () => {
      const session = await mock.session(`aisdk-${route}-zc-stream`, { fallback: 'auto' });
      const ran: unknown[] = [];
      const errors: unknown[] = [];
      const result = streamText({
        ...common,
        model: modelFor(session, route),
        tools: { forecast: forecastTool(ran) },
        abortSignal: AbortSignal.timeout(10_000),
        onError: ({ error }) => void errors.push(error),
      });
      let text = '';
      for await (const delta of result.textStream) text += delta;
      assert.deepEqual(errors, []);
      expectSchemaValidRun(ran);
      assert.equal(text, ZERO_CONFIG_TEXT);
      assert.deepEqual(
        (await result.steps).map((s) => s.finishReason),
        ['tool-calls', 'stop'],
      );
      await expectZeroConfigRound(session, path, true);
    });

    test('zero-config with toolChoice required keeps calling after each result: the loop ends at its bound', async () => {
      const session = await mock.session(`aisdk-${route}-zc-required`, { fallback: 'auto' });
      const ran: unknown[] = [];
      const result = await generateText({
        ...common,
        stopWhen: stepCountIs(3),
        toolChoice: 'required',
        model: modelFor(session, route),
        tools: { forecast: forecastTool(ran) },
        abortSignal: AbortSignal.timeout(10_000),
      });
      assert.equal(ran.length, 3);
      assert.equal(result.text, '');
      assert.deepEqual(
        result.steps.map((s) => s.finishReason),
        ['tool-calls', 'tool-calls', 'tool-calls'],
      );
    });

    test(`a tool result the script does not expect fails the loop with a 409, and the step stays unused ${json.no}`, async () => {
      const session = await mock.session(`aisdk-${route}-wrong-result`);
      await scriptTwoTools(session);
      const changed = { ...WEATHER.result, temperature: 25 };
      const tools = { ...aiSdkTools(WEATHER, CONVERT), weather: aiSdkTool(WEATHER, () => changed) };
      const error = await generateText({
        ...common,
        model: modelFor(session, route),
        tools,
        abortSignal: AbortSignal.timeout(10_000),
      }).catch((e: unknown) => e);
      assert.ok(APICallError.isInstance(error), `got ${String(error)}`);
      assert.equal(error.statusCode, 409);
      assert.match(error.responseBody ?? '', /no_match/);
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
      // Nothing was consumed: the same history with the scripted result goes on from step 2.
      const resumed = await generateText({
        ...common,
        prompt: undefined,
        messages: [
          { role: 'user', content: QUESTION },
          {
            role: 'assistant',
            content: [{ type: 'tool-call', toolCallId: WEATHER.call.id, toolName: 'weather', input: WEATHER.call.arguments }],
          },
          {
            role: 'tool',
            content: [
              { type: 'tool-result', toolCallId: WEATHER.call.id, toolName: 'weather', output: { type: 'json', value: WEATHER.result } },
            ],
          },
        ],
        model: modelFor(session, route),
        tools: aiSdkTools(WEATHER, CONVERT),
        abortSignal: AbortSignal.timeout(10_000),
      });
      assert.equal(resumed.text, ANSWER);
      assert.deepEqual(
        (await session.journal()).entries.map((e) => e.step ?? null),
        ['step-1', null, 'step-2', 'step-3'],
      );
    });

    test(`a tool schema the second scripted call breaks fails the streamed loop with 409 fixture_mismatch ${stream.no}`, async () => {
      const session = await mock.session(`aisdk-${route}-schema`);
      await scriptTwoTools(session);
      const ranCalculator: unknown[] = [];
      // The application's calculator takes a number, not the scripted expression text.
      const calculator = tool({
        description: 'Evaluates an expression',
        inputSchema: jsonSchema<{ expression: number }>({
          type: 'object',
          properties: { expression: { type: 'number' } },
          required: ['expression'],
          additionalProperties: false,
        }),
        execute: async (input) => void ranCalculator.push(input),
      });
      const errors: unknown[] = [];
      const result = streamText({
        ...common,
        model: modelFor(session, route),
        tools: { weather: aiSdkTool(WEATHER), calculator },
        abortSignal: AbortSignal.timeout(10_000),
        onError: ({ error }) => void errors.push(error),
      });
      let text = '';
      for await (const delta of result.textStream) text += delta;
      assert.equal(text, '');
      assert.equal(errors.length, 1);
      const [error] = errors;
      assert.ok(APICallError.isInstance(error), `got ${String(error)}`);
      assert.equal(error.statusCode, 409);
      assert.match(error.responseBody ?? '', /fixture_mismatch/);
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
  });
}

// The OpenAI Agents SDK's run() over Responses (an OpenAIResponsesModel on an openai client pointed
// at Understudy; and, at the end, an OpenAIChatCompletionsModel) until the model stops calling
// tools, as one answer and streamed: a two-tool script
// (weather, then calculator, then the answer) and zero-config with a tool whose arguments are all
// required. Tracing is off, so nothing leaves the machine.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Agent, OpenAIChatCompletionsModel, OpenAIResponsesModel, run, setTracingDisabled, tool } from '@openai/agents';
import OpenAI from 'openai';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { type PresetFixture } from '../src/presets/index.js';
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

const ROUTE = 'POST /v1/responses';
const MAX_TURNS = 5;

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
  setTracingDisabled(true);
});
after(async () => {
  await mock.close();
});

function modelFor(session: UnderstudySession): OpenAIResponsesModel {
  const client = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  return new OpenAIResponsesModel(client as never, 'gpt-4o');
}

/** A preset as an Agents SDK tool (non-strict: the catalogue's optional fields stay optional);
 * the output goes back as the JSON text of what `execute` returns. */
function presetTool(fixture: PresetFixture, execute: (args: unknown) => unknown = () => fixture.result) {
  const { name, description, parameters } = fixture.definition;
  return tool({
    name,
    description,
    parameters: structuredClone(parameters) as never,
    strict: false,
    execute: async (input) => JSON.stringify(await execute(input)),
  });
}

function forecastTool(ran: unknown[]) {
  return tool({
    name: 'forecast',
    description: FORECAST_DESCRIPTION,
    parameters: structuredClone(FORECAST_SCHEMA) as never,
    strict: false,
    execute: async (input) => {
      ran.push(input);
      return FORECAST_RESULT;
    },
  });
}

function agentWith(session: UnderstudySession, tools: ReturnType<typeof tool>[]): Agent {
  return new Agent({ name: 'Forecaster', instructions: 'Answer with the weather.', model: modelFor(session), tools });
}

async function runLoop(agent: Agent, stream: boolean): Promise<unknown> {
  const signal = AbortSignal.timeout(15_000);
  if (!stream) return (await run(agent, QUESTION, { maxTurns: MAX_TURNS, signal })).finalOutput;
  const streamed = await run(agent, QUESTION, { maxTurns: MAX_TURNS, signal, stream: true });
  for await (const _event of streamed) {
    // drain: the loop runs as the events are read
  }
  await streamed.completed;
  if (streamed.error) throw streamed.error;
  return streamed.finalOutput;
}

async function expectConflict(promise: Promise<unknown>, code: string): Promise<void> {
  const error = await promise.then(
    () => assert.fail('expected a 409'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof OpenAI.APIError, String(error));
  assert.equal(error.status, 409);
  assert.equal(error.code, code);
}

// The evidence tags of docs/capabilities.md, spelled out (test/capabilities.test.ts reads them).
const MODES = [
  { stream: false, yes: '[agents-openai.agent-loop.json +]', no: '[agents-openai.agent-loop.json -]' },
  { stream: true, yes: '[agents-openai.agent-loop.stream +]', no: '[agents-openai.agent-loop.stream -]' },
];

for (const { stream, yes, no } of MODES) {
  describe(`Agents SDK run() over Responses${stream ? ', streamed' : ''}`, () => {
    test(`runs both tools of the script and ends with its text ${yes}`, async () => {
      const session = await mock.session(`agents-two-${stream}`);
      await scriptTwoTools(session);
      const ran = { weather: [] as unknown[], calculator: [] as unknown[] };
      const agent = agentWith(session, [
        presetTool(WEATHER, recording(WEATHER, ran.weather)),
        presetTool(CONVERT, recording(CONVERT, ran.calculator)),
      ]);
      assert.equal(await runLoop(agent, stream), ANSWER);
      assert.deepEqual(ran, { weather: [WEATHER.call.arguments], calculator: [CONVERT.call.arguments] });
      await expectScriptedSteps(session, ROUTE, stream);
      await session.verify(TWO_TOOLS_CALLED);
    });

    test(`zero-config: calls the tool once with schema-valid arguments, then ends with the sentence ${yes}`, async () => {
      const session = await mock.session(`agents-zc-${stream}`, { fallback: 'auto' });
      const ran: unknown[] = [];
      assert.equal(await runLoop(agentWith(session, [forecastTool(ran)]), stream), ZERO_CONFIG_TEXT);
      expectSchemaValidRun(ran);
      await expectZeroConfigRound(session, ROUTE, stream);
    });

    test(`a tool result the script does not expect fails the run with a 409, and the step stays unused ${no}`, async () => {
      const session = await mock.session(`agents-wrong-result-${stream}`);
      await scriptTwoTools(session);
      const changed = { ...WEATHER.result, temperature: 30 };
      const agent = agentWith(session, [presetTool(WEATHER, () => changed), presetTool(CONVERT)]);
      await expectConflict(runLoop(agent, stream), 'no_match');
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

    test(`a tool schema the second scripted call breaks fails the run with 409 fixture_mismatch ${no}`, async () => {
      const session = await mock.session(`agents-schema-${stream}`);
      await scriptTwoTools(session);
      const ranCalculator: unknown[] = [];
      // The application's calculator takes a number, not the scripted expression text.
      const calculator = tool({
        name: 'calculator',
        description: 'Evaluates an expression',
        parameters: {
          type: 'object',
          properties: { expression: { type: 'number' } },
          required: ['expression'],
          additionalProperties: false,
        } as never,
        strict: false,
        execute: async (input) => {
          ranCalculator.push(input);
          return '0';
        },
      });
      await expectConflict(runLoop(agentWith(session, [presetTool(WEATHER), calculator]), stream), 'fixture_mismatch');
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

describe('Agents SDK run() over Chat Completions (OpenAIChatCompletionsModel)', () => {
  function chatAgent(session: UnderstudySession, tools: ReturnType<typeof tool>[]): Agent {
    const client = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
    return new Agent({ name: 'Forecaster', model: new OpenAIChatCompletionsModel(client as never, 'gpt-4o'), tools });
  }

  for (const stream of [false, true]) {
    test(`the two-tool script runs to its text${stream ? ', streamed' : ''}`, async () => {
      const session = await mock.session(`agents-chat-two-${stream}`);
      await scriptTwoTools(session);
      assert.equal(await runLoop(chatAgent(session, [presetTool(WEATHER), presetTool(CONVERT)]), stream), ANSWER);
      await expectScriptedSteps(session, 'POST /v1/chat/completions', stream);
      await session.verify(TWO_TOOLS_CALLED);
    });

    test(`zero-config calls the tool once with schema-valid arguments, then ends with the sentence${stream ? ', streamed' : ''}`, async () => {
      const session = await mock.session(`agents-chat-zc-${stream}`, { fallback: 'auto' });
      const ran: unknown[] = [];
      assert.equal(await runLoop(chatAgent(session, [forecastTool(ran)]), stream), ZERO_CONFIG_TEXT);
      expectSchemaValidRun(ran);
      await expectZeroConfigRound(session, 'POST /v1/chat/completions', stream);
    });
  }
});

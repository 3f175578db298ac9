// What the agent-loop tests of every framework share (test/agent-loops-*.test.ts): the two-tool
// script (weather, then calculator, then the answer), the tool with required fields zero-config
// fills, and the journal checks each loop ends with. No SDK is imported here.

import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { UnderstudySession } from '../../src/client/index.js';
import type { JsonValue } from '../../src/core/model.js';
import { ZERO_CONFIG_TEXT } from '../../src/engine/zero-config.js';
import { presets, type PresetFixture, type PresetName } from '../../src/presets/index.js';

export { ZERO_CONFIG_TEXT };

export const QUESTION = 'What is the weather in Paris, in Fahrenheit?';
export const ANSWER = 'Paris is sunny, 21 °C (69.8 °F).';

/** Tool one: the weather in Paris. */
export const WEATHER = presets.weather.success(
  { location: 'Paris', unit: 'celsius' },
  { location: 'Paris', temperature: 21, unit: 'celsius', condition: 'sunny' },
  { id: 'call_paris' },
);
/** Tool two, called on tool one's result: the conversion. */
export const CONVERT = presets.calculator.success({ expression: '21 * 9 / 5 + 32' }, { value: 69.8 }, { id: 'call_fahrenheit' });

/** How a client's wire carries the loop's results back, where it differs from the rest. */
export interface ResultWire {
  /** The client keeps the scripted call ids. LangChain's ChatOllama replaces them with its own, so
   * neither a step nor the tool ledger can pair a result with the call Understudy delivered: the
   * steps match by name, and verify() is told the calls without their results. */
  ids?: boolean;
  /** The tool-result content as the dialect reads it, given the tool's result. */
  content?: (result: JsonValue) => JsonValue;
}

/** The three steps: the question → weather; weather's result → calculator; its result → the answer.
 * Each tool-result step requires the fixture's result, compared as JSON. */
export async function scriptTwoTools(session: UnderstudySession, { ids = true, content = (r) => r }: ResultWire = {}): Promise<void> {
  await session
    .scenario('two-tools')
    .whenLatestUser({ contains: 'weather in Paris' })
    .callsTools([WEATHER.call])
    .thenWhenToolResult(WEATHER.call.name, ids ? WEATHER.call.id : undefined, content(WEATHER.result))
    .callsTools([CONVERT.call])
    .thenWhenToolResult(CONVERT.call.name, ids ? CONVERT.call.id : undefined, content(CONVERT.result))
    .replies(ANSWER);
}

/** What verify() is told the loop did: both calls, with their scripted arguments and results. */
export function twoToolsCalled({ ids = true, content = (r) => r }: ResultWire = {}) {
  return {
    toolCalled: [
      {
        name: 'weather',
        id: WEATHER.call.id,
        arguments: WEATHER.call.arguments,
        ...(ids && { result: content(WEATHER.result) }),
        times: 1,
      },
      {
        name: 'calculator',
        id: CONVERT.call.id,
        arguments: CONVERT.call.arguments,
        ...(ids && { result: content(CONVERT.result) }),
        times: 1,
      },
    ],
    toolOrder: ['weather', 'calculator'],
  };
}
export const TWO_TOOLS_CALLED = twoToolsCalled();

/** An execute that records the arguments it got and gives back the fixture's scripted result. */
export function recording<N extends PresetName>(fixture: PresetFixture<N>, ran: unknown[]): (args: unknown) => PresetFixture<N>['result'] {
  return (args) => {
    ran.push(args);
    return structuredClone(fixture.result);
  };
}

/** The loop's requests, in order: each answered 200 from the script by the expected step. */
export async function expectScriptedSteps(session: UnderstudySession, route: string, stream = false): Promise<void> {
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.route, e.status, e.stream, e.source, e.step]),
    ['step-1', 'step-2', 'step-3'].map((step) => [route, 200, stream, 'script', step]),
  );
}

/** A forecast tool whose arguments are all required: a string, an integer ≥ 1 and an enum. */
export const FORECAST_SCHEMA = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    days: { type: 'integer', minimum: 1, maximum: 7 },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
  },
  required: ['city', 'days', 'unit'],
  additionalProperties: false,
} as const;
export const FORECAST_DESCRIPTION = 'The forecast for a city';
export const FORECAST_RESULT = 'Sunny all week.';

const ajv = new Ajv2020({ strict: false });
const validateForecast = ajv.compile(FORECAST_SCHEMA);

/** The value is valid against this JSON Schema (Ajv, draft 2020-12). */
export function expectValidAgainst(schema: object, value: unknown): void {
  const validate = ajv.compile(schema);
  assert.ok(validate(value), `${JSON.stringify(value)}: ${JSON.stringify(validate.errors)}`);
}

/** The zero-config loop's tool got arguments its schema accepts, once. */
export function expectSchemaValidRun(ran: unknown[]): void {
  assert.equal(ran.length, 1, `the tool ran ${ran.length} times`);
  assert.ok(validateForecast(ran[0]), JSON.stringify(validateForecast.errors));
}

/** A zero-config loop's requests: a call of the forecast tool, then, on its result, the sentence. */
export async function expectZeroConfigRound(session: UnderstudySession, route: string, stream = false): Promise<void> {
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.route, e.status, e.stream, e.source, e.reply?.toolCalls.map((c) => c.name), e.reply?.content ?? null]),
    [
      [route, 200, stream, 'zero_config', ['forecast'], null],
      [route, 200, stream, 'zero_config', [], ZERO_CONFIG_TEXT],
    ],
  );
  await session.verify();
}

// Shared assertions for the Vercel AI SDK tests of every dialect.

import assert from 'node:assert/strict';
import { APICallError, generateText, stepCountIs, streamText, tool, type LanguageModel, type ToolSet } from 'ai';
import { z } from 'zod';
import type { UnderstudySession } from '../../src/client/index.js';

/** streamText against a reply Understudy refuses (409 fixture_mismatch): the SDK reports one
 * APICallError, streams no text, runs no tool, and the journal holds exactly that refusal. */
export async function expectStreamTextRefused(options: {
  model: LanguageModel;
  tools: ToolSet;
  ran: unknown[];
  session: UnderstudySession;
}): Promise<void> {
  const errors: unknown[] = [];
  const result = streamText({
    model: options.model,
    tools: options.tools,
    stopWhen: stepCountIs(3),
    maxRetries: 0,
    abortSignal: AbortSignal.timeout(10_000),
    prompt: 'Weather?',
    onError: ({ error }) => void errors.push(error),
  });
  let streamed = '';
  for await (const delta of result.textStream) streamed += delta;
  assert.equal(streamed, '');
  assert.equal(errors.length, 1);
  const [error] = errors;
  assert.ok(APICallError.isInstance(error), `got ${String(error)}`);
  assert.equal(error.statusCode, 409);
  assert.deepEqual(options.ran, []);
  const { entries } = await options.session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream, e.error?.code]),
    [[409, true, 'fixture_mismatch']],
  );
}

/** streamText with a string-typed weather tool through a scripted Paris round (scriptParisWeather):
 * no error reported, the tool ran once, for Paris, and the answer streamed whole. Returns the
 * result, for what else a test reads of it (steps, usage). */
export async function expectStreamedWeatherRound(model: LanguageModel, answer: string) {
  const ran: unknown[] = [];
  const errors: unknown[] = [];
  const result = streamText({
    model,
    tools: typedWeatherTool('string', ran),
    stopWhen: stepCountIs(3),
    maxRetries: 0,
    abortSignal: AbortSignal.timeout(10_000),
    prompt: 'What is the weather in Paris?',
    onError: ({ error }) => void errors.push(error),
  });
  let text = '';
  for await (const delta of result.textStream) text += delta;
  assert.deepEqual(errors, []);
  assert.equal(text, answer);
  assert.deepEqual(ran, [{ city: 'Paris' }]);
  return result;
}

/** A weather tool whose `city` must be a string or a number, recording each run. */
export function typedWeatherTool(cityType: 'string' | 'number', ran: unknown[]): ToolSet {
  return {
    weather: tool({
      description: 'Current weather for a city',
      inputSchema: z.object({ city: cityType === 'string' ? z.string() : z.number() }),
      execute: async (input: unknown) => {
        ran.push(input);
        return 'sunny';
      },
    }),
  };
}

/** Scripts the weather round: a call of `weather` for Paris, then, on its result, the answer. */
export function scriptParisWeather(session: UnderstudySession, answer = 'Paris is sunny, 21 °C.'): void {
  session
    .scenario('weather')
    .whenLatestUser({ contains: 'Paris' })
    .callsTool('weather', { city: 'Paris' }, 'call_paris')
    .thenWhenToolResult('weather', 'call_paris')
    .replies(answer);
}

/** Scripts a call with a numeric city (so a string-typed tool refuses it), then an answer. */
export function scriptZipCodeCall(session: UnderstudySession): void {
  session.scenario('weather').callsTool('weather', { city: 75001 }, 'call_zip').then().replies('Done.');
}

/** generateText with a tool whose schema the scripted call fails gets APICallError 409 and runs
 * nothing; with a tool it satisfies, the same script answers: nothing was consumed. */
export async function expectGenerateTextRefusedThenAnswered(session: UnderstudySession, model: LanguageModel): Promise<void> {
  scriptZipCodeCall(session);
  const refused: unknown[] = [];
  const error = await generateText({
    model,
    tools: typedWeatherTool('string', refused),
    stopWhen: stepCountIs(3),
    maxRetries: 0,
    prompt: 'Weather?',
  }).catch((e: unknown) => e);
  assert.ok(APICallError.isInstance(error), `got ${String(error)}`);
  assert.equal(error.statusCode, 409);
  assert.match(error.responseBody ?? '', /fixture_mismatch/);
  assert.deepEqual(refused, []);

  const ran: unknown[] = [];
  const result = await generateText({
    model,
    tools: typedWeatherTool('number', ran),
    stopWhen: stepCountIs(3),
    maxRetries: 0,
    prompt: 'Weather?',
  });
  assert.deepEqual(ran, [{ city: 75001 }]);
  assert.equal(result.text, 'Done.');
  const { counters } = await session.journal();
  assert.deepEqual([counters.mismatched, counters.matched], [1, 2]);
}

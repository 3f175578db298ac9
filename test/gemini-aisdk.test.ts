// The Gemini dialect judged by the Vercel AI SDK's Google provider (`@ai-sdk/google`, base URL
// with /v1beta): tool rounds through generateText and streamText, structured output, and a
// scripted call that cannot satisfy the declared tool.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { APICallError, generateText, Output, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';

import { startUnderstudy } from '../src/client/index.js';
import type { Understudy, UnderstudySession } from '../src/client/index.js';
import { expectStreamTextRefused } from './support/aisdk.js';

let mock: Understudy;

before(async () => {
  mock = await startUnderstudy();
});

after(async () => {
  await mock.close();
});

const MODEL = 'gemini-2.5-flash';

function google(session: UnderstudySession) {
  return createGoogleGenerativeAI({ baseURL: mock.url('gemini-v1beta'), apiKey: session.apiKey })(MODEL);
}

function weatherTool(ran: unknown[], city: z.ZodType = z.string()) {
  return tool({
    description: 'Current weather for a city',
    inputSchema: z.object({ city }),
    execute: async (input: unknown) => {
      ran.push(input);
      return { city: (input as { city: unknown }).city, temperature: 21, sky: 'sunny' };
    },
  });
}

describe('Vercel AI SDK Google provider: tool rounds', () => {
  function script(session: UnderstudySession) {
    session
      .scenario('weather')
      .whenLatestUser({ contains: 'weather in Paris' })
      .callsTool('get_weather', { city: 'Paris' }, 'call_paris')
      .thenWhenToolResult('get_weather', 'call_paris')
      .replies('Paris is sunny, 21 °C.', { chunks: ['Paris is', ' sunny,', ' 21 °C.'] });
  }

  async function checkJournal(session: UnderstudySession, stream: boolean) {
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.step, e.stream, e.operation]),
      [
        [200, 'step-1', stream, stream ? 'gemini.streamGenerateContent' : 'gemini.generateContent'],
        [200, 'step-2', stream, stream ? 'gemini.streamGenerateContent' : 'gemini.generateContent'],
      ],
    );
    const first = entries[0].request;
    assert.deepEqual(first?.toolChoice, { type: 'auto' });
    assert.equal(first?.tools[0].name, 'get_weather');
    const parts = (entries[1].request?.messages ?? []).flatMap((m) => m.parts);
    const call = parts.find((p) => p.type === 'tool_call');
    const result = parts.find((p) => p.type === 'tool_result');
    assert.ok(call?.type === 'tool_call' && result?.type === 'tool_result');
    assert.equal(call.id, 'call_paris', 'the AI SDK sends the scripted id back on the call');
    assert.equal(result.callId, 'call_paris', 'and on the response');
    assert.equal(result.name, 'get_weather');
    assert.match(result.content, /"temperature":21/);
    await session.verify();
  }

  test('generateText completes a tool round [aisdk-google.tools.json +]', async () => {
    const session = await mock.session('ag-generate');
    script(session);
    const ran: unknown[] = [];
    const result = await generateText({
      model: google(session),
      tools: { get_weather: weatherTool(ran) },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(10_000),
      prompt: 'What is the weather in Paris?',
    });
    assert.equal(result.text, 'Paris is sunny, 21 °C.');
    assert.deepEqual(ran, [{ city: 'Paris' }]);
    assert.equal(result.steps.length, 2);
    assert.equal(result.steps[0].finishReason, 'tool-calls');
    assert.equal(result.steps[0].toolCalls[0].toolCallId, 'call_paris');
    assert.equal(result.finishReason, 'stop');
    assert.ok((result.totalUsage.inputTokens ?? 0) > 0);
    assert.ok((result.totalUsage.outputTokens ?? 0) > 0);
    await checkJournal(session, false);
  });

  test('streamText completes a tool round [aisdk-google.tools.stream +]', async () => {
    const session = await mock.session('ag-stream');
    script(session);
    const ran: unknown[] = [];
    const errors: unknown[] = [];
    const result = streamText({
      model: google(session),
      tools: { get_weather: weatherTool(ran) },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(10_000),
      prompt: 'What is the weather in Paris?',
      onError: ({ error }) => void errors.push(error),
    });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    assert.deepEqual(errors, []);
    assert.deepEqual(deltas, ['Paris is', ' sunny,', ' 21 °C.']);
    assert.deepEqual(ran, [{ city: 'Paris' }]);
    const steps = await result.steps;
    assert.equal(steps.length, 2);
    assert.equal(steps[0].finishReason, 'tool-calls');
    assert.equal(await result.finishReason, 'stop');
    await checkJournal(session, true);
  });

  test('structured output: the AI SDK sends an OpenAPI responseSchema that Understudy checks', async () => {
    const session = await mock.session('ag-structured');
    session.scenario('capital').repliesJson({ answer: 'Paris', confidence: 0.9 });
    const result = await generateText({
      model: google(session),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(10_000),
      output: Output.object({ schema: z.object({ answer: z.string(), confidence: z.number().nullable() }) }),
      prompt: 'Capital of France?',
    });
    assert.deepEqual(result.output, { answer: 'Paris', confidence: 0.9 });
    const { entries } = await session.journal();
    const output = entries[0].request?.output;
    assert.ok(output?.type === 'json_schema');
    assert.deepEqual((output.schema as { required?: string[] }).required, ['answer', 'confidence']);
  });
});

describe('Vercel AI SDK Google provider: a scripted call that fails the tool schema', () => {
  function script(session: UnderstudySession) {
    session.scenario('weather').callsTool('get_weather', { city: 75001 }).then().replies('Done.');
  }

  test('generateText throws APICallError 409 and nothing is consumed [aisdk-google.tools.json -]', async () => {
    const session = await mock.session('ag-generate-mismatch');
    script(session);
    const ran: unknown[] = [];
    const error = await generateText({
      model: google(session),
      tools: { get_weather: weatherTool(ran) },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(10_000),
      prompt: 'Weather?',
    }).catch((e: unknown) => e);
    assert.ok(APICallError.isInstance(error), `got ${String(error)}`);
    assert.equal(error.statusCode, 409);
    const body = JSON.parse(error.responseBody ?? '{}') as { error: { status: string; details: { reason: string }[] } };
    assert.equal(body.error.status, 'ABORTED');
    assert.equal(body.error.details[0].reason, 'fixture_mismatch');
    assert.deepEqual(ran, []);

    // The same step, unconsumed, answers once the declared schema accepts its arguments.
    const good: unknown[] = [];
    const result = await generateText({
      model: google(session),
      tools: { get_weather: weatherTool(good, z.number()) },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(10_000),
      prompt: 'Weather?',
    });
    assert.deepEqual(good, [{ city: 75001 }]);
    assert.equal(result.text, 'Done.');
    const { counters } = await session.journal();
    assert.deepEqual([counters.mismatched, counters.matched], [1, 2]);
  });

  test('streamText reports APICallError 409 and runs no tool [aisdk-google.tools.stream -]', async () => {
    const session = await mock.session('ag-stream-mismatch');
    script(session);
    const ran: unknown[] = [];
    await expectStreamTextRefused({ model: google(session), tools: { get_weather: weatherTool(ran) }, ran: ran, session });
  });
});

// The Vercel AI SDK's Anthropic provider (@ai-sdk/anthropic 3.0.140 with ai 6.0.326) against the
// Anthropic Messages dialect: base URL with /v1, `x-api-key`, anthropic-version 2023-06-01.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { createAnthropic } from '@ai-sdk/anthropic';
import { APICallError, generateText, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/index.js';
import { expectStreamTextRefused } from './support/aisdk.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

function model(session: UnderstudySession) {
  return createAnthropic({ baseURL: mock.url('anthropic-v1'), apiKey: session.apiKey })('claude-sonnet-4-6');
}

describe('Vercel AI SDK Anthropic provider: a tool round', () => {
  function setup(session: UnderstudySession) {
    session
      .scenario('weather')
      .whenLatestUser({ contains: 'weather in Paris' })
      .reply({ text: 'Let me check.', toolCalls: [{ id: 'toolu_paris', name: 'weather', arguments: { city: 'Paris', unit: 'celsius' } }] })
      .thenWhenToolResult('weather', 'toolu_paris')
      .replies('Paris is sunny, 21 °C.');
    const ran: unknown[] = [];
    const tools = {
      weather: tool({
        description: 'Current weather for a city',
        inputSchema: z.object({ city: z.string(), unit: z.enum(['celsius', 'fahrenheit']) }),
        execute: async (input: { city: string; unit: string }) => {
          ran.push(input);
          return { city: input.city, temperature: 21, sky: 'sunny' };
        },
      }),
    };
    return { ran, tools };
  }

  async function checkJournal(session: UnderstudySession, stream: boolean) {
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.route, e.status, e.step, e.stream]),
      [
        ['POST /v1/messages', 200, 'step-1', stream],
        ['POST /v1/messages', 200, 'step-2', stream],
      ],
    );
    const second = entries[1].request;
    assert.ok(second);
    assert.deepEqual(
      second.messages.map((m) => m.role),
      ['user', 'assistant', 'tool'],
    );
    const result = second.messages[2].parts[0];
    assert.ok(result.type === 'tool_result');
    assert.equal(result.callId, 'toolu_paris');
    assert.equal(result.name, 'weather');
    assert.deepEqual(JSON.parse(result.content), { city: 'Paris', temperature: 21, sky: 'sunny' });
    await session.verify();
  }

  test('generateText completes a tool round [aisdk-anthropic.tools.json +]', async () => {
    const session = await mock.session('aisdk-anthropic-generate');
    const { ran, tools } = setup(session);
    const result = await generateText({
      model: model(session),
      tools,
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(10_000),
      prompt: 'What is the weather in Paris?',
    });
    assert.equal(result.text, 'Paris is sunny, 21 °C.');
    assert.deepEqual(ran, [{ city: 'Paris', unit: 'celsius' }]);
    assert.equal(result.steps.length, 2);
    assert.equal(result.steps[0].finishReason, 'tool-calls');
    assert.equal(result.steps[0].text, 'Let me check.');
    assert.equal(result.steps[0].toolCalls[0].toolCallId, 'toolu_paris');
    assert.equal(result.finishReason, 'stop');
    assert.ok((result.totalUsage.inputTokens ?? 0) > 0);
    assert.ok((result.totalUsage.outputTokens ?? 0) > 0);
    await checkJournal(session, false);
  });

  test('streamText completes a tool round [aisdk-anthropic.tools.stream +]', async () => {
    const session = await mock.session('aisdk-anthropic-stream');
    const { ran, tools } = setup(session);
    const errors: unknown[] = [];
    const parts: string[] = [];
    const result = streamText({
      model: model(session),
      tools,
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(10_000),
      prompt: 'What is the weather in Paris?',
      onError: ({ error }) => void errors.push(error),
    });
    for await (const part of result.fullStream) parts.push(part.type);
    assert.deepEqual(errors, []);
    assert.ok(parts.includes('tool-input-delta'), 'the tool input streams in');
    assert.ok(parts.includes('tool-call'));
    assert.equal(await result.text, 'Paris is sunny, 21 °C.');
    assert.deepEqual(ran, [{ city: 'Paris', unit: 'celsius' }]);
    assert.equal((await result.steps).length, 2);
    assert.equal(await result.finishReason, 'stop');
    await checkJournal(session, true);
  });
});

describe('Vercel AI SDK Anthropic provider: a scripted call that fails the tool schema', () => {
  function setup(session: UnderstudySession, cityType: 'string' | 'number') {
    session.scenario('weather').callsTool('weather', { city: 75001 }, 'toolu_zip').then().replies('Done.');
    const ran: unknown[] = [];
    const tools = {
      weather: tool({
        description: 'Current weather for a city',
        inputSchema: z.object({ city: cityType === 'string' ? z.string() : z.number() }),
        execute: async (input: unknown) => {
          ran.push(input);
          return 'sunny';
        },
      }),
    };
    return { ran, tools };
  }

  test('generateText throws APICallError 409 in Anthropic’s shape and nothing is consumed [aisdk-anthropic.tools.json -]', async () => {
    const session = await mock.session('aisdk-anthropic-generate-mismatch');
    const bad = setup(session, 'string');
    const error = await generateText({
      model: model(session),
      tools: bad.tools,
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(10_000),
      prompt: 'Weather?',
    }).catch((e: unknown) => e);
    assert.ok(APICallError.isInstance(error), `got ${String(error)}`);
    assert.equal(error.statusCode, 409);
    assert.equal(error.isRetryable, true, 'the AI SDK retries 409 by status; maxRetries 0 keeps it to one attempt');
    const body = JSON.parse(error.responseBody ?? '{}') as { type: string; error: { type: string; details: { error_code: string } } };
    assert.equal(body.type, 'error');
    assert.equal(body.error.type, 'conflict_error');
    assert.equal(body.error.details.error_code, 'fixture_mismatch');
    assert.deepEqual(bad.ran, []);

    const good = setup(session, 'number');
    const result = await generateText({
      model: model(session),
      tools: good.tools,
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(10_000),
      prompt: 'Weather?',
    });
    assert.deepEqual(good.ran, [{ city: 75001 }]);
    assert.equal(result.text, 'Done.');
    const { counters } = await session.journal();
    assert.deepEqual([counters.mismatched, counters.matched], [1, 2]);
  });

  test('streamText reports APICallError 409 and runs no tool [aisdk-anthropic.tools.stream -]', async () => {
    const session = await mock.session('aisdk-anthropic-stream-mismatch');
    const bad = setup(session, 'string');
    await expectStreamTextRefused({ model: model(session), tools: bad.tools, ran: bad.ran, session });
  });
});

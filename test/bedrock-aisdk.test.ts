// The Vercel AI SDK's Amazon Bedrock provider (@ai-sdk/amazon-bedrock 4.0.186 with ai 6; 5.0.101
// with ai 7 in the current-SDK lane) against the Bedrock Converse dialect. The provider speaks
// HTTP/1.1 through fetch and signs with its own SigV4; the access key id selects the session.
// Structured output is a forced tool named `json` (toolChoice any): the script answers it with a
// call of that tool, and the provider hands its input back as the object.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { APICallError, generateText, Output, stepCountIs } from 'ai';
import { z } from 'zod';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import {
  expectGenerateTextRefusedThenAnswered,
  expectStreamedWeatherRound,
  expectStreamTextRefused,
  scriptParisWeather,
  scriptZipCodeCall,
  typedWeatherTool,
} from './support/aisdk.js';

const MODEL = 'anthropic.claude-3-haiku-20240307-v1:0';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

function bedrock(session: UnderstudySession) {
  return createAmazonBedrock({
    baseURL: mock.url('bedrock'),
    region: 'us-east-1',
    accessKeyId: session.apiKey,
    secretAccessKey: 'understudy-secret',
  })(MODEL);
}

/** generateText asking for the capital as an object (Output.object), what it returned or threw. */
function askCapital(session: UnderstudySession) {
  return generateText({
    model: bedrock(session),
    output: Output.object({ schema: z.object({ answer: z.string() }) }),
    maxRetries: 0,
    abortSignal: AbortSignal.timeout(10_000),
    prompt: 'Capital of France?',
  }).catch((e: unknown) => e);
}

/** What a refused askCapital threw: the AI SDK's APICallError for Understudy's 409. */
function refusal(thrown: unknown): APICallError {
  assert.ok(APICallError.isInstance(thrown), `got ${String(thrown)}`);
  assert.equal(thrown.statusCode, 409);
  return thrown;
}

describe('Vercel AI SDK Amazon Bedrock provider: Converse', () => {
  test('streamText completes a tool round through ConverseStream [aisdk-bedrock.tools.stream +]', async () => {
    const session = await mock.session('aisdk-bedrock-round');
    scriptParisWeather(session);
    const result = await expectStreamedWeatherRound(bedrock(session), 'Paris is sunny, 21 °C.');
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.operation, e.status, e.stream, e.step]),
      [
        ['bedrock.converseStream', 200, true, 'step-1'],
        ['bedrock.converseStream', 200, true, 'step-2'],
      ],
    );
    const usage = await result.totalUsage;
    assert.equal(
      usage.inputTokens,
      entries.reduce((sum, e) => sum + (e.usage?.inputTokens ?? 0), 0),
      'the AI SDK read usage from the metadata event',
    );
    const second = entries[1].request;
    const toolResult = second?.messages.at(-1)?.parts[0];
    assert.ok(toolResult?.type === 'tool_result', JSON.stringify(second?.messages.at(-1)));
    assert.deepEqual([toolResult.callId, toolResult.name], ['call_paris', 'weather']);
    await session.verify();
  });

  test('streamText reports APICallError 409 and runs no tool when the scripted call fails the tool schema [aisdk-bedrock.tools.stream -]', async () => {
    const session = await mock.session('aisdk-bedrock-mismatch');
    scriptZipCodeCall(session);
    const ran: unknown[] = [];
    await expectStreamTextRefused({ model: bedrock(session), tools: typedWeatherTool('string', ran), ran, session });
  });

  test('generateText with Output.object: the forced `json` tool answered by its call [aisdk-bedrock.structured.json +]', async () => {
    const session = await mock.session('aisdk-bedrock-structured');
    session.scenario('capital').whenLatestUser({ contains: 'Capital' }).callsTool('json', { answer: 'Paris' });
    const result = await askCapital(session);
    assert.ok(!(result instanceof Error), String(result));
    assert.deepEqual((result as { output: unknown }).output, { answer: 'Paris' });
    const { entries } = await session.journal();
    const request = entries[0].request;
    assert.deepEqual(
      request?.tools?.map((t) => t.name),
      ['json'],
    );
    assert.equal(request?.toolChoice?.type, 'required');
    await session.verify();
  });

  test('generateText with Output.object: a call that breaks the schema is a 409 and nothing is consumed [aisdk-bedrock.structured.json -]', async () => {
    const session = await mock.session('aisdk-bedrock-structured-bad');
    session.scenario('capital').callsTool('json', { answer: 75001 });
    assert.match(refusal(await askCapital(session)).responseBody ?? '', /fixture_mismatch/);
    const { counters } = await session.journal();
    assert.deepEqual([counters.mismatched, counters.matched], [1, 0]);
    const report = await session.check();
    assert.equal(report.ok, false, 'the refused step is still unused');
  });

  test('generateText completes a tool round through Converse [aisdk-bedrock.tools.json +]', async () => {
    const session = await mock.session('aisdk-bedrock-generate');
    scriptParisWeather(session);
    const ran: unknown[] = [];
    const result = await generateText({
      model: bedrock(session),
      tools: typedWeatherTool('string', ran),
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(10_000),
      prompt: 'What is the weather in Paris?',
    });
    assert.equal(result.text, 'Paris is sunny, 21 °C.');
    assert.deepEqual(ran, [{ city: 'Paris' }]);
    assert.deepEqual(
      result.steps.map((s) => s.finishReason),
      ['tool-calls', 'stop'],
    );
    await session.verify();
  });

  test('generateText reports APICallError 409 and runs no tool when the scripted call fails the tool schema, then the step answers [aisdk-bedrock.tools.json -]', async () => {
    const session = await mock.session('aisdk-bedrock-generate-mismatch');
    await expectGenerateTextRefusedThenAnswered(session, bedrock(session));
  });
});

test('Output.object scripted as a JSON reply: the 409 says the `json` tool is how the AI SDK asks Bedrock for structured output [aisdk-bedrock.structured.json -]', async () => {
  const session = await mock.session('aisdk-bedrock-structured-as-json');
  session.scenario('capital').repliesJson({ answer: 'Paris' });
  assert.match(
    refusal(await askCapital(session)).responseBody ?? '',
    /is how the Vercel AI SDK asks Bedrock for structured output, so script a call of it/,
  );
});

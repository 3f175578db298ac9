// The Vercel AI SDK's Cohere provider (@ai-sdk/cohere 3.0.63 with ai 6; 4.0.52 with ai 7 in the
// current-SDK lane) against the Cohere v2 Chat dialect: base URL with /v2, a tool round streamed
// and not, the tool plan arriving as the provider reads it.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { createCohere } from '@ai-sdk/cohere';
import { APICallError, generateText, Output, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { expectStreamTextRefused, typedWeatherTool } from './support/aisdk.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

function model(session: UnderstudySession) {
  return createCohere({ baseURL: mock.url('cohere-v2'), apiKey: session.apiKey })('command-a-03-2025');
}

function setup(session: UnderstudySession) {
  session
    .scenario('weather')
    .whenLatestUser({ contains: 'weather in Paris' })
    .reply({
      reasoning: 'I will look up Paris.',
      toolCalls: [{ id: 'get_weather_paris', name: 'weather', arguments: { city: 'Paris', unit: 'celsius' } }],
    })
    .thenWhenToolResult('weather', 'get_weather_paris')
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
    entries.map((e) => [e.route, e.operation, e.status, e.step, e.stream]),
    [
      ['POST /v2/chat', 'cohere.chat', 200, 'step-1', stream],
      ['POST /v2/chat', 'cohere.chat', 200, 'step-2', stream],
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
  assert.deepEqual([result.callId, result.name], ['get_weather_paris', 'weather']);
  assert.match(result.content, /sunny/);
  await session.verify();
}

describe('Vercel AI SDK Cohere provider: a tool round', () => {
  test('generateText completes a tool round [aisdk-cohere.tools.json +]', async () => {
    const session = await mock.session('aisdk-cohere-generate');
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
    assert.equal(result.steps[0].toolCalls[0].toolCallId, 'get_weather_paris');
    assert.equal(result.finishReason, 'stop');
    assert.ok((result.totalUsage.inputTokens ?? 0) > 0);
    assert.ok((result.totalUsage.outputTokens ?? 0) > 0);
    await checkJournal(session, false);
  });

  test('streamText completes a tool round [aisdk-cohere.tools.stream +]', async () => {
    const session = await mock.session('aisdk-cohere-stream');
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
    assert.ok(parts.includes('tool-input-delta'), `the tool input streams in: ${parts.join(' ')}`);
    assert.ok(parts.includes('tool-call'));
    assert.equal(await result.text, 'Paris is sunny, 21 °C.');
    assert.deepEqual(ran, [{ city: 'Paris', unit: 'celsius' }]);
    assert.equal((await result.steps).length, 2);
    assert.equal(await result.finishReason, 'stop');
    await checkJournal(session, true);
  });
});

describe('Vercel AI SDK Cohere provider: a scripted call that fails the tool schema', () => {
  test("generateText throws APICallError 409 in Cohere's shape and nothing is consumed [aisdk-cohere.tools.json -]", async () => {
    const session = await mock.session('aisdk-cohere-generate-mismatch');
    session.scenario('weather').callsTool('weather', { city: 75001 }, 'get_weather_zip').then().replies('Done.');
    const bad: unknown[] = [];
    const error = await generateText({
      model: model(session),
      tools: typedWeatherTool('string', bad),
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(10_000),
      prompt: 'Weather?',
    }).catch((e: unknown) => e);
    assert.ok(APICallError.isInstance(error), `got ${String(error)}`);
    assert.equal(error.statusCode, 409);
    const body = JSON.parse(error.responseBody ?? '{}') as { id: string; message: string; code: string };
    assert.equal(body.code, 'fixture_mismatch');
    assert.match(body.message, /weather/);
    assert.deepEqual(bad, []);
    const good: unknown[] = [];
    const result = await generateText({
      model: model(session),
      tools: typedWeatherTool('number', good),
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(10_000),
      prompt: 'Weather?',
    });
    assert.deepEqual(good, [{ city: 75001 }]);
    assert.equal(result.text, 'Done.');
  });

  test('streamText reports APICallError 409 and runs no tool [aisdk-cohere.tools.stream -]', async () => {
    const session = await mock.session('aisdk-cohere-stream-mismatch');
    session.scenario('weather').callsTool('weather', { city: 75001 }, 'get_weather_zip').then().replies('Done.');
    const ran: unknown[] = [];
    await expectStreamTextRefused({ model: model(session), tools: typedWeatherTool('string', ran), ran, session });
  });
});

describe('Vercel AI SDK Cohere provider: structured output', () => {
  const schema = z.object({ answer: z.string(), confidence: z.number() });

  test('Output.object sends json_object with the schema, and the scripted JSON is the output [aisdk-cohere.structured.json +]', async () => {
    const session = await mock.session('aisdk-cohere-structured');
    session.scenario('capital').repliesJson({ answer: 'Paris', confidence: 0.9 });
    const result = await generateText({
      model: model(session),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(10_000),
      output: Output.object({ schema }),
      prompt: 'Capital of France?',
    });
    assert.deepEqual(result.output, { answer: 'Paris', confidence: 0.9 });
    const { entries } = await session.journal();
    const output = entries[0].request?.output;
    assert.ok(output?.type === 'json_schema', JSON.stringify(output));
    assert.deepEqual((output.schema as { required?: string[] }).required, ['answer', 'confidence']);
  });

  test('scripted JSON failing the schema is an APICallError 409 and stays unconsumed [aisdk-cohere.structured.json -]', async () => {
    const session = await mock.session('aisdk-cohere-structured-bad');
    session.scenario('capital').repliesJson({ answer: 'Paris', confidence: 'high' });
    const error = await generateText({
      model: model(session),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(10_000),
      output: Output.object({ schema }),
      prompt: 'Capital of France?',
    }).catch((e: unknown) => e);
    assert.ok(APICallError.isInstance(error), `got ${String(error)}`);
    assert.equal(error.statusCode, 409);
    assert.equal((JSON.parse(error.responseBody ?? '{}') as { code: string }).code, 'fixture_mismatch');
    const report = await session.check();
    assert.equal(report.ok, false, 'the refused step is still unused');
  });
});

describe('Vercel AI SDK Cohere provider: citations', () => {
  test('a file part is sent as a document, and a scripted citation of it is a source with its title [aisdk-cohere.citations.json +]', async () => {
    const session = await mock.session('aisdk-cohere-citations');
    session.scenario('cited').reply({ text: 'Paris is sunny today.', citations: [{ text: 'sunny', sources: ['doc:0'] }] });
    const result = await generateText({
      model: model(session),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(10_000),
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather in Paris?' },
            { type: 'file', data: new TextEncoder().encode('Paris: sunny, 21 C.'), mediaType: 'text/plain', filename: 'paris.txt' },
          ],
        },
      ],
    });
    assert.equal(result.text, 'Paris is sunny today.');
    assert.equal(result.sources.length, 1);
    const [source] = result.sources;
    assert.ok(source.sourceType === 'document', JSON.stringify(source));
    assert.equal(source.title, 'paris.txt');
    const cited = source.providerMetadata?.cohere as { start: number; end: number; text: string };
    assert.deepEqual([cited.start, cited.end, cited.text], [9, 14, 'sunny']);
    const { entries } = await session.journal();
    assert.deepEqual(entries[0].request?.documents, [{ id: 'doc:0', fields: { text: 'Paris: sunny, 21 C.', title: 'paris.txt' } }]);
  });

  test('a citation naming no document the request sent is answered as an id-only document, which the AI SDK refuses [aisdk-cohere.citations.json -]', async () => {
    const session = await mock.session('aisdk-cohere-citations-bad');
    session.scenario('cited').reply({ text: 'Paris is sunny today.', citations: [{ text: 'sunny', sources: ['doc:7'] }] });
    const error = await generateText({
      model: model(session),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(10_000),
      prompt: 'Weather in Paris?',
    }).catch((e: unknown) => e);
    assert.ok(error instanceof Error, `the AI SDK refuses a source without the document's text and title: ${String(error)}`);
    assert.match(error.message, /Invalid JSON response|Type validation failed/);
  });
});

// The Vercel AI SDK's tool loop (generateText and streamText with stopWhen) through each provider
// package other than OpenAI's (and Azure's Responses, and openai-compatible against OpenRouter), against the dialect Understudy speaks for it: the two-tool script
// and zero-config with a tool of required fields end as they do over OpenAI
// (test/agent-loops-aisdk.test.ts). What each provider's wire adds (Anthropic's tool_use blocks,
// Gemini's functionCall parts, Bedrock's toolUse, Cohere's tool plans) must still end the loop.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createAzure } from '@ai-sdk/azure';
import { createCohere } from '@ai-sdk/cohere';
import { createDeepSeek } from '@ai-sdk/deepseek';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createGroq } from '@ai-sdk/groq';
import { createMistral } from '@ai-sdk/mistral';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, stepCountIs, streamText, tool, type LanguageModel } from 'ai';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { aiSdkTool, aiSdkTools } from '../src/presets/ai-sdk.js';
import { PRESET_DESCRIPTORS, presets } from '../src/presets/index.js';
import {
  ANSWER,
  CONVERT,
  expectSchemaValidRun,
  expectValidAgainst,
  FORECAST_DESCRIPTION,
  FORECAST_RESULT,
  FORECAST_SCHEMA,
  QUESTION,
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

const PROVIDERS: Record<string, (session: UnderstudySession) => LanguageModel> = {
  anthropic: (s) => createAnthropic({ baseURL: mock.url('anthropic-v1'), apiKey: s.apiKey })('claude-sonnet-4-6'),
  google: (s) => createGoogleGenerativeAI({ baseURL: mock.url('gemini-v1beta'), apiKey: s.apiKey })('gemini-2.5-flash'),
  bedrock: (s) =>
    createAmazonBedrock({ baseURL: mock.url('bedrock'), region: 'us-east-1', accessKeyId: s.apiKey, secretAccessKey: 'understudy-secret' })(
      'anthropic.claude-3-5-sonnet-20240620-v1:0',
    ),
  cohere: (s) => createCohere({ baseURL: mock.url('cohere-v2'), apiKey: s.apiKey })('command-a-03-2025'),
  mistral: (s) => createMistral({ baseURL: mock.url('mistral-v1'), apiKey: s.apiKey })('mistral-large-latest'),
  groq: (s) => createGroq({ baseURL: mock.url('groq-v1'), apiKey: s.apiKey })('llama-3.3-70b-versatile'),
  deepseek: (s) => createDeepSeek({ baseURL: mock.url('deepseek'), apiKey: s.apiKey })('deepseek-chat'),
  azure: (s) => createAzure({ baseURL: mock.url('azure-v1'), apiKey: s.apiKey }).responses('my-gpt4o'),
  'openai-compatible': (s) =>
    createOpenAICompatible({ name: 'openrouter', baseURL: mock.url('openrouter'), apiKey: s.apiKey }).chatModel('openai/gpt-4o'),
};

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

/** generateText or streamText to its end: the text, each step's finish reason, errors reported. */
async function loop(model: LanguageModel, tools: Parameters<typeof generateText>[0]['tools'], stream: boolean) {
  const options = { model, tools, stopWhen: stepCountIs(5), maxRetries: 0, prompt: QUESTION, abortSignal: AbortSignal.timeout(10_000) };
  if (!stream) {
    const result = await generateText(options);
    return { text: result.text, finishes: result.steps.map((s) => s.finishReason), errors: [] as unknown[] };
  }
  const errors: unknown[] = [];
  const result = streamText({ ...options, onError: ({ error }) => void errors.push(error) });
  let text = '';
  for await (const delta of result.textStream) text += delta;
  return { text, finishes: (await result.steps).map((s) => s.finishReason), errors };
}

for (const [name, modelFor] of Object.entries(PROVIDERS)) {
  describe(`AI SDK agent loop through @ai-sdk/${name}`, () => {
    test('zero-config: each of the twelve presets is called with arguments the catalogue accepts, and the loop ends', async () => {
      for (const { name: preset } of PRESET_DESCRIPTORS) {
        const session = await mock.session(`providers-${name}-zc-${preset}`, { fallback: 'auto' });
        const built: unknown[] = [];
        // presets[preset].call throws on arguments the catalogue's schema refuses.
        const execute = (args: unknown) => {
          built.push(presets[preset].call(args as never));
          return presets.calculator.result({ value: 1 }) as never;
        };
        const { text, errors } = await loop(modelFor(session), { [preset]: aiSdkTool(presets[preset].definition(), execute) }, false);
        assert.deepEqual([errors, built.length, text], [[], 1, ZERO_CONFIG_TEXT], preset);
      }
    });

    for (const stream of [false, true]) {
      const how = stream ? 'streamText' : 'generateText';

      test(`${how}: the two-tool script runs to its text, every step used`, async () => {
        const session = await mock.session(`providers-${name}-two-${stream}`);
        await scriptTwoTools(session);
        const { text, finishes, errors } = await loop(modelFor(session), aiSdkTools(WEATHER, CONVERT), stream);
        assert.deepEqual(errors, []);
        assert.equal(text, ANSWER);
        assert.deepEqual(finishes, ['tool-calls', 'tool-calls', 'stop']);
        const { entries } = await session.journal();
        assert.deepEqual(
          entries.map((e) => [e.status, e.stream, e.source, e.step]),
          ['step-1', 'step-2', 'step-3'].map((step) => [200, stream, 'script', step]),
        );
        await session.verify(TWO_TOOLS_CALLED);
      });

      test(`${how}: zero-config calls the tool once with schema-valid arguments, then ends with the sentence`, async () => {
        const session = await mock.session(`providers-${name}-zc-${stream}`, { fallback: 'auto' });
        const ran: unknown[] = [];
        const { text, finishes, errors } = await loop(modelFor(session), { forecast: forecastTool(ran) }, stream);
        assert.deepEqual(errors, []);
        assert.equal(ran.length, 1);
        // Valid against the schema the request carried; against the tool's own whenever the provider
        // package sent its bounds (@ai-sdk/google 3 leaves out minimum and maximum).
        const {
          entries: [first],
        } = await session.journal();
        const offered = first?.request?.tools[0]?.parameters as { properties: { days: { minimum?: number } } };
        expectValidAgainst(offered, ran[0]);
        if (offered.properties.days.minimum !== undefined || name !== 'google') expectSchemaValidRun(ran);
        assert.equal(text, ZERO_CONFIG_TEXT);
        assert.deepEqual(finishes, ['tool-calls', 'stop']);
        const { entries } = await session.journal();
        assert.deepEqual(
          entries.map((e) => [e.status, e.stream, e.source, e.reply?.toolCalls.length]),
          [
            [200, stream, 'zero_config', 1],
            [200, stream, 'zero_config', 0],
          ],
        );
        await session.verify();
      });
    }
  });
}

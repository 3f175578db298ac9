// A preset round from a fixture file through each dialect's official SDK: the step after the call
// waits for the preset's result for that call id AND that the history's call carried the
// fixture's arguments, so it holds only if every dialect gives the tool result and the call it
// answers the same id, with the result compared structurally whatever shape the wire gives it
// (Responses' function_call_output string, Anthropic's tool_result, Gemini's functionResponse
// object, Bedrock's toolResult json block).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { ConverseCommand, type Message } from '@aws-sdk/client-bedrock-runtime';
import { GoogleGenAI, type Content } from '@google/genai';
import OpenAI from 'openai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { parseFixtureText } from '../src/engine/fixture-file.js';
import { anthropicTool, bedrockTool, geminiFunctionDeclaration, presets, responsesTool } from '../src/presets/index.js';
import { bedrockClient } from './support/bedrock.js';

const ANSWER = 'Paris is sunny, 21 °C.';
const ARGS = { location: 'Paris', unit: 'celsius' } as const;
const RESULT = { location: 'Paris', temperature: 21, unit: 'celsius', condition: 'sunny' } as const;
/** The application's JSON, in its own member order. */
const SENT = { condition: 'sunny', temperature: 21, unit: 'celsius', location: 'Paris' };
const DEFINITION = presets.weather.definition();

const YAML = `
scenarios:
  - name: paris
    steps:
      - reply:
          toolCalls: [{ preset: weather, id: call_paris, arguments: { location: Paris, unit: celsius } }]
      - when:
          toolResult:
            preset: weather
            id: call_paris
            arguments: { unit: celsius, location: Paris }
            result: { location: Paris, temperature: 21, unit: celsius, condition: sunny }
        reply: { text: '${ANSWER}' }
`;

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(() => mock.close());

async function scripted(id: string): Promise<UnderstudySession> {
  const parsed = parseFixtureText(YAML, `${id}.yaml`);
  assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.problems));
  const session = await mock.session(id, { fallback: 'strict' });
  await session.load(parsed.fixture);
  return session;
}

async function bothStepsAndVerified(session: UnderstudySession): Promise<void> {
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.step]),
    [
      [200, 'step-1'],
      [200, 'step-2'],
    ],
    JSON.stringify(entries.map((e) => e.error)),
  );
  await session.verify({ toolCalled: [{ preset: 'weather', id: 'call_paris', arguments: ARGS, result: RESULT, times: 1 }] });
}

test('OpenAI Responses (previous_response_id): a preset round from a fixture file', async () => {
  const session = await scripted('fixture-preset-responses');
  const client = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const tools = [responsesTool(DEFINITION)];
  const first = await client.responses.create({ model: 'gpt-4o', input: 'Weather in Paris?', tools });
  const call = first.output.find((item) => item.type === 'function_call');
  assert.ok(call && call.type === 'function_call');
  const second = await client.responses.create({
    model: 'gpt-4o',
    previous_response_id: first.id,
    input: [{ type: 'function_call_output', call_id: call.call_id, output: JSON.stringify(SENT, null, 2) }],
    tools,
  });
  assert.equal(second.output_text, ANSWER);
  await bothStepsAndVerified(session);
});

test('Anthropic Messages: a preset round from a fixture file', async () => {
  const session = await scripted('fixture-preset-anthropic');
  const client = new Anthropic({ baseURL: mock.url('anthropic'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const tools = [anthropicTool(DEFINITION)];
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
  const first = await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 200, messages, tools });
  const use = first.content.find((block) => block.type === 'tool_use');
  assert.ok(use && use.type === 'tool_use');
  messages.push(
    { role: 'assistant', content: first.content },
    // The result as a text block, the other way Anthropic carries it.
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: [{ type: 'text', text: JSON.stringify(SENT) }] }] },
  );
  const second = await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 200, messages, tools });
  assert.deepEqual(
    second.content.map((block) => (block.type === 'text' ? block.text : block.type)),
    [ANSWER],
  );
  await bothStepsAndVerified(session);
});

test('Gemini: a preset round from a fixture file (the functionResponse object is the result)', async () => {
  const session = await scripted('fixture-preset-gemini');
  const ai = new GoogleGenAI({ apiKey: session.apiKey, httpOptions: { baseUrl: mock.url('gemini'), timeout: 10_000 } });
  const config = { tools: [{ functionDeclarations: [geminiFunctionDeclaration(DEFINITION)] }] };
  const contents: Content[] = [{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }];
  const first = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents, config });
  const call = first.functionCalls?.[0];
  assert.equal(call?.id, 'call_paris');
  contents.push(first.candidates![0].content!, {
    role: 'user',
    parts: [{ functionResponse: { id: call?.id, name: 'weather', response: SENT } }],
  });
  const second = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents, config });
  assert.equal(second.text, ANSWER);
  await bothStepsAndVerified(session);
});

test('Bedrock Converse: a preset round from a fixture file (the toolResult json block is the result)', async () => {
  const session = await scripted('fixture-preset-bedrock');
  const client = bedrockClient(mock, { apiKey: session.apiKey });
  try {
    const modelId = 'anthropic.claude-3-haiku-20240307-v1:0';
    const toolConfig = { tools: [bedrockTool(DEFINITION)] };
    const messages: Message[] = [{ role: 'user', content: [{ text: 'Weather in Paris?' }] }];
    const first = await client.send(new ConverseCommand({ modelId, messages, toolConfig }));
    const use = first.output?.message?.content?.find((block) => block.toolUse)?.toolUse;
    assert.equal(use?.toolUseId, 'call_paris');
    messages.push(first.output!.message!, {
      role: 'user',
      content: [{ toolResult: { toolUseId: 'call_paris', content: [{ json: SENT }] } }],
    });
    const second = await client.send(new ConverseCommand({ modelId, messages, toolConfig }));
    assert.equal(second.output?.message?.content?.[0]?.text, ANSWER);
    await bothStepsAndVerified(session);
  } finally {
    client.destroy();
  }
});

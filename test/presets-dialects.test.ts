// A preset offered through each dialect's own tool shape (issue 20 §5, llm-understudy/presets'
// openaiChatTool, responsesTool, anthropicTool, geminiFunctionDeclaration, bedrockTool), one weather
// round per official SDK (Ollama and Cohere v2 take openaiChatTool's shape): the SDK gets the scripted call, the tool result sent back matches the next
// step, and the schema the server decoded is the catalogue's, member for member. Then the same
// round with a changed argument schema is refused (the offered shape is what the contract checks).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { ConverseCommand, type Message } from '@aws-sdk/client-bedrock-runtime';
import { GoogleGenAI, type Content } from '@google/genai';
import { CohereClientV2, type Cohere } from 'cohere-ai';
import { Ollama, type Message as OllamaMessage } from 'ollama';
import OpenAI from 'openai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import {
  anthropicTool,
  bedrockTool,
  geminiFunctionDeclaration,
  openaiChatTool,
  PRESET_CATALOGUE,
  presets,
  responsesTool,
  type PresetDefinition,
} from '../src/presets/index.js';
import { bedrockClient } from './support/bedrock.js';

const ANSWER = 'Paris is sunny, 21 °C.';
const WEATHER = presets.weather.success(
  { location: 'Paris', unit: 'celsius' },
  { location: 'Paris', temperature: 21, unit: 'celsius', condition: 'sunny' },
);

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(() => mock.close());

async function scripted(id: string): Promise<UnderstudySession> {
  const session = await mock.session(id);
  await session
    .scenario('weather')
    .whenLatestUser({ contains: 'Paris' })
    .callsTools([WEATHER.call])
    .thenWhenToolResult(WEATHER.call.name, WEATHER.call.id, WEATHER.result)
    .replies(ANSWER);
  return session;
}

/** Both steps answered, and the tool the server decoded is the catalogue's weather definition. */
async function checkBothSides(session: UnderstudySession): Promise<void> {
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.step]),
    [
      [200, 'step-1'],
      [200, 'step-2'],
    ],
  );
  const tool = entries[0].request?.tools[0];
  assert.equal(tool?.name, 'weather');
  assert.deepEqual(tool?.parameters, PRESET_CATALOGUE.weather.parameters);
  await session.verify({
    toolCalled: [{ name: 'weather', id: WEATHER.call.id, arguments: WEATHER.call.arguments, result: WEATHER.result, times: 1 }],
  });
}

test('OpenAI Responses: responsesTool offers the preset, a weather round [openai-responses.presets.json +]', async () => {
  const session = await scripted('preset-responses');
  const client = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const tools = [responsesTool(WEATHER.definition)];
  const first = await client.responses.create({ model: 'gpt-4o', input: 'Weather in Paris?', tools });
  const call = first.output.find((item) => item.type === 'function_call');
  assert.ok(call && call.type === 'function_call');
  assert.deepEqual([call.call_id, call.name, JSON.parse(call.arguments)], [WEATHER.call.id, 'weather', WEATHER.call.arguments]);
  const second = await client.responses.create({
    model: 'gpt-4o',
    previous_response_id: first.id,
    input: [{ type: 'function_call_output', call_id: call.call_id, output: JSON.stringify(WEATHER.result) }],
    tools,
  });
  assert.equal(second.output_text, ANSWER);
  await checkBothSides(session);
});

test('Anthropic Messages: anthropicTool offers the preset, a weather round [anthropic-messages.presets.json +]', async () => {
  const session = await scripted('preset-anthropic');
  const client = new Anthropic({ baseURL: mock.url('anthropic'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const tools = [anthropicTool(WEATHER.definition)];
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
  const first = await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 200, messages, tools });
  const use = first.content.find((block) => block.type === 'tool_use');
  assert.ok(use && use.type === 'tool_use');
  assert.deepEqual([use.id, use.name, use.input], [WEATHER.call.id, 'weather', WEATHER.call.arguments]);
  messages.push(
    { role: 'assistant', content: first.content },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: JSON.stringify(WEATHER.result) }] },
  );
  const second = await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 200, messages, tools });
  assert.deepEqual(
    second.content.map((block) => (block.type === 'text' ? block.text : block.type)),
    [ANSWER],
  );
  await checkBothSides(session);
});

test('Gemini: geminiFunctionDeclaration offers the preset, a weather round [gemini.presets.json +]', async () => {
  const session = await scripted('preset-gemini');
  const ai = new GoogleGenAI({ apiKey: session.apiKey, httpOptions: { baseUrl: mock.url('gemini'), timeout: 10_000 } });
  const config = { tools: [{ functionDeclarations: [geminiFunctionDeclaration(WEATHER.definition)] }] };
  const contents: Content[] = [{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }];
  const first = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents, config });
  const call = first.functionCalls?.[0];
  assert.deepEqual([call?.name, call?.args], ['weather', WEATHER.call.arguments]);
  contents.push(first.candidates![0].content!, {
    role: 'user',
    parts: [{ functionResponse: { id: call?.id, name: 'weather', response: WEATHER.result } }],
  });
  const second = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents, config });
  assert.equal(second.text, ANSWER);
  await checkBothSides(session);
});

test('Bedrock Converse: bedrockTool offers the preset, a weather round with the AWS client [bedrock-converse.presets.json +]', async () => {
  const session = await scripted('preset-bedrock');
  const client = bedrockClient(mock, { apiKey: session.apiKey });
  try {
    const modelId = 'anthropic.claude-3-haiku-20240307-v1:0';
    const toolConfig = { tools: [bedrockTool(WEATHER.definition)] };
    const messages: Message[] = [{ role: 'user', content: [{ text: 'Weather in Paris?' }] }];
    const first = await client.send(new ConverseCommand({ modelId, messages, toolConfig }));
    const use = first.output?.message?.content?.find((block) => block.toolUse)?.toolUse;
    assert.deepEqual([use?.toolUseId, use?.name, use?.input], [WEATHER.call.id, 'weather', WEATHER.call.arguments]);
    messages.push(first.output!.message!, {
      role: 'user',
      content: [{ toolResult: { toolUseId: WEATHER.call.id, content: [{ json: WEATHER.result }] } }],
    });
    const second = await client.send(new ConverseCommand({ modelId, messages, toolConfig }));
    assert.equal(second.output?.message?.content?.[0]?.text, ANSWER);
    await checkBothSides(session);
  } finally {
    client.destroy();
  }
});

test('Ollama: openaiChatTool offers the preset, a weather round with ollama-js [ollama-chat.presets.json +]', async () => {
  const session = await scripted('preset-ollama');
  const ollama = ollamaFor(session);
  const tools = [openaiChatTool(WEATHER.definition)];
  const messages: OllamaMessage[] = [{ role: 'user', content: 'Weather in Paris?' }];
  const first = await ollama.chat({ model: 'llama3.2', messages, tools });
  const [call] = first.message.tool_calls ?? [];
  assert.deepEqual([call?.function.name, call?.function.arguments], ['weather', WEATHER.call.arguments]);
  messages.push(first.message, { role: 'tool', content: JSON.stringify(WEATHER.result), tool_name: 'weather' });
  const second = await ollama.chat({ model: 'llama3.2', messages, tools });
  assert.equal(second.message.content, ANSWER);
  await checkBothSides(session);
});

test('Cohere v2: openaiChatTool offers the preset, a weather round with cohere-ai [cohere-chat.presets.json +]', async () => {
  const session = await scripted('preset-cohere');
  const cohere = cohereFor(session);
  const tools = [openaiChatTool(WEATHER.definition)];
  const messages: Cohere.ChatMessageV2[] = [{ role: 'user', content: 'Weather in Paris?' }];
  const first = await cohere.chat({ model: 'command-a-03-2025', messages, tools });
  const [call] = first.message.toolCalls ?? [];
  assert.deepEqual(
    [call?.id, call?.function?.name, JSON.parse(call?.function?.arguments ?? 'null')],
    [WEATHER.call.id, 'weather', WEATHER.call.arguments],
  );
  messages.push(
    { role: 'assistant', toolPlan: first.message.toolPlan, toolCalls: first.message.toolCalls },
    { role: 'tool', toolCallId: WEATHER.call.id, content: JSON.stringify(WEATHER.result) },
  );
  const second = await cohere.chat({ model: 'command-a-03-2025', messages, tools });
  assert.equal(second.message.content?.[0]?.type === 'text' && second.message.content[0].text, ANSWER);
  await checkBothSides(session);
});

/** ollama-js has no timeout of its own: every request gets one here. */
function ollamaFor(session: UnderstudySession): Ollama {
  const fetchWithTimeout: typeof fetch = (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(10_000) });
  return new Ollama({ host: mock.url('ollama'), headers: { Authorization: `Bearer ${session.apiKey}` }, fetch: fetchWithTimeout });
}

function cohereFor(session: UnderstudySession): CohereClientV2 {
  return new CohereClientV2({ token: session.apiKey, environment: mock.url('cohere'), maxRetries: 0, timeoutInSeconds: 10 });
}

/** The weather definition with `location` made a number: the scripted call's string breaks it. */
function withNumericLocation(definition: PresetDefinition): PresetDefinition {
  const parameters = structuredClone(definition.parameters) as { properties: Record<string, unknown> };
  parameters.properties.location = { type: 'number' };
  return { ...definition, parameters };
}

test('each shape carries the schema the contract checks: a definition the scripted call breaks is a 409, nothing consumed [openai-responses.presets.json -] [anthropic-messages.presets.json -] [gemini.presets.json -] [bedrock-converse.presets.json -] [ollama-chat.presets.json -] [cohere-chat.presets.json -]', async () => {
  const session = await scripted('preset-shapes-refused');
  const changed = withNumericLocation(WEATHER.definition);
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const anthropic = new Anthropic({ baseURL: mock.url('anthropic'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const ai = new GoogleGenAI({ apiKey: session.apiKey, httpOptions: { baseUrl: mock.url('gemini'), timeout: 10_000 } });
  const aws = bedrockClient(mock, { apiKey: session.apiKey });
  const statusOf = (thrown: unknown): number | undefined => {
    const e = thrown as { status?: number; status_code?: number; statusCode?: number; $metadata?: { httpStatusCode?: number } };
    return e.status ?? e.status_code ?? e.statusCode ?? e.$metadata?.httpStatusCode;
  };
  const ask = [{ role: 'user' as const, content: 'Weather in Paris?' }];
  const refusals = await Promise.all([
    openai.responses.create({ model: 'gpt-4o', input: 'Weather in Paris?', tools: [responsesTool(changed)] }).catch(statusOf),
    anthropic.messages
      .create({
        model: 'claude-sonnet-4-5',
        max_tokens: 200,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [anthropicTool(changed)],
      })
      .catch(statusOf),
    ai.models
      .generateContent({
        model: 'gemini-2.5-flash',
        contents: 'Weather in Paris?',
        config: { tools: [{ functionDeclarations: [geminiFunctionDeclaration(changed)] }] },
      })
      .catch(statusOf),
    aws
      .send(
        new ConverseCommand({
          modelId: 'anthropic.claude-3-haiku-20240307-v1:0',
          messages: [{ role: 'user', content: [{ text: 'Weather in Paris?' }] }],
          toolConfig: { tools: [bedrockTool(changed)] },
        }),
      )
      .catch(statusOf),
    ollamaFor(session)
      .chat({ model: 'llama3.2', messages: ask, tools: [openaiChatTool(changed)] })
      .catch(statusOf),
    cohereFor(session)
      .chat({ model: 'command-a-03-2025', messages: ask, tools: [openaiChatTool(changed)] })
      .catch(statusOf),
  ]);
  aws.destroy();
  assert.deepEqual(refusals, [409, 409, 409, 409, 409, 409]);
  const { entries, counters } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.error?.code),
    Array(6).fill('fixture_mismatch'),
  );
  assert.equal(counters.matched, 0, 'nothing was consumed');
});

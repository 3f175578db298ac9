// Zero-config answers that satisfy the request (issue 13, item 5): with no script, structured
// output gets the smallest value of the requested schema and tool calls get arguments that
// validate, so the SDKs' own parse helpers and agent loops accept them — the OpenAI SDK's
// .parse() helpers (Chat and Responses), the OpenAI Agents SDK, the Vercel AI SDK, Anthropic and
// Gemini. A schema no value can satisfy is answered 409 naming the schema path.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import OpenAI from 'openai';
import { zodFunction, zodResponseFormat, zodTextFormat } from 'openai/helpers/zod';
import Anthropic from '@anthropic-ai/sdk';
import { zodOutputFormat } from '@anthropic-ai/sdk/helpers/zod';
import { GoogleGenAI, Type } from '@google/genai';
import { Agent, run, setDefaultOpenAIClient, setOpenAIAPI, setTracingDisabled, tool as agentTool } from '@openai/agents';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, tool } from 'ai';
import { z } from 'zod';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/index.js';
import { PYDANTIC_PERSON } from './support/pydantic-person.js';

const ZERO_CONFIG_TEXT = 'This is a scripted answer from Understudy.';
const MODEL = 'gpt-4o-mini';

let mock: Understudy;

before(async () => {
  mock = await startUnderstudy();
  // The Agents SDK would export traces to OpenAI; nothing may leave the machine.
  setTracingDisabled(true);
});

after(async () => {
  await mock.close();
});

async function auto(name: string): Promise<{ session: UnderstudySession; openai: OpenAI }> {
  const session = await mock.session(name, { fallback: 'auto' });
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  return { session, openai };
}

// A pydantic model as zod: a nested model, an Optional nested model, an enum, a list, Optional scalars.
const Address = z.object({ street: z.string(), postcode: z.string().nullable() });
const Person = z.object({
  name: z.string(),
  age: z.number().int(),
  role: z.enum(['admin', 'member']),
  address: Address,
  previous: Address.nullable(),
  tags: z.array(z.string()),
  score: z.number().nullable(),
});
const SMALLEST_PERSON = {
  name: '',
  age: 0,
  role: 'admin',
  address: { street: '', postcode: '' },
  previous: null,
  tags: [],
  score: 0,
};

describe('structured output through the OpenAI SDK parse helpers', () => {
  test('Chat: client.chat.completions.parse with zodResponseFormat gets a value the zod schema parses [openai-chat.zero-config.json +]', async () => {
    const { session, openai } = await auto('zc-chat-parse');
    const completion = await openai.chat.completions.parse({
      model: MODEL,
      messages: [{ role: 'user', content: 'Who is the user?' }],
      response_format: zodResponseFormat(Person, 'person'),
    });
    assert.deepEqual(completion.choices[0].message.parsed, SMALLEST_PERSON);
    assert.equal(completion.choices[0].finish_reason, 'stop');
    // Streamed too, through the stream helper's own parse.
    const streamed = await openai.chat.completions
      .stream({ model: MODEL, messages: [{ role: 'user', content: 'Who?' }], response_format: zodResponseFormat(Person, 'person') })
      .finalChatCompletion();
    assert.deepEqual(streamed.choices[0].message.parsed, SMALLEST_PERSON);
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.source]),
      [
        [200, 'zero_config'],
        [200, 'zero_config'],
      ],
    );
  });

  test('Responses: client.responses.parse with zodTextFormat gets a value the zod schema parses [openai-responses.zero-config.json +]', async () => {
    const { openai } = await auto('zc-responses-parse');
    const response = await openai.responses.parse({
      model: MODEL,
      input: 'Who is the user?',
      text: { format: zodTextFormat(Person, 'person') },
    });
    assert.deepEqual(response.output_parsed, SMALLEST_PERSON);
  });

  test('the pydantic form of the schema, raw, on both routes: the content parses and fits', async () => {
    const { openai } = await auto('zc-pydantic-raw');
    const chat = await openai.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Who?' }],
      response_format: { type: 'json_schema', json_schema: { name: 'Person', strict: true, schema: PYDANTIC_PERSON } },
    });
    assert.deepEqual(JSON.parse(chat.choices[0].message.content ?? ''), SMALLEST_PERSON);
    const response = await openai.responses.create({
      model: MODEL,
      input: 'Who?',
      text: { format: { type: 'json_schema', name: 'Person', strict: true, schema: PYDANTIC_PERSON } },
    });
    assert.deepEqual(JSON.parse(response.output_text), SMALLEST_PERSON);
    assert.deepEqual(Person.parse(JSON.parse(response.output_text)), SMALLEST_PERSON);
  });

  test('a strict tool through zodFunction: parsed_arguments validate [openai-chat.zero-config.json +]', async () => {
    const { openai } = await auto('zc-chat-tool-parse');
    const completion = await openai.chat.completions.parse({
      model: MODEL,
      messages: [{ role: 'user', content: 'Store the user.' }],
      tools: [zodFunction({ name: 'store_person', parameters: Person })],
    });
    const call = completion.choices[0].message.tool_calls?.[0];
    assert.ok(call);
    assert.equal(call.function.name, 'store_person');
    assert.deepEqual(call.function.parsed_arguments, SMALLEST_PERSON);
  });
});

test('a tool choice that requires a call gets one after a tool result too (text would break the contract) [openai-chat.zero-config.json +]', async () => {
  const { openai } = await auto('zc-required-after-result');
  const tools: OpenAI.ChatCompletionFunctionTool[] = [
    {
      type: 'function',
      function: { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    },
  ];
  const history: OpenAI.ChatCompletionMessageParam[] = [
    { role: 'user', content: 'Weather?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":""}' } }],
    },
    { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
  ];
  const required = await openai.chat.completions.create({ model: MODEL, messages: history, tools, tool_choice: 'required' });
  assert.equal(required.choices[0].finish_reason, 'tool_calls');
  const auto_ = await openai.chat.completions.create({ model: MODEL, messages: history, tools });
  assert.equal(auto_.choices[0].message.content, ZERO_CONFIG_TEXT);
});

describe('agent loops end with the tool executed', () => {
  // The Agents SDK's default provider keeps the first client it is given, so its tests share one
  // session and reset it before each run.
  let agents: UnderstudySession;
  before(async () => {
    agents = await mock.session('zc-agents', { fallback: 'auto' });
    setDefaultOpenAIClient(new OpenAI({ baseURL: mock.url('openai'), apiKey: agents.apiKey, maxRetries: 0, timeout: 10_000 }));
  });

  const Weather = z.object({ city: z.string(), unit: z.enum(['celsius', 'fahrenheit']), days: z.number().int().min(1).max(7) });

  for (const api of ['responses', 'chat_completions'] as const) {
    test(`OpenAI Agents SDK (${api}): the strict zod tool runs and the run ends with a final text [agents-openai.tools.json +]`, async () => {
      await agents.reset();
      setOpenAIAPI(api);
      const route = api === 'responses' ? 'POST /v1/responses' : 'POST /v1/chat/completions';
      const ran: unknown[] = [];
      const weather = agentTool({
        name: 'weather',
        description: 'Current weather for a city',
        parameters: Weather,
        execute: (input) => {
          ran.push(input);
          return 'sunny';
        },
      });
      const agent = new Agent({ name: 'Forecaster', instructions: 'Answer with the weather.', model: MODEL, tools: [weather] });
      const result = await run(agent, 'What is the weather in Paris?', { maxTurns: 4 });
      assert.deepEqual(ran, [{ city: '', unit: 'celsius', days: 1 }]);
      assert.equal(result.finalOutput, ZERO_CONFIG_TEXT);
      const { entries } = await agents.journal();
      assert.deepEqual(
        entries.map((e) => [e.route, e.status, e.source, e.reply?.toolCalls.length]),
        [
          [route, 200, 'zero_config', 1],
          [route, 200, 'zero_config', 0],
        ],
      );
    });
  }

  test('OpenAI Agents SDK: a tool no arguments can satisfy fails the run with the 409, and the tool never runs [agents-openai.tools.json -]', async () => {
    await agents.reset();
    setOpenAIAPI('responses');
    let ran = false;
    const pick = agentTool({
      name: 'pick',
      description: 'Pick a number',
      parameters: z.object({ n: z.number().int().min(5).max(3) }),
      execute: () => {
        ran = true;
        return 'picked';
      },
    });
    const agent = new Agent({ name: 'Picker', instructions: 'Pick.', model: MODEL, tools: [pick] });
    const failure = await run(agent, 'Pick one', { maxTurns: 4 }).catch((e: unknown) => e);
    assert.ok(failure instanceof OpenAI.ConflictError, String(failure));
    assert.equal(failure.code, 'zero_config_unsatisfiable');
    assert.match(failure.message, /#\/properties\/n\/minimum/);
    assert.equal(ran, false);
    const { entries } = await agents.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.error?.code]),
      [[409, 'zero_config_unsatisfiable']],
    );
  });

  test('OpenAI Agents SDK with an outputType: the tool runs, then the final output parses', async () => {
    await agents.reset();
    setOpenAIAPI('responses');
    const ran: unknown[] = [];
    const agent = new Agent({
      name: 'Profiler',
      instructions: 'Look the user up.',
      model: MODEL,
      outputType: Person,
      tools: [
        agentTool({
          name: 'lookup',
          description: 'Look a person up',
          parameters: z.object({ name: z.string().min(1) }),
          execute: (input) => {
            ran.push(input);
            return 'found';
          },
        }),
      ],
    });
    const result = await run(agent, 'Who is Ada?', { maxTurns: 4 });
    assert.deepEqual(ran, [{ name: 'a' }]);
    assert.deepEqual(result.finalOutput, SMALLEST_PERSON);
  });

  for (const route of ['responses', 'chat'] as const) {
    test(`Vercel AI SDK (${route}): generateText runs the tool with valid input and ends with text`, async () => {
      const { session } = await auto(`zc-aisdk-${route}`);
      const provider = createOpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey });
      const ran: unknown[] = [];
      const result = await generateText({
        model: route === 'chat' ? provider.chat(MODEL) : provider.responses(MODEL),
        tools: {
          weather: tool({
            description: 'Current weather for a city',
            inputSchema: z.object({ city: z.string().min(2), days: z.number().int().min(1).max(7), when: z.iso.date() }),
            execute: async (input) => {
              ran.push(input);
              return 'sunny';
            },
          }),
        },
        stopWhen: stepCountIs(5),
        maxRetries: 0,
        abortSignal: AbortSignal.timeout(10_000),
        prompt: 'Weather in Paris for three days?',
      });
      assert.deepEqual(ran, [{ city: 'aa', days: 1, when: '2026-01-01' }]);
      assert.equal(result.text, ZERO_CONFIG_TEXT);
      assert.equal(result.steps.length, 2);
      assert.equal(result.finishReason, 'stop');
    });
  }
});

describe('Anthropic and Gemini tools', () => {
  test('Anthropic: the tool_use input fits the input_schema (required, enum, minimum, format, nested) [anthropic-messages.zero-config.json +]', async () => {
    const session = await mock.session('zc-anthropic', { fallback: 'auto' });
    const client = new Anthropic({ baseURL: mock.url('anthropic'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
    const Booking = z.object({
      city: z.string(),
      nights: z.number().int().min(1),
      kind: z.enum(['hotel', 'hostel']),
      checkIn: z.iso.date(),
      guest: z.object({ email: z.email(), name: z.string().min(1) }),
    });
    const message = await client.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 200,
      messages: [{ role: 'user', content: 'Book a room' }],
      tools: [{ name: 'book', input_schema: z.toJSONSchema(Booking) as Anthropic.Tool.InputSchema }],
    });
    const use = message.content.find((b) => b.type === 'tool_use');
    assert.ok(use && use.type === 'tool_use');
    assert.deepEqual(Booking.parse(use.input), use.input);
    assert.deepEqual(use.input, {
      city: '',
      nights: 1,
      kind: 'hotel',
      checkIn: '2026-01-01',
      guest: { email: 'user@example.com', name: 'a' },
    });
  });

  test('Gemini: functionCall args fit an OpenAPI-style schema (nullable, enum, minItems) and a JSON Schema one [gemini.zero-config.json +]', async () => {
    const session = await mock.session('zc-gemini', { fallback: 'auto' });
    const ai = new GoogleGenAI({ apiKey: session.apiKey, httpOptions: { baseUrl: mock.url('gemini'), timeout: 10_000 } });
    const first = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'Plan a trip',
      config: {
        tools: [
          {
            functionDeclarations: [
              {
                name: 'plan',
                parameters: {
                  type: Type.OBJECT,
                  properties: {
                    stops: { type: Type.ARRAY, items: { type: Type.STRING }, minItems: '2' },
                    mode: { type: Type.STRING, enum: ['train', 'car'], format: 'enum' },
                    budget: { type: Type.NUMBER, minimum: 100 },
                    note: { type: Type.STRING, nullable: true },
                  },
                  required: ['stops', 'mode', 'budget', 'note'],
                },
              },
            ],
          },
        ],
      },
    });
    assert.deepEqual(first.functionCalls, [{ name: 'plan', args: { stops: ['', ''], mode: 'train', budget: 100, note: '' } }]);
    const second = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'Plan a trip',
      config: {
        tools: [
          { functionDeclarations: [{ name: 'plan', parametersJsonSchema: z.toJSONSchema(z.object({ legs: z.number().int().gt(0) })) }] },
        ],
      },
    });
    assert.deepEqual(second.functionCalls, [{ name: 'plan', args: { legs: 1 } }]);
  });
});

describe('structured output on Anthropic and Gemini', () => {
  test('Anthropic: client.messages.parse with zodOutputFormat gets a parsed_output [anthropic-messages.zero-config.json +]', async () => {
    const session = await mock.session('zc-anthropic-parse', { fallback: 'auto' });
    const client = new Anthropic({ baseURL: mock.url('anthropic'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
    const message = await client.messages.parse({
      model: 'claude-sonnet-4-5',
      max_tokens: 500,
      messages: [{ role: 'user', content: 'Who is the user?' }],
      output_config: { format: zodOutputFormat(Person) },
    });
    assert.deepEqual(message.parsed_output, SMALLEST_PERSON);
  });

  test('Gemini: responseSchema (OpenAPI form, nullable and enum) and responseJsonSchema give JSON that fits [gemini.zero-config.json +]', async () => {
    const session = await mock.session('zc-gemini-json', { fallback: 'auto' });
    const ai = new GoogleGenAI({ apiKey: session.apiKey, httpOptions: { baseUrl: mock.url('gemini'), timeout: 10_000 } });
    const openApi = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'Describe the user',
      config: {
        responseMimeType: 'application/json',
        responseSchema: {
          type: Type.OBJECT,
          properties: {
            name: { type: Type.STRING },
            mood: { type: Type.STRING, enum: ['happy', 'sad'], format: 'enum', nullable: true },
            visits: { type: Type.INTEGER, minimum: 1 },
          },
          required: ['name', 'mood', 'visits'],
        },
      },
    });
    assert.deepEqual(JSON.parse(openApi.text ?? ''), { name: '', mood: 'happy', visits: 1 });
    const jsonSchema = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'Describe the user',
      config: { responseMimeType: 'application/json', responseJsonSchema: z.toJSONSchema(Person) },
    });
    assert.deepEqual(Person.parse(JSON.parse(jsonSchema.text ?? '')), SMALLEST_PERSON);
  });
});

describe('no value can satisfy the schema: 409 naming the path', () => {
  test('a tool whose required property has an empty range, and an output whose pattern no string matches [openai-chat.zero-config.json -]', async () => {
    const { session, openai } = await auto('zc-unsatisfiable');
    const badTool = await openai.chat.completions
      .create({
        model: MODEL,
        messages: [{ role: 'user', content: 'Go' }],
        tools: [
          {
            type: 'function',
            function: {
              name: 'pick',
              parameters: { type: 'object', properties: { n: { type: 'integer', minimum: 5, maximum: 3 } }, required: ['n'] },
            },
          },
        ],
      })
      .catch((e: unknown) => e);
    assert.ok(badTool instanceof OpenAI.ConflictError, String(badTool));
    assert.equal(badTool.code, 'zero_config_unsatisfiable');
    assert.match(badTool.message, /tool "pick".*#\/properties\/n\/minimum/);

    const badOutput = await openai.responses
      .create({
        model: MODEL,
        input: 'Go',
        text: {
          format: {
            type: 'json_schema',
            name: 'code',
            schema: { type: 'object', properties: { code: { type: 'string', pattern: '^(?=a)b' } }, required: ['code'] },
          },
        },
      })
      .catch((e: unknown) => e);
    assert.ok(badOutput instanceof OpenAI.ConflictError, String(badOutput));
    assert.equal(badOutput.code, 'zero_config_unsatisfiable');
    assert.match(badOutput.message, /output schema "code".*#\/properties\/code\/pattern/);

    const { entries, counters } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.error?.code, e.source]),
      [
        [409, 'zero_config_unsatisfiable', 'zero_config'],
        [409, 'zero_config_unsatisfiable', 'zero_config'],
      ],
    );
    assert.equal(counters.mismatched, 2);
    const report = await session.check();
    assert.equal(report.ok, false);
    assert.deepEqual(
      report.problems.map((p) => p.kind),
      ['zero_config_unsatisfiable', 'zero_config_unsatisfiable'],
    );
  });

  test('Anthropic gets the refusal in its own shape', async () => {
    const session = await mock.session('zc-unsatisfiable-anthropic', { fallback: 'auto' });
    const client = new Anthropic({ baseURL: mock.url('anthropic'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
    const error = await client.messages
      .create({
        model: 'claude-sonnet-4-5',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'Go' }],
        tools: [{ name: 'pick', input_schema: { type: 'object', properties: { x: { not: {} } }, required: ['x'] } }],
      })
      .catch((e: unknown) => e);
    assert.ok(error instanceof Anthropic.APIError && error.status === 409, String(error));
    assert.match(error.message, /#\/properties\/x\/not/);
  });
});

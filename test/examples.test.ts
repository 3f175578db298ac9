// Every file in examples/ is a fixture `understudy validate` accepts, and each one does what its
// comment says through the official SDK it is written for: each is loaded from disk into its own
// session (strict, so a request the example does not script fails loudly) and driven with real
// SDK calls.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import { BedrockRuntimeClient, ConverseCommand, type Message, type Tool } from '@aws-sdk/client-bedrock-runtime';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { z } from 'zod';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { loadFixtureFile } from '../src/engine/fixture-file.js';
import { openaiChatTool, presets } from '../src/presets/index.js';
import { CLIS, killChildren, ROOT, runCli } from './support/cli-process.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  killChildren();
  await mock.close();
});

const EXAMPLES = readdirSync(`${ROOT}/examples`).filter((f) => /\.(ya?ml|json)$/.test(f));

/** A fresh strict session with one example file loaded, as `serve --fixtures` would load it. */
async function sessionWith(file: string): Promise<UnderstudySession> {
  const loaded = await loadFixtureFile(`${ROOT}/examples/${file}`);
  assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.problems));
  const session = await mock.session(undefined, { fallback: 'strict' });
  await session.load(loaded.fixture);
  return session;
}

function openai(session: UnderstudySession): OpenAI {
  return new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
}

test('every example validates with `understudy validate`, and there is one per dialect, structured output, errors and JSON', async () => {
  for (const name of [
    'anthropic.yaml',
    'gemini.yaml',
    'responses.yaml',
    'structured-output.yaml',
    'errors-and-faults.yaml',
    'greeting.json',
    'bedrock.yaml',
    'presets.yaml',
  ]) {
    assert.ok(EXAMPLES.includes(name), `examples/${name} ships`);
  }
  const run = await runCli(CLIS[0], ['validate', ...EXAMPLES.map((f) => `examples/${f}`)]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.equal(run.stdout.trim().split('\n').length, EXAMPLES.length);
});

test('examples/anthropic.yaml: a tool_use round with @anthropic-ai/sdk', async () => {
  const session = await sessionWith('anthropic.yaml');
  const client = new Anthropic({ baseURL: mock.url('anthropic'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const tools: Anthropic.Tool[] = [
    {
      name: 'lookup_order',
      description: 'Find an order',
      input_schema: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
    },
  ];
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Where is my order 1042?' }];
  const first = await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 500, messages, tools });
  assert.equal(first.stop_reason, 'tool_use');
  const use = first.content.find((b) => b.type === 'tool_use');
  assert.ok(use && use.type === 'tool_use');
  assert.deepEqual([use.id, use.name, use.input], ['toolu_order_1042', 'lookup_order', { order_id: '1042' }]);
  messages.push(
    { role: 'assistant', content: first.content },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '{"shipped":"Monday"}' }] },
  );
  const second = await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 500, messages, tools });
  const [block] = second.content;
  assert.ok(block.type === 'text');
  assert.equal(block.text, 'Order 1042 shipped on Monday and should arrive on Thursday.');
  assert.equal(second.stop_reason, 'end_turn');
  await session.verify();
});

test('examples/bedrock.yaml: a Converse tool round and a scripted throttle, with the AWS client on its default HTTP/2 handler', async () => {
  const session = await sessionWith('bedrock.yaml');
  const client = new BedrockRuntimeClient({
    endpoint: mock.url('bedrock'),
    region: 'us-east-1',
    credentials: { accessKeyId: session.apiKey, secretAccessKey: 'x' },
    maxAttempts: 1,
    requestHandler: { requestTimeout: 10_000 },
  });
  try {
    const modelId = 'anthropic.claude-3-haiku-20240307-v1:0';
    const tools: Tool[] = [
      { toolSpec: { name: 'flight_status', inputSchema: { json: { type: 'object', properties: { flight: { type: 'string' } } } } } },
    ];
    const messages: Message[] = [{ role: 'user', content: [{ text: 'Is flight BA117 on time?' }] }];
    const first = await client.send(new ConverseCommand({ modelId, messages, toolConfig: { tools } }));
    assert.equal(first.stopReason, 'tool_use');
    const use = first.output?.message?.content?.find((b) => b.toolUse)?.toolUse;
    assert.deepEqual([use?.toolUseId, use?.name, use?.input], ['tooluse_ba117', 'flight_status', { flight: 'BA117' }]);
    messages.push(first.output!.message!, {
      role: 'user',
      content: [{ toolResult: { toolUseId: 'tooluse_ba117', content: [{ json: { onTime: true, gate: 22 } }] } }],
    });
    const second = await client.send(new ConverseCommand({ modelId, messages, toolConfig: { tools } }));
    assert.equal(second.output?.message?.content?.[0]?.text, 'BA117 is on time and leaves from gate 22.');
    assert.equal(second.stopReason, 'end_turn');
    const busy = await client
      .send(new ConverseCommand({ modelId, messages: [{ role: 'user', content: [{ text: 'are you busy?' }] }] }))
      .then(
        () => assert.fail('expected the scripted throttle'),
        (e: unknown) => e as Error,
      );
    assert.equal(busy.name, 'ThrottlingException');
    assert.equal(busy.message, 'Too many requests, please wait before trying again.');
    await session.verify();
  } finally {
    client.destroy();
  }
});

test('examples/gemini.yaml: a stream in the scripted chunks, then the repeated answer, with @google/genai', async () => {
  const session = await sessionWith('gemini.yaml');
  const ai = new GoogleGenAI({ apiKey: session.apiKey, httpOptions: { baseUrl: mock.url('gemini'), timeout: 10_000 } });
  const texts: string[] = [];
  for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'Write a haiku about tests' })) {
    if (chunk.text) texts.push(chunk.text);
  }
  assert.deepEqual(texts, ['Quiet test server / ', 'answers every prompt the same / ', 'green checks all the way']);
  for (let i = 0; i < 2; i++) {
    const answer = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: `Anything ${i}` });
    assert.equal(answer.text, 'This is Gemini, as scripted.');
  }
  await session.verify();
});

test('examples/responses.yaml: reasoning, a function call and the answer with openai.responses', async () => {
  const session = await sessionWith('responses.yaml');
  const client = openai(session);
  const tools: OpenAI.Responses.Tool[] = [
    {
      type: 'function',
      name: 'convert',
      strict: false,
      parameters: { type: 'object', properties: { amount: { type: 'number' }, from: { type: 'string' }, to: { type: 'string' } } },
    },
  ];
  const first = await client.responses.create({ model: 'o4-mini', input: 'What is 120 USD in euros?', tools });
  const call = first.output.find((item) => item.type === 'function_call');
  assert.ok(call && call.type === 'function_call');
  assert.deepEqual(
    [call.call_id, call.name, JSON.parse(call.arguments)],
    ['call_convert', 'convert', { amount: 120, from: 'USD', to: 'EUR' }],
  );
  assert.equal(first.usage?.output_tokens_details.reasoning_tokens, 48);
  const second = await client.responses.create({
    model: 'o4-mini',
    previous_response_id: first.id,
    input: [{ type: 'function_call_output', call_id: call.call_id, output: '{"eur":110.4}' }],
    tools,
  });
  assert.equal(second.output_text, '120 USD is about 110 EUR.');
  await session.verify();
});

const Contact = z.object({ name: z.string(), email: z.string(), tags: z.array(z.string()) });

test('examples/structured-output.yaml: chat.completions.parse with a zod schema; a schema the reply does not fit is a 409', async () => {
  const session = await sessionWith('structured-output.yaml');
  const client = openai(session);
  const messages = [{ role: 'user' as const, content: 'Extract the contact: Ada Lovelace <ada@example.com>, math, engines' }];
  const parsed = await client.chat.completions.parse({ model: 'gpt-4o', messages, response_format: zodResponseFormat(Contact, 'contact') });
  assert.deepEqual(parsed.choices[0].message.parsed, { name: 'Ada Lovelace', email: 'ada@example.com', tags: ['math', 'engines'] });
  // The same step against a schema it does not satisfy: refused, and not consumed.
  await session.reset();
  const Wrong = z.object({ fullName: z.string() });
  const error = await client.chat.completions.parse({ model: 'gpt-4o', messages, response_format: zodResponseFormat(Wrong, 'wrong') }).then(
    () => assert.fail('a reply that does not fit the schema was sent'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof OpenAI.ConflictError, String(error));
  assert.equal(error.code, 'fixture_mismatch');
  const again = await client.chat.completions.parse({ model: 'gpt-4o', messages, response_format: zodResponseFormat(Contact, 'contact') });
  assert.equal(again.choices[0].message.parsed?.name, 'Ada Lovelace');
});

test('examples/errors-and-faults.yaml: a 429 then the answer, a stream that fails part-way, a closed connection', async () => {
  const session = await sessionWith('errors-and-faults.yaml');
  const client = openai(session);
  const ask = (content: string) => ({ model: 'gpt-4o', messages: [{ role: 'user' as const, content }] });
  const limited = await client.chat.completions.create(ask('a flaky question')).then(
    () => assert.fail('the first request should be rate limited'),
    (e: unknown) => e,
  );
  assert.ok(limited instanceof OpenAI.RateLimitError, String(limited));
  assert.equal(limited.code, 'rate_limit_exceeded');
  assert.equal(limited.headers?.get('retry-after'), '1');
  assert.equal((await client.chat.completions.create(ask('a flaky question'))).choices[0].message.content, 'Answered on the second try.');

  let received = '';
  const streamed = (async () => {
    for await (const chunk of await client.chat.completions.create({ ...ask('stream please'), stream: true })) {
      received += chunk.choices[0]?.delta.content ?? '';
    }
  })();
  await assert.rejects(streamed, (e: unknown) => e instanceof OpenAI.APIError && /overloaded/.test(e.message));
  assert.ok(
    received.length > 0 && received.length < 'This answer will not finish'.length + 40,
    `part of the answer arrived: "${received}"`,
  );

  // The body stops after 40 bytes: the SDK is left reading half an answer (undici's "terminated").
  await assert.rejects(client.chat.completions.create(ask('drop it')), (e: unknown) => e instanceof Error && /terminated/.test(e.message));
  await session.verify();
});

test('examples/greeting.json: a JSON fixture; its session.fallback strict and restart policy hold', async () => {
  const session = await sessionWith('greeting.json');
  const client = openai(session);
  const texts: (string | null)[] = [];
  for (let i = 0; i < 3; i++)
    texts.push(
      (await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] })).choices[0].message.content,
    );
  assert.deepEqual(texts, ['Hello from a JSON fixture.', 'And hello again.', 'Hello from a JSON fixture.']);
  await session.verify();
});

test('examples/presets.yaml: a weather preset round and a read_file failure, matched structurally, with openai', async () => {
  const session = await sessionWith('presets.yaml');
  const client = openai(session);
  const tools = [openaiChatTool(presets.weather.definition()), openaiChatTool(presets.read_file.definition())];
  const round = async (question: string, content: (args: unknown) => unknown) => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: question }];
    const first = await client.chat.completions.create({ model: 'gpt-4o', messages, tools });
    const call = first.choices[0].message.tool_calls?.[0];
    assert.ok(call?.type === 'function');
    messages.push(first.choices[0].message, {
      role: 'tool',
      tool_call_id: call.id,
      content: JSON.stringify(content(JSON.parse(call.function.arguments)), null, 2),
    });
    return (await client.chat.completions.create({ model: 'gpt-4o', messages, tools })).choices[0].message.content;
  };
  // The application's JSON has its own member order.
  const weather = await round('What is the weather in Paris?', () => ({
    condition: 'sunny',
    unit: 'celsius',
    temperature: 21,
    location: 'Paris',
  }));
  assert.equal(weather, 'Paris is sunny, 21 °C.');
  const notes = await round('Please read my notes', (args) => {
    assert.deepEqual(args, { path: 'notes.txt', offset: 0 });
    return presets.read_file.error({ code: 'not_found', message: 'notes.txt does not exist', retryable: false });
  });
  assert.equal(notes, 'You have no notes yet.');
  await session.verify({
    toolCalled: [
      presets.weather.success(
        { location: 'Paris', unit: 'celsius' },
        { location: 'Paris', temperature: 21, unit: 'celsius', condition: 'sunny' },
        { id: 'call_paris' },
      ),
      {
        preset: 'read_file',
        id: 'call_notes',
        result: { error: { code: 'not_found', message: 'notes.txt does not exist', retryable: false } },
      },
    ],
  });
});

test('images.yaml: the logo prompt gets the PNG file beside it, dall-e-3 a revised prompt, a weapons prompt the safety refusal', async () => {
  const session = await sessionWith('images.yaml');
  const client = openai(session);
  const logo = await client.images.generate({ model: 'gpt-image-1', prompt: 'Our company logo, flat' });
  assert.deepEqual(Buffer.from(logo.data?.[0].b64_json ?? '', 'base64'), readFileSync(`${ROOT}/examples/images/logo.png`));
  const lighthouse = await client.images.generate({ model: 'dall-e-3', prompt: 'a lighthouse', response_format: 'b64_json' });
  assert.equal(lighthouse.data?.[0].revised_prompt, 'A lighthouse on a rocky cliff at dusk, painted in oils');
  const refused = await client.images.generate({ model: 'gpt-image-1', prompt: 'Draw some Weapons' }).then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.ok(refused instanceof OpenAI.BadRequestError && refused.code === 'content_policy_violation', String(refused));
  const other = await client.images.generate({ model: 'gpt-image-1', prompt: 'a cat', size: '1024x1536' });
  assert.ok(other.data?.[0].b64_json && other.size === '1024x1536');
});

test('examples/recordings/weather-loop.yaml, made by record mode, validates and replays its agent loop through the openai SDK', async () => {
  const run = await runCli(CLIS[0], ['validate', 'examples/recordings']);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const replay = await startUnderstudy({ replay: `${ROOT}/examples/recordings` });
  try {
    const session = await replay.session('weather-loop', { fallback: 'strict' });
    const sdk = new OpenAI({ baseURL: `${replay.baseUrl}/s/weather-loop/v1`, apiKey: 'any key', maxRetries: 0, timeout: 10_000 });
    const tool = (name: string, parameter: string, description: string) => ({
      type: 'function' as const,
      function: {
        name,
        description,
        parameters: { type: 'object', properties: { [parameter]: { type: 'string' } }, required: [parameter] },
      },
    });
    const tools = [tool('weather', 'city', 'The weather in a city'), tool('clock', 'zone', 'The time in a zone')];
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Paris, and the time?' }];
    const called: string[] = [];
    for (let round = 0; round < 4; round++) {
      const { choices } = await sdk.chat.completions.create({ model: 'gpt-4o', messages, tools });
      messages.push(choices[0].message);
      const calls = (choices[0].message.tool_calls ?? []).filter((c) => c.type === 'function');
      if (calls.length === 0) break;
      for (const call of calls) {
        called.push(call.function.name);
        const result = call.function.name === 'weather' ? '{"temperature":21,"sky":"sunny"}' : '{"time":"12:00"}';
        messages.push({ role: 'tool', tool_call_id: call.id, content: result });
      }
    }
    assert.deepEqual(called, ['weather', 'clock']);
    assert.equal(messages.at(-1)?.content, 'Paris is sunny, 21 °C, and it is noon there.');
    await session.verify();
  } finally {
    await replay.close();
  }
});

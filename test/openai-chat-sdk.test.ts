// The OpenAI Chat Completions dialect, judged by the real SDKs: the pinned `openai` client (and the
// Vercel AI SDK's OpenAI provider in chat mode) talk to an in-process Understudy over real HTTP.
// Every test asserts both what the SDK returned and what Understudy recorded in its journal.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';

import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, streamText, tool, stepCountIs } from 'ai';
import { z } from 'zod';

import { connectUnderstudy, startUnderstudy, VerificationError } from '../src/index.js';
import type { Reply, Understudy, UnderstudySession } from '../src/index.js';
import { expectGenerateTextRefusedThenAnswered, expectStreamTextRefused, scriptZipCodeCall, typedWeatherTool } from './support/aisdk.js';

// ------------------------------------------------------------------ helpers

let mock: Understudy;

before(async () => {
  mock = await startUnderstudy();
});

after(async () => {
  await mock.close();
});

const MODEL = 'gpt-4o-mini';
const ZERO_CONFIG_TEXT = 'This is a scripted answer from Understudy.';

function sdk(session: UnderstudySession): OpenAI {
  return new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
}

async function open(name: string, options?: Parameters<Understudy['session']>[1]): Promise<{ session: UnderstudySession; client: OpenAI }> {
  const session = await mock.session(name, options);
  return { session, client: sdk(session) };
}

function user(content: string): ChatCompletionMessageParam {
  return { role: 'user', content };
}

function assistantCalls(
  calls: { id: string; name: string; arguments: string }[],
  content: string | null = null,
): ChatCompletionMessageParam {
  return {
    role: 'assistant',
    content,
    tool_calls: calls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })),
  };
}

function toolResult(id: string, content: string): ChatCompletionMessageParam {
  return { role: 'tool', tool_call_id: id, content };
}

const weatherTool: ChatCompletionFunctionTool = {
  type: 'function',
  function: {
    name: 'weather',
    description: 'Current weather for a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
      required: ['city'],
      additionalProperties: false,
    },
  },
};

const timeTool: ChatCompletionFunctionTool = {
  type: 'function',
  function: {
    name: 'time',
    description: 'Local time in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  },
};

/** A request body without `stream`, usable with create(), create({...stream: true}), stream() and parse(). */
type Params = Omit<ChatCompletionCreateParamsNonStreaming, 'stream'>;

function chat(messages: ChatCompletionMessageParam[], extra: Partial<Params> = {}): Params {
  return { model: MODEL, messages, ...extra };
}

type Conflict = InstanceType<typeof OpenAI.ConflictError>;

/** Awaits a request that must fail with 409 and the given Understudy code; returns the SDK error. */
async function conflict(request: PromiseLike<unknown>, code: string, ...mentions: string[]): Promise<Conflict> {
  let caught: unknown;
  try {
    await request;
  } catch (error) {
    caught = error;
  }
  assert.ok(caught !== undefined, `expected a 409 ${code}, but the request succeeded`);
  assert.ok(caught instanceof OpenAI.ConflictError, `expected OpenAI.ConflictError, got ${String(caught)}`);
  assert.equal(caught.status, 409);
  assert.equal(caught.code, code, caught.message);
  for (const text of mentions)
    assert.ok(caught.message.includes(text), `expected the message to mention ${JSON.stringify(text)}:\n${caught.message}`);
  return caught;
}

function text(completion: ChatCompletion): string | null {
  return completion.choices[0].message.content;
}

async function collect(stream: AsyncIterable<ChatCompletionChunk>): Promise<ChatCompletionChunk[]> {
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

function contentDeltas(chunks: ChatCompletionChunk[]): string[] {
  const out: string[] = [];
  for (const chunk of chunks) for (const choice of chunk.choices) if (choice.delta.content) out.push(choice.delta.content);
  return out;
}

// ------------------------------------------------------------------ 1. plain text

test('plain text reply: content, finish_reason, usage and deterministic ids [openai-chat.text.json +]', async () => {
  const make = async (name: string, seed: string) => {
    const opened = await open(name, { seed, clock: 1_700_000_000 });
    opened.session.scenario('greeting').whenLatestUser({ contains: 'Hello' }).replies('Hi! How can I help?');
    return opened;
  };
  const a = await make('plain-a', 'same-seed');
  const b = await make('plain-b', 'same-seed');
  const c = await make('plain-c', 'other-seed');
  const params = chat([{ role: 'system', content: 'be brief' }, user('Hello there')]);
  const [ra, rb, rc] = await Promise.all([a, b, c].map((x) => x.client.chat.completions.create(params)));

  assert.equal(text(ra), 'Hi! How can I help?');
  assert.equal(ra.choices[0].finish_reason, 'stop');
  assert.equal(ra.choices[0].message.role, 'assistant');
  assert.equal(ra.choices[0].message.tool_calls, undefined);
  assert.equal(ra.object, 'chat.completion');
  assert.equal(ra.model, MODEL);
  assert.match(ra.id, /^chatcmpl-[A-Za-z0-9]+$/);
  assert.equal(ra.created, 1_700_000_000, 'created comes from the session clock');

  // Same seed, same request: the same bytes; another seed: another id.
  assert.equal(ra.id, rb.id);
  assert.equal(ra._request_id, rb._request_id);
  assert.deepEqual(JSON.parse(JSON.stringify(ra)), JSON.parse(JSON.stringify(rb)));
  assert.notEqual(ra.id, rc.id);

  const usage = ra.usage;
  assert.ok(usage, 'usage is present');
  assert.ok(usage.prompt_tokens > 0, 'prompt tokens > 0');
  assert.ok(usage.completion_tokens > 0, 'completion tokens > 0');
  assert.equal(usage.total_tokens, usage.prompt_tokens + usage.completion_tokens);

  const { entries, counters } = await a.session.journal();
  assert.equal(entries.length, 1);
  const [entry] = entries;
  assert.equal(entry.status, 200);
  assert.equal(entry.script, 'greeting');
  assert.equal(entry.step, 'step-1');
  assert.equal(entry.source, 'script');
  assert.equal(entry.stream, false);
  assert.equal(entry.operation, 'openai.chat.completions');
  assert.equal(entry.requestId, ra._request_id);
  assert.equal(entry.reply?.content, 'Hi! How can I help?');
  assert.equal(entry.usage?.inputTokens, usage.prompt_tokens);
  assert.equal(entry.usage?.outputTokens, usage.completion_tokens);
  assert.equal(entry.request?.messages.length, 2);
  assert.deepEqual(
    { requests: counters.requests, matched: counters.matched, errors: counters.errorsReturned },
    { requests: 1, matched: 1, errors: 0 },
  );

  // A reset rewinds the id counter too: the same request gives the same id again.
  await a.session.reset();
  const again = await a.client.chat.completions.create(params);
  assert.equal(again.id, ra.id);
  assert.equal(text(again), 'Hi! How can I help?');
});

// ------------------------------------------------------------------ 2. streaming

test('streamed text: .stream() + finalChatCompletion() and raw create({stream:true}) with include_usage [openai-chat.text.stream +]', async () => {
  const { session, client } = await open('stream-text');
  const chunks = ['Once', ' upon', ' a time', '.'];
  await session.load({ name: 'story', replies: [0, 1, 2].map(() => ({ text: 'Once upon a time.', chunks })) });

  // The SDK helper (strict about role, finish_reason and tool-call pieces).
  const helper = client.chat.completions.stream({ ...chat([user('Tell me a story')]), stream_options: { include_usage: true } });
  const seen: string[] = [];
  helper.on('content', (delta) => seen.push(delta));
  const final = await helper.finalChatCompletion();
  assert.deepEqual(seen, chunks, 'the scripted chunks arrive as the content deltas');
  assert.equal(final.choices[0].message.content, 'Once upon a time.');
  assert.equal(final.choices[0].finish_reason, 'stop');
  assert.ok(final.usage && final.usage.completion_tokens > 0);
  assert.equal(final.usage.total_tokens, final.usage.prompt_tokens + final.usage.completion_tokens);

  // Raw iteration with include_usage: one usage chunk with no choices at the end.
  const raw = await collect(
    await client.chat.completions.create({ ...chat([user('Tell me a story')]), stream: true, stream_options: { include_usage: true } }),
  );
  assert.deepEqual(contentDeltas(raw), chunks);
  assert.equal(raw[0].choices[0].delta.role, 'assistant');
  assert.equal(new Set(raw.map((c) => c.id)).size, 1, 'every chunk carries the same id');
  assert.match(raw[0].id, /^chatcmpl-/);
  assert.ok(raw.every((c) => c.object === 'chat.completion.chunk'));
  const finishes = raw.flatMap((c) => c.choices.map((ch) => ch.finish_reason)).filter((f) => f !== null);
  assert.deepEqual(finishes, ['stop']);
  const last = raw[raw.length - 1];
  assert.equal(last.choices.length, 0);
  assert.ok(last.usage, 'the last chunk carries usage');
  assert.ok(last.usage.prompt_tokens > 0 && last.usage.completion_tokens > 0);
  assert.equal(last.usage.total_tokens, last.usage.prompt_tokens + last.usage.completion_tokens);
  assert.ok(
    raw.slice(0, -1).every((c) => c.usage === null),
    'earlier chunks carry usage: null',
  );

  // Without include_usage: no usage chunk at all.
  const plain = await collect(await client.chat.completions.create({ ...chat([user('Tell me a story')]), stream: true }));
  assert.deepEqual(contentDeltas(plain), chunks);
  assert.ok(plain.every((c) => c.usage === undefined || c.usage === null));
  assert.ok(plain.every((c) => c.choices.length === 1));

  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream, e.step, e.request?.streamUsage]),
    [
      [200, true, 'step-1', true],
      [200, true, 'step-2', true],
      [200, true, 'step-3', false],
    ],
  );
  assert.deepEqual(entries[1].reply?.chunks, chunks);
  assert.equal(entries[1].usage?.outputTokens, last.usage.completion_tokens);
  await session.verify();
});

test(
  'a client that stops reading keeps its stream intact while the same reply is answered again and again',
  { timeout: 60_000 },
  async () => {
    // A recycled body is written again only once the response that sent it has flushed it: a stream
    // far larger than the kernel's socket buffers, to a client that does not read, is still being
    // written while later answers of the same template are made.
    const { session, client } = await open('stream-slow-reader');
    const chunks = Array.from({ length: 4000 }, (_, i) => `${String(i).padStart(4, '0')}${'z'.repeat(4000)} `);
    await session.load({ name: 'big', exhausted: 'repeat_last', steps: [{ id: 'say', reply: { text: chunks.join(''), chunks } }] });
    const ask = () => client.chat.completions.create({ ...chat([user('Hi')]), stream: true });
    for (let i = 0; i < 2; i++) assert.equal(contentDeltas(await collect(await ask())).length, chunks.length);
    const slow = await ask();
    const others = [];
    for (let i = 0; i < 4; i++) others.push(await collect(await ask()));
    const late = await collect(slow);
    const ids = new Set(late.map((c) => c.id));
    assert.equal(ids.size, 1, `the slow stream carries one id, not ${[...ids].join(', ')}`);
    assert.deepEqual(contentDeltas(late), chunks);
    for (const raw of others) assert.ok(!ids.has(raw[0].id) && raw.every((c) => c.id === raw[0].id));
  },
);

test('one streamed reply answered many times, in parallel and in turn: each stream keeps its own id and usage', async () => {
  // Repeated unpaced streams are written from a byte template of the reply, with recycled bodies:
  // this checks that no id, usage chunk or [DONE] leaks from one answer into another.
  const { session, client } = await open('stream-repeated');
  const chunks = Array.from({ length: 30 }, (_, i) => `w${i} `);
  await session.load({ name: 'again', exhausted: 'repeat_last', steps: [{ id: 'say', reply: { text: chunks.join(''), chunks } }] });
  const prompts = ['Hi', 'Tell me a much longer story about a lighthouse keeper and the sea', 'Short', 'x '.repeat(200)];
  const ask = async (i: number) => {
    const usage = i % 3 !== 2;
    const stream = await client.chat.completions.create({
      ...chat([user(prompts[i % prompts.length])]),
      stream: true,
      ...(usage && { stream_options: { include_usage: true } }),
    });
    return { usage, raw: await collect(stream) };
  };
  const answers = [...(await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map(ask)))];
  for (let i = 8; i < 14; i++) answers.push(await ask(i));
  // The same reply non-streamed: JSON bodies come from templates too.
  const completions = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => client.chat.completions.create(chat([user(prompts[i % 4])]))));

  const { entries } = await session.journal();
  assert.equal(entries.length, answers.length + completions.length);
  assert.equal(new Set(completions.map((c) => c.id)).size, completions.length, 'every completion has its own id');
  completions.forEach((completion, i) => {
    assert.equal(completion.choices[0].message.content, chunks.join(''));
    assert.equal(completion.usage?.prompt_tokens, countPromptTokens(entries, prompts[i % 4]), `completion ${i}: its own prompt's usage`);
  });
  const ids = answers.map(({ raw }) => raw[0].id);
  assert.equal(new Set(ids).size, answers.length, 'every answer has its own id');
  answers.forEach(({ usage, raw }, i) => {
    assert.ok(
      raw.every((c) => c.id === raw[0].id),
      `answer ${i}: one id in all its chunks`,
    );
    assert.deepEqual(contentDeltas(raw), chunks, `answer ${i}: the scripted chunks`);
    const last = raw[raw.length - 1];
    if (usage) {
      assert.equal(last.choices.length, 0, `answer ${i}: ends with the usage chunk`);
      const expected = countPromptTokens(entries, prompts[i % prompts.length]);
      assert.equal(last.usage?.prompt_tokens, expected, `answer ${i}: its own prompt's usage`);
    } else {
      assert.ok(
        raw.every((c) => c.usage === undefined || c.usage === null),
        `answer ${i}: no usage chunk`,
      );
      assert.equal(last.choices[0].finish_reason, 'stop');
    }
  });
});

/** The input tokens the journal recorded for the request whose latest user message is `prompt`. */
function countPromptTokens(
  entries: { request?: { messages: { parts: { type: string; text?: string }[] }[] }; usage?: { inputTokens: number } }[],
  prompt: string,
): number {
  const entry = entries.find((e) => e.request?.messages.at(-1)?.parts.some((p) => p.text === prompt));
  assert.ok(entry?.usage, `a journal entry for "${prompt.slice(0, 20)}"`);
  return entry.usage.inputTokens;
}

test('streamed text that cannot be sent: bad chunks are refused at load, a text reply under tool_choice required gets 409 before the stream starts [openai-chat.text.stream -]', async () => {
  const { session, client } = await open('stream-text-negative');
  // Chunks that do not spell the text never reach a request: the script is refused as it is built.
  assert.throws(
    () => session.scenario('story').replies('Once upon a time.').inChunks(['Once', ' upon', ' a tme.']),
    /chunks.*concatenate/s,
  );

  await session.load(
    { name: 'chatty', replies: [{ text: 'Once upon a time.', chunks: ['Once', ' upon', ' a time.'] }] },
    { replace: true },
  );
  const params = chat([user('Tell me a story')], { tools: [weatherTool] });
  await conflict(
    client.chat.completions.stream({ ...params, tool_choice: 'required' }).finalChatCompletion(),
    'fixture_mismatch',
    'requires a tool call',
  );
  await conflict(
    client.chat.completions.create({ ...params, tool_choice: 'required', stream: true }),
    'fixture_mismatch',
    'scenario "chatty" step "step-1"',
  );

  const raw = await collect(await client.chat.completions.create({ ...params, stream: true }));
  assert.deepEqual(contentDeltas(raw), ['Once', ' upon', ' a time.']);
  const { entries, counters } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream, e.error?.code ?? null]),
    [
      [409, true, 'fixture_mismatch'],
      [409, true, 'fixture_mismatch'],
      [200, true, null],
    ],
  );
  assert.equal(counters.mismatched, 2);
  await assert.rejects(session.verify(), VerificationError);
});

// ------------------------------------------------------------------ 3. tool rounds

function scriptWeather(session: UnderstudySession, args: Record<string, string> = { city: 'Paris' }) {
  session
    .scenario('weather')
    .whenLatestUser({ contains: 'weather in Paris' })
    .callsTool('weather', args, 'call_paris')
    .thenWhenToolResult('weather', 'call_paris')
    .replies('Paris is sunny, 21 °C.');
}

describe('tool rounds', () => {
  test('two-step tool round, non-streamed [openai-chat.tools.json +]', async () => {
    const { session, client } = await open('tools-json');
    scriptWeather(session);
    const question = user('What is the weather in Paris?');

    const first = await client.chat.completions.create(chat([question], { tools: [weatherTool] }));
    const choice = first.choices[0];
    assert.equal(choice.finish_reason, 'tool_calls');
    assert.equal(choice.message.content, null);
    assert.equal(choice.message.tool_calls?.length, 1);
    const call = choice.message.tool_calls?.[0];
    assert.ok(call && call.type === 'function');
    assert.equal(call.id, 'call_paris');
    assert.equal(call.function.name, 'weather');
    assert.equal(typeof call.function.arguments, 'string', 'arguments are a JSON string on this wire');
    assert.deepEqual(JSON.parse(call.function.arguments), { city: 'Paris' });

    const second = await client.chat.completions.create(
      chat(
        [
          question,
          assistantCalls([{ id: call.id, name: call.function.name, arguments: call.function.arguments }]),
          toolResult('call_paris', '{"temp":21}'),
        ],
        {
          tools: [weatherTool],
        },
      ),
    );
    assert.equal(text(second), 'Paris is sunny, 21 °C.');
    assert.equal(second.choices[0].finish_reason, 'stop');
    assert.notEqual(second.id, first.id);

    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.script, e.step]),
      [
        [200, 'weather', 'step-1'],
        [200, 'weather', 'step-2'],
      ],
    );
    assert.deepEqual(entries[0].reply?.toolCalls, [{ id: 'call_paris', name: 'weather', argumentsText: '{"city":"Paris"}' }]);
    const toolPart = entries[1].request?.messages[2].parts[0];
    assert.deepEqual(toolPart, { type: 'tool_result', callId: 'call_paris', name: 'weather', content: '{"temp":21}', isError: false });
    await session.verify();
  });

  test('two-step tool round, streamed through the .stream() helper [openai-chat.tools.stream +]', async () => {
    const { session, client } = await open('tools-stream');
    // Long enough to be sent as several argument fragments.
    const args = { city: 'Paris', unit: 'celsius' };
    scriptWeather(session, args);
    const question = user('What is the weather in Paris, in celsius?');

    const firstStream = client.chat.completions.stream({
      ...chat([question], { tools: [weatherTool] }),
      stream_options: { include_usage: true },
    });
    const argumentDeltas: string[] = [];
    firstStream.on('tool_calls.function.arguments.delta', (e) => argumentDeltas.push(e.arguments_delta));
    const first = await firstStream.finalChatCompletion();
    assert.equal(first.choices[0].finish_reason, 'tool_calls');
    const call = first.choices[0].message.tool_calls?.[0];
    assert.ok(call && call.type === 'function');
    assert.equal(call.id, 'call_paris');
    assert.equal(call.function.name, 'weather');
    assert.deepEqual(JSON.parse(call.function.arguments), args);
    assert.ok(argumentDeltas.length > 1, `arguments should arrive in fragments, got ${JSON.stringify(argumentDeltas)}`);
    assert.equal(argumentDeltas.join(''), JSON.stringify(args));
    assert.ok(first.usage && first.usage.completion_tokens > 0);

    const secondStream = client.chat.completions.stream(
      chat(
        [
          question,
          assistantCalls([{ id: call.id, name: call.function.name, arguments: call.function.arguments }]),
          toolResult(call.id, 'sunny, 21'),
        ],
        {
          tools: [weatherTool],
        },
      ),
    );
    const second = await secondStream.finalChatCompletion();
    assert.equal(second.choices[0].message.content, 'Paris is sunny, 21 °C.');
    assert.equal(second.choices[0].finish_reason, 'stop');
    assert.equal(second.choices[0].message.tool_calls?.length ?? 0, 0);

    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.stream, e.step]),
      [
        [200, true, 'step-1'],
        [200, true, 'step-2'],
      ],
    );
    await session.verify();
  });

  test('streamed: a call whose arguments fail the declared schema gets 409 before the stream starts [openai-chat.tools.stream -]', async () => {
    const { session, client } = await open('tools-stream-mismatch');
    session.scenario('weather').callsTool('weather', { city: 'Paris', unit: 'kelvin' }, 'call_k');
    const params = chat([user('Weather in Paris?')], { tools: [weatherTool] });
    const error = await conflict(client.chat.completions.stream(params).finalChatCompletion(), 'fixture_mismatch', 'declared parameters');
    assert.match(error.message, /unit/);
    assert.match(error.message, /kelvin/);
    // Same script, a request whose tool accepts kelvin: the reply was not consumed.
    const kelvin: ChatCompletionFunctionTool = {
      type: 'function',
      function: {
        name: 'weather',
        parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['kelvin'] } } },
      },
    };
    const final = await client.chat.completions.stream(chat([user('Weather in Paris?')], { tools: [kelvin] })).finalChatCompletion();
    assert.equal(final.choices[0].message.tool_calls?.[0].id, 'call_k');
    assert.deepEqual(JSON.parse(final.choices[0].message.tool_calls?.[0].function.arguments ?? ''), { city: 'Paris', unit: 'kelvin' });
    const { counters } = await session.journal();
    assert.deepEqual([counters.mismatched, counters.matched], [1, 1]);
  });

  test('two parallel tool calls in one reply keep distinct indices', async () => {
    const { session, client } = await open('tools-parallel');
    await session.load({
      name: 'parallel',
      replies: [0, 1, 2].map((): Reply => ({
        toolCalls: [
          { id: 'call_w', name: 'weather', arguments: { city: 'Paris', unit: 'celsius' } },
          { id: 'call_t', name: 'time', arguments: { city: 'Tokyo' } },
        ],
      })),
    });
    const params = chat([user('Weather in Paris and time in Tokyo?')], { tools: [weatherTool, timeTool] });

    const whole = await client.chat.completions.create(params);
    const calls = whole.choices[0].message.tool_calls ?? [];
    assert.deepEqual(
      calls.map((c) => (c.type === 'function' ? [c.id, c.function.name, JSON.parse(c.function.arguments)] : null)),
      [
        ['call_w', 'weather', { city: 'Paris', unit: 'celsius' }],
        ['call_t', 'time', { city: 'Tokyo' }],
      ],
    );

    const raw = await collect(await client.chat.completions.create({ ...params, stream: true }));
    const deltas = raw.flatMap((c) => c.choices.flatMap((ch) => ch.delta.tool_calls ?? []));
    const heads = deltas.filter((d) => d.id !== undefined);
    assert.deepEqual(
      heads.map((d) => [d.index, d.id, d.type, d.function?.name]),
      [
        [0, 'call_w', 'function', 'weather'],
        [1, 'call_t', 'function', 'time'],
      ],
    );
    const argsByIndex = new Map<number, string>();
    for (const d of deltas) argsByIndex.set(d.index, (argsByIndex.get(d.index) ?? '') + (d.function?.arguments ?? ''));
    assert.deepEqual(JSON.parse(argsByIndex.get(0) ?? ''), { city: 'Paris', unit: 'celsius' });
    assert.deepEqual(JSON.parse(argsByIndex.get(1) ?? ''), { city: 'Tokyo' });

    const final = await client.chat.completions.stream(params).finalChatCompletion();
    const finalCalls = final.choices[0].message.tool_calls ?? [];
    assert.deepEqual(
      finalCalls.map((c) => [c.id, c.function.name, JSON.parse(c.function.arguments)]),
      [
        ['call_w', 'weather', { city: 'Paris', unit: 'celsius' }],
        ['call_t', 'time', { city: 'Tokyo' }],
      ],
    );
    assert.equal(final.choices[0].finish_reason, 'tool_calls');

    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.step, e.reply?.toolCalls.length]),
      [
        [200, 'step-1', 2],
        [200, 'step-2', 2],
        [200, 'step-3', 2],
      ],
    );
  });
});

// ------------------------------------------------------------------ 4. structured output

test('json_schema structured output via chat.completions.parse() and zodResponseFormat; json_object [openai-chat.structured.json +]', async () => {
  const { session, client } = await open('structured');
  const Report = z.object({ city: z.string(), temperature: z.number(), conditions: z.array(z.string()) });
  const scripted = { city: 'Paris', temperature: 21, conditions: ['sunny', 'light wind'] };
  session.scenario('report').whenLatestUser({ contains: 'report' }).repliesJson(scripted);

  const completion = await client.chat.completions.parse(
    chat([user('A weather report for Paris')], { response_format: zodResponseFormat(Report, 'weather_report') }),
  );
  const message = completion.choices[0].message;
  assert.deepEqual(message.parsed, scripted);
  assert.equal(message.content, JSON.stringify(scripted));
  assert.equal(message.refusal, null);
  assert.equal(completion.choices[0].finish_reason, 'stop');

  const { entries } = await session.journal();
  assert.equal(entries.length, 1);
  const output = entries[0].request?.output;
  assert.ok(output && output.type === 'json_schema');
  assert.equal(output.name, 'weather_report');
  assert.equal(output.strict, true);
  await session.verify();

  // json_object: any JSON object is accepted.
  session.scenario('object').repliesJson({ ok: true, items: [1, 2] });
  const object = await client.chat.completions.create(chat([user('JSON please')], { response_format: { type: 'json_object' } }));
  assert.deepEqual(JSON.parse(text(object) ?? ''), { ok: true, items: [1, 2] });
});

test('json_schema structured output streamed through .stream() with zodResponseFormat [openai-chat.structured.stream +]', async () => {
  const { session, client } = await open('structured-stream');
  const Report = z.object({ city: z.string(), temperature: z.number(), conditions: z.array(z.string()) });
  const scripted = { city: 'Paris', temperature: 21, conditions: ['sunny', 'light wind'] };
  session.scenario('report').repliesJson(scripted);
  const stream = client.chat.completions.stream({
    ...chat([user('A weather report for Paris')]),
    response_format: zodResponseFormat(Report, 'weather_report'),
    stream_options: { include_usage: true },
  });
  let done: unknown;
  stream.on('content.done', (e) => (done = e.parsed));
  const final = await stream.finalChatCompletion();
  assert.deepEqual(final.choices[0].message.parsed, scripted);
  assert.deepEqual(done, scripted);
  assert.equal(final.choices[0].finish_reason, 'stop');
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream, e.request?.output.type]),
    [[200, true, 'json_schema']],
  );
});

test('streamed JSON that fails the requested schema: 409 before the stream starts, nothing consumed [openai-chat.structured.stream -]', async () => {
  const { session, client } = await open('structured-stream-mismatch');
  session.scenario('report').repliesJson({ city: 'Paris', temperature: 'warm' });
  const strictReport = z.object({ city: z.string(), temperature: z.number() });
  const looseReport = z.object({ city: z.string(), temperature: z.string() });
  const params = chat([user('A weather report for Paris')]);
  const error = await conflict(
    client.chat.completions.stream({ ...params, response_format: zodResponseFormat(strictReport, 'report') }).finalChatCompletion(),
    'fixture_mismatch',
    'requested output schema "report"',
  );
  assert.match(error.message, /temperature/);
  const final = await client.chat.completions
    .stream({ ...params, response_format: zodResponseFormat(looseReport, 'report') })
    .finalChatCompletion();
  assert.deepEqual(final.choices[0].message.parsed, { city: 'Paris', temperature: 'warm' });
  const { counters } = await session.journal();
  assert.deepEqual([counters.mismatched, counters.matched], [1, 1]);
});

// ------------------------------------------------------------------ 5. contract failures

describe('contract failures answer 409 fixture_mismatch and consume nothing', () => {
  async function afterMismatch(session: UnderstudySession) {
    const { entries, counters } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.error?.code ?? null]),
      [
        [409, 'fixture_mismatch'],
        [200, null],
      ],
    );
    assert.equal(counters.mismatched, 1);
    assert.equal(counters.matched, 1);
    const report = await session.check();
    assert.equal(report.ok, false, 'a mismatch is reported by verification');
    assert.deepEqual(
      report.problems.map((p) => p.kind),
      ['fixture_mismatch'],
    );
  }

  test('a call to a tool the request does not declare [openai-chat.tools.json -]', async () => {
    const { session, client } = await open('mismatch-tool-name');
    session.scenario('forecast').callsTool('forecast', { city: 'Paris' }, 'call_f');
    const messages = [user('Forecast for Paris?')];
    await conflict(
      client.chat.completions.create(chat(messages, { tools: [weatherTool] })),
      'fixture_mismatch',
      'tool "forecast" is not declared',
      'weather',
      'scenario "forecast"',
    );

    const forecastTool: ChatCompletionFunctionTool = {
      type: 'function',
      function: { name: 'forecast', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
    };
    const ok = await client.chat.completions.create(chat(messages, { tools: [weatherTool, forecastTool] }));
    const call = ok.choices[0].message.tool_calls?.[0];
    assert.ok(call && call.type === 'function');
    assert.equal(call.function.name, 'forecast');
    assert.equal(call.id, 'call_f');
    await afterMismatch(session);
  });

  test('arguments that fail the declared parameter schema', async () => {
    const { session, client } = await open('mismatch-arguments');
    session.scenario('weather').callsTool('weather', { city: 42 }, 'call_1');
    const messages = [user('Weather?')];
    const error = await conflict(
      client.chat.completions.create(chat(messages, { tools: [weatherTool] })),
      'fixture_mismatch',
      "do not match the tool's declared parameters",
    );
    assert.match(error.message, /city/);
    assert.match(error.message, /string/);

    const loose: ChatCompletionFunctionTool = {
      type: 'function',
      function: { name: 'weather', parameters: { type: 'object', properties: { city: { type: ['string', 'number'] } } } },
    };
    const ok = await client.chat.completions.create(chat(messages, { tools: [loose] }));
    const call = ok.choices[0].message.tool_calls?.[0];
    assert.ok(call && call.type === 'function');
    assert.deepEqual(JSON.parse(call.function.arguments), { city: 42 });
    await afterMismatch(session);
  });

  test('JSON content that fails the requested output schema [openai-chat.structured.json -]', async () => {
    const { session, client } = await open('mismatch-json');
    session.scenario('answer').repliesJson({ answer: 'forty-two' });
    const schema = (type: string) => ({
      type: 'json_schema' as const,
      json_schema: {
        name: 'answer',
        strict: true,
        schema: { type: 'object', properties: { answer: { type } }, required: ['answer'], additionalProperties: false },
      },
    });
    const messages = [user('The answer?')];
    const error = await conflict(
      client.chat.completions.create(chat(messages, { response_format: schema('number') })),
      'fixture_mismatch',
      'requested output schema "answer"',
    );
    assert.match(error.message, /answer/);
    assert.match(error.message, /forty-two/);

    const ok = await client.chat.completions.create(chat(messages, { response_format: schema('string') }));
    assert.deepEqual(JSON.parse(text(ok) ?? ''), { answer: 'forty-two' });
    await afterMismatch(session);
  });

  test('a json_object request with content that is not a JSON object', async () => {
    const { session, client } = await open('mismatch-json-object');
    session.scenario('list').replies('[1, 2, 3]');
    const messages = [user('JSON please')];
    await conflict(
      client.chat.completions.create(chat(messages, { response_format: { type: 'json_object' } })),
      'fixture_mismatch',
      'JSON object (json_object)',
      'an array',
    );
    const ok = await client.chat.completions.create(chat(messages));
    assert.equal(text(ok), '[1, 2, 3]');
    await afterMismatch(session);
  });

  test('two calls when parallel_tool_calls is false', async () => {
    const { session, client } = await open('mismatch-parallel');
    session.scenario('both').callsTools([
      { name: 'weather', arguments: { city: 'Paris' } },
      { name: 'time', arguments: { city: 'Paris' } },
    ]);
    const messages = [user('Weather and time in Paris?')];
    await conflict(
      client.chat.completions.create(chat(messages, { tools: [weatherTool, timeTool], parallel_tool_calls: false })),
      'fixture_mismatch',
      'disables parallel tool calls',
      'weather, time',
    );
    const ok = await client.chat.completions.create(chat(messages, { tools: [weatherTool, timeTool], parallel_tool_calls: true }));
    assert.equal(ok.choices[0].message.tool_calls?.length, 2);
    await afterMismatch(session);
  });

  test('tool_choice "required" with a text-only reply [openai-chat.text.json -]', async () => {
    const { session, client } = await open('mismatch-required');
    session.scenario('chatty').replies('I would rather talk.');
    const messages = [user('Weather?')];
    await conflict(
      client.chat.completions.create(chat(messages, { tools: [weatherTool], tool_choice: 'required' })),
      'fixture_mismatch',
      'requires a tool call',
      '"required"',
    );
    const ok = await client.chat.completions.create(chat(messages, { tools: [weatherTool], tool_choice: 'auto' }));
    assert.equal(text(ok), 'I would rather talk.');
    await afterMismatch(session);
  });

  test('tool_choice "none" with a tool-call reply', async () => {
    const { session, client } = await open('mismatch-none');
    session.scenario('caller').callsTool('weather', { city: 'Paris' });
    const messages = [user('Weather?')];
    await conflict(
      client.chat.completions.create(chat(messages, { tools: [weatherTool], tool_choice: 'none' })),
      'fixture_mismatch',
      'tool choice "none"',
      '"weather"',
    );
    const ok = await client.chat.completions.create(chat(messages, { tools: [weatherTool] }));
    assert.equal(ok.choices[0].finish_reason, 'tool_calls');
    await afterMismatch(session);
  });

  test('a script re-loaded correctly after a mismatch answers the same request', async () => {
    const { session, client } = await open('mismatch-reload');
    session.scenario('w').callsTool('wether', { city: 'Paris' });
    const params = chat([user('Weather?')], { tools: [weatherTool] });
    await conflict(client.chat.completions.create(params), 'fixture_mismatch', 'tool "wether" is not declared');
    session.scenario('w').callsTool('weather', { city: 'Paris' });
    const ok = await client.chat.completions.create(params);
    const call = ok.choices[0].message.tool_calls?.[0];
    assert.ok(call && call.type === 'function');
    assert.equal(call.function.name, 'weather');
    const { counters } = await session.journal();
    assert.equal(counters.mismatched, 1);
    assert.equal(counters.matched, 1);
  });
});

// ------------------------------------------------------------------ 6. exhaustion

describe('exhaustion policies', () => {
  const ask = (client: OpenAI) => client.chat.completions.create(chat([user('next, please')]));

  test('reject: 409 scenario_exhausted', async () => {
    const { session, client } = await open('exhaust-reject');
    await session.load({ name: 'once', exhausted: 'reject', replies: [{ text: 'one' }] });
    assert.equal(text(await ask(client)), 'one');
    await conflict(ask(client), 'scenario_exhausted', 'scenario "once" is complete', 'policy reject');
    const { counters } = await session.journal();
    assert.equal(counters.exhausted, 1);
    assert.equal(counters.matched, 1);
  });

  test('repeat_last: the last reply again', async () => {
    const { session, client } = await open('exhaust-repeat');
    await session.load({ name: 'q', exhausted: 'repeat_last', replies: [{ text: 'one' }, { text: 'two' }] });
    const got: (string | null)[] = [];
    for (let i = 0; i < 4; i++) got.push(text(await ask(client)));
    assert.deepEqual(got, ['one', 'two', 'two', 'two']);
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.step, e.source]),
      [
        ['step-1', 'script'],
        ['step-2', 'script'],
        ['step-2', 'repeat_last'],
        ['step-2', 'repeat_last'],
      ],
    );
  });

  test('restart: the first reply again', async () => {
    const { session, client } = await open('exhaust-restart');
    await session.load({ name: 'q', exhausted: 'restart', replies: [{ text: 'one' }, { text: 'two' }] });
    const got: (string | null)[] = [];
    for (let i = 0; i < 5; i++) got.push(text(await ask(client)));
    assert.deepEqual(got, ['one', 'two', 'one', 'two', 'one']);
    const { entries } = await session.journal();
    assert.equal(entries[2].source, 'restart');
  });

  test('maxReplies: 409 scenario_exhausted once the limit is reached', async () => {
    const { session, client } = await open('exhaust-limit');
    await session.load({ name: 'limited', exhausted: 'repeat_last', maxReplies: 2, replies: [{ text: 'one' }] });
    assert.equal(text(await ask(client)), 'one');
    assert.equal(text(await ask(client)), 'one');
    await conflict(ask(client), 'scenario_exhausted', 'scenario "limited"', 'limit of 2');
    const { counters } = await session.journal();
    assert.deepEqual([counters.matched, counters.exhausted], [2, 1]);
  });
});

// ------------------------------------------------------------------ 7. isolation

test('two sessions in parallel see only their own scripts', async () => {
  const n = 20;
  const a = await open('iso-a');
  const b = await open('iso-b');
  await a.session.load({ name: 'a', replies: Array.from({ length: n }, (_, i) => ({ text: `A-${i}` })) });
  await b.session.load({ name: 'b', replies: Array.from({ length: n }, (_, i) => ({ text: `B-${i}` })) });
  const calls: Promise<[string, string | null]>[] = [];
  for (let i = 0; i < n; i++) {
    for (const [label, x] of [
      ['a', a],
      ['b', b],
    ] as const) {
      calls.push(x.client.chat.completions.create(chat([user(`hello ${i}`)])).then((r) => [label, text(r)]));
    }
  }
  const results = await Promise.all(calls);
  const want = (prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`).sort();
  assert.deepEqual(
    results
      .filter(([l]) => l === 'a')
      .map(([, t]) => t)
      .sort(),
    want('A'),
    'session a got each of its replies once',
  );
  assert.deepEqual(
    results
      .filter(([l]) => l === 'b')
      .map(([, t]) => t)
      .sort(),
    want('B'),
    'session b got each of its replies once',
  );

  for (const [x, name] of [
    [a, 'a'],
    [b, 'b'],
  ] as const) {
    const { entries, counters } = await x.session.journal();
    assert.equal(entries.length, n);
    assert.ok(entries.every((e) => e.script === name && e.session === x.session.id && e.status === 200));
    assert.equal(counters.requests, n);
    await x.session.verify();
  }
});

// ------------------------------------------------------------------ 8. no match

test('no match in a strict session: 409 no_match naming the nearest scenario, predicate, expected and actual', async () => {
  const { session, client } = await open('no-match');
  scriptWeather(session);
  session.scenario('greeting').whenModel('gpt-4o').whenLatestUser('Hello').replies('Hi');
  const error = await conflict(
    client.chat.completions.create(chat([user('What is the weather in London?')])),
    'no_match',
    'scenario "weather" step "step-1"',
    'latestUser',
    'contains "weather in Paris"',
    '"What is the weather in London?"',
  );
  assert.equal(error.type, 'understudy_error');
  // The nearest comes first: weather misses one predicate, greeting two.
  assert.ok(error.message.indexOf('"weather"') < error.message.indexOf('"greeting"'), error.message);
  const { entries, counters } = await session.journal();
  assert.equal(counters.unmatched, 1);
  assert.deepEqual(
    entries.map((e) => [e.status, e.error?.code]),
    [[409, 'no_match']],
  );
});

// ------------------------------------------------------------------ 9. predicates

describe('predicates, positive and negative', () => {
  async function miss(client: OpenAI, params: Params, predicate: string, ...mentions: string[]) {
    await conflict(client.chat.completions.create(params), 'no_match', `${predicate}: expected`, ...mentions);
  }
  async function hit(client: OpenAI, params: Params, reply = 'matched') {
    const r = await client.chat.completions.create(params);
    assert.equal(text(r), reply);
  }

  test('model, exact and by regular expression', async () => {
    const { session, client } = await open('pred-model');
    session.scenario('exact').whenModel('gpt-4o').replies('exact').then().whenModel({ matches: '^o\\d' }).replies('regex');
    await miss(client, { model: 'gpt-4o-mini', messages: [user('hi')] }, 'model', 'equals "gpt-4o"', '"gpt-4o-mini"');
    await hit(client, { model: 'gpt-4o', messages: [user('hi')] }, 'exact');
    await miss(client, { model: 'gpt-5', messages: [user('hi')] }, 'model', 'matches /^o\\d/');
    await hit(client, { model: 'o3', messages: [user('hi')] }, 'regex');
  });

  test('latestUser equals (only the latest user message counts)', async () => {
    const { session, client } = await open('pred-user-equals');
    session.scenario('s').whenLatestUser({ equals: 'Hello' }).replies('matched');
    await miss(client, chat([user('Hello!')]), 'latestUser', 'equals "Hello"', '"Hello!"');
    await miss(client, chat([user('Hello'), { role: 'assistant', content: 'Hi' }, user('Bye')]), 'latestUser', '"Bye"');
    await hit(client, chat([user('Bye'), { role: 'assistant', content: 'Hi' }, user('Hello')]));
  });

  test('latestUser contains', async () => {
    const { session, client } = await open('pred-user-contains');
    session.scenario('s').whenLatestUser({ contains: 'Paris' }).replies('matched');
    await miss(client, chat([user('Weather in London')]), 'latestUser', 'contains "Paris"');
    await hit(client, chat([user('Weather in Paris today')]));
  });

  test('latestUser matches, with flags', async () => {
    const { session, client } = await open('pred-user-matches');
    session.scenario('s').whenLatestUser({ matches: '^order #\\d+$', flags: 'i' }).replies('matched');
    await miss(client, chat([user('order #abc')]), 'latestUser', 'matches /^order #\\d+$/i');
    await hit(client, chat([user('ORDER #123')]));
  });

  test('toolResult by name and id, after the latest user message', async () => {
    const { session, client } = await open('pred-tool-result');
    session.scenario('s').whenToolResult('weather', 'call_1').replies('matched');
    const call = (id: string) => assistantCalls([{ id, name: 'weather', arguments: '{"city":"Paris"}' }]);
    const tools = { tools: [weatherTool] };
    await miss(
      client,
      chat([user('weather?'), call('call_2'), toolResult('call_2', 'sunny')], tools),
      'toolResult',
      'id "call_1"',
      'weather/call_2',
    );
    // A result for call_1 that precedes the latest user message belongs to an older round.
    await miss(
      client,
      chat([user('weather?'), call('call_1'), toolResult('call_1', 'sunny'), user('and now?')], tools),
      'toolResult',
      'no tool results after the latest user message',
    );
    await hit(client, chat([user('weather?'), call('call_1'), toolResult('call_1', 'sunny')], tools));
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => e.status),
      [409, 409, 200],
    );
  });

  test('toolArguments are compared structurally (key order irrelevant)', async () => {
    const { session, client } = await open('pred-tool-args');
    session.scenario('s').whenToolArguments({ city: 'Paris', unit: 'celsius' }, 'weather').replies('matched');
    const round = (args: string) =>
      chat([user('weather?'), assistantCalls([{ id: 'call_1', name: 'weather', arguments: args }]), toolResult('call_1', 'sunny')], {
        tools: [weatherTool],
      });
    await miss(client, round('{"city":"Paris","unit":"fahrenheit"}'), 'toolArguments', 'weather({"city":"Paris","unit":"fahrenheit"})');
    await hit(client, round('{ "unit": "celsius", "city": "Paris" }'));
  });

  test('jsonPath in the latest tool result', async () => {
    const { session, client } = await open('pred-json-path');
    session.scenario('s').whenJsonPath('$.forecast[0].temp', 21, 'toolResult').replies('matched');
    const round = (result: string) =>
      chat(
        [
          user('weather?'),
          assistantCalls([{ id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' }]),
          toolResult('call_1', result),
        ],
        { tools: [weatherTool] },
      );
    await miss(client, round('{"forecast":[{"temp":19}]}'), 'jsonPath', '$.forecast[0].temp in the latest tool result equals 21', 'got 19');
    await miss(client, round('sunny'), 'jsonPath', 'not JSON');
    await hit(client, round('{"forecast":[{"temp":21,"sky":"clear"}]}'));
  });

  test('historyExact, including the ordered tool-call list', async () => {
    const { session, client } = await open('pred-history-exact');
    session
      .scenario('s')
      .whenHistoryExact([
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'Weather in Paris and London?' },
        {
          role: 'assistant',
          toolCalls: [
            { id: 'call_1', name: 'weather', arguments: { city: 'Paris' } },
            { id: 'call_2', name: 'weather', arguments: { city: 'London' } },
          ],
        },
        { role: 'tool', toolCallId: 'call_1', content: 'sunny' },
        { role: 'tool', toolCallId: 'call_2', content: 'rain' },
      ])
      .replies('matched');
    const paris = { id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' };
    const london = { id: 'call_2', name: 'weather', arguments: '{"city":"London"}' };
    const history = (calls: (typeof paris)[], system = 'be brief') =>
      chat(
        [
          { role: 'system', content: system },
          user('Weather in Paris and London?'),
          assistantCalls(calls),
          toolResult('call_1', 'sunny'),
          toolResult('call_2', 'rain'),
        ],
        { tools: [weatherTool] },
      );
    await miss(client, history([london, paris]), 'historyExact', 'message 2');
    await miss(client, history([paris, london], 'be verbose'), 'historyExact', 'message 0');
    await miss(
      client,
      chat([{ role: 'system', content: 'be brief' }, user('Weather in Paris and London?')]),
      'historyExact',
      '5 messages',
      '2 messages',
    );
    await hit(client, history([paris, london]));
  });

  test('historyExact: a history with a tool call fails a spec that lists none', async () => {
    const { session, client } = await open('pred-history-exact-nocalls');
    session
      .scenario('s')
      .whenHistoryExact([
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: 'Checking.' },
        { role: 'user', content: 'Thanks' },
      ])
      .replies('matched');
    await miss(
      client,
      chat(
        [
          user('Weather?'),
          assistantCalls([{ id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' }], 'Checking.'),
          toolResult('call_1', 'sunny'),
          user('Thanks'),
        ],
        { tools: [weatherTool] },
      ),
      'historyExact',
    );
    await miss(client, chat([user('Weather?'), { role: 'assistant', content: 'Checking…' }, user('Thanks')]), 'historyExact', 'message 1');
    await hit(client, chat([user('Weather?'), { role: 'assistant', content: 'Checking.' }, user('Thanks')]));
  });

  test('historyContains: in order, not necessarily adjacent, absent fields are wildcards', async () => {
    const { session, client } = await open('pred-history-contains');
    session
      .scenario('s')
      .whenHistoryContains([
        { role: 'user', content: 'first' },
        { role: 'assistant', toolCalls: [{ name: 'weather' }] },
        { role: 'user', content: 'second' },
      ])
      .replies('matched');
    const call = assistantCalls([{ id: 'call_9', name: 'weather', arguments: '{"city":"Oslo"}' }]);
    const tools = { tools: [weatherTool] };
    // Right messages, wrong order.
    await miss(client, chat([user('second'), call, toolResult('call_9', 'cold'), user('first')], tools), 'historyContains');
    // No weather call between them.
    await miss(client, chat([user('first'), { role: 'assistant', content: 'ok' }, user('second')]), 'historyContains', 'toolCalls');
    await hit(
      client,
      chat(
        [
          { role: 'system', content: 'sys' },
          user('first'),
          call,
          toolResult('call_9', 'cold'),
          { role: 'assistant', content: 'Cold.' },
          user('second'),
        ],
        tools,
      ),
    );
  });
});

// ------------------------------------------------------------------ 10. branching

describe('branching graph', () => {
  const trip = {
    name: 'trip',
    steps: [
      { id: 'ask', when: { latestUser: { contains: 'trip' } }, reply: { text: 'Beach or mountains?' }, next: ['beach', 'mountains'] },
      { id: 'beach', when: { latestUser: { contains: 'beach' } }, reply: { text: 'Try Nice.' }, next: 'complete' },
      { id: 'mountains', when: { latestUser: { contains: 'mountains' } }, reply: { text: 'Try Chamonix.' }, next: 'complete' },
    ],
  };
  const convo = (answer: string) => chat([user('Plan a trip'), { role: 'assistant', content: 'Beach or mountains?' }, user(answer)]);

  for (const [branch, answer, reply] of [
    ['beach', 'The beach, please', 'Try Nice.'],
    ['mountains', 'I prefer mountains', 'Try Chamonix.'],
  ] as const) {
    test(`takes the ${branch} branch when its predicate matches`, async () => {
      const { session, client } = await open(`branch-${branch}`);
      await session.load(trip);
      assert.equal(text(await client.chat.completions.create(chat([user('Plan a trip')]))), 'Beach or mountains?');
      // Only the branches are candidates now: asking again does not match "ask".
      await conflict(client.chat.completions.create(chat([user('Plan a trip')])), 'no_match', 'step "beach"');
      assert.equal(text(await client.chat.completions.create(convo(answer))), reply);
      const { entries } = await session.journal();
      assert.deepEqual(
        entries.filter((e) => e.status === 200).map((e) => e.step),
        ['ask', branch],
      );
    });
  }

  test('the fluent builder can declare a branch before its targets', async () => {
    const { session, client } = await open('branch-builder');
    session
      .scenario('trip')
      .whenLatestUser({ contains: 'trip' })
      .reply({ text: 'Beach or mountains?' }, { id: 'ask', next: ['beach', 'mountains'] })
      .whenLatestUser({ contains: 'beach' })
      .reply({ text: 'Try Nice.' }, { id: 'beach', next: 'complete' })
      .whenLatestUser({ contains: 'mountains' })
      .reply({ text: 'Try Chamonix.' }, { id: 'mountains', next: 'complete' });
    assert.equal(text(await client.chat.completions.create(chat([user('Plan a trip')]))), 'Beach or mountains?');
    assert.equal(text(await client.chat.completions.create(convo('mountains'))), 'Try Chamonix.');
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => e.step),
      ['ask', 'mountains'],
    );

    // A target that never appears is reported, not silently dropped.
    session.scenario('typo').replies('Hello').goesTo('nowhere');
    await assert.rejects(session.verify(), /scenario "typo".*next.*"nowhere"/s);
  });
});

// ------------------------------------------------------------------ 11. zero-config

test('zero-config auto fallback: tool call, then text after the result, again on a new user turn; text without tools [openai-chat.zero-config.json +] [openai-chat.zero-config.stream +]', async () => {
  const { session, client } = await open('auto', { fallback: 'auto' });
  const tools = { tools: [weatherTool, timeTool] };
  const question = user('What is the weather in Paris?');

  const first = await client.chat.completions.create(chat([question], tools));
  assert.equal(first.choices[0].finish_reason, 'tool_calls');
  const call = first.choices[0].message.tool_calls?.[0];
  assert.ok(call && call.type === 'function');
  assert.equal(first.choices[0].message.tool_calls?.length, 1);
  assert.equal(call.function.name, 'weather', 'the first declared tool');
  // The smallest arguments the schema accepts: its one required property.
  assert.equal(call.function.arguments, '{"city":""}');
  assert.match(call.id, /^call_/);

  // Streamed: one whole tool-call frame.
  const raw = await collect(await client.chat.completions.create({ ...chat([question], tools), stream: true }));
  const frames = raw.flatMap((c) => c.choices.filter((ch) => ch.delta.tool_calls !== undefined));
  assert.equal(frames.length, 1, 'exactly one tool_calls delta');
  const whole = frames[0].delta.tool_calls?.[0];
  assert.equal(whole?.index, 0);
  assert.equal(whole?.type, 'function');
  assert.equal(whole?.function?.name, 'weather');
  assert.equal(whole?.function?.arguments, '{"city":""}');
  assert.deepEqual(
    raw.flatMap((c) => c.choices.map((ch) => ch.finish_reason)).filter((f) => f !== null),
    ['tool_calls'],
  );
  // …and the SDK helper accepts it.
  const helped = await client.chat.completions.stream(chat([question], tools)).finalChatCompletion();
  assert.equal(helped.choices[0].message.tool_calls?.[0].function.arguments, '{"city":""}');

  const afterResult = chat(
    [question, assistantCalls([{ id: call.id, name: 'weather', arguments: call.function.arguments }]), toolResult(call.id, 'sunny')],
    tools,
  );
  const answer = await client.chat.completions.create(afterResult);
  assert.equal(text(answer), ZERO_CONFIG_TEXT);
  assert.equal(answer.choices[0].finish_reason, 'stop');

  const nextTurn = await client.chat.completions.create(
    chat([...afterResult.messages, { role: 'assistant', content: ZERO_CONFIG_TEXT }, user('And the time there?')], tools),
  );
  assert.equal(nextTurn.choices[0].finish_reason, 'tool_calls');
  assert.equal(
    nextTurn.choices[0].message.tool_calls?.[0].type === 'function' && nextTurn.choices[0].message.tool_calls[0].function.name,
    'weather',
  );

  const noTools = await client.chat.completions.create(chat([user('Hi')]));
  assert.equal(text(noTools), ZERO_CONFIG_TEXT);
  assert.equal(noTools.choices[0].message.tool_calls, undefined);

  const { entries, counters } = await session.journal();
  assert.equal(entries.length, 6);
  assert.ok(entries.every((e) => e.status === 200 && e.source === 'zero_config' && e.script === undefined));
  assert.equal(counters.unmatched, 0);
  await session.verify();
});

test('zero-config never calls a tool it may not call, still validates the wire, and is opt-in [openai-chat.zero-config.json -]', async () => {
  const { session, client } = await open('auto-negative', { fallback: 'auto' });
  const none = await client.chat.completions.create(chat([user('Weather?')], { tools: [weatherTool], tool_choice: 'none' }));
  assert.equal(text(none), ZERO_CONFIG_TEXT);
  assert.equal(none.choices[0].message.tool_calls, undefined);
  assert.equal(none.choices[0].finish_reason, 'stop');

  const bad = await client.chat.completions
    .create(chat([user('Weather?')], { tools: [weatherTool], tool_choice: { type: 'function', function: { name: 'forecast' } } }))
    .catch((e: unknown) => e);
  assert.ok(bad instanceof OpenAI.BadRequestError, `got ${String(bad)}`);
  assert.equal(bad.param, 'tool_choice');
  const { counters } = await session.journal();
  assert.deepEqual([counters.requests, counters.invalid], [2, 1]);

  // A strict session (the default) does not invent anything.
  const strict = await open('auto-negative-strict');
  await conflict(
    strict.client.chat.completions.create(chat([user('Weather?')], { tools: [weatherTool] })),
    'no_match',
    'no scripts loaded',
  );
});

test('zero-config streamed: no tool-call frame under tool_choice none, and a malformed stream request gets 400 [openai-chat.zero-config.stream -]', async () => {
  const { session, client } = await open('auto-negative-stream', { fallback: 'auto' });
  const raw = await collect(
    await client.chat.completions.create({ ...chat([user('Weather?')], { tools: [weatherTool], tool_choice: 'none' }), stream: true }),
  );
  assert.ok(
    raw.every((c) => c.choices.every((ch) => ch.delta.tool_calls === undefined)),
    'no tool_calls delta',
  );
  assert.equal(contentDeltas(raw).join(''), ZERO_CONFIG_TEXT);

  const bad = await client.chat.completions
    .create({ ...chat([user('Weather?')], { tool_choice: 'required' }), stream: true })
    .catch((e: unknown) => e);
  assert.ok(bad instanceof OpenAI.BadRequestError, `got ${String(bad)}`);
  assert.equal(bad.param, 'tool_choice');
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.source ?? null]),
    [
      [200, 'zero_config'],
      [400, null],
    ],
  );
});

// ------------------------------------------------------------------ 12. verify

describe('verify()', () => {
  test('passes when every step was used', async () => {
    const { session, client } = await open('verify-ok');
    session.scenario('two').replies('one').then().replies('two');
    await client.chat.completions.create(chat([user('a')]));
    await client.chat.completions.create(chat([user('b')]));
    await session.verify();
    const report = await session.check();
    assert.equal(report.ok, true);
    assert.deepEqual(report.problems, []);
  });

  test('throws VerificationError listing an unused step and a no_match request', async () => {
    const { session, client } = await open('verify-fail');
    session.scenario('pair').whenLatestUser('a').replies('one', {}).named('first').whenLatestUser('b').replies('two').named('second');
    assert.equal(text(await client.chat.completions.create(chat([user('a')]))), 'one');
    await conflict(client.chat.completions.create(chat([user('zzz')])), 'no_match');
    await assert.rejects(session.verify(), (error: unknown) => {
      assert.ok(error instanceof VerificationError);
      assert.equal(error.result.ok, false);
      assert.deepEqual(
        error.result.problems.map((p) => [p.kind, p.step ?? null]),
        [
          ['unused_step', 'second'],
          ['no_match', null],
        ],
      );
      assert.match(error.message, /step "second" was never used/);
      assert.match(error.message, /no_match/);
      assert.match(error.message, /verify-fail/);
      return true;
    });
  });
});

// ------------------------------------------------------------------ 13. Vercel AI SDK

describe('Vercel AI SDK OpenAI provider in chat mode', () => {
  function setup(session: UnderstudySession) {
    session
      .scenario('weather')
      .whenLatestUser({ contains: 'weather in Paris' })
      .callsTool('weather', { city: 'Paris' }, 'call_paris')
      .thenWhenToolResult('weather', 'call_paris')
      .replies('Paris is sunny, 21 °C.');
    const ran: unknown[] = [];
    const tools = {
      weather: tool({
        description: 'Current weather for a city',
        inputSchema: z.object({ city: z.string() }),
        execute: async (input: { city: string }) => {
          ran.push(input);
          return { city: input.city, temperature: 21, sky: 'sunny' };
        },
      }),
    };
    const model = createOpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey }).chat('gpt-4o');
    return { ran, tools, model };
  }

  async function checkJournal(session: UnderstudySession, stream: boolean) {
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.step, e.stream]),
      [
        [200, 'step-1', stream],
        [200, 'step-2', stream],
      ],
    );
    const result = entries[1].request?.messages.flatMap((m) => m.parts).find((p) => p.type === 'tool_result');
    assert.ok(result && result.type === 'tool_result');
    assert.equal(result.callId, 'call_paris');
    assert.deepEqual(JSON.parse(result.content), { city: 'Paris', temperature: 21, sky: 'sunny' });
    await session.verify();
  }

  test('generateText completes a tool round [aisdk-openai-chat.tools.json +]', async () => {
    const session = await mock.session('aisdk-generate');
    const { ran, tools, model } = setup(session);
    const result = await generateText({ model, tools, stopWhen: stepCountIs(3), maxRetries: 0, prompt: 'What is the weather in Paris?' });
    assert.equal(result.text, 'Paris is sunny, 21 °C.');
    assert.deepEqual(ran, [{ city: 'Paris' }]);
    assert.equal(result.steps.length, 2);
    assert.equal(result.steps[0].finishReason, 'tool-calls');
    assert.equal(result.steps[0].toolCalls[0].toolCallId, 'call_paris');
    assert.equal(result.finishReason, 'stop');
    assert.ok((result.totalUsage.inputTokens ?? 0) > 0);
    await checkJournal(session, false);
  });

  test('streamText completes a tool round [aisdk-openai-chat.tools.stream +]', async () => {
    const session = await mock.session('aisdk-stream');
    const { ran, tools, model } = setup(session);
    const errors: unknown[] = [];
    const result = streamText({
      model,
      tools,
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      prompt: 'What is the weather in Paris?',
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    assert.deepEqual(errors, []);
    assert.equal(deltas.join(''), 'Paris is sunny, 21 °C.');
    assert.ok(deltas.length > 1, 'the text arrives in pieces');
    assert.equal(await result.text, 'Paris is sunny, 21 °C.');
    assert.deepEqual(ran, [{ city: 'Paris' }]);
    assert.equal((await result.steps).length, 2);
    assert.equal(await result.finishReason, 'stop');
    await checkJournal(session, true);
    const { entries } = await session.journal();
    assert.equal(entries[0].request?.streamUsage, true, 'the AI SDK asks for usage when streaming');
  });
});

describe('Vercel AI SDK: a scripted call that fails the tool schema', () => {
  const model = (session: UnderstudySession) => createOpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey }).chat('gpt-4o');

  test('generateText throws APICallError 409 and nothing is consumed [aisdk-openai-chat.tools.json -]', async () => {
    const session = await mock.session('aisdk-generate-mismatch');
    await expectGenerateTextRefusedThenAnswered(session, model(session));
  });

  test('streamText reports APICallError 409 and runs no tool [aisdk-openai-chat.tools.stream -]', async () => {
    const session = await mock.session('aisdk-stream-mismatch');
    scriptZipCodeCall(session);
    const ran: unknown[] = [];
    await expectStreamTextRefused({ model: model(session), tools: typedWeatherTool('string', ran), ran, session });
  });
});

// ------------------------------------------------------------------ 14. remote client

test('remote client: a session over HTTP, scripted with the builder and push()', async () => {
  const remote = await connectUnderstudy(mock.baseUrl);
  const session = await remote.session('remote-weather');
  assert.ok(session.apiKey.length > 0);
  assert.equal(session.url('openai'), mock.url('openai'));
  session
    .scenario('weather')
    .whenLatestUser({ contains: 'weather in Paris' })
    .callsTool('weather', { city: 'Paris' }, 'call_paris')
    .thenWhenToolResult('weather', 'call_paris')
    .replies('Paris is sunny, 21 °C.');

  await session.push();
  const client = sdk(session);
  const question = user('What is the weather in Paris?');
  const first = await client.chat.completions.create(chat([question], { tools: [weatherTool] }));
  const call = first.choices[0].message.tool_calls?.[0];
  assert.ok(call && call.type === 'function');
  assert.equal(call.id, 'call_paris');
  const second = await client.chat.completions.create(
    chat([question, assistantCalls([{ id: call.id, name: 'weather', arguments: call.function.arguments }]), toolResult(call.id, 'sunny')], {
      tools: [weatherTool],
    }),
  );
  assert.equal(text(second), 'Paris is sunny, 21 °C.');

  const { entries, counters } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.script, e.step]),
    [
      [200, 'weather', 'step-1'],
      [200, 'weather', 'step-2'],
    ],
  );
  assert.equal(counters.matched, 2);
  await session.verify();

  // A second remote session with an unused step fails verification over HTTP too.
  const other = await remote.session('remote-unused');
  other.scenario('never').replies('unused');
  await assert.rejects(other.verify(), (e: unknown) => e instanceof VerificationError && /never/.test(e.message));
  await other.delete();
  await session.delete();
});

// ------------------------------------------------------------------ 15-16. cancellation and reset

test('an aborted delayed request consumes nothing', async () => {
  const { session, client } = await open('abort');
  await session.load({ name: 'slow', replies: [{ text: 'slow answer', delayMs: 500 }, { text: 'second answer' }] });
  const params = chat([user('hi')]);

  const controller = new AbortController();
  const started = Date.now();
  const aborted = client.chat.completions.create(params, { signal: controller.signal });
  setTimeout(() => controller.abort(), 50);
  await assert.rejects(aborted, (e: unknown) => e instanceof OpenAI.APIUserAbortError);
  assert.ok(Date.now() - started < 400, 'the abort ended the request before the delay');
  // Give the server a moment to see the closed connection.
  await sleep(50);

  const next = await client.chat.completions.create(params);
  assert.equal(text(next), 'slow answer', 'the aborted request did not consume the first reply');
  assert.equal(text(await client.chat.completions.create(params)), 'second answer');

  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.event, e.status, e.step]),
    [
      ['request_aborted', 499, 'step-1'],
      ['reply_returned', 200, 'step-1'],
      ['reply_returned', 200, 'step-2'],
    ],
  );
  await session.verify();
});

test('a reset while a delayed request is in flight answers 409 request_superseded and consumes nothing', async () => {
  const { session, client } = await open('superseded');
  await session.load({ name: 'slow', replies: [{ text: 'slow answer', delayMs: 300 }, { text: 'second answer' }] });
  const params = chat([user('hi')]);

  const inFlight = client.chat.completions.create(params);
  await sleep(50);
  await session.reset();
  await conflict(inFlight, 'request_superseded', 'nothing was consumed');

  assert.equal(text(await client.chat.completions.create(params)), 'slow answer');
  assert.equal(text(await client.chat.completions.create(params)), 'second answer');
  await conflict(client.chat.completions.create(params), 'scenario_exhausted');

  const { entries, counters } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.step]),
    [
      [200, 'step-1'],
      [200, 'step-2'],
      [409, undefined],
    ],
  );
  assert.equal(counters.matched, 2);
  const report = await session.check();
  assert.deepEqual(
    report.problems.map((p) => p.kind),
    ['scenario_exhausted'],
    report.report,
  );
});

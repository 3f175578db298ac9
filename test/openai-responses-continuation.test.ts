// Stored responses and `previous_response_id`, seen through the real openai SDK: the stored
// conversation is spliced in before the new input (scripts match on history they were never sent
// again), stored responses are scoped by session, model and credential, an unknown id is a 404
// before anything is consumed, `store: false` responses cannot be continued, and the bounded store
// answers 409 when full.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';

import OpenAI from 'openai';
import type { FunctionTool, Response, ResponseFunctionToolCall, ResponseStreamEvent } from 'openai/resources/responses/responses';

import { startUnderstudy } from '../src/index.js';
import type { Understudy, UnderstudySession } from '../src/index.js';
import { MAX_STORED_RESPONSES } from '../src/dialects/openai-responses/response-store.js';

let mock: Understudy;

before(async () => {
  mock = await startUnderstudy();
});

after(async () => {
  await mock.close();
});

const MODEL = 'gpt-4.1-mini';

function sdk(session: UnderstudySession, options: { baseURL?: string; apiKey?: string } = {}): OpenAI {
  return new OpenAI({
    baseURL: options.baseURL ?? mock.url('openai'),
    apiKey: options.apiKey ?? session.apiKey,
    maxRetries: 0,
    timeout: 10_000,
  });
}

async function open(name: string, options?: Parameters<Understudy['session']>[1]): Promise<{ session: UnderstudySession; client: OpenAI }> {
  const session = await mock.session(name, options);
  return { session, client: sdk(session) };
}

const weatherTool: FunctionTool = {
  type: 'function',
  name: 'weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  strict: true,
};

/** `store` is on the wire but not on this SDK version's Response type. */
function storeOf(response: Response): unknown {
  return (response as unknown as { store?: unknown }).store;
}

function functionCalls(response: Response): ResponseFunctionToolCall[] {
  return response.output.filter((item): item is ResponseFunctionToolCall => item.type === 'function_call');
}

async function rejected(request: PromiseLike<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await Promise.resolve(request).then(
    () => assert.fail('the request was accepted'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof OpenAI.APIError, `expected an APIError, got ${String(error)}`);
  return error;
}

async function notFound(request: PromiseLike<unknown>, ...mentions: string[]): Promise<void> {
  const error = await rejected(request);
  assert.ok(error instanceof OpenAI.NotFoundError, `expected NotFoundError, got ${error.status} ${error.message}`);
  assert.equal(error.status, 404);
  assert.equal(error.type, 'invalid_request_error');
  for (const text of mentions) assert.ok(error.message.includes(text), `expected ${JSON.stringify(text)} in: ${error.message}`);
}

test('previous_response_id splices the stored history in: a historyContains step matches only thanks to it [openai-responses.continuation.json +]', async () => {
  const { session, client } = await open('continue-json');
  session.scenario('intro').whenLatestUser({ contains: 'My name is Ada' }).replies('Nice to meet you, Ada.');
  session
    .scenario('recall')
    .whenLatestUser('What is my name?')
    .whenHistoryContains([
      { role: 'user', content: 'My name is Ada.' },
      { role: 'assistant', content: 'Nice to meet you, Ada.' },
    ])
    .replies('Your name is Ada.');

  const first = await client.responses.create({ model: MODEL, instructions: 'Be kind.', input: 'My name is Ada.' });
  assert.equal(first.output_text, 'Nice to meet you, Ada.');
  assert.equal(storeOf(first), true);

  // Without the stored history the recall step does not match.
  const fresh = await rejected(client.responses.create({ model: MODEL, input: 'What is my name?' }));
  assert.equal(fresh.status, 409);
  assert.equal(fresh.code, 'no_match');

  const second = await client.responses.create({ model: MODEL, previous_response_id: first.id, input: 'What is my name?' });
  assert.equal(second.output_text, 'Your name is Ada.');
  assert.equal(second.previous_response_id, first.id);
  assert.notEqual(second.id, first.id);

  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.script ?? null]),
    [
      [200, 'intro'],
      [409, null],
      [200, 'recall'],
    ],
  );
  assert.deepEqual(
    entries[2].request?.messages.map((m) => [m.role, m.parts.map((p) => (p.type === 'text' ? p.text : p.type)).join('')]),
    [
      ['user', 'My name is Ada.'],
      ['assistant', 'Nice to meet you, Ada.'],
      ['user', 'What is my name?'],
    ],
    'the stored conversation comes first; the earlier instructions are not carried over',
  );
  const { problems } = await session.check();
  assert.deepEqual(
    problems.map((p) => p.kind),
    ['no_match'],
  );
});

test('a tool round through previous_response_id: only the function_call_output is sent, the call comes from the store [openai-responses.continuation.json +]', async () => {
  const { session, client } = await open('continue-tools');
  session
    .scenario('weather')
    .whenLatestUser({ contains: 'Paris' })
    .callsTool('weather', { city: 'Paris' }, 'call_paris')
    .thenWhenToolResult('weather', 'call_paris')
    .replies('Sunny in Paris.');

  const first = await client.responses.create({ model: MODEL, input: 'Weather in Paris?', tools: [weatherTool] });
  const [call] = functionCalls(first);
  assert.equal(call.call_id, 'call_paris');
  const second = await client.responses.create({
    model: MODEL,
    previous_response_id: first.id,
    input: [{ type: 'function_call_output', call_id: call.call_id, output: '21 °C' }],
    tools: [weatherTool],
  });
  assert.equal(second.output_text, 'Sunny in Paris.');

  // An output item of a stored response can be pointed at by id (item_reference).
  session
    .scenario('ref')
    .whenHistoryContains([{ role: 'assistant', content: 'Sunny in Paris.' }])
    .replies('Referenced.');
  const third = await client.responses.create({
    model: MODEL,
    input: [
      { type: 'item_reference', id: second.output[0].id as string },
      { role: 'user', content: 'Thanks' },
    ],
  });
  assert.equal(third.output_text, 'Referenced.');

  const { entries } = await session.journal();
  const messages = entries[1].request?.messages ?? [];
  assert.deepEqual(
    messages.map((m) => m.role),
    ['user', 'assistant', 'tool'],
  );
  assert.deepEqual(messages[2].parts[0], { type: 'tool_result', callId: 'call_paris', name: 'weather', content: '21 °C', isError: false });
  assert.deepEqual(
    entries[2].request?.messages.map((m) => m.role),
    ['assistant', 'user'],
  );
  await session.verify();
});

test('continuation streamed: each stored streamed response can be continued, the chain grows [openai-responses.continuation.stream +]', async () => {
  const { session, client } = await open('continue-stream');
  await session.load({ name: 'count', replies: [{ text: 'one' }, { text: 'two' }, { text: 'three' }] });
  let previous: string | undefined;
  const texts: string[] = [];
  for (const word of ['a', 'b', 'c']) {
    const final = await client.responses
      .stream({ model: MODEL, input: word, ...(previous && { previous_response_id: previous }) })
      .finalResponse();
    texts.push(final.output_text);
    assert.equal(final.previous_response_id, previous ?? null);
    previous = final.id;
  }
  assert.deepEqual(texts, ['one', 'two', 'three']);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.request?.messages.length),
    [1, 3, 5],
  );
  assert.deepEqual(
    entries[2].request?.messages.map((m) => (m.parts[0]?.type === 'text' ? m.parts[0].text : '')),
    ['a', 'one', 'b', 'two', 'c'],
  );
  assert.ok(entries.every((e) => e.stream));
  await session.verify();
});

test('an unknown previous_response_id is a 404 before anything is consumed; so are ids out of scope and store:false responses [openai-responses.continuation.json -]', async () => {
  const { session, client } = await open('continue-negative');
  await session.load({ name: 'queue', replies: [{ text: 'first' }, { text: 'second' }] });

  await notFound(
    client.responses.create({ model: MODEL, previous_response_id: 'resp_doesnotexist', input: 'Hi' }),
    "'resp_doesnotexist' not found",
  );
  const error = await rejected(client.responses.create({ model: MODEL, previous_response_id: 'resp_doesnotexist', input: 'Hi' }));
  assert.equal(error.param, 'previous_response_id');
  assert.equal(error.code, 'previous_response_not_found');

  // store:false is answered but never stored.
  const unstored = await client.responses.create({ model: MODEL, input: 'Hi', store: false });
  assert.equal(unstored.output_text, 'first');
  assert.equal(storeOf(unstored), false);
  await notFound(client.responses.create({ model: MODEL, previous_response_id: unstored.id, input: 'Again' }), "'store': false");

  // Stored responses are scoped by model and credential.
  const stored = await client.responses.create({ model: MODEL, input: 'Hi' });
  assert.equal(stored.output_text, 'second');
  await notFound(client.responses.create({ model: 'gpt-4.1', previous_response_id: stored.id, input: 'Again' }), `for model '${MODEL}'`);
  const otherKey = sdk(session, { baseURL: `${mock.baseUrl}/s/${session.id}/v1`, apiKey: 'another-key' });
  await notFound(otherKey.responses.create({ model: MODEL, previous_response_id: stored.id, input: 'Again' }), 'different API key');
  // …and by session: another session does not see it.
  const other = await open('continue-negative-other');
  await notFound(
    other.client.responses.create({ model: MODEL, previous_response_id: stored.id, input: 'Again' }),
    'continue-negative-other',
  );

  // Stored items too.
  await notFound(client.responses.create({ model: MODEL, input: [{ type: 'item_reference', id: 'msg_nope' }] }), "'msg_nope' not found");

  const { entries, counters } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.status),
    [404, 404, 200, 404, 200, 404, 404, 404],
  );
  assert.equal(counters.matched, 2, 'only the two answered requests consumed steps');
  await session.verify();
});

test('tool outputs must pair with calls in the spliced history [openai-responses.continuation.json -]', async () => {
  const { session, client } = await open('continue-pairing', { fallback: 'auto' });
  const first = await client.responses.create({ model: MODEL, input: 'Weather?', tools: [weatherTool] });
  const [call] = functionCalls(first);

  // A new user turn that leaves the stored call without its output.
  const pending = await rejected(
    client.responses.create({ model: MODEL, previous_response_id: first.id, input: 'Never mind', tools: [weatherTool] }),
  );
  assert.ok(pending instanceof OpenAI.BadRequestError);
  assert.equal(pending.message, `400 No tool output found for function call ${call.call_id}.`);
  assert.equal(pending.param, 'input');

  // An output for a call nobody made (not in the store, not in the input).
  const orphan = await rejected(
    client.responses.create({
      model: MODEL,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'x' }],
      tools: [weatherTool],
    }),
  );
  assert.ok(orphan instanceof OpenAI.BadRequestError);
  assert.equal(orphan.message, `400 No tool call found for function call output with call_id ${call.call_id}.`);

  const invalidId = await rejected(client.responses.create({ model: MODEL, previous_response_id: 'abc', input: 'Hi' }));
  assert.ok(invalidId instanceof OpenAI.BadRequestError);
  assert.equal(invalidId.code, 'invalid_value');

  const ok = await client.responses.create({
    model: MODEL,
    previous_response_id: first.id,
    input: [{ type: 'function_call_output', call_id: call.call_id, output: 'sunny' }],
    tools: [weatherTool],
  });
  assert.equal(ok.output_text, 'This is a scripted answer from Understudy.');
  const { counters } = await session.journal();
  assert.deepEqual([counters.requests, counters.invalid], [5, 3]);
});

test('the store is bounded: 409 response_store_full once full, store:false still answers, a reset empties it [openai-responses.continuation.stream -]', async () => {
  const { session, client } = await open('continue-full', { fallback: 'auto' });
  const send = (store?: boolean) =>
    fetch(`${mock.url('openai')}/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, input: 'fill', ...(store !== undefined && { store }) }),
    });
  for (let sent = 0; sent < MAX_STORED_RESPONSES; sent += 50) {
    const statuses = await Promise.all(
      Array.from({ length: Math.min(50, MAX_STORED_RESPONSES - sent) }, async () => (await send()).status),
    );
    assert.ok(statuses.every((s) => s === 200));
  }

  // Streamed or not, a request that would store gets 409 before anything is selected.
  const seen: ResponseStreamEvent[] = [];
  const helper = client.responses.stream({ model: MODEL, input: 'one more' });
  helper.on('event', (e) => seen.push(e));
  const full = await rejected(helper.finalResponse());
  assert.ok(full instanceof OpenAI.ConflictError, `got ${full.status}`);
  assert.equal(full.code, 'response_store_full');
  assert.equal(full.param, 'store');
  assert.equal(full.type, 'understudy_error');
  assert.match(full.message, new RegExp(`${MAX_STORED_RESPONSES} stored responses`));
  assert.match(full.message, /'store': false/);
  assert.equal(full.headers.get('x-should-retry'), 'false');
  assert.deepEqual(seen, []);
  const json = await rejected(client.responses.create({ model: MODEL, input: 'one more', store: true }));
  assert.equal(json.code, 'response_store_full');

  const unstored = await client.responses.create({ model: MODEL, input: 'not stored', store: false });
  assert.equal(unstored.status, 'completed');

  await session.reset();
  const again = await client.responses.stream({ model: MODEL, input: 'after reset' }).finalResponse();
  assert.equal(again.status, 'completed');
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream]),
    [[200, true]],
  );
});

test('a streamed continuation of an unknown id is a 404 before the stream starts [openai-responses.continuation.stream -]', async () => {
  const { session, client } = await open('continue-stream-negative');
  session.scenario('one').replies('answer');
  const seen: string[] = [];
  const helper = client.responses.stream({ model: MODEL, previous_response_id: 'resp_unknown', input: 'Hi' });
  helper.on('event', (e) => seen.push(e.type));
  await notFound(helper.finalResponse(), 'resp_unknown');
  assert.deepEqual(seen, []);
  const ok = await client.responses.stream({ model: MODEL, input: 'Hi' }).finalResponse();
  assert.equal(ok.output_text, 'answer');
  const { entries, counters } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.status),
    [404, 200],
  );
  assert.equal(counters.matched, 1);
  await session.verify();
});

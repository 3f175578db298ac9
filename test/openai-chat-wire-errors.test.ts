// OpenAI Chat Completions wire validation, seen through the real openai SDK: every malformed request
// gets OpenAI's own 400 shape before anything is selected, so nothing scripted is consumed; bodies no
// SDK can send (bad JSON, bad bytes, too large, too deep, wrong route or method) get clean errors in
// the same shape; and a request finds its session by key, header or path prefix.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

const SCRIPTED = 'The one scripted answer.';
const USER = [{ role: 'user', content: 'hi' }];
const BASE = { model: 'gpt-4o', messages: USER };
const WEATHER_TOOL = {
  type: 'function',
  function: { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};

let mock: Understudy;
let session: UnderstudySession;
let openai: OpenAI;
let expectedInvalid = 0;

before(async () => {
  mock = await startUnderstudy();
  session = await mock.session('wire-errors');
  await session.load({ scenarios: [{ name: 'only', replies: [{ text: SCRIPTED }] }] });
  openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
});

after(async () => {
  await mock?.close();
});

function client(options: ConstructorParameters<typeof OpenAI>[0] = {}): OpenAI {
  return new OpenAI({ baseURL: mock.url('openai'), apiKey: 'unknown-key', maxRetries: 0, timeout: 10_000, ...options });
}

function assertOpenAIErrorBody(
  value: unknown,
  status: number,
  what: string,
): { message: string; type: string; param: string | null; code: string | null } {
  assert.ok(typeof value === 'object' && value !== null, `${what}: body is not an object`);
  const body = value as Record<string, unknown>;
  assert.deepEqual(Object.keys(body), ['error'], `${what}: top-level keys`);
  const error = body.error as Record<string, unknown>;
  assert.deepEqual(Object.keys(error).sort(), ['code', 'message', 'param', 'type'], `${what}: error keys`);
  assert.equal(typeof error.message, 'string', `${what}: message`);
  assert.ok((error.message as string).length > 0, `${what}: empty message`);
  assert.ok(error.param === null || typeof error.param === 'string', `${what}: param`);
  assert.ok(error.code === null || typeof error.code === 'string', `${what}: code`);
  if (status < 500 && status !== 409) assert.equal(error.type, 'invalid_request_error', `${what}: type`);
  return error as { message: string; type: string; param: string | null; code: string | null };
}

/** Sends a bad body through the SDK; checks the SDK's error, the wire body and the journal. */
async function expectRejected(
  name: string,
  body: Record<string, unknown>,
  param: string | null,
  code: string | null,
  message?: RegExp,
): Promise<void> {
  const before = await session.journal();
  const error = await openai.chat.completions.create(body as never).then(
    () => assert.fail(`${name}: the request was accepted`),
    (e: unknown) => e,
  );
  assert.ok(error instanceof OpenAI.BadRequestError, `${name}: expected BadRequestError, got ${String(error)}`);
  assert.equal(error.status, 400, name);
  assert.equal(error.type, 'invalid_request_error', `${name}: type`);
  assert.equal(error.param, param, `${name}: param (message: ${error.message})`);
  assert.equal(error.code, code, `${name}: code (message: ${error.message})`);
  if (message) assert.match(error.message, message, name);
  assertOpenAIErrorBody({ error: error.error }, 400, name);
  const requestId = error.headers.get('x-request-id');
  assert.match(requestId ?? '', /^req_/, `${name}: x-request-id`);
  assert.equal(error.requestID, requestId, `${name}: SDK requestID`);

  const after = await session.journal();
  assert.equal(after.entries.length, before.entries.length + 1, `${name}: one journal entry`);
  const entry = after.entries[after.entries.length - 1];
  assert.equal(entry.status, 400, `${name}: journal status`);
  assert.equal(entry.requestId, requestId, `${name}: journal requestId`);
  assert.equal(entry.session, 'wire-errors', `${name}: journal session`);
  assert.equal(entry.route, 'POST /v1/chat/completions', `${name}: journal route`);
  assert.equal(entry.error?.code, code, `${name}: journal error code`);
  assert.equal(entry.error?.message, error.error && (error.error as { message: string }).message, `${name}: journal message`);
  assert.equal(entry.reply, undefined, `${name}: nothing replied`);
  assert.equal(entry.script, undefined, `${name}: no script selected`);
  assert.equal(entry.step, undefined, `${name}: no step selected`);
  assert.equal(after.counters.invalid, before.counters.invalid + 1, `${name}: counted as invalid`);
  expectedInvalid++;
}

const withMessages = (messages: unknown[]) => ({ model: 'gpt-4o', messages });
const withField = (extra: Record<string, unknown>) => ({ ...BASE, ...extra });
const toolCall = (id: string, name = 'weather') => ({ id, type: 'function', function: { name, arguments: '{"city":"Paris"}' } });

const CASES: { name: string; body: Record<string, unknown>; param: string | null; code: string | null; message?: RegExp }[] = [
  { name: 'model missing', body: { messages: USER }, param: null, code: null, message: /you must provide a model parameter/ },
  {
    name: 'model not a string',
    body: { model: 42, messages: USER },
    param: 'model',
    code: 'invalid_type',
    message: /Invalid type for 'model': expected a string, but got an integer instead/,
  },
  {
    name: 'messages missing',
    body: { model: 'gpt-4o' },
    param: 'messages',
    code: 'missing_required_parameter',
    message: /Missing required parameter: 'messages'/,
  },
  {
    name: 'messages not an array',
    body: { model: 'gpt-4o', messages: 'hi' },
    param: 'messages',
    code: 'invalid_type',
    message: /but got a string instead/,
  },
  { name: 'messages empty', body: withMessages([]), param: 'messages', code: 'empty_array', message: /empty array/ },
  { name: 'message without role', body: withMessages([{ content: 'hi' }]), param: 'messages[0].role', code: 'missing_required_parameter' },
  {
    name: 'message with unknown role',
    body: withMessages([{ role: 'wizard', content: 'hi' }]),
    param: 'messages[0].role',
    code: 'invalid_value',
    message: /Invalid value: 'wizard'\. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'/,
  },
  {
    name: 'user message without content',
    body: withMessages([{ role: 'user' }]),
    param: 'messages[0].content',
    code: 'missing_required_parameter',
  },
  {
    name: 'tool message without tool_call_id',
    body: withMessages([
      { role: 'user', content: 'hi' },
      { role: 'assistant', tool_calls: [toolCall('call_1')] },
      { role: 'tool', content: 'sunny' },
    ]),
    param: 'messages[2].tool_call_id',
    code: 'missing_required_parameter',
  },
  {
    name: 'tool message not answering a preceding tool call',
    body: withMessages([
      { role: 'user', content: 'hi' },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
    ]),
    param: 'messages.[1].role',
    code: null,
    message: /messages with role 'tool' must be a response to a preceeding message with 'tool_calls'/,
  },
  {
    name: 'tool message answering an unknown call id',
    body: withMessages([
      { role: 'user', content: 'hi' },
      { role: 'assistant', tool_calls: [toolCall('call_1')] },
      { role: 'tool', tool_call_id: 'call_2', content: 'sunny' },
    ]),
    param: 'messages.[2].role',
    code: null,
  },
  {
    name: 'assistant tool_calls followed by a user message',
    body: withMessages([
      { role: 'user', content: 'hi' },
      { role: 'assistant', tool_calls: [toolCall('call_1'), toolCall('call_2')] },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      { role: 'user', content: 'and?' },
    ]),
    param: 'messages.[1].role',
    code: null,
    message: /did not have response messages: call_2/,
  },
  {
    name: 'assistant tool_calls at the end without results',
    body: withMessages([
      { role: 'user', content: 'hi' },
      { role: 'assistant', tool_calls: [toolCall('call_9')] },
    ]),
    param: 'messages.[1].role',
    code: null,
    message: /call_9/,
  },
  {
    name: 'content part with unknown type',
    body: withMessages([{ role: 'user', content: [{ type: 'video', video: 'x' }] }]),
    param: 'messages[0].content[0].type',
    code: 'invalid_value',
    message: /Invalid value: 'video'/,
  },
  { name: 'tools not an array', body: withField({ tools: WEATHER_TOOL }), param: 'tools', code: 'invalid_type' },
  {
    name: 'server-hosted web_search tool',
    body: withField({ tools: [{ type: 'web_search' }] }),
    param: 'tools[0].type',
    code: 'invalid_value',
    message: /Invalid value: 'web_search'/,
  },
  {
    name: 'server-hosted file_search tool',
    body: withField({ tools: [WEATHER_TOOL, { type: 'file_search', vector_store_ids: ['vs_1'] }] }),
    param: 'tools[1].type',
    code: 'invalid_value',
    message: /'file_search'/,
  },
  {
    name: 'function tool without name',
    body: withField({ tools: [{ type: 'function', function: { parameters: {} } }] }),
    param: 'tools[0].function.name',
    code: 'missing_required_parameter',
  },
  {
    name: 'function tool with an invalid name',
    body: withField({ tools: [{ type: 'function', function: { name: 'get weather!', parameters: {} } }] }),
    param: 'tools[0].function.name',
    code: 'invalid_value',
    message: /does not match pattern/,
  },
  {
    name: 'function tool with a name over 64 characters',
    body: withField({ tools: [{ type: 'function', function: { name: 'x'.repeat(65) } }] }),
    param: 'tools[0].function.name',
    code: 'invalid_value',
  },
  {
    name: 'function tool with non-object parameters',
    body: withField({ tools: [{ type: 'function', function: { name: 'weather', parameters: 'city: string' } }] }),
    param: 'tools[0].function.parameters',
    code: 'invalid_type',
    message: /expected an object, but got a string instead/,
  },
  {
    name: 'tool_choice unknown string',
    body: withField({ tools: [WEATHER_TOOL], tool_choice: 'always' }),
    param: 'tool_choice',
    code: 'invalid_value',
    message: /Supported values are: 'none', 'auto', and 'required'/,
  },
  {
    name: 'tool_choice names a tool that is not declared',
    body: withField({ tools: [WEATHER_TOOL], tool_choice: { type: 'function', function: { name: 'stocks' } } }),
    param: 'tool_choice',
    code: 'invalid_value',
    message: /stocks/,
  },
  {
    name: 'tool_choice without tools',
    body: withField({ tool_choice: 'required' }),
    param: 'tool_choice',
    code: null,
    message: /only allowed when 'tools' are specified/,
  },
  {
    name: 'legacy functions',
    body: withField({ functions: [{ name: 'weather', parameters: {} }] }),
    param: 'functions',
    code: 'invalid_value',
  },
  { name: 'legacy function_call', body: withField({ function_call: 'auto' }), param: 'function_call', code: 'invalid_value' },
  {
    name: 'response_format unknown type',
    body: withField({ response_format: { type: 'yaml' } }),
    param: 'response_format.type',
    code: 'invalid_value',
    message: /'yaml'/,
  },
  {
    name: 'response_format json_schema without name',
    body: withField({ response_format: { type: 'json_schema', json_schema: { schema: { type: 'object' } } } }),
    param: 'response_format.json_schema.name',
    code: 'missing_required_parameter',
  },
  {
    name: 'response_format json_schema without json_schema',
    body: withField({ response_format: { type: 'json_schema' } }),
    param: 'response_format.json_schema',
    code: 'missing_required_parameter',
  },
  {
    name: 'stream_options without stream',
    body: withField({ stream_options: { include_usage: true } }),
    param: 'stream_options',
    code: null,
    message: /only allowed when 'stream' is enabled/,
  },
  {
    name: 'parallel_tool_calls not boolean',
    body: withField({ tools: [WEATHER_TOOL], parallel_tool_calls: 'yes' }),
    param: 'parallel_tool_calls',
    code: 'invalid_type',
  },
  { name: 'n: 2', body: withField({ n: 2 }), param: 'n', code: 'invalid_value' },
  {
    name: 'max_tokens: 0',
    body: withField({ max_tokens: 0 }),
    param: 'max_tokens',
    code: 'integer_below_min_value',
    message: /Expected a value >= 1, but got 0 instead/,
  },
];

test('[openai-chat.validation.json -] each malformed Chat Completions request gets OpenAI’s 400 through the SDK and consumes nothing', async (t) => {
  for (const c of CASES) {
    await t.test(c.name, () => expectRejected(c.name, c.body, c.param, c.code, c.message));
  }
  // The one scripted reply is still there for the next valid request, and only once.
  const ok = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
  assert.equal(ok.choices[0].message.content, SCRIPTED);
  const journal = await session.journal();
  const last = journal.entries[journal.entries.length - 1];
  assert.equal(last.status, 200);
  assert.equal(last.script, 'only');
  assert.equal(journal.counters.invalid, expectedInvalid);
  assert.equal(journal.counters.matched, 1);
  const again = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }).then(
    () => assert.fail('the single scripted reply was delivered twice'),
    (e: unknown) => e,
  );
  assert.ok(again instanceof OpenAI.ConflictError);
  assert.equal(again.code, 'scenario_exhausted');
  // verify() names every invalid request.
  const report = await session.check();
  assert.equal(report.ok, false);
  assert.equal(report.problems.filter((p) => p.kind === 'invalid_request').length, expectedInvalid);
});

test('[openai-chat.validation.json +] a valid request using every accepted option passes validation', async () => {
  const valid = await mock.session('wire-valid', { fallback: 'auto' });
  const client = new OpenAI({ baseURL: mock.url('openai'), apiKey: valid.apiKey, maxRetries: 0, timeout: 10_000 });
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
    { role: 'developer', content: 'be brief' },
    { role: 'system', content: [{ type: 'text', text: 'answer in JSON' }] },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'weather here?' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
      ],
    },
    { role: 'assistant', content: null, tool_calls: [toolCall('call_1'), toolCall('call_2')] as never },
    { role: 'tool', tool_call_id: 'call_2', content: 'rainy' },
    { role: 'tool', tool_call_id: 'call_1', content: [{ type: 'text', text: 'sunny' }] },
    { role: 'assistant', content: 'It is sunny.' },
    { role: 'user', content: 'and in Paris?' },
  ];
  const options = {
    model: 'gpt-4o',
    messages,
    tools: [
      WEATHER_TOOL as OpenAI.Chat.ChatCompletionTool,
      {
        type: 'function' as const,
        function: {
          name: 'get-time_2',
          description: 'time',
          strict: true,
          parameters: { type: 'object', properties: {}, additionalProperties: false },
        },
      },
    ],
    tool_choice: { type: 'function' as const, function: { name: 'weather' } },
    parallel_tool_calls: false,
    response_format: {
      type: 'json_schema' as const,
      json_schema: {
        name: 'answer',
        strict: true,
        schema: { type: 'object', properties: { sky: { type: 'string' } }, required: ['sky'], additionalProperties: false },
      },
    },
    n: 1,
    max_tokens: 100,
    max_completion_tokens: 100,
    temperature: 0.2,
    top_p: 1,
    presence_penalty: 0,
    frequency_penalty: 0,
    seed: 7,
    stop: ['END'],
    user: 'tester',
    metadata: { run: '1' },
    store: false,
  };
  const json = await client.chat.completions.create(options);
  const call = json.choices[0].message.tool_calls?.[0];
  assert.ok(call && call.type === 'function');
  assert.equal(call.function.name, 'weather', 'the named tool_choice is honoured');

  const stream = await client.chat.completions.create({ ...options, stream: true, stream_options: { include_usage: true } });
  let usage: OpenAI.CompletionUsage | null | undefined;
  let name = '';
  for await (const chunk of stream) {
    usage = chunk.usage ?? usage;
    name += chunk.choices[0]?.delta.tool_calls?.[0]?.function?.name ?? '';
  }
  assert.equal(name, 'weather');
  assert.ok(usage && usage.prompt_tokens > 0, 'include_usage adds a usage chunk');

  const journal = await valid.journal();
  assert.deepEqual(
    journal.entries.map((e) => e.status),
    [200, 200],
  );
  assert.equal(journal.counters.invalid, 0);
  assert.equal(journal.entries[1].request?.streamUsage, true);
});

// ------------------------------------------------------------------ bodies no SDK would send

interface RawResult {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

async function raw(path: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<RawResult> {
  const response = await fetch(`${mock.baseUrl}${path}`, { method: 'POST', ...init });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

function expectRawError(result: RawResult, status: number, code: string | null, what: string): { message: string } {
  assert.equal(result.status, status, `${what}: status (body ${result.text})`);
  assert.match(result.headers.get('content-type') ?? '', /^application\/json/, `${what}: content-type`);
  assert.match(result.headers.get('x-request-id') ?? '', /^req_/, `${what}: x-request-id`);
  const error = assertOpenAIErrorBody(result.json, status, what);
  assert.equal(error.code, code, `${what}: code (${error.message})`);
  assert.equal(error.param, null, `${what}: param`);
  return error;
}

const json = { 'content-type': 'application/json' };
const CHAT = '/v1/chat/completions';

test('malformed JSON, empty body, wrong content type and invalid UTF-8 get 400 in OpenAI’s shape', async () => {
  expectRawError(await raw(CHAT, { headers: json, body: '{"model": "gpt-4o", "messages": [' }), 400, 'invalid_json', 'malformed JSON');
  expectRawError(await raw(CHAT, { headers: json, body: '' }), 400, 'invalid_json', 'empty body');
  expectRawError(await raw(CHAT, { headers: json }), 400, 'invalid_json', 'no body');
  const plain = expectRawError(
    await raw(CHAT, { headers: { 'content-type': 'text/plain' }, body: JSON.stringify(BASE) }),
    400,
    'unsupported_content_type',
    'text/plain',
  );
  assert.match(plain.message, /application\/json/);
  expectRawError(
    await raw(CHAT, { headers: {}, body: new Uint8Array(Buffer.from(JSON.stringify(BASE))) }),
    400,
    'unsupported_content_type',
    'no content type',
  );
  const bytes = Buffer.concat([
    Buffer.from('{"model":"gpt-4o","messages":[{"role":"user","content":"'),
    Buffer.from([0xc3, 0x28, 0xff, 0xfe]),
    Buffer.from('"}]}'),
  ]);
  const utf8 = expectRawError(await raw(CHAT, { headers: json, body: new Uint8Array(bytes) }), 400, 'invalid_json', 'invalid UTF-8');
  assert.match(utf8.message, /UTF-8/);
  // A JSON value that is not an object.
  expectRawError(await raw(CHAT, { headers: json, body: '"hello"' }), 400, 'invalid_type', 'a string body');
  // application/json with a charset is JSON.
  const charset = await raw(CHAT, {
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ model: 'gpt-4o' }),
  });
  assert.equal(charset.status, 400, charset.text);
  assert.equal((charset.json as { error: { param: string } }).error.param, 'messages', 'charset content type reaches the decoder');
});

test('deeply nested JSON gets a clean 400, not a crash, and the journal stays readable', async () => {
  const deep = await mock.session('deep', { fallback: 'auto' });
  const headers = { ...json, authorization: `Bearer ${deep.apiKey}` };
  expectRawError(await raw(CHAT, { headers, body: '['.repeat(10_000) }), 400, 'invalid_json', 'unclosed 10,000 ['.replace(',', ''));
  const closed = await raw(CHAT, { headers, body: '['.repeat(10_000) + ']'.repeat(10_000) });
  expectRawError(closed, 400, 'json_too_deep', '10000 [ ] closed');

  let nested = '{}';
  for (let i = 0; i < 10_000; i++) nested = `{"a":${nested}}`;
  const inParameters = `{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":${nested}}}]}`;
  expectRawError(await raw(CHAT, { headers, body: inParameters }), 400, 'json_too_deep', 'deep tool parameters');
  const inMetadata = `{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}],"metadata":${nested}}`;
  expectRawError(await raw(CHAT, { headers, body: inMetadata }), 400, 'json_too_deep', 'deep metadata');
  // Brackets inside strings do not count.
  const inString = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: '[{'.repeat(5_000) + '\\"' }] });
  const stringOk = await raw(CHAT, { headers, body: inString });
  assert.equal(stringOk.status, 200, stringOk.text);

  const journal = await deep.journal();
  assert.deepEqual(
    journal.entries.map((e) => e.status),
    [400, 400, 400, 400, 200],
  );

  // A deep but realistic schema (120 nested objects, ~245 levels of JSON) still works end to end,
  // including checking the scripted arguments against it.
  let schema: Record<string, unknown> = { type: 'string' };
  let args: unknown = 'leaf';
  for (let i = 0; i < 120; i++) {
    schema = { type: 'object', properties: { a: schema }, required: ['a'] };
    args = { a: args };
  }
  await deep.load({
    scenarios: [{ name: 'deep', replies: [{ toolCalls: [{ id: 'call_deep', name: 'nested', arguments: args as never }] }] }],
  });
  const openaiDeep = new OpenAI({ baseURL: mock.url('openai'), apiKey: deep.apiKey, maxRetries: 0, timeout: 10_000 });
  const ok = await openaiDeep.chat.completions.create({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'hi' }],
    tools: [{ type: 'function', function: { name: 'nested', parameters: schema } }],
  });
  const call = ok.choices[0].message.tool_calls?.[0];
  assert.ok(call && call.type === 'function');
  assert.deepEqual(JSON.parse(call.function.arguments), args);
  assert.equal((await deep.journal()).entries.length, 6);
});

test('a body over the limit gets 413 in OpenAI’s shape, declared or chunked', async () => {
  const small = await startUnderstudy({ bodyLimit: 1024 });
  try {
    const url = `${small.baseUrl}${CHAT}`;
    const big = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x'.repeat(2048) }] });
    const declared = await fetch(url, { method: 'POST', headers: json, body: big });
    const declaredBody = (await declared.json()) as unknown;
    assert.equal(declared.status, 413);
    assert.ok(declared.headers.get('x-request-id'));
    const error = assertOpenAIErrorBody(declaredBody, 413, '413 declared');
    assert.equal(error.code, 'request_too_large');
    assert.match(error.message, /1024 bytes/);

    // Without a content-length (chunked), the limit is enforced while reading.
    const chunks = [big.slice(0, 600), big.slice(600, 1500), big.slice(1500)];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
        controller.close();
      },
    });
    const chunked = await fetch(url, { method: 'POST', headers: json, body: stream, duplex: 'half' } as RequestInit);
    assert.equal(chunked.status, 413);
    assertOpenAIErrorBody(await chunked.json(), 413, '413 chunked');

    // Through the SDK: an APIError with status 413, not a connection error.
    const sdk = new OpenAI({ baseURL: small.url('openai'), apiKey: 'k', maxRetries: 0, timeout: 10_000 });
    const sdkError = await sdk.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x'.repeat(2048) }] }).then(
      () => assert.fail('accepted'),
      (e: unknown) => e,
    );
    assert.ok(sdkError instanceof OpenAI.APIError);
    assert.equal(sdkError.status, 413);
    assert.equal(sdkError.code, 'request_too_large');

    const journal = await small.defaultSession.journal();
    assert.deepEqual(
      journal.entries.map((e) => e.status),
      [413, 413, 413],
    );
    // A body under the limit is still read and decoded.
    await small.defaultSession.load({ scenarios: [{ name: 'small', replies: [{ text: 'fits' }] }] });
    const fits = await sdk.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(fits.choices[0].message.content, 'fits');
  } finally {
    await small.close();
  }
});

test('unknown route → 404 and wrong method → 405 with Allow, both in OpenAI’s shape', async () => {
  const notFound = await raw('/v1/chat/complete', { headers: json, body: JSON.stringify(BASE) });
  const error = expectRawError(notFound, 404, 'unknown_url', 'unknown route');
  assert.match(error.message, /\/v1\/chat\/complete/);
  expectRawError(await raw('/v1/chat/complete', { method: 'GET' }), 404, 'unknown_url', 'unknown route GET');

  const get = await raw(CHAT, { method: 'GET' });
  expectRawError(get, 405, 'method_not_allowed', 'GET chat/completions');
  assert.equal(get.headers.get('allow'), 'POST');
  const del = await raw(CHAT, { method: 'DELETE' });
  assert.equal(del.status, 405);
  assert.equal(del.headers.get('allow'), 'POST');

  // The SDK surfaces the 404 as NotFoundError.
  const sdkError = await openai.post('/chat/complete', { body: BASE }).then(
    () => assert.fail('accepted'),
    (e: unknown) => e,
  );
  assert.ok(sdkError instanceof OpenAI.NotFoundError);
  assert.equal(sdkError.type, 'invalid_request_error');
});

test('stream is taken from the body, never from Accept', async () => {
  const auto = await mock.session('accept', { fallback: 'auto' });
  const headers = { ...json, authorization: `Bearer ${auto.apiKey}` };
  const plain = await raw(CHAT, { headers: { ...headers, accept: 'text/event-stream' }, body: JSON.stringify(BASE) });
  assert.equal(plain.status, 200, plain.text);
  assert.match(plain.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal((plain.json as { object: string }).object, 'chat.completion');

  const streamed = await raw(CHAT, {
    headers: { ...headers, accept: 'application/json' },
    body: JSON.stringify({ ...BASE, stream: true }),
  });
  assert.equal(streamed.status, 200, streamed.text);
  assert.match(streamed.headers.get('content-type') ?? '', /^text\/event-stream/);
  assert.match(streamed.text, /^data: \{.*"object":"chat\.completion\.chunk"/);
  assert.match(streamed.text, /data: \[DONE\]\n\n$/);
});

// ------------------------------------------------------------------ sessions

test('a request finds its session by key, header or path prefix', async (t) => {
  const alpha = await mock.session('alpha', { apiKey: 'key-alpha' });
  await alpha.load({ scenarios: [{ name: 'a', exhausted: 'repeat_last', replies: [{ text: 'from alpha' }] }] });
  await mock.defaultSession.load({ scenarios: [{ name: 'd', exhausted: 'repeat_last', replies: [{ text: 'from default' }] }] });
  const body = JSON.stringify(BASE);

  async function answeredBy(path: string, headers: Record<string, string>): Promise<string> {
    const result = await raw(path, { headers: { ...json, ...headers }, body });
    assert.equal(result.status, 200, result.text);
    return (result.json as { choices: { message: { content: string } }[] }).choices[0].message.content;
  }
  let alphaRequests = 0;
  async function expectAlpha(what: string, path: string, headers: Record<string, string>) {
    assert.equal(await answeredBy(path, headers), 'from alpha', what);
    alphaRequests++;
    const journal = await alpha.journal();
    assert.equal(journal.entries.length, alphaRequests, `${what}: recorded in alpha's journal`);
    assert.equal(journal.entries[journal.entries.length - 1].session, 'alpha');
  }

  await t.test('Authorization: Bearer (the SDK)', async () => {
    const sdk = client({ apiKey: 'key-alpha' });
    const reply = await sdk.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(reply.choices[0].message.content, 'from alpha');
    alphaRequests++;
    assert.equal((await alpha.journal()).entries.length, alphaRequests);
  });
  await t.test('api-key (Azure)', () => expectAlpha('api-key', CHAT, { 'api-key': 'key-alpha' }));
  await t.test('x-api-key (Anthropic)', () => expectAlpha('x-api-key', CHAT, { 'x-api-key': 'key-alpha' }));
  await t.test('x-goog-api-key (Gemini)', () => expectAlpha('x-goog-api-key', CHAT, { 'x-goog-api-key': 'key-alpha' }));
  await t.test('?key= (query)', () => expectAlpha('?key=', `${CHAT}?key=key-alpha`, {}));
  await t.test('x-understudy-session header', async () => {
    await expectAlpha('x-understudy-session', CHAT, { 'x-understudy-session': 'alpha' });
    // The header wins over a key of another session.
    await expectAlpha('x-understudy-session + other key', CHAT, { 'x-understudy-session': 'alpha', authorization: 'Bearer understudy' });
    const sdk = client({ defaultHeaders: { 'x-understudy-session': 'alpha' } });
    const reply = await sdk.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(reply.choices[0].message.content, 'from alpha');
    alphaRequests++;
  });
  await t.test('/s/<id>/v1 path prefix', async () => {
    await expectAlpha('path prefix', `/s/alpha${CHAT}`, {});
    const sdk = new OpenAI({ baseURL: `${mock.baseUrl}/s/alpha/v1`, apiKey: 'whatever', maxRetries: 0, timeout: 10_000 });
    const reply = await sdk.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(reply.choices[0].message.content, 'from alpha');
    alphaRequests++;
    assert.equal((await alpha.journal()).entries.length, alphaRequests);
  });
  await t.test('an unknown key falls back to the default session', async () => {
    const before = (await mock.defaultSession.journal()).entries.length;
    assert.equal(await answeredBy(CHAT, { authorization: 'Bearer no-such-key' }), 'from default');
    assert.equal(await answeredBy(CHAT, { 'x-api-key': 'no-such-key' }), 'from default');
    assert.equal(await answeredBy(CHAT, {}), 'from default');
    const journal = await mock.defaultSession.journal();
    assert.equal(journal.entries.length, before + 3);
    assert.ok(journal.entries.slice(before).every((e) => e.session === 'default'));
    assert.equal((await alpha.journal()).entries.length, alphaRequests, 'alpha saw none of them');
  });
  await t.test('an unknown session named by header or prefix gets a 404 naming it', async () => {
    const byHeader = await raw(CHAT, { headers: { ...json, 'x-understudy-session': 'ghost-header' }, body });
    const e1 = expectRawError(byHeader, 404, 'session_not_found', 'unknown session header');
    assert.match(e1.message, /"ghost-header"/);
    const byPrefix = await raw(`/s/ghost-prefix${CHAT}`, { headers: json, body });
    const e2 = expectRawError(byPrefix, 404, 'session_not_found', 'unknown session prefix');
    assert.match(e2.message, /"ghost-prefix"/);
    // Through the SDK: NotFoundError, and the default session did not answer.
    const sdk = new OpenAI({ baseURL: `${mock.baseUrl}/s/ghost-sdk/v1`, apiKey: 'understudy', maxRetries: 0, timeout: 10_000 });
    const error = await sdk.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }).then(
      () => assert.fail('accepted'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof OpenAI.NotFoundError);
    assert.match(error.message, /ghost-sdk/);
  });
});

test('after all of that the server still answers a valid request', async () => {
  const sdk = client();
  const reply = await sdk.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'still there?' }] });
  assert.equal(reply.choices[0].message.content, 'from default');
  const health = await fetch(`${mock.baseUrl}/_understudy/health`);
  assert.equal(health.status, 200);
});

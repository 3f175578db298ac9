// Wire validation of the Messages API: malformed requests get Anthropic's 400 (`invalid_request_error`,
// `path: problem` messages) before anything is selected, through the real SDKs; valid requests that
// use every accepted option pass and decode as expected.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import Anthropic from '@anthropic-ai/sdk';
import Anthropic0x from 'anthropic-0x';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/index.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

type Body = Record<string, unknown>;
const MODEL = 'claude-sonnet-4-6';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const tool = { name: 'weather', description: 'Weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } };
const base: Body = { model: MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] };

function v1(session: UnderstudySession): Anthropic {
  return new Anthropic({ baseURL: mock.url('anthropic'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
}

function v0(session: UnderstudySession): Anthropic0x {
  return new Anthropic0x({ baseURL: mock.url('anthropic'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
}

interface Case {
  name: string;
  body: Body;
  /** The exact message, or a pattern for long ones. */
  message: string | RegExp;
  /** Send through SDK 1.x (anthropic-version 2026-10-21) instead of 0.x (2023-06-01). */
  v2026?: boolean;
  /** Send with fetch: the SDK itself cannot send this body (it inspects `tools` before sending). */
  raw?: boolean;
}

const without = (key: string): Body => Object.fromEntries(Object.entries(base).filter(([k]) => k !== key));
const msgs = (...messages: unknown[]): Body => ({ ...base, messages });
const toolUse = { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } };

const CASES: Case[] = [
  { name: 'model missing', body: without('model'), message: 'model: Field required' },
  { name: 'max_tokens missing', body: without('max_tokens'), message: 'max_tokens: Field required' },
  { name: 'max_tokens a string', body: { ...base, max_tokens: '100' }, message: 'max_tokens: Input should be a valid integer' },
  {
    name: 'max_tokens fractional',
    body: { ...base, max_tokens: 1.5 },
    message: 'max_tokens: Input should be a valid integer, got a number with a fractional part',
  },
  { name: 'max_tokens negative', body: { ...base, max_tokens: -1 }, message: 'max_tokens: Input should be greater than or equal to 0' },
  { name: 'max_tokens 0', body: { ...base, max_tokens: 0 }, message: /^max_tokens: Understudy does not support max_tokens 0/ },
  { name: 'messages missing', body: without('messages'), message: 'messages: Field required' },
  { name: 'messages empty', body: msgs(), message: 'messages: at least one message is required' },
  {
    name: 'unknown role',
    body: msgs({ role: 'tool', content: 'x' }),
    message: "messages.0.role: Input should be 'user' or 'assistant'",
  },
  { name: 'content missing', body: msgs({ role: 'user' }), message: 'messages.0.content: Field required' },
  {
    name: 'empty string content',
    body: msgs({ role: 'user', content: '' }),
    message: 'messages.0: all messages must have non-empty content except for the optional final assistant message',
  },
  {
    name: 'empty block list',
    body: msgs({ role: 'user', content: 'a' }, { role: 'assistant', content: [] }, { role: 'user', content: 'b' }),
    message: 'messages.1: all messages must have non-empty content except for the optional final assistant message',
  },
  {
    name: 'unknown content block type',
    body: msgs({ role: 'user', content: [{ type: 'video', url: 'x' }] }),
    message: /^messages\.0\.content\.0: Input tag 'video' found using 'type' does not match any of the expected tags: 'text', 'image', /,
  },
  {
    name: 'empty text block',
    body: msgs({ role: 'user', content: [{ type: 'text', text: '' }] }),
    message: 'messages: text content blocks must be non-empty',
  },
  {
    name: 'whitespace-only text',
    body: msgs({ role: 'user', content: '  \n' }),
    message: 'messages: text content blocks must contain non-whitespace text',
  },
  {
    name: 'tool_use without a tool_result after it',
    body: {
      ...msgs({ role: 'user', content: 'Weather?' }, { role: 'assistant', content: [toolUse] }, { role: 'user', content: 'well?' }),
      tools: [tool],
    },
    message:
      'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
  },
  {
    name: 'tool_result without a tool_use before it',
    body: msgs({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'sunny' }] }),
    message:
      'messages.0.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_x. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
  },
  {
    name: 'tool_use in a user message',
    body: msgs({ role: 'user', content: [toolUse] }),
    message: "messages.0.content.0: 'tool_use' blocks are only allowed in assistant messages",
  },
  {
    name: 'tool_use input not an object',
    body: msgs(
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: [{ ...toolUse, input: '{"city":"Paris"}' }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1' }] },
    ),
    message: 'messages.1.content.0.input: Input should be a valid dictionary',
  },
  {
    name: 'tool_use id outside the allowed pattern',
    body: msgs({ role: 'user', content: 'Weather?' }, { role: 'assistant', content: [{ ...toolUse, id: 'call.1' }] }),
    message: "messages.1.content.0.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
  },
  {
    name: 'final assistant content with trailing whitespace',
    body: msgs({ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Well, ' }),
    message: 'messages: final assistant content cannot end with trailing whitespace',
  },
  {
    name: 'image with an unsupported media type',
    body: msgs({ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/bmp', data: PNG } }] }),
    message: "messages.0.content.0.source.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'",
  },
  {
    name: 'server tool blocks in the history',
    body: msgs(
      { role: 'user', content: 'a' },
      { role: 'assistant', content: [{ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }] },
    ),
    message: /^messages\.1\.content\.0: Understudy does not support server tools/,
  },
  {
    name: 'cache_control of an unknown type',
    body: msgs({ role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { type: 'persistent' } }] }),
    message: "messages.0.content.0.cache_control.type: Input should be 'ephemeral'",
  },
  {
    name: 'system neither string nor blocks',
    body: { ...base, system: 42 },
    message: 'system: Input should be a valid string or a list of text blocks',
  },
  { name: 'tools not a list', body: { ...base, tools: tool }, message: 'tools: Input should be a valid list', raw: true },
  {
    name: 'tool without input_schema',
    body: { ...base, tools: [{ name: 'weather' }] },
    message: 'tools.0.custom.input_schema: Field required',
  },
  {
    name: 'tool name outside the pattern',
    body: { ...base, tools: [{ ...tool, name: 'get.weather' }] },
    message: "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'",
  },
  {
    name: 'input_schema not of type object',
    body: { ...base, tools: [{ ...tool, input_schema: { type: 'array' } }] },
    message: "tools.0.custom.input_schema.type: Input should be 'object'",
  },
  {
    name: 'input_schema that is not a valid JSON schema',
    body: { ...base, tools: [{ ...tool, input_schema: { type: 'object', properties: 5 } }] },
    message: /^tools\.0\.custom\.input_schema: JSON schema is invalid/,
  },
  { name: 'duplicate tool names', body: { ...base, tools: [tool, tool] }, message: 'tools: Tool names must be unique.' },
  {
    name: 'a server tool (web_search)',
    body: { ...base, tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }] },
    message: /^tools\.0: Understudy does not support Anthropic's server and built-in tools \(type 'web_search_20250305'\)/,
  },
  {
    name: 'MCP servers',
    body: { ...base, mcp_servers: [{ type: 'url', url: 'https://example.com/mcp', name: 'x' }] },
    message: /^mcp_servers: Understudy does not support MCP servers/,
  },
  {
    name: 'tool_choice of an unknown type',
    body: { ...base, tools: [tool], tool_choice: { type: 'required' } },
    message: "tool_choice: Input tag 'required' found using 'type' does not match any of the expected tags: 'auto', 'any', 'tool', 'none'",
  },
  {
    name: 'tool_choice naming an undeclared tool',
    body: { ...base, tools: [tool], tool_choice: { type: 'tool', name: 'nope' } },
    message: "tool_choice.tool.name: tool 'nope' is not among the tools declared in 'tools'",
  },
  {
    name: 'tool_choice any without tools',
    body: { ...base, tool_choice: { type: 'any' } },
    message: "tool_choice: tool_choice 'any' requires at least one tool in 'tools'",
  },
  {
    name: 'disable_parallel_tool_use not a boolean',
    body: { ...base, tools: [tool], tool_choice: { type: 'auto', disable_parallel_tool_use: 'yes' } },
    message: 'tool_choice.auto.disable_parallel_tool_use: Input should be a valid boolean',
  },
  {
    name: 'output_config.format of another type',
    body: { ...base, output_config: { format: { type: 'json_object' } } },
    message: "output_config.format.type: Input should be 'json_schema'",
  },
  { name: 'temperature above 1', body: { ...base, temperature: 1.5 }, message: 'temperature: Input should be less than or equal to 1' },
  { name: 'stream not a boolean', body: { ...base, stream: 'yes' }, message: 'stream: Input should be a valid boolean' },
  {
    name: 'temperature under 2026-10-21',
    body: { ...base, temperature: 1 },
    message: /^temperature: Extra inputs are not permitted/,
    v2026: true,
  },
  { name: 'top_k under 2026-10-21', body: { ...base, top_k: 5 }, message: /^top_k: Extra inputs are not permitted/, v2026: true },
  {
    name: 'document in an assistant message under 2026-10-21',
    body: msgs(
      { role: 'user', content: 'Summarise' },
      { role: 'assistant', content: [{ type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'x' } }] },
      { role: 'user', content: 'go on' },
    ),
    message: /^messages\.1\.content\.0: document blocks are not accepted in assistant messages/,
    v2026: true,
  },
  {
    name: 'citations on a user text block under 2026-10-21',
    body: msgs({
      role: 'user',
      content: [
        {
          type: 'text',
          text: 'Hi',
          citations: [{ type: 'char_location', cited_text: 'x', document_index: 0, start_char_index: 0, end_char_index: 1 }],
        },
      ],
    }),
    message: /^messages\.0\.content\.0\.citations: citations on user text blocks are not accepted/,
    v2026: true,
  },
];

test('[anthropic-messages.validation.json -] each malformed Messages request gets Anthropic’s 400 through the SDK and consumes nothing', async (t) => {
  const session = await mock.session('wire-errors');
  session.scenario('survivor').replies('still here');
  const old = v0(session);
  const current = v1(session);
  for (const c of CASES) {
    await t.test(c.name, async () => {
      let body: { type: string; error: { type: string; message: string }; request_id: string };
      if (c.raw) {
        const response = await fetch(`${mock.baseUrl}/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': session.apiKey },
          body: JSON.stringify(c.body),
        });
        assert.equal(response.status, 400);
        body = (await response.json()) as typeof body;
      } else {
        const request = c.v2026
          ? current.messages.create(c.body as unknown as Anthropic.MessageCreateParamsNonStreaming)
          : old.messages.create(c.body as unknown as Anthropic0x.MessageCreateParamsNonStreaming);
        const error = await request.catch((e: unknown) => e);
        const BadRequest = c.v2026 ? Anthropic.BadRequestError : Anthropic0x.BadRequestError;
        assert.ok(error instanceof BadRequest, `expected BadRequestError, got ${String(error)}`);
        assert.equal(error.status, 400);
        body = error.error as typeof body;
      }
      assert.equal(body.type, 'error');
      assert.equal(body.error.type, 'invalid_request_error');
      assert.match(body.request_id, /^req_/);
      if (typeof c.message === 'string') assert.equal(body.error.message, c.message);
      else assert.match(body.error.message, c.message);
    });
  }
  const { counters, entries } = await session.journal();
  assert.equal(counters.invalid, CASES.length);
  assert.equal(counters.matched, 0);
  assert.ok(entries.every((e) => e.status === 400 && e.error?.code === null));
  const ok = await old.messages.create(base as unknown as Anthropic0x.MessageCreateParamsNonStreaming);
  assert.deepEqual(ok.content, [{ type: 'text', text: 'still here' }], 'the scripted step was not consumed');
});

test('[anthropic-messages.validation.json -] anthropic-version: missing or unknown gets the API’s 400; malformed JSON, unknown path and wrong method answer in Anthropic’s shape', async () => {
  const session = await mock.session('wire-headers');
  const send = (headers: Record<string, string>, body = JSON.stringify(base), path = '/v1/messages', method = 'POST') =>
    fetch(`${mock.baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-api-key': session.apiKey, ...headers },
      body,
    });
  const read = async (response: Response) => ((await response.json()) as { error: { type: string; message: string } }).error;

  const missing = await send({});
  assert.equal(missing.status, 400);
  assert.deepEqual(await read(missing), { type: 'invalid_request_error', message: 'anthropic-version: header is required' });
  const unknown = await send({ 'anthropic-version': '2024-01-01' });
  assert.deepEqual(await read(unknown), {
    type: 'invalid_request_error',
    message: 'anthropic-version: "2024-01-01" is not a valid version',
  });
  const doubled = await send({ 'anthropic-version': '2023-06-01, 2023-06-01' });
  assert.equal((await read(doubled)).message, 'anthropic-version: "2023-06-01, 2023-06-01" is not a valid version');

  const badJson = await send({ 'anthropic-version': '2023-06-01' }, '{"model":');
  assert.equal(badJson.status, 400);
  assert.equal((await read(badJson)).type, 'invalid_request_error');

  const notFound = await send({ 'anthropic-version': '2023-06-01' }, JSON.stringify(base), '/v1/messages/batches');
  assert.equal(notFound.status, 404);
  assert.equal((await read(notFound)).type, 'not_found_error');
  const wrongMethod = await fetch(`${mock.baseUrl}/v1/messages`, { headers: { 'x-api-key': session.apiKey } });
  assert.equal(wrongMethod.status, 405);
  assert.equal(wrongMethod.headers.get('allow'), 'POST');
  assert.equal((await read(wrongMethod)).type, 'invalid_request_error');

  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.status),
    [400, 400, 400, 400],
  );
});

test('[anthropic-messages.validation.json +] a valid request using every accepted option passes validation and decodes as sent', async () => {
  const session = await mock.session('wire-valid');
  session.scenario('ok').replies('accepted').onExhausted('repeat_last');
  const body = {
    model: MODEL,
    max_tokens: 4000,
    system: [
      { type: 'text', text: 'You are terse.' },
      { type: 'text', text: 'Cache this.', cache_control: { type: 'ephemeral', ttl: '1h' } },
    ],
    messages: [
      { role: 'user', content: 'First' },
      { role: 'user', content: [{ type: 'text', text: 'merged with the first turn' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Look it up.', signature: 'c2ln' },
          { type: 'redacted_thinking', data: 'opaque' },
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_a', name: 'weather', input: { city: 'Paris' }, cache_control: { type: 'ephemeral' } },
          { type: 'tool_use', id: 'toolu_b', name: 'weather', input: { city: 'Rome' } },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_a',
            content: [
              { type: 'text', text: 'sunny' },
              { type: 'image', source: { type: 'url', url: 'https://example.com/sky.png' } },
            ],
          },
          { type: 'tool_result', tool_use_id: 'toolu_b', content: 'rain', is_error: true, cache_control: { type: 'ephemeral', ttl: '5m' } },
          { type: 'text', text: 'Now compare them.' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'notes' }, title: 'Notes' },
        ],
      },
      { role: 'assistant', content: 'Comparing' },
    ],
    tools: [{ ...tool, cache_control: { type: 'ephemeral' }, strict: true }],
    tool_choice: { type: 'auto', disable_parallel_tool_use: true },
    thinking: { type: 'enabled', budget_tokens: 1024 },
    output_config: { effort: 'high' },
    metadata: { user_id: 'user-1' },
    stop_sequences: ['STOP'],
    service_tier: 'auto',
    temperature: 1,
    top_p: 0.9,
    top_k: 40,
  };
  const message = await v0(session).messages.create(body as unknown as Anthropic0x.MessageCreateParamsNonStreaming);
  assert.deepEqual(message.content, [{ type: 'text', text: 'accepted' }]);
  const { temperature, top_p, top_k, ...current } = body;
  void [temperature, top_p, top_k];
  const again = await v1(session).messages.create(current as unknown as Anthropic.MessageCreateParamsNonStreaming);
  assert.equal(again.content[0].type, 'text');

  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.status),
    [200, 200],
  );
  const request = entries[0].request;
  assert.ok(request);
  assert.deepEqual(
    request.messages.map((m) => m.role),
    ['system', 'user', 'user', 'assistant', 'tool', 'tool', 'user', 'assistant'],
  );
  assert.deepEqual(request.messages[0].parts, [
    { type: 'text', text: 'You are terse.' },
    { type: 'text', text: 'Cache this.' },
  ]);
  assert.deepEqual(
    request.messages[3].parts.map((p) => p.type),
    ['reasoning', 'text', 'tool_call', 'tool_call'],
  );
  assert.deepEqual(request.messages[4].parts, [
    { type: 'tool_result', callId: 'toolu_a', name: 'weather', content: 'sunny', isError: false },
  ]);
  assert.deepEqual(request.messages[5].parts, [
    { type: 'tool_result', callId: 'toolu_b', name: 'weather', content: 'rain', isError: true },
  ]);
  assert.deepEqual(request.messages[6].parts, [
    { type: 'text', text: 'Now compare them.' },
    { type: 'image', url: `data:image/png;base64,${PNG}`, mediaType: 'image/png' },
  ]);
  assert.equal(request.parallelToolCalls, false);
  assert.deepEqual(request.toolChoice, { type: 'auto' });
  assert.equal(request.tools[0].strict, true);
  assert.equal(request.maxOutputTokens, 4000);
});

test('[anthropic-messages.validation.stream -] a streaming request under 2026-10-21 with temperature gets 400 from the stream helper', async () => {
  const session = await mock.session('wire-stream-bad');
  session.scenario('ok').replies('streamed');
  const helper = v1(session).messages.stream({ ...base, temperature: 0.5 } as unknown as Anthropic.MessageCreateParamsNonStreaming);
  const error = await helper.finalMessage().catch((e: unknown) => e);
  assert.ok(error instanceof Anthropic.BadRequestError, String(error));
  assert.match(error.message, /temperature: Extra inputs are not permitted/);
  const { entries, counters } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.request]),
    [[400, undefined]],
  );
  assert.equal(counters.matched, 0);
});

test('[anthropic-messages.validation.stream +] the same stream passes without temperature on 1.x, and with it on 0.x (2023-06-01)', async () => {
  const session = await mock.session('wire-stream-ok');
  session.scenario('ok').replies('streamed').onExhausted('repeat_last');
  const current = await v1(session)
    .messages.stream(base as unknown as Anthropic.MessageCreateParamsNonStreaming)
    .finalMessage();
  assert.deepEqual(current.content, [{ type: 'text', text: 'streamed' }]);
  const old = await v0(session)
    .messages.stream({ ...base, temperature: 0 } as unknown as Anthropic0x.MessageCreateParamsNonStreaming)
    .finalMessage();
  assert.deepEqual(old.content, [{ type: 'text', text: 'streamed' }]);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream]),
    [
      [200, true],
      [200, true],
    ],
  );
});

test('the same dialect answers at /anthropic/v1/messages and under a /s/{session} prefix; request-id is sent on success', async () => {
  const session = await mock.session('wire-routes');
  session.scenario('ok').replies('routed').onExhausted('repeat_last');
  const headers = { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': session.apiKey };
  for (const path of ['/anthropic/v1/messages', `/s/${session.id}/v1/messages`]) {
    const response = await fetch(`${mock.baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(base) });
    assert.equal(response.status, 200, path);
    assert.match(response.headers.get('request-id') ?? '', /^req_/);
    const body = (await response.json()) as { content: unknown };
    assert.deepEqual(body.content, [{ type: 'text', text: 'routed' }]);
  }
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.route, e.operation]),
    [
      ['POST /anthropic/v1/messages', 'anthropic.messages'],
      [`POST /s/${session.id}/v1/messages`, 'anthropic.messages'],
    ],
  );
});

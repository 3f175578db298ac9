// Every documented field of POST /v1/messages (Anthropic's API reference, and the SDK's
// MessageCreateParams), as a table: each row is a field, values the API accepts, and wrong-typed
// or out-of-range values with the `path: problem` message Anthropic answers them with. Sent
// through the real @anthropic-ai/sdk 0.x (anthropic-version 2023-06-01, which still takes
// temperature, top_p and top_k; bodies cast) to a zero-config session, so an accepted value is
// answered 200 and a refused one is Anthropic's 400. A field whose check is missing fails its row.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Anthropic0x from 'anthropic-0x';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

type Body = Record<string, unknown>;
/** [value, problem, path (when not the row's field); '' for a message without a path] */
type Bad = [unknown, string | RegExp, string?];
interface Row {
  field: string;
  body?: (v: unknown) => Body;
  ok: unknown[];
  bad: Bad[];
  /** Sent with fetch: the SDK itself cannot send these bodies (it walks `tools` before sending). */
  raw?: boolean;
}

const MODEL = 'claude-sonnet-4-6';
const BASE: Body = { model: MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] };
const TOOL = { name: 'weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } };
const tool = (t: Body): Body => ({ ...BASE, tools: [{ ...TOOL, ...t }] });
const userBlock = (block: unknown): Body => ({ ...BASE, messages: [{ role: 'user', content: [block] }] });
const withTools = (extra: Body): Body => ({ ...BASE, tools: [TOOL], ...extra });
const format = (f: unknown): Body => ({ ...BASE, output_config: { format: f } });

const INT = 'Input should be a valid integer';
const NUM = 'Input should be a valid number';
const STR = 'Input should be a valid string';
const BOOL = 'Input should be a valid boolean';
const DICT = 'Input should be a valid dictionary';
const LIST = 'Input should be a valid list';
const REQ = 'Field required';
const GE0 = 'Input should be greater than or equal to 0';
const LE1 = 'Input should be less than or equal to 1';

const ROWS: Row[] = [
  {
    field: 'model',
    body: (v) => ({ ...BASE, model: v }),
    ok: [MODEL],
    bad: [
      [1, STR],
      ['', 'String should have at least 1 character'],
    ],
  },
  {
    field: 'max_tokens',
    ok: [1, 4096, 128000],
    bad: [
      ['100', INT],
      [1.5, 'Input should be a valid integer, got a number with a fractional part'],
      [-5, GE0],
      [1.5e300, /^Input should be a valid integer/],
      [200000, `max_tokens: 200000 > 128000, which is the maximum allowed number of output tokens for ${MODEL}`, ''],
    ],
  },
  {
    field: 'temperature',
    ok: [0, 0.5, 1],
    bad: [
      ['0.5', NUM],
      [-0.1, GE0],
      [1.5, LE1],
      [12345, LE1],
    ],
  },
  {
    field: 'top_p',
    ok: [0, 1],
    bad: [
      [true, NUM],
      [-1, GE0],
      [12345, LE1],
    ],
  },
  {
    field: 'top_k',
    ok: [0, 40],
    bad: [
      ['4', INT],
      [1.5, /^Input should be a valid integer/],
      [-1, GE0],
    ],
  },
  {
    field: 'stop_sequences',
    ok: [[], ['END'], [' END ', '\n\nHuman:']],
    bad: [
      ['END', LIST],
      [[1], STR, 'stop_sequences.0'],
      [['END', ''], 'each stop sequence must be non-empty'],
      [[' \n'], 'each stop sequence must contain non-whitespace'],
    ],
  },
  { field: 'stream', ok: [false, true], bad: [['yes', BOOL]] },
  {
    field: 'system',
    ok: ['be brief', [{ type: 'text', text: 'be brief' }]],
    bad: [
      [1, 'Input should be a valid string or a list of text blocks'],
      [[{ type: 'image' }], /does not match any of the expected tags: 'text'/, 'system.0'],
    ],
  },
  {
    field: 'metadata',
    ok: [{}, { user_id: 'u-1' }],
    bad: [
      ['u', DICT],
      [{ user_id: 1 }, STR, 'metadata.user_id'],
      [{ user_id: 'x'.repeat(257) }, 'String should have at most 256 characters', 'metadata.user_id'],
      // `user_id` is the only member.
      [{ user_id: 'u-1', session: 's' }, 'Extra inputs are not permitted', 'metadata.session'],
    ],
  },
  {
    field: 'service_tier',
    ok: ['auto', 'standard_only'],
    bad: [
      [1, "Input should be 'auto' or 'standard_only'"],
      ['priority', "Input should be 'auto' or 'standard_only'"],
    ],
  },
  { field: 'speed', ok: ['standard', 'fast'], bad: [['slow', "Input should be 'standard' or 'fast'"]] },
  { field: 'inference_geo', ok: ['us'], bad: [[1, STR]] },
  { field: 'container', ok: ['container_1', {}], bad: [[1, DICT]] },
  { field: 'context_management', ok: [{}], bad: [['x', DICT]] },
  {
    field: 'fallbacks',
    ok: ['default', [], [{ model: 'claude-haiku-4-5' }]],
    bad: [
      [{}, LIST],
      ['always', "Input should be 'default'"],
      [[1], DICT, 'fallbacks.0'],
    ],
  },
  {
    field: 'cache_control',
    ok: [{ type: 'ephemeral' }, { type: 'ephemeral', ttl: '1h' }],
    bad: [
      ['x', DICT],
      [{ type: 'forever' }, "Input should be 'ephemeral'", 'cache_control.type'],
      [{ type: 'ephemeral', ttl: '1d' }, "Input should be '5m' or '1h'", 'cache_control.ttl'],
    ],
  },
  // ---- tools ----
  {
    field: 'tools',
    ok: [[], [TOOL], [TOOL, { ...TOOL, name: 'forecast' }]],
    bad: [
      [TOOL, LIST],
      [[1], DICT, 'tools.0'],
      [[TOOL, TOOL], 'Tool names must be unique.'],
    ],
    raw: true,
  },
  {
    field: 'tools.0.custom.name',
    body: (v) => tool({ name: v }),
    ok: ['get_weather'],
    bad: [
      [1, STR],
      ['a b', "String should match pattern '^[a-zA-Z0-9_-]{1,128}$'"],
    ],
  },
  { field: 'tools.0.custom.description', body: (v) => tool({ description: v }), ok: ['Weather'], bad: [[1, STR]] },
  { field: 'tools.0.custom.strict', body: (v) => tool({ strict: v }), ok: [true], bad: [['yes', BOOL]] },
  {
    field: 'tools.0.custom.input_schema',
    body: (v) => tool({ input_schema: v }),
    ok: [{ type: 'object' }, { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }],
    bad: [
      ['object', DICT],
      [{ type: 'string' }, "Input should be 'object'", 'tools.0.custom.input_schema.type'],
      [{ type: 'object', properties: { city: { type: 'notatype' } } }, /^JSON schema is invalid: /],
      [{ type: 'object', properties: { city: { type: 'string', pattern: '([' } } }, /^JSON schema is invalid: /],
      [{ type: 'object', properties: { city: { $ref: '#/$defs/missing' } } }, /^JSON schema is invalid: /],
    ],
  },
  {
    field: 'tool_choice',
    body: (v) => withTools({ tool_choice: v }),
    ok: [
      { type: 'auto' },
      { type: 'any' },
      { type: 'none' },
      { type: 'tool', name: 'weather' },
      { type: 'auto', disable_parallel_tool_use: true },
    ],
    bad: [
      ['auto', DICT],
      [{ type: 'sometimes' }, /does not match any of the expected tags/],
      [{ type: 'tool' }, REQ, 'tool_choice.tool.name'],
      [{ type: 'auto', disable_parallel_tool_use: 'yes' }, BOOL, 'tool_choice.auto.disable_parallel_tool_use'],
    ],
  },
  // ---- thinking and output ----
  {
    field: 'thinking',
    body: (v) => ({ ...BASE, max_tokens: 4000, thinking: v }),
    ok: [{ type: 'disabled' }, { type: 'enabled', budget_tokens: 1024 }, { type: 'adaptive' }],
    bad: [
      ['on', DICT],
      [{ type: 'enabled' }, REQ, 'thinking.enabled.budget_tokens'],
      [{ type: 'enabled', budget_tokens: 'lots' }, INT, 'thinking.enabled.budget_tokens'],
      [{ type: 'enabled', budget_tokens: 100 }, 'Input should be greater than or equal to 1024', 'thinking.enabled.budget_tokens'],
      [{ type: 'adaptive', display: 'loud' }, "Input should be 'summarized' or 'omitted'", 'thinking.adaptive.display'],
    ],
  },
  {
    field: 'output_config',
    ok: [{}, { effort: 'low' }],
    bad: [
      ['x', DICT],
      [{ effort: 'extreme' }, /^Input should be 'low'/, 'output_config.effort'],
    ],
  },
  {
    field: 'output_config.format',
    body: (v) => format(v),
    ok: [{ type: 'json_schema', schema: { type: 'object' } }],
    bad: [
      ['json', DICT],
      [{ type: 'json_object' }, "Input should be 'json_schema'", 'output_config.format.type'],
      [{ type: 'json_schema' }, REQ, 'output_config.format.schema'],
      [{ type: 'json_schema', schema: { type: 'notatype' } }, /^JSON schema is invalid: /, 'output_config.format.schema'],
      [{ type: 'json_schema', schema: { $ref: '#/definitions/nowhere' } }, /^JSON schema is invalid: /, 'output_config.format.schema'],
    ],
  },
  // ---- messages ----
  {
    field: 'messages',
    body: (v) => ({ ...BASE, messages: v }),
    ok: [[{ role: 'user', content: 'Hi' }]],
    bad: [
      ['Hi', LIST],
      [[], 'at least one message is required'],
      [[1], DICT, 'messages.0'],
    ],
  },
  {
    field: 'messages.0.role',
    body: (v) => ({ ...BASE, messages: [{ role: v, content: 'Hi' }] }),
    ok: ['user'],
    bad: [
      ['robot', "Input should be 'user' or 'assistant'"],
      // The API's own sentence, at `messages` (SDK 1.x's anthropic-version takes system messages).
      [
        'system',
        'Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.',
        'messages',
      ],
    ],
  },
  {
    field: 'messages.0.content.0.text',
    body: (v) => userBlock({ type: 'text', text: v }),
    ok: ['Hi'],
    bad: [
      [1, STR],
      [undefined, REQ, 'messages.0.content.0.text'],
    ],
  },
  {
    field: 'messages.0.content.0.source',
    body: (v) => userBlock({ type: 'image', source: v }),
    ok: [
      { type: 'url', url: 'https://example.com/a.png' },
      { type: 'base64', media_type: 'image/png', data: 'AAAA' },
    ],
    bad: [
      ['x', DICT],
      [
        { type: 'base64', media_type: 'image/bmp', data: 'AAAA' },
        /^Input should be 'image\/jpeg'/,
        'messages.0.content.0.source.media_type',
      ],
      [{ type: 'url', url: 1 }, STR, 'messages.0.content.0.source.url'],
    ],
  },
  {
    field: 'messages.0.content.0.source (document)',
    body: (v) => userBlock({ type: 'document', source: v }),
    ok: [
      { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
      { type: 'text', media_type: 'text/plain', data: 'a note' },
      { type: 'content', content: [{ type: 'text', text: 'a note' }] },
      { type: 'content', content: 'a note' },
      { type: 'url', url: 'https://example.com/a.pdf' },
      { type: 'file', file_id: 'file_1' },
    ],
    bad: [
      ['x', DICT, 'messages.0.content.0.source'],
      [
        { type: 'pdf', data: 'x' },
        "Input tag 'pdf' found using 'type' does not match any of the expected tags: 'base64', 'text', 'content', 'url', 'file'",
        'messages.0.content.0.source',
      ],
      [
        { type: 'base64', media_type: 'image/png', data: 'x' },
        "Input should be 'application/pdf'",
        'messages.0.content.0.source.media_type',
      ],
      [{ type: 'text', media_type: 'text/plain' }, REQ, 'messages.0.content.0.source.data'],
      [{ type: 'content', content: 1 }, LIST, 'messages.0.content.0.source.content'],
      [{ type: 'url' }, REQ, 'messages.0.content.0.source.url'],
      [{ type: 'file', file_id: 7 }, STR, 'messages.0.content.0.source.file_id'],
    ],
  },
  {
    field: 'messages.1.content.0',
    body: (v) => ({
      ...BASE,
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: [v] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' }] },
      ],
    }),
    ok: [{ type: 'tool_use', id: 'toolu_1', name: 'weather', input: {} }],
    bad: [
      [{ type: 'tool_use', id: 'toolu_1', name: 'weather', input: 'x' }, DICT, 'messages.1.content.0.input'],
      [{ type: 'tool_use', id: 'toolu_1', name: 1, input: {} }, STR, 'messages.1.content.0.name'],
    ],
  },
  {
    field: 'messages.2.content.0',
    body: (v) => ({
      ...BASE,
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'weather', input: {} }] },
        { role: 'user', content: [v] },
      ],
    }),
    ok: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x', is_error: true }],
    bad: [
      [{ type: 'tool_result', tool_use_id: 'toolu_1', is_error: 'yes' }, BOOL, 'messages.2.content.0.is_error'],
      [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 1 }, LIST, 'messages.2.content.0.content'],
    ],
  },
];

let mock: Understudy;
let session: UnderstudySession;
let client: Anthropic0x;

before(async () => {
  mock = await startUnderstudy();
  session = await mock.session('anthropic-fields', { fallback: 'auto' });
  client = new Anthropic0x({ baseURL: mock.url('anthropic'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
});
after(async () => {
  await mock?.close();
});

interface Refusal {
  status: number;
  body: { type: string; error: { type: string; message: string }; request_id: string };
}

/** Resolves with the answer's status and body; a refusal through the SDK must be its BadRequestError. */
async function send(body: Body, raw = false): Promise<Refusal> {
  if (raw) {
    const res = await fetch(`${mock.url('anthropic')}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': session.apiKey },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    return { status: res.status, body: (await res.json()) as Refusal['body'] };
  }
  try {
    if (body.stream === true) await client.messages.stream(body as never).finalMessage();
    else await client.messages.create(body as never);
    return { status: 200, body: undefined as never };
  } catch (e) {
    assert.ok(e instanceof Anthropic0x.BadRequestError, `expected the SDK's BadRequestError, got ${String(e)}`);
    return { status: e.status, body: e.error as Refusal['body'] };
  }
}

describe('every documented Messages field', () => {
  for (const row of ROWS) {
    const build = row.body ?? ((v: unknown) => ({ ...BASE, [row.field]: v }));
    test(row.field, async () => {
      for (const value of row.ok) {
        const answer = await send(build(value), row.raw);
        assert.equal(answer.status, 200, `${row.field} = ${JSON.stringify(value)} refused: ${JSON.stringify(answer.body)}`);
      }
      for (const [value, problem, path = row.field] of row.bad) {
        const what = `${row.field} = ${JSON.stringify(value)?.slice(0, 60)}`;
        const { status, body } = await send(build(value), row.raw);
        assert.equal(status, 400, `${what}: accepted`);
        assert.equal(body.type, 'error', what);
        assert.equal(body.error.type, 'invalid_request_error', what);
        assert.match(body.request_id, /^req_/, what);
        const prefix = path === '' ? '' : `${path}: `;
        assert.ok(body.error.message.startsWith(prefix), `${what}: '${body.error.message}' should start with '${prefix}'`);
        const rest = body.error.message.slice(prefix.length);
        if (typeof problem === 'string') assert.equal(rest, problem, what);
        else assert.match(rest, problem, what);
      }
    });
  }
});

test('a top-level field the API does not know is an extra input', async () => {
  const { status, body } = await send({ ...BASE, temprature: 0.5 });
  assert.equal(status, 400);
  assert.equal(body.error.message, 'temprature: Extra inputs are not permitted');
});

test('a system message inside messages is taken under anthropic-version 2026-10-21 (SDK 1.x types it), refused under 2023-06-01', async () => {
  const body = { ...BASE, messages: [{ role: 'system', content: 'be brief' }, ...(BASE.messages as unknown[])] };
  const post = (version: string) =>
    fetch(`${mock.url('anthropic')}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': version, 'x-api-key': session.apiKey },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
  const taken = await post('2026-10-21');
  assert.equal(taken.status, 200, await taken.clone().text());
  const refused = await post('2023-06-01');
  assert.equal(refused.status, 400);
  assert.match(((await refused.json()) as Refusal['body']).error.message, /^messages: Unexpected role "system"\./);
});

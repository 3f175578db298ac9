// Every documented field of POST /v1/responses (OpenAI's OpenAPI document, CreateResponse), as a
// table: each row is a field, values the API accepts, and wrong-typed or out-of-range values with
// the `param` and `code` OpenAI answers them with. Sent through the real openai SDK (bodies cast:
// the SDK sends what it is given) to a zero-config session, so an accepted value is answered 200
// and a refused one is OpenAI's 400. A field whose check is missing fails its row.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import OpenAI from 'openai';
import { runFieldTable, type Bad, type Body, type FieldRow } from './support/openai-field-table.js';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

const BASE: Body = { model: 'gpt-4.1-mini', input: 'Hi', store: false };
const TOOL = { type: 'function', name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false };
const withTools = (extra: Body): Body => ({ ...BASE, tools: [TOOL], ...extra });
const tool = (extra: Body): Body => ({ ...BASE, tools: [{ ...TOOL, ...extra }] });
const format = (f: Body): Body => ({
  ...BASE,
  text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, ...f } },
});
const userPart = (part: unknown): Body => ({ ...BASE, input: [{ role: 'user', content: [part] }] });
const item = (i: Body): Body => ({ ...BASE, input: [i] });
const CALL = { type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{}' };
const withOutput = (o: Body): Body => ({
  ...BASE,
  input: [{ role: 'user', content: 'Hi' }, CALL, { type: 'function_call_output', call_id: 'call_1', output: 'sunny', ...o }],
});

/** A schema that keeps OpenAI's Structured Outputs rules, and three that each break one. */
const STRICT_OK = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    where: { type: 'object', properties: { lat: { type: 'number' } }, required: ['lat'], additionalProperties: false },
  },
  required: ['city', 'where'],
  additionalProperties: false,
};
const STRICT_BAD = [
  { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  { type: 'object', properties: { city: { type: 'string' } }, additionalProperties: false },
  {
    ...STRICT_OK,
    properties: {
      ...STRICT_OK.properties,
      where: { type: 'object', properties: { lat: { type: 'number' } }, additionalProperties: false },
    },
  },
];

const T = 'invalid_type';
const V = 'invalid_value';
const BELOW_I = 'integer_below_min_value';
const ABOVE_I = 'integer_above_max_value';
const BELOW_D = 'decimal_below_min_value';
const ABOVE_D = 'decimal_above_max_value';
const MISSING = 'missing_required_parameter';
const UNSUPPORTED = 'unsupported_parameter';

const ROWS: FieldRow[] = [
  // ---- sampling and limits ----
  {
    field: 'temperature',
    ok: [0, 1, 2],
    bad: [
      ['1', T],
      [-1, BELOW_D],
      [2.1, ABOVE_D],
      [12345, ABOVE_D],
    ],
  },
  {
    field: 'top_p',
    ok: [0, 1],
    bad: [
      [true, T],
      [-0.5, BELOW_D],
      [12345, ABOVE_D],
    ],
  },
  {
    field: 'max_output_tokens',
    ok: [16, 1000],
    bad: [
      ['100', T],
      [1.5, T],
      [1.5e300, T],
      [15, BELOW_I],
      [-5, BELOW_I],
    ],
  },
  {
    field: 'top_logprobs',
    ok: [0, 20],
    bad: [
      ['1', T],
      [-1, BELOW_I],
      [21, ABOVE_I],
    ],
  },
  {
    field: 'max_tool_calls',
    ok: [1, 10],
    bad: [
      ['1', T],
      [0, BELOW_I],
    ],
  },
  // ---- identity, caching, routing ----
  { field: 'user', ok: ['u'], bad: [[12345, T]] },
  {
    field: 'safety_identifier',
    ok: ['s'],
    bad: [
      [1, T],
      ['x'.repeat(65), 'string_above_max_length'],
    ],
  },
  { field: 'prompt_cache_key', ok: ['k'], bad: [[1, T]] },
  {
    field: 'prompt_cache_retention',
    ok: ['in_memory', '24h'],
    bad: [
      [1, T],
      ['1y', V],
    ],
  },
  {
    field: 'prompt_cache_options',
    ok: [{ ttl: '30m' }],
    bad: [
      ['x', T],
      [{ mode: 'sometimes' }, V, 'prompt_cache_options.mode'],
    ],
  },
  {
    field: 'metadata',
    ok: [{}, { a: 'b' }],
    bad: [
      ['str', T],
      [{ a: 1 }, T, 'metadata.a'],
      [{ a: 'x'.repeat(513) }, 'string_above_max_length', 'metadata.a'],
      [Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])), 'object_above_max_properties'],
    ],
  },
  {
    field: 'service_tier',
    ok: ['auto', 'flex', 'priority', 'fast'],
    bad: [
      [1, T],
      ['turbo', V],
    ],
  },
  {
    field: 'truncation',
    ok: ['auto', 'disabled'],
    bad: [
      [true, T],
      ['sometimes', V],
    ],
  },
  { field: 'store', ok: [false], bad: [['no', T]] },
  { field: 'parallel_tool_calls', ok: [true, false], bad: [['no', T]] },
  { field: 'background', ok: [false], bad: [['no', T]] },
  {
    field: 'include',
    ok: [[], ['message.output_text.logprobs', 'reasoning.encrypted_content']],
    bad: [
      ['reasoning.encrypted_content', T],
      [[1], T, 'include[0]'],
      [['everything'], V, 'include[0]'],
    ],
  },
  {
    field: 'moderation',
    ok: [{ model: 'omni-moderation-latest' }],
    bad: [
      ['on', T],
      [{}, MISSING, 'moderation.model'],
    ],
  },
  {
    field: 'context_management',
    ok: [[{ type: 'compaction', compact_threshold: 1000 }]],
    bad: [
      ['x', T],
      [[], 'empty_array'],
      [[{}], MISSING, 'context_management[0].type'],
      [[{ type: 'c', compact_threshold: 10 }], BELOW_I, 'context_management[0].compact_threshold'],
    ],
  },
  {
    field: 'reasoning',
    ok: [{}, { effort: 'low', summary: 'auto' }, { effort: 'none' }, { effort: 'xhigh' }, { effort: 'max' }],
    bad: [
      ['high', T],
      [{ effort: 'extreme' }, V, 'reasoning.effort'],
      [{ summary: 'long' }, V, 'reasoning.summary'],
      [{ context: 'everything' }, V, 'reasoning.context'],
    ],
  },
  { field: 'instructions', ok: ['be brief'], bad: [[1, T]] },
  {
    field: 'previous_response_id',
    ok: [],
    bad: [
      [1, T],
      ['abc', V],
    ],
  },
  // ---- streaming ----
  { field: 'stream', ok: [false], bad: [['true', T]] },
  {
    field: 'stream_options',
    body: (v) => ({ ...BASE, stream: true, stream_options: v }),
    ok: [],
    bad: [
      ['x', T],
      [{ include_obfuscation: 'no' }, T, 'stream_options.include_obfuscation'],
    ],
  },
  // ---- tools ----
  {
    field: 'tools',
    ok: [[], [TOOL], [TOOL, { ...TOOL, name: 'forecast' }]],
    bad: [
      [TOOL, T],
      [[TOOL, TOOL], V, 'tools[1].name'],
      [[1], T, 'tools[0]'],
      [[{ type: 'function' }], MISSING, 'tools[0].name'],
    ],
  },
  {
    field: 'tools[0].name',
    body: (v) => tool({ name: v }),
    ok: ['get-weather_2'],
    bad: [
      [1, T],
      ['a b', V],
      ['x'.repeat(65), 'string_above_max_length'],
    ],
  },
  { field: 'tools[0].description', body: (v) => tool({ description: v }), ok: ['Weather'], bad: [[1, T]] },
  { field: 'tools[0].strict', body: (v) => tool({ strict: v }), ok: [false], bad: [['yes', T]] },
  {
    field: 'tools[0].parameters',
    // strict: true — OpenAI's Structured Outputs rules on top of a schema that compiles.
    body: (v) => tool({ strict: true, parameters: v }),
    ok: [STRICT_OK],
    bad: STRICT_BAD.map((schema): Bad => [schema, 'invalid_function_parameters']),
  },
  {
    field: 'text.format.schema',
    body: (v) => format({ strict: true, schema: v }),
    ok: [STRICT_OK],
    bad: STRICT_BAD.map((schema): Bad => [schema, 'invalid_json_schema']),
  },
  {
    field: 'tools[0].parameters',
    body: (v) => tool({ parameters: v }),
    ok: [{ type: 'object', properties: {} }],
    bad: [
      ['object', T],
      [{ type: 'notatype' }, 'invalid_function_parameters'],
      [{ type: 'object', properties: { city: { type: 'string', pattern: '([' } } }, 'invalid_function_parameters'],
      [{ type: 'object', properties: { city: { $ref: '#/$defs/missing' } } }, 'invalid_function_parameters'],
    ],
  },
  {
    field: 'tool_choice',
    body: (v) => withTools({ tool_choice: v }),
    ok: ['auto', 'none', 'required', { type: 'function', name: 'weather' }],
    bad: [
      ['always', V],
      [1, T],
      [{ type: 'function' }, MISSING, 'tool_choice.name'],
      [{ type: 'wizard' }, V, 'tool_choice.type'],
    ],
  },
  // ---- text ----
  {
    field: 'text',
    ok: [{}, { verbosity: 'low' }],
    bad: [
      ['json', T],
      [{ verbosity: 'loud' }, V, 'text.verbosity'],
    ],
  },
  {
    field: 'text.format',
    body: (v) => ({ ...BASE, input: 'Answer in JSON', text: { format: v } }),
    ok: [{ type: 'text' }, { type: 'json_object' }],
    bad: [
      ['json', T],
      [{}, MISSING, 'text.format.type'],
      [{ type: 'yaml' }, V, 'text.format.type'],
    ],
  },
  {
    field: 'text.format.name',
    body: (v) => format({ name: v }),
    ok: ['answer'],
    bad: [
      [1, T],
      ['a b', V],
    ],
  },
  { field: 'text.format.strict', body: (v) => format({ strict: v }), ok: [false], bad: [['yes', T]] },
  { field: 'text.format.description', body: (v) => format({ description: v }), ok: ['d'], bad: [[1, T]] },
  {
    field: 'text.format.schema',
    body: (v) => format({ schema: v }),
    ok: [{ type: 'object', properties: { a: { type: 'string' } } }],
    bad: [
      ['object', T],
      [{ type: 'notatype' }, 'invalid_json_schema'],
      [{ type: 'string', pattern: '([' }, 'invalid_json_schema'],
      [{ $ref: '#/definitions/nowhere' }, 'invalid_json_schema'],
    ],
  },
  // ---- input ----
  {
    field: 'input',
    body: (v) => ({ ...BASE, input: v }),
    ok: ['Hi', [{ role: 'user', content: 'Hi' }]],
    bad: [
      [42, T],
      [[], 'empty_array'],
      [[42], T, 'input[0]'],
    ],
  },
  {
    field: 'input[0].role',
    body: (v) => item({ role: v, content: 'Hi' }),
    ok: ['user', 'system', 'developer'],
    bad: [
      ['robot', V],
      [1, T],
    ],
  },
  {
    field: 'input[0].status',
    body: (v) => item({ type: 'message', role: 'user', content: 'Hi', status: v }),
    ok: ['completed'],
    bad: [['done', V]],
  },
  {
    field: 'input[0].content',
    body: (v) => item({ role: 'user', content: v }),
    ok: ['Hi', [{ type: 'input_text', text: 'Hi' }]],
    bad: [
      [1, T],
      [[{ type: 'text', text: 'Hi' }], V, 'input[0].content[0].type'],
    ],
  },
  {
    field: 'input[0].content[0].text',
    body: (v) => userPart({ type: 'input_text', text: v }),
    ok: ['Hi'],
    bad: [
      [1, T],
      [undefined, MISSING],
    ],
  },
  {
    field: 'input[0].content[0].detail',
    body: (v) => userPart({ type: 'input_image', image_url: 'https://example.com/a.png', detail: v }),
    ok: ['low', 'high', 'auto'],
    bad: [
      [1, T],
      ['ultra', V],
    ],
  },
  {
    field: 'input[0].content[0].image_url',
    body: (v) => userPart({ type: 'input_image', image_url: v }),
    ok: ['https://example.com/a.png'],
    bad: [[1, T]],
  },
  { field: 'input[0].content[0].file_id', body: (v) => userPart({ type: 'input_file', file_id: v }), ok: ['file-1'], bad: [[1, T]] },
  {
    field: 'input[1].arguments',
    body: (v) => ({
      ...BASE,
      input: [
        { role: 'user', content: 'Hi' },
        { ...CALL, arguments: v },
        { type: 'function_call_output', call_id: 'call_1', output: 'x' },
      ],
    }),
    ok: ['{}'],
    bad: [
      [{}, T],
      [undefined, MISSING],
    ],
  },
  {
    field: 'input[2].output',
    body: (v) => withOutput({ output: v }),
    ok: ['sunny', [{ type: 'input_text', text: 'sunny' }]],
    bad: [
      [1, T],
      [undefined, MISSING],
      // The OpenAPI document bounds a string output at 10 MiB.
      ['x'.repeat(10_485_761), 'string_above_max_length'],
    ],
  },
  {
    field: 'input[2].call_id',
    body: (v) => withOutput({ call_id: v }),
    ok: ['call_1'],
    bad: [
      [1, T],
      ['', 'empty_string'],
      ['c'.repeat(65), 'string_above_max_length'],
    ],
  },
  {
    field: 'input[2].status',
    body: (v) => withOutput({ status: v }),
    ok: ['completed', 'incomplete'],
    bad: [
      [1, T],
      ['done', V],
    ],
  },
  // ---- Chat Completions names, refused with a hint ----
  { field: 'messages', ok: [], bad: [[[{ role: 'user', content: 'Hi' }], UNSUPPORTED]] },
  { field: 'max_tokens', ok: [], bad: [[100, UNSUPPORTED]] },
  { field: 'response_format', ok: [], bad: [[{ type: 'json_object' }, UNSUPPORTED]] },
];

/** What OpenAI's message starts with, by code. */
function messageStyle(code: string | null, param: string): RegExp {
  const p = param.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  switch (code) {
    case T:
      return new RegExp(`^Invalid type for '${p}': expected .+, but got .+ instead\\.$`);
    case MISSING:
      return new RegExp(`^Missing required parameter: '${p}'\\.`);
    case 'invalid_function_parameters':
      return /^Invalid schema for function 'weather': .+/;
    case 'invalid_json_schema':
      return /^Invalid schema for response_format 'answer': .+/;
    case V:
      return /^(Invalid value|Invalid '|Tool choice)/;
    case UNSUPPORTED:
      return new RegExp(`^Unsupported parameter: '${p}'\\.`);
    case 'unknown_parameter':
      return new RegExp(`^Unknown parameter: '${p}'\\.`);
    default:
      return new RegExp(`^Invalid '${p}': `);
  }
}

let mock: Understudy;
let session: UnderstudySession;
let openai: OpenAI;

before(async () => {
  mock = await startUnderstudy();
  session = await mock.session('responses-fields', { fallback: 'auto' });
  openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
});
after(async () => {
  await mock?.close();
});

async function send(body: Body): Promise<unknown> {
  if (body.stream === true) {
    const stream = await openai.responses.create(body as never);
    for await (const _ of stream as unknown as AsyncIterable<unknown>) void _;
    return 'streamed';
  }
  return openai.responses.create(body as never);
}

runFieldTable('every documented Responses field', ROWS, BASE, send, messageStyle);

test('a top-level field the API does not know is refused by name', async () => {
  const error = await send({ ...BASE, temprature: 0.5 }).then(
    () => assert.fail('accepted'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof OpenAI.BadRequestError);
  assert.equal((error.error as { message: string }).message, "Unknown parameter: 'temprature'.");
  assert.equal(error.param, 'temprature');
  assert.equal(error.code, 'unknown_parameter');
});

test('an invalid output schema is refused before anything is selected, with a script loaded too', async () => {
  const scripted = await mock.session('responses-fields-scripted');
  await scripted.load({ scenarios: [{ name: 'only', replies: [{ json: {} }] }] });
  const client = new OpenAI({ baseURL: mock.url('openai'), apiKey: scripted.apiKey, maxRetries: 0, timeout: 10_000 });
  const error = await client.responses
    .create(format({ schema: { type: 'object', properties: { a: { type: 'notatype' } } } }) as never)
    .then(
      () => assert.fail('accepted'),
      (e: unknown) => e,
    );
  assert.ok(error instanceof OpenAI.BadRequestError, String(error));
  assert.equal(error.code, 'invalid_json_schema');
  assert.equal(error.param, 'text.format.schema');
  const { entries } = await scripted.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.script]),
    [[400, undefined]],
  );
});

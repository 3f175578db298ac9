// Every documented field of POST /v1/chat/completions (OpenAI's OpenAPI document,
// CreateChatCompletionRequest), as a table: each row is a field, values the API accepts, and
// wrong-typed or out-of-range values with the `param` and `code` OpenAI answers them with. Sent
// through the real openai SDK (bodies cast: the SDK sends what it is given) to a zero-config
// session, so an accepted value is answered 200 and a refused one is OpenAI's 400. A field whose
// check is missing fails its row.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import OpenAI from 'openai';
import { runFieldTable, type Bad, type Body, type FieldRow } from './support/openai-field-table.js';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

const USER = [{ role: 'user', content: 'hi' }];
const BASE: Body = { model: 'gpt-4o', messages: USER };
const TOOL = { type: 'function', function: { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };
const withTools = (extra: Body): Body => ({ ...BASE, tools: [TOOL], ...extra });
const userContent = (part: unknown): Body => ({ ...BASE, messages: [{ role: 'user', content: [part] }] });
const message = (m: Body): Body => ({ ...BASE, messages: [m] });
const assistantTurn = (call: unknown): Body => ({
  ...BASE,
  messages: [...USER, { role: 'assistant', tool_calls: [call] }, { role: 'tool', tool_call_id: 'call_1', content: 'sunny' }],
});
const tool = (fn: Body): Body => ({ ...BASE, tools: [{ type: 'function', function: { name: 'weather', ...fn } }] });
const schemaFormat = (spec: Body): Body => ({
  ...BASE,
  response_format: { type: 'json_schema', json_schema: { name: 'answer', ...spec } },
});

/** A schema that keeps OpenAI's Structured Outputs rules, and five that each break one. */
const STRICT_OK = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    where: { type: 'object', properties: { lat: { type: 'number' } }, required: ['lat'], additionalProperties: false },
    tags: { type: 'array', items: { $ref: '#/$defs/tag' } },
  },
  required: ['city', 'where', 'tags'],
  additionalProperties: false,
  $defs: { tag: { type: 'object', properties: { name: { type: ['string', 'null'] } }, required: ['name'], additionalProperties: false } },
};
const STRICT_BAD = [
  { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  { type: 'object', properties: { city: { type: 'string' } }, additionalProperties: false },
  { type: 'object', properties: { where: { type: 'object', properties: {} } }, required: ['where'], additionalProperties: false },
  { ...STRICT_OK, $defs: { tag: { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false } } },
  {
    type: 'object',
    properties: { tags: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } } },
    required: ['tags'],
    additionalProperties: false,
  },
];

/** A logit_bias map of `n` token ids. */
const biases = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [String(i), 1]));

const T = 'invalid_type';
const V = 'invalid_value';
const BELOW_I = 'integer_below_min_value';
const ABOVE_I = 'integer_above_max_value';
const BELOW_D = 'decimal_below_min_value';
const ABOVE_D = 'decimal_above_max_value';
const MISSING = 'missing_required_parameter';

const ROWS: FieldRow[] = [
  // ---- sampling and limits ----
  {
    field: 'temperature',
    ok: [0, 0.7, 2],
    bad: [
      ['0.5', T],
      [true, T],
      [-0.1, BELOW_D],
      [2.5, ABOVE_D],
      [12345, ABOVE_D],
    ],
  },
  {
    field: 'top_p',
    ok: [0, 0.5, 1],
    bad: [
      ['1', T],
      [-1, BELOW_D],
      [1.5, ABOVE_D],
      [12345, ABOVE_D],
    ],
  },
  {
    field: 'frequency_penalty',
    ok: [-2, 0, 2],
    bad: [
      ['0', T],
      [-2.5, BELOW_D],
      [3, ABOVE_D],
    ],
  },
  {
    field: 'presence_penalty',
    ok: [-2, 0, 2],
    bad: [
      [{}, T],
      [-3, BELOW_D],
      [2.01, ABOVE_D],
    ],
  },
  {
    field: 'seed',
    ok: [0, -7, 123456789],
    bad: [
      ['1', T],
      [1.5, T],
      [1.5e300, T],
    ],
  },
  {
    field: 'n',
    ok: [1],
    bad: [
      ['1', T],
      [1.5, T],
      [0, BELOW_I],
      [129, ABOVE_I],
      [2, V],
    ],
  },
  {
    field: 'max_tokens',
    ok: [1, 4096],
    bad: [
      ['10', T],
      [1.5, T],
      [1.5e300, T],
      [0, BELOW_I],
      [-5, BELOW_I],
    ],
  },
  {
    field: 'max_completion_tokens',
    ok: [1, 100],
    bad: [
      [true, T],
      [2.5, T],
      [0, BELOW_I],
    ],
  },
  {
    field: 'logprobs',
    ok: [true, false],
    bad: [
      ['str', T],
      [1, T],
    ],
  },
  {
    field: 'top_logprobs',
    ok: [0, 20],
    bad: [
      ['5', T],
      [-1, BELOW_I],
      [21, ABOVE_I],
    ],
  },
  {
    field: 'logit_bias',
    ok: [{}, { '50256': -100 }, { '1': 100 }, biases(300)],
    bad: [
      ['str', T],
      [[1], T],
      [{ '1': 'x' }, T, 'logit_bias.1'],
      [{ '1': 101 }, ABOVE_I, 'logit_bias.1'],
      [{ '1': -101 }, BELOW_I, 'logit_bias.1'],
      // Keys are token ids: OpenAI answers a word (or a negative number) with code null.
      [{ hello: 5 }, null],
      [{ '-1': 5 }, null],
      [{ '1.5': 5 }, null],
      [biases(301), 'object_above_max_properties'],
    ],
  },
  {
    field: 'stop',
    // An empty stop sequence is not known to be refused by the live API: accepted.
    ok: ['\n', ['a'], ['a', 'b', 'c', 'd'], ['']],
    bad: [
      [12345, T],
      [true, T],
      [[1], T, 'stop[0]'],
      [[], 'empty_array'],
      [['a', 'b', 'c', 'd', 'e'], 'array_above_max_length'],
    ],
  },
  // ---- identity, caching, routing ----
  {
    field: 'user',
    ok: ['user-1', ''],
    bad: [
      [12345, T],
      [{}, T],
    ],
  },
  {
    field: 'safety_identifier',
    ok: ['abc'],
    bad: [
      [1, T],
      ['x'.repeat(65), 'string_above_max_length'],
    ],
  },
  { field: 'prompt_cache_key', ok: ['key'], bad: [[1, T]] },
  {
    field: 'prompt_cache_retention',
    ok: ['in_memory', '24h'],
    bad: [
      [1, T],
      ['forever', V],
    ],
  },
  {
    field: 'prompt_cache_options',
    ok: [{}, { ttl: '30m', mode: 'explicit' }],
    bad: [
      ['x', T],
      [{ ttl: '1h' }, V, 'prompt_cache_options.ttl'],
      [{ mode: 1 }, T, 'prompt_cache_options.mode'],
    ],
  },
  {
    field: 'metadata',
    ok: [{}, { a: 'b' }],
    bad: [
      ['str', T],
      [[], T],
      [{ a: 1 }, T, 'metadata.a'],
      [{ a: 'x'.repeat(513) }, 'string_above_max_length', 'metadata.a'],
      [Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])), 'object_above_max_properties'],
    ],
  },
  {
    field: 'service_tier',
    ok: ['auto', 'default', 'flex', 'priority'],
    bad: [
      [1, T],
      ['turbo', V],
    ],
  },
  { field: 'store', ok: [true, false], bad: [['yes', T]] },
  {
    field: 'modalities',
    ok: [['text']],
    bad: [
      ['text', T],
      [['video'], V, 'modalities[0]'],
    ],
  },
  {
    field: 'verbosity',
    ok: ['low', 'medium', 'high'],
    bad: [
      [1, T],
      ['loud', V],
    ],
  },
  {
    field: 'reasoning_effort',
    // The OpenAPI document's ReasoningEffort enum (which models take which value is not modelled).
    ok: ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'],
    bad: [
      [1, T],
      ['extreme', V],
    ],
  },
  {
    field: 'audio',
    ok: [
      { voice: 'alloy', format: 'mp3' },
      { voice: { id: 'voice_1' }, format: 'wav' },
    ],
    bad: [
      ['alloy', T],
      [{ format: 'mp3' }, MISSING, 'audio.voice'],
      [{ voice: 'alloy' }, MISSING, 'audio.format'],
      [{ voice: 1, format: 'mp3' }, T, 'audio.voice'],
      [{ voice: 'alloy', format: 'ogg' }, V, 'audio.format'],
    ],
  },
  {
    field: 'prediction',
    ok: [
      { type: 'content', content: 'draft' },
      { type: 'content', content: [{ type: 'text', text: 'draft' }] },
    ],
    bad: [
      ['draft', T],
      [{ type: 'content' }, MISSING, 'prediction.content'],
      [{ type: 'other', content: 'x' }, V, 'prediction.type'],
      [{ type: 'content', content: 5 }, T, 'prediction.content'],
    ],
  },
  {
    field: 'web_search_options',
    ok: [{}, { search_context_size: 'low' }, { user_location: { type: 'approximate', approximate: { city: 'Paris' } } }],
    bad: [
      ['on', T],
      [{ search_context_size: 'huge' }, V, 'web_search_options.search_context_size'],
      [{ user_location: { type: 'approximate', approximate: { city: 1 } } }, T, 'web_search_options.user_location.approximate.city'],
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
  // ---- streaming ----
  {
    field: 'stream',
    ok: [false, true],
    bad: [
      ['true', T],
      [1, T],
    ],
  },
  {
    field: 'stream_options',
    body: (v) => ({ ...BASE, stream: true, stream_options: v }),
    ok: [{ include_usage: true }, { include_obfuscation: false }],
    bad: [
      ['usage', T],
      [{ include_usage: 'yes' }, T, 'stream_options.include_usage'],
      [{ include_obfuscation: 1 }, T, 'stream_options.include_obfuscation'],
    ],
  },
  // ---- tools ----
  {
    field: 'tools',
    ok: [[], [TOOL], [TOOL, { type: 'function', function: { name: 'forecast' } }]],
    bad: [
      [TOOL, T],
      ['weather', T],
      [[TOOL, TOOL], V, 'tools[1].function.name'],
      [[1], T, 'tools[0]'],
      [[{ type: 'function' }], MISSING, 'tools[0].function'],
      // OpenAI documents at most 128 functions per request.
      [Array.from({ length: 129 }, (_, i) => ({ type: 'function', function: { name: `f${i}` } })), 'array_above_max_length', 'tools'],
    ],
  },
  {
    field: 'tools[0].function.name',
    body: (v) => tool({ name: v }),
    ok: ['get_weather-2'],
    bad: [
      [1, T],
      ['has space', V],
      ['x'.repeat(65), V],
    ],
  },
  { field: 'tools[0].function.description', body: (v) => tool({ description: v }), ok: ['Weather'], bad: [[1, T]] },
  {
    field: 'tools[0].function.parameters',
    body: (v) => tool({ parameters: v }),
    ok: [
      { type: 'object', properties: {} },
      { type: 'object', $defs: { c: { type: 'string' } }, properties: { city: { $ref: '#/$defs/c' } } },
    ],
    bad: [
      ['object', T],
      [{ type: 'notatype' }, 'invalid_function_parameters'],
      [{ type: 'object', properties: { city: { type: 'string', pattern: '([' } } }, 'invalid_function_parameters'],
      [{ type: 'object', properties: { city: { $ref: '#/$defs/missing' } } }, 'invalid_function_parameters'],
      [{ type: 'array' }, 'invalid_function_parameters'],
      [{ type: 'string' }, 'invalid_function_parameters'],
    ],
  },
  { field: 'tools[0].function.strict', body: (v) => tool({ strict: v }), ok: [false], bad: [['yes', T]] },
  {
    field: 'tools[0].function.parameters',
    // strict: true — OpenAI's Structured Outputs rules on top of a schema that compiles.
    body: (v) => tool({ strict: true, parameters: v }),
    ok: [STRICT_OK, { type: 'object', properties: {}, additionalProperties: false }],
    bad: STRICT_BAD.map((schema): Bad => [schema, 'invalid_function_parameters']),
  },
  {
    field: 'tool_choice',
    body: (v) => withTools({ tool_choice: v }),
    ok: ['auto', 'none', 'required', { type: 'function', function: { name: 'weather' } }],
    bad: [
      ['always', V],
      [1, T],
      [{ type: 'tool', function: { name: 'weather' } }, V, 'tool_choice.type'],
      [{ type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [] } }, 'unsupported_value', 'tool_choice.type'],
      [{ type: 'function' }, T, 'tool_choice.function'],
      [{ type: 'function', function: { name: 1 } }, T, 'tool_choice.function.name'],
    ],
  },
  {
    field: 'parallel_tool_calls',
    body: (v) => withTools({ parallel_tool_calls: v }),
    ok: [true, false],
    bad: [
      ['no', T],
      [0, T],
    ],
  },
  // ---- response_format ----
  {
    field: 'response_format',
    body: (v) => ({ ...BASE, messages: [{ role: 'user', content: 'answer in JSON' }], response_format: v }),
    ok: [{ type: 'text' }, { type: 'json_object' }],
    bad: [
      ['json', T],
      [{}, MISSING, 'response_format.type'],
      [{ type: 'yaml' }, V, 'response_format.type'],
    ],
  },
  {
    field: 'response_format.json_schema',
    body: (v) => ({ ...BASE, response_format: { type: 'json_schema', json_schema: v } }),
    ok: [{ name: 'answer', schema: { type: 'object' } }],
    bad: [
      ['x', T],
      [{ schema: {} }, MISSING, 'response_format.json_schema.name'],
      [{ name: 'a b' }, V, 'response_format.json_schema.name'],
      // At most 64 characters: too long, not a pattern mismatch (the name matches the pattern).
      [{ name: 'n'.repeat(65) }, 'string_above_max_length', 'response_format.json_schema.name'],
    ],
  },
  {
    field: 'response_format.json_schema.schema',
    body: (v) => schemaFormat({ schema: v }),
    ok: [{ type: 'object', properties: { a: { type: 'string' } } }],
    bad: [
      ['object', T],
      [{ type: 'notatype' }, 'invalid_json_schema'],
      [{ type: 'object', properties: { a: { type: 'string', pattern: '([' } } }, 'invalid_json_schema'],
      [{ $ref: '#/definitions/nowhere' }, 'invalid_json_schema'],
      // The root is an object on OpenAI's routes.
      [{ type: 'array', items: { type: 'string' } }, 'invalid_json_schema'],
    ],
  },
  {
    field: 'response_format.json_schema.strict',
    body: (v) => schemaFormat({ strict: v, schema: { type: 'object', properties: {}, additionalProperties: false } }),
    ok: [true, false],
    bad: [['yes', T]],
  },
  {
    field: 'response_format.json_schema.schema',
    body: (v) => schemaFormat({ strict: true, schema: v }),
    ok: [STRICT_OK],
    bad: STRICT_BAD.map((schema): Bad => [schema, 'invalid_json_schema']),
  },
  { field: 'response_format.json_schema.description', body: (v) => schemaFormat({ description: v, schema: {} }), ok: ['d'], bad: [[1, T]] },
  // ---- messages ----
  {
    field: 'messages',
    body: (v) => ({ model: 'gpt-4o', messages: v }),
    ok: [USER],
    bad: [
      ['hi', T],
      [[], 'empty_array'],
      [[1], T, 'messages[0]'],
    ],
  },
  {
    field: 'messages[0].role',
    body: (v) => message({ role: v, content: 'hi' }),
    ok: ['user', 'system', 'developer'],
    bad: [
      ['wizard', V],
      [1, V],
    ],
  },
  { field: 'messages[0].name', body: (v) => message({ role: 'user', content: 'hi', name: v }), ok: ['alice'], bad: [[1, T]] },
  {
    field: 'messages[0].content',
    body: (v) => message({ role: 'user', content: v }),
    ok: ['hi', [{ type: 'text', text: 'hi' }]],
    bad: [
      [1, T],
      [{}, T],
      [[], 'empty_array'],
    ],
  },
  {
    field: 'messages[0].content[0].text',
    body: (v) => userContent({ type: 'text', text: v }),
    ok: ['hi'],
    bad: [
      [1, T],
      [undefined, MISSING],
    ],
  },
  {
    field: 'messages[0].content[0].image_url',
    body: (v) => userContent({ type: 'image_url', image_url: v }),
    ok: [{ url: 'https://example.com/cat.png' }, { url: 'data:image/png;base64,AAAA', detail: 'low' }],
    bad: [
      ['https://example.com/cat.png', T],
      [{}, MISSING, 'messages[0].content[0].image_url.url'],
      [{ url: 1 }, T, 'messages[0].content[0].image_url.url'],
      [{ url: 'https://example.com/x.png', detail: 'ultra' }, V, 'messages[0].content[0].image_url.detail'],
    ],
  },
  {
    field: 'messages[0].content[0].input_audio',
    body: (v) => userContent({ type: 'input_audio', input_audio: v }),
    ok: [{ data: 'AAAA', format: 'wav' }],
    bad: [
      ['AAAA', T],
      [{ data: 'AAAA' }, MISSING, 'messages[0].content[0].input_audio.format'],
      [{ data: 'AAAA', format: 'ogg' }, V, 'messages[0].content[0].input_audio.format'],
    ],
  },
  {
    field: 'messages[0].content[0].file',
    body: (v) => userContent({ type: 'file', file: v }),
    ok: [{ file_id: 'file-1' }, { filename: 'a.pdf', file_data: 'data:application/pdf;base64,AAAA' }],
    bad: [
      ['file-1', T],
      [{ file_id: 1 }, T, 'messages[0].content[0].file.file_id'],
    ],
  },
  {
    field: 'messages[1].refusal',
    body: (v) => ({ ...BASE, messages: [...USER, { role: 'assistant', content: 'no', refusal: v }, ...USER] }),
    ok: ["I can't"],
    bad: [[1, T]],
  },
  {
    field: 'messages[1].audio',
    body: (v) => ({ ...BASE, messages: [...USER, { role: 'assistant', content: 'no', audio: v }, ...USER] }),
    ok: [{ id: 'audio_1' }],
    bad: [
      ['audio_1', T],
      [{}, MISSING, 'messages[1].audio.id'],
    ],
  },
  {
    field: 'messages[1].tool_calls[0]',
    body: (v) => assistantTurn(v),
    ok: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{}' } }],
    bad: [
      ['call_1', T],
      [{ id: 'call_1', type: 'function', function: { name: 'weather' } }, MISSING, 'messages[1].tool_calls[0].function.arguments'],
      [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: {} } }, T, 'messages[1].tool_calls[0].function.arguments'],
      [
        { id: 'call_1', type: 'custom', function: { name: 'weather', arguments: '{}' } },
        'unsupported_value',
        'messages[1].tool_calls[0].type',
      ],
      [{ id: 'call_1', type: 'web_search', function: { name: 'weather', arguments: '{}' } }, V, 'messages[1].tool_calls[0].type'],
    ],
  },
  {
    field: 'messages[2].tool_call_id',
    body: (v) => ({
      ...BASE,
      messages: [
        ...USER,
        { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'w', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: v, content: 'x' },
      ],
    }),
    ok: ['call_1'],
    bad: [
      [1, T],
      [undefined, MISSING],
    ],
  },
];

/** What OpenAI's message starts with, by code. */
function messageStyle(code: string | null, param: string): RegExp {
  const p = param.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  switch (code) {
    case T:
      return new RegExp(`^Invalid type for '${p}': expected .+, but got .+ instead\\.$`);
    case MISSING:
      return new RegExp(`^Missing required parameter: '${p}'\\.`);
    case null:
      return new RegExp(`^Invalid key in '${p}': .+\\. You should only be submitting non-negative integers\\.$`);
    case 'unsupported_value':
      return /^Understudy supports /;
    case 'invalid_function_parameters':
      return /^Invalid schema for function 'weather': .+/;
    case 'invalid_json_schema':
      return /^Invalid schema for response_format 'answer': .+/;
    case V:
      return /^(Invalid value|Invalid '|Understudy answers exactly one choice)/;
    default:
      return new RegExp(`^Invalid '${p}': `);
  }
}

let mock: Understudy;
let session: UnderstudySession;
let openai: OpenAI;

before(async () => {
  mock = await startUnderstudy();
  session = await mock.session('chat-fields', { fallback: 'auto' });
  openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
});
after(async () => {
  await mock?.close();
});

async function send(body: Body): Promise<unknown> {
  if (body.stream === true) {
    const stream = await openai.chat.completions.create(body as never);
    for await (const _ of stream as unknown as AsyncIterable<unknown>) void _;
    return 'streamed';
  }
  return openai.chat.completions.create(body as never);
}

runFieldTable('every documented Chat Completions field', ROWS, BASE, send, messageStyle);

test('a top-level field the API does not know is refused by name', async () => {
  const error = await send({ ...BASE, temprature: 0.5 }).then(
    () => assert.fail('accepted'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof OpenAI.BadRequestError);
  assert.equal((error.error as { message: string }).message, 'Unrecognized request argument supplied: temprature');
  assert.equal(error.param, null);
  assert.equal(error.code, null);
});

test("json_object needs the word 'json' somewhere in the messages", async () => {
  const error = await send({ ...BASE, response_format: { type: 'json_object' } }).then(
    () => assert.fail('accepted'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof OpenAI.BadRequestError);
  assert.equal(
    (error.error as { message: string }).message,
    "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.",
  );
  assert.equal(error.param, 'messages');
  const ok = await openai.chat.completions.create({
    model: 'gpt-4o',
    messages: [{ role: 'system', content: 'Answer as JSON.' }, ...(USER as never[])],
    response_format: { type: 'json_object' },
  });
  assert.equal(ok.object, 'chat.completion');
});

test("a strict schema that breaks a Structured Outputs rule is refused in OpenAI's words, naming the place", async () => {
  for (const [schema, message] of [
    [
      STRICT_BAD[0],
      "Invalid schema for function 'weather': In context=(), 'additionalProperties' is required to be supplied and to be false.",
    ],
    [
      STRICT_BAD[1],
      "Invalid schema for function 'weather': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'city'.",
    ],
    [
      STRICT_BAD[2],
      "Invalid schema for function 'weather': In context=('properties', 'where'), 'additionalProperties' is required to be supplied and to be false.",
    ],
    [
      STRICT_BAD[3],
      "Invalid schema for function 'weather': In context=('$defs', 'tag'), 'required' is required to be supplied and to be an array including every key in properties. Missing 'name'.",
    ],
    [
      STRICT_BAD[4],
      "Invalid schema for function 'weather': In context=('properties', 'tags', 'items'), 'additionalProperties' is required to be supplied and to be false.",
    ],
  ] as const) {
    const error = await send(tool({ strict: true, parameters: schema })).then(
      () => assert.fail('accepted'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof OpenAI.BadRequestError);
    assert.equal((error.error as { message: string }).message, message);
  }
  // Without strict the same schemas are accepted: the rules are Structured Outputs' own.
  for (const schema of STRICT_BAD) await send(tool({ parameters: schema }));
});

test('an invalid tool schema is refused before anything is selected, with a script loaded too', async () => {
  const strict = await mock.session('chat-fields-scripted');
  await strict.load({ scenarios: [{ name: 'only', replies: [{ toolCalls: [{ name: 'weather', arguments: {} }] }] }] });
  const client = new OpenAI({ baseURL: mock.url('openai'), apiKey: strict.apiKey, maxRetries: 0, timeout: 10_000 });
  for (let i = 0; i < 3; i++) {
    const error = await client.chat.completions
      .create(tool({ parameters: { type: 'object', properties: { city: { type: 'notatype' } } } }) as never)
      .then(
        () => assert.fail('accepted'),
        (e: unknown) => e,
      );
    assert.ok(error instanceof OpenAI.BadRequestError);
    assert.equal(error.code, 'invalid_function_parameters');
    assert.equal(error.param, 'tools[0].function.parameters');
  }
  const { entries } = await strict.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.script]),
    [
      [400, undefined],
      [400, undefined],
      [400, undefined],
    ],
  );
  await strict.verify().then(
    () => assert.fail('the script should still be unused'),
    () => undefined,
  );
});

// Every documented field of generateContent (the Gemini API reference: GenerateContentRequest,
// GenerationConfig, SafetySetting, ThinkingConfig, Tool, ToolConfig), as a table: each row is a
// field, values the API accepts, and wrong-typed or out-of-range values with the field path and
// message Gemini answers them with. Rows with `config` go through the real @google/genai SDK (its
// `config` maps onto generationConfig, safetySettings, tools and toolConfig; values cast), the rest
// with fetch. An accepted value is answered 200 by a zero-config session; a refused one is
// Gemini's 400 INVALID_ARGUMENT. A field whose check is missing fails its row.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ApiError, GoogleGenAI } from '@google/genai';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

type Body = Record<string, unknown>;
/** [value, message (exact, or a pattern), field of the error (when not the row's path)] */
type Bad = [unknown, string | RegExp, string?];
interface Row {
  /** The field path as Gemini's messages write it (snake_case). */
  field: string;
  /** Through the SDK: the `config` to send. */
  config?: (v: unknown) => Body;
  /** With fetch: the whole body. */
  body?: (v: unknown) => Body;
  ok: unknown[];
  bad: Bad[];
}

const MODEL = 'gemini-2.5-flash';
const HI = [{ role: 'user', parts: [{ text: 'Hi' }] }];
const ENUM = 'type.googleapis.com/google.ai.generativelanguage.v1beta.';
/** The front end's words for a function name it refuses. */
const FUNCTION_NAME_RULE =
  'Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64.';
const DECL = { name: 'weather', parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } } };
/** A call to `weather` and its response, with extra members on each. */
const callTurn = (call: Body, response: Body): Body => ({
  contents: [
    ...HI,
    { role: 'model', parts: [{ functionCall: { name: 'weather', args: {}, ...call } }] },
    { role: 'user', parts: [{ functionResponse: { name: 'weather', response: { output: 'sunny' }, ...response } }] },
  ],
  tools: [{ functionDeclarations: [DECL] }],
});
const top = (name: string) => (v: unknown) => ({ [name]: v });
const thinking = (v: unknown) => ({ thinkingConfig: v });
const safety = (s: Body) => ({ safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE', ...s }] });
const declaration = (d: Body) => ({ tools: [{ functionDeclarations: [{ ...DECL, ...d }] }] });

/** Gemini's wording: a value of the wrong proto type. */
const type = (at: string, proto: string, value: unknown) => `Invalid value at '${at}' (${proto}), ${JSON.stringify(value)}`;
/** Gemini's wording: a field rule. */
const rule = (at: string, text: string | RegExp) => (typeof text === 'string' ? `* GenerateContentRequest.${at}: ${text}\n` : text);
const G = 'generation_config';
const range = (name: string, v: unknown, bounds: string) => rule(`${G}.${name}`, `${name} must be ${bounds} (got ${String(v)})`);
const num = (name: string): Row => ({
  field: `${G}.${name}`,
  config: top(name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase())),
  ok: [],
  bad: [],
});

const ROWS: Row[] = [
  // ---- generationConfig ----
  {
    ...num('temperature'),
    ok: [0, 1, 2, '0.5'],
    bad: [
      ['hot', type(`${G}.temperature`, 'TYPE_FLOAT', 'hot')],
      [true, type(`${G}.temperature`, 'TYPE_FLOAT', true)],
      [-1, range('temperature', -1, 'in the range [0, 2]')],
      [12345, range('temperature', 12345, 'in the range [0, 2]')],
    ],
  },
  {
    ...num('top_p'),
    ok: [0, 1],
    bad: [
      ['x', type(`${G}.top_p`, 'TYPE_FLOAT', 'x')],
      [1.5, range('top_p', 1.5, 'in the range [0, 1]')],
    ],
  },
  {
    ...num('top_k'),
    ok: [1, 40],
    bad: [
      [1.5, type(`${G}.top_k`, 'TYPE_INT32', 1.5)],
      [0, range('top_k', 0, 'at least 1')],
    ],
  },
  {
    ...num('presence_penalty'),
    ok: [-2, 0, 1.5],
    bad: [
      ['x', type(`${G}.presence_penalty`, 'TYPE_FLOAT', 'x')],
      [3, range('presence_penalty', 3, 'in the range [-2, 2]')],
    ],
  },
  { ...num('frequency_penalty'), ok: [0], bad: [[-3, range('frequency_penalty', -3, 'in the range [-2, 2]')]] },
  {
    ...num('seed'),
    ok: [0, 42, -1],
    bad: [
      [1.5, type(`${G}.seed`, 'TYPE_INT32', 1.5)],
      [2 ** 40, type(`${G}.seed`, 'TYPE_INT32', 2 ** 40)],
    ],
  },
  {
    ...num('max_output_tokens'),
    ok: [1, 8192, '100'],
    bad: [
      [-5, range('max_output_tokens', -5, 'at least 0')],
      [1.5, type(`${G}.max_output_tokens`, 'TYPE_INT32', 1.5)],
      [1.5e300, type(`${G}.max_output_tokens`, 'TYPE_INT32', 1.5e300)],
    ],
  },
  {
    ...num('candidate_count'),
    ok: [1],
    bad: [
      ['x', type(`${G}.candidate_count`, 'TYPE_INT32', 'x')],
      [2, /exactly one candidate/],
    ],
  },
  {
    ...num('logprobs'),
    config: (v) => ({ responseLogprobs: true, logprobs: v }),
    ok: [0, 5],
    bad: [[21, range('logprobs', 21, 'in the range [0, 20]')]],
  },
  {
    field: `${G}.response_logprobs`,
    config: top('responseLogprobs'),
    ok: [true],
    bad: [['yes', type(`${G}.response_logprobs`, 'TYPE_BOOL', 'yes')]],
  },
  {
    field: `${G}.stop_sequences`,
    config: top('stopSequences'),
    ok: [['END'], ['a', 'b', 'c', 'd', 'e']],
    bad: [
      ['END', type(`${G}.stop_sequences`, 'TYPE_LIST', 'END')],
      [[1], type(`${G}.stop_sequences[0]`, 'TYPE_STRING', 1), `${G}.stop_sequences[0]`],
      [['a', 'b', 'c', 'd', 'e', 'f'], rule(`${G}.stop_sequences`, 'the number of stop_sequences must not exceed 5')],
    ],
  },
  {
    field: `${G}.response_mime_type`,
    config: top('responseMimeType'),
    ok: ['text/plain', 'application/json'],
    bad: [
      [1, type(`${G}.response_mime_type`, 'TYPE_STRING', 1)],
      ['text/html', /unsupported mime type/],
    ],
  },
  {
    field: `${G}.response_json_schema`,
    config: (v) => ({ responseMimeType: 'application/json', responseJsonSchema: v }),
    ok: [{ type: 'object', properties: { a: { type: 'string' } } }],
    bad: [
      [{ type: 'notatype' }, /the schema cannot be used/],
      [{ type: 'string', pattern: '([' }, /the schema cannot be used/],
      [{ $ref: '#/$defs/missing' }, /the schema cannot be used/],
    ],
  },
  {
    field: `${G}.response_modalities`,
    config: top('responseModalities'),
    ok: [['TEXT']],
    bad: [[['VIDEO'], type(`${G}.response_modalities[0]`, `${ENUM}GenerationConfig.Modality`, 'VIDEO'), `${G}.response_modalities[0]`]],
  },
  {
    field: `${G}.media_resolution`,
    config: top('mediaResolution'),
    ok: ['MEDIA_RESOLUTION_LOW'],
    bad: [['TINY', type(`${G}.media_resolution`, `${ENUM}MediaResolution`, 'TINY')]],
  },
  {
    field: `${G}.thinking_config.thinking_budget`,
    config: (v) => thinking({ thinkingBudget: v }),
    ok: [0, 1024, -1],
    bad: [
      ['lots', type(`${G}.thinking_config.thinking_budget`, 'TYPE_INT32', 'lots')],
      [-5, rule(`${G}.thinking_config.thinking_budget`, 'thinking_budget must be at least -1 (got -5)')],
    ],
  },
  {
    field: `${G}.thinking_config.thinking_level`,
    config: (v) => thinking({ thinkingLevel: v }),
    ok: ['LOW', 'high'],
    bad: [['EXTREME', type(`${G}.thinking_config.thinking_level`, `${ENUM}ThinkingConfig.ThinkingLevel`, 'EXTREME')]],
  },
  {
    field: `${G}.thinking_config.include_thoughts`,
    config: (v) => thinking({ includeThoughts: v }),
    ok: [true],
    bad: [['yes', type(`${G}.thinking_config.include_thoughts`, 'TYPE_BOOL', 'yes')]],
  },
  // ---- safetySettings ----
  {
    field: 'safety_settings[0].category',
    config: (v) => safety({ category: v }),
    ok: ['HARM_CATEGORY_HATE_SPEECH'],
    bad: [['HARM_CATEGORY_RUDENESS', type('safety_settings[0].category', `${ENUM}HarmCategory`, 'HARM_CATEGORY_RUDENESS')]],
  },
  {
    field: 'safety_settings[0].threshold',
    config: (v) => safety({ threshold: v }),
    ok: ['BLOCK_ONLY_HIGH', 'OFF'],
    bad: [['BLOCK_ALL', type('safety_settings[0].threshold', `${ENUM}SafetySetting.HarmBlockThreshold`, 'BLOCK_ALL')]],
  },
  {
    field: 'safety_settings[0].method',
    body: (v) => ({ contents: HI, ...safety({ method: v }) }),
    ok: ['SEVERITY'],
    bad: [['GUESS', type('safety_settings[0].method', `${ENUM}SafetySetting.HarmBlockMethod`, 'GUESS')]],
  },
  // ---- tools and toolConfig ----
  {
    field: 'tools[0].function_declarations[0].name',
    config: (v) => declaration({ name: v }),
    ok: ['get_weather', '_a.b:c-d', 'f'.repeat(64)],
    bad: [
      [1, type('tools[0].function_declarations[0].name', 'TYPE_STRING', 1)],
      ['9lives', rule('tools[0].function_declarations[0].name', FUNCTION_NAME_RULE)],
      ['get weather', rule('tools[0].function_declarations[0].name', FUNCTION_NAME_RULE)],
      ['f'.repeat(65), rule('tools[0].function_declarations[0].name', FUNCTION_NAME_RULE)],
    ],
  },
  {
    field: 'tools[0].function_declarations',
    config: (v) => ({ tools: [{ functionDeclarations: v }] }),
    ok: [[DECL, { ...DECL, name: 'forecast' }]],
    // The API's own sentence, with no field path.
    bad: [[[DECL, DECL], 'Duplicate function declaration found: weather']],
  },
  {
    field: 'tools[0].function_declarations[0].description',
    config: (v) => declaration({ description: v }),
    ok: ['d'],
    bad: [[1, type('tools[0].function_declarations[0].description', 'TYPE_STRING', 1)]],
  },
  {
    field: 'tools[0].function_declarations[0].parameters_json_schema',
    config: (v) => declaration({ parametersJsonSchema: v }),
    ok: [{ type: 'object' }],
    bad: [
      [{ type: 'object', properties: { city: { type: 'notatype' } } }, /the schema cannot be used/],
      [{ type: 'object', properties: { city: { type: 'string', pattern: '([' } } }, /the schema cannot be used/],
      [{ type: 'object', properties: { city: { $ref: '#/$defs/missing' } } }, /the schema cannot be used/],
    ],
  },
  {
    field: 'tool_config.function_calling_config.mode',
    config: (v) => ({ ...declaration({}), toolConfig: { functionCallingConfig: { mode: v } } }),
    ok: ['AUTO', 'ANY', 'NONE'],
    bad: [['SOMETIMES', type('tool_config.function_calling_config.mode', `${ENUM}FunctionCallingConfig.Mode`, 'SOMETIMES')]],
  },
  // ---- the request itself (fetch) ----
  {
    field: 'contents',
    body: (v) => ({ contents: v }),
    ok: [HI],
    bad: [
      ['Hi', type('contents', 'TYPE_LIST', 'Hi')],
      [[], rule('contents', 'contents is not specified')],
    ],
  },
  {
    field: 'system_instruction',
    body: (v) => ({ contents: HI, systemInstruction: v }),
    ok: [{ parts: [{ text: 'be brief' }] }],
    bad: [['be brief', type('system_instruction', 'TYPE_MESSAGE', 'be brief')]],
  },
  {
    field: 'safety_settings',
    body: (v) => ({ contents: HI, safetySettings: v }),
    ok: [[]],
    bad: [[{}, type('safety_settings', 'TYPE_LIST', {})]],
  },
  {
    field: 'labels',
    body: (v) => ({ contents: HI, labels: v }),
    ok: [{ team: 'a' }],
    bad: [[{ team: 1 }, type('labels[team]', 'TYPE_STRING', 1), 'labels[team]']],
  },
  { field: 'store', body: (v) => ({ contents: HI, store: v }), ok: [false], bad: [['no', type('store', 'TYPE_BOOL', 'no')]] },
  {
    field: 'model_armor_config',
    body: (v) => ({ contents: HI, modelArmorConfig: v }),
    ok: [{}],
    bad: [['x', type('model_armor_config', 'TYPE_MESSAGE', 'x')]],
  },
  // Members a text-only stand-in does not use are still type-checked, as the front end does.
  ...['audio_timestamp', 'enable_affective_dialog'].map((name): Row => ({
    field: `${G}.${name}`,
    body: (v) => ({ contents: HI, generationConfig: { [name]: v } }),
    ok: [false],
    bad: [['no', type(`${G}.${name}`, 'TYPE_BOOL', 'no')]],
  })),
  ...['speech_config', 'image_config', 'audio_transcription_config', 'routing_config', 'model_config', 'translation_config'].map(
    (name): Row => ({
      field: `${G}.${name}`,
      body: (v) => ({ contents: HI, generationConfig: { [name]: v } }),
      ok: [{}],
      bad: [['x', type(`${G}.${name}`, 'TYPE_MESSAGE', 'x')]],
    }),
  ),
  {
    field: 'tool_config.retrieval_config',
    body: (v) => ({ contents: HI, toolConfig: { retrievalConfig: v } }),
    ok: [{}],
    bad: [[1, type('tool_config.retrieval_config', 'TYPE_MESSAGE', 1)]],
  },
  {
    field: 'tool_config.include_server_side_tool_invocations',
    body: (v) => ({ contents: HI, toolConfig: { includeServerSideToolInvocations: v } }),
    ok: [false],
    bad: [['no', type('tool_config.include_server_side_tool_invocations', 'TYPE_BOOL', 'no')]],
  },
  ...['video_metadata', 'media_resolution', 'part_metadata'].map((name): Row => ({
    field: `contents[0].parts[0].${name}`,
    body: (v) => ({ contents: [{ role: 'user', parts: [{ text: 'Hi', [name]: v }] }] }),
    ok: [{}],
    bad: [['x', type(`contents[0].parts[0].${name}`, 'TYPE_MESSAGE', 'x')]],
  })),
  {
    field: 'contents[0].parts[0].inline_data.display_name',
    body: (v) => ({ contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: 'aGk=', displayName: v } }] }] }),
    ok: ['picture.png'],
    bad: [[1, type('contents[0].parts[0].inline_data.display_name', 'TYPE_STRING', 1)]],
  },
  {
    field: 'contents[1].parts[0].function_call.will_continue',
    body: (v) => callTurn({ willContinue: v }, {}),
    ok: [false],
    bad: [['no', type('contents[1].parts[0].function_call.will_continue', 'TYPE_BOOL', 'no')]],
  },
  {
    field: 'contents[1].parts[0].function_call.partial_args',
    body: (v) => callTurn({ partialArgs: v }, {}),
    ok: [[]],
    bad: [[{}, type('contents[1].parts[0].function_call.partial_args', 'TYPE_LIST', {})]],
  },
  {
    field: 'contents[2].parts[0].function_response.scheduling',
    body: (v) => callTurn({}, { scheduling: v }),
    ok: ['SILENT', 'when_idle', 'INTERRUPT'],
    bad: [['SOON', type('contents[2].parts[0].function_response.scheduling', `${ENUM}FunctionResponse.Scheduling`, 'SOON')]],
  },
  {
    field: 'temprature',
    body: (v) => ({ contents: HI, temprature: v }),
    ok: [],
    bad: [[1, 'Invalid JSON payload received. Unknown name "temprature": Cannot find field.']],
  },
];

let mock: Understudy;
let session: UnderstudySession;
let ai: GoogleGenAI;

before(async () => {
  mock = await startUnderstudy();
  session = await mock.session('gemini-fields', { fallback: 'auto' });
  ai = new GoogleGenAI({ apiKey: session.apiKey, httpOptions: { baseUrl: mock.url('gemini'), timeout: 10_000 } });
});
after(async () => {
  await mock?.close();
});

interface Answer {
  status: number;
  error?: { code: number; message: string; status: string; details?: { fieldViolations?: { field: string }[] }[] };
}

async function send(row: Row, value: unknown): Promise<Answer> {
  if (row.config) {
    try {
      await ai.models.generateContent({ model: MODEL, contents: 'Hi', config: row.config(value) as never });
      return { status: 200 };
    } catch (e) {
      assert.ok(e instanceof ApiError, `expected the SDK's ApiError, got ${String(e)}`);
      return { status: e.status, error: (JSON.parse(e.message) as { error: Answer['error'] }).error };
    }
  }
  const res = await fetch(`${mock.baseUrl}/v1beta/models/${MODEL}:generateContent`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': session.apiKey },
    body: JSON.stringify(row.body!(value)),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json()) as { error?: Answer['error'] };
  return { status: res.status, error: body.error };
}

describe('every documented generateContent field', () => {
  for (const row of ROWS) {
    test(row.field, async () => {
      for (const value of row.ok) {
        const answer = await send(row, value);
        assert.equal(answer.status, 200, `${row.field} = ${JSON.stringify(value)} refused: ${answer.error?.message}`);
      }
      for (const [value, message, at = row.field] of row.bad) {
        const what = `${row.field} = ${JSON.stringify(value)?.slice(0, 60)}`;
        const { status, error } = await send(row, value);
        assert.equal(status, 400, `${what}: accepted`);
        assert.ok(error, what);
        assert.equal(error.code, 400, what);
        assert.equal(error.status, 'INVALID_ARGUMENT', what);
        if (typeof message === 'string') assert.equal(error.message, message, what);
        else assert.match(error.message, message, what);
        const fields = (error.details ?? []).flatMap((d) => d.fieldViolations ?? []).map((v) => v.field);
        if (fields.length > 0) assert.deepEqual(fields, [at], `${what}: field violation`);
      }
    });
  }
});

test('more than 5 stopSequences on a Vertex AI route: Vertex AI words the limit its own way', async () => {
  const post = (stopSequences: string[]) =>
    fetch(`${mock.baseUrl}/v1/publishers/google/models/${MODEL}:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': session.apiKey },
      body: JSON.stringify({ contents: HI, generationConfig: { stopSequences } }),
      signal: AbortSignal.timeout(10_000),
    });
  assert.equal((await post(['a', 'b', 'c', 'd', 'e'])).status, 200);
  const refused = await post(['a', 'b', 'c', 'd', 'e', 'f']);
  assert.equal(refused.status, 400);
  const { error } = (await refused.json()) as { error: { status: string; message: string } };
  assert.equal(error.status, 'INVALID_ARGUMENT');
  assert.equal(
    error.message,
    'Unable to submit request because it has a stopSequences value of 6 but the supported range is from 1 (inclusive) to 6 (exclusive). Update the value and try again.',
  );
});

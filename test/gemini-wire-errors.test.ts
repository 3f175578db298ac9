// Gemini wire validation: malformed requests get Gemini's own 400 ({"error":{"code":400,"message",
// "status":"INVALID_ARGUMENT"}}) before anything is selected, so a script that would have answered
// is still unused afterwards; forms the real front end accepts (snake_case names, no role,
// lower-case types, numbers as strings) are accepted.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { ApiError, GoogleGenAI, Type } from '@google/genai';

import { startUnderstudy } from '../src/client/index.js';
import type { Understudy, UnderstudySession } from '../src/client/index.js';

let mock: Understudy;

before(async () => {
  mock = await startUnderstudy();
});

after(async () => {
  await mock.close();
});

const MODEL = 'gemini-2.5-flash';
const HI = [{ role: 'user', parts: [{ text: 'Hi' }] }];

interface GeminiError {
  code: number;
  message: string;
  status: string;
  details?: { '@type': string; fieldViolations?: { field: string; description: string }[] }[];
}

async function post(session: UnderstudySession, body: unknown, path = `/v1beta/models/${MODEL}:generateContent`) {
  const res = await fetch(`${mock.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': session.apiKey },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: (await res.json()) as { error: GeminiError } };
}

const weatherDecl = { name: 'get_weather', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } } } };

/** [what is wrong, body, message (exact string or pattern), field of the BadRequest detail if any] */
const CASES: [string, unknown, string | RegExp, string?][] = [
  ['contents missing', {}, '* GenerateContentRequest.contents: contents is not specified\n', 'contents'],
  ['contents empty', { contents: [] }, '* GenerateContentRequest.contents: contents is not specified\n', 'contents'],
  ['contents not a list', { contents: 'Hi' }, /^Invalid value at 'contents' \(TYPE_LIST\), "Hi"$/, 'contents'],
  ['a content that is not an object', { contents: ['Hi'] }, /^Invalid value at 'contents\[0\]'/],
  ['parts missing', { contents: [{ role: 'user' }] }, '* GenerateContentRequest.contents[0].parts: contents.parts must not be empty.\n'],
  ['parts empty', { contents: [{ role: 'user', parts: [] }] }, /contents\[0\]\.parts: contents\.parts must not be empty/],
  ['an unknown role', { contents: [{ role: 'assistant', parts: [{ text: 'Hi' }] }] }, 'Please use a valid role: user, model.'],
  [
    'a role that is not a string',
    { contents: [{ role: 1, parts: [{ text: 'Hi' }] }] },
    "Invalid value at 'contents[0].role' (TYPE_STRING), 1",
  ],
  [
    'an unknown part kind',
    { contents: [{ parts: [{ image: { url: 'x' } }] }] },
    'Invalid JSON payload received. Unknown name "image" at \'contents[0].parts[0]\': Cannot find field.',
    'contents[0].parts[0]',
  ],
  [
    'a part with no data',
    { contents: [{ parts: [{}] }] },
    /contents\[0\]\.parts\[0\]\.data: required oneof field 'data' must have one initialized field/,
  ],
  ['an empty text part', { contents: [{ parts: [{ text: '' }] }] }, /required oneof field 'data'/],
  [
    'two kinds in one part',
    { contents: [{ parts: [{ text: 'a', inlineData: { mimeType: 'image/png', data: 'AAAA' } }] }] },
    /Oneof field 'data' is already set\. Cannot set 'inlineData'/,
  ],
  ['text that is not a string', { contents: [{ parts: [{ text: 5 }] }] }, "Invalid value at 'contents[0].parts[0].text' (TYPE_STRING), 5"],
  [
    'inline data without a mime type',
    { contents: [{ parts: [{ inlineData: { data: 'AAAA' } }] }] },
    /inline_data\.mime_type: required field is not set/,
  ],
  [
    'inline data that is not base64',
    { contents: [{ parts: [{ inlineData: { mimeType: 'image/png', data: 'not base64!' } }] }] },
    /inline_data\.data' \(TYPE_BYTES\)/,
  ],
  [
    'a function call in a user turn',
    { contents: [{ role: 'user', parts: [{ functionCall: { name: 'f' } }] }] },
    /function call can only be part of a model turn/,
  ],
  [
    'a function call turn first',
    { contents: [{ role: 'model', parts: [{ functionCall: { name: 'get_weather', args: {} } }] }] },
    'Please ensure that function call turn comes immediately after a user turn or after a function response turn.',
  ],
  [
    'a function response with no call before it',
    { contents: [{ role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: {} } }] }] },
    'Please ensure that function response turn comes immediately after a function call turn.',
  ],
  [
    'fewer responses than calls',
    {
      contents: [
        { role: 'user', parts: [{ text: 'Hi' }] },
        { role: 'model', parts: [{ functionCall: { name: 'a', args: {} } }, { functionCall: { name: 'b', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'a', response: {} } }] },
      ],
    },
    'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
  ],
  [
    'a function call without a name',
    { contents: [...HI, { role: 'model', parts: [{ functionCall: { args: {} } }] }] },
    /function_call\.name: name is required/,
  ],
  [
    'args that are not an object',
    { contents: [...HI, { role: 'model', parts: [{ functionCall: { name: 'f', args: [1] } }] }] },
    /function_call\.args' \(TYPE_MESSAGE\)/,
  ],
  [
    'an unknown top-level field',
    { contents: HI, messages: [] },
    'Invalid JSON payload received. Unknown name "messages": Cannot find field.',
    'messages',
  ],
  ['a body that is a list', [{ contents: HI }], 'Invalid JSON payload received. Root element must be a message.'],
  [
    'an unknown generationConfig field',
    { contents: HI, generationConfig: { max_tokens: 5 } },
    'Invalid JSON payload received. Unknown name "max_tokens" at \'generation_config\': Cannot find field.',
    'generation_config',
  ],
  [
    'a temperature that is not a number',
    { contents: HI, generationConfig: { temperature: 'hot' } },
    'Invalid value at \'generation_config.temperature\' (TYPE_FLOAT), "hot"',
  ],
  [
    'two candidates',
    { contents: HI, generationConfig: { candidateCount: 2 } },
    /exactly one candidate; candidateCount must be 1 \(got 2\)/,
  ],
  [
    'an unknown mime type',
    { contents: HI, generationConfig: { responseMimeType: 'text/csv' } },
    /response_mime_type: unsupported mime type "text\/csv"/,
  ],
  [
    'responseSchema without a JSON mime type',
    { contents: HI, generationConfig: { responseSchema: { type: 'OBJECT' } } },
    /response_schema: response_mime_type must be application\/json or text\/x\.enum when response_schema is set/,
  ],
  [
    'responseJsonSchema with text/plain',
    { contents: HI, generationConfig: { responseMimeType: 'text/plain', responseJsonSchema: { type: 'object' } } },
    /response_json_schema: response_mime_type must be application\/json/,
  ],
  [
    'both schema forms',
    {
      contents: HI,
      generationConfig: {
        responseMimeType: 'application/json',
        responseSchema: { type: 'OBJECT' },
        responseJsonSchema: { type: 'object' },
      },
    },
    /mutually exclusive/,
  ],
  [
    'a responseSchema type that does not exist',
    { contents: HI, generationConfig: { responseMimeType: 'application/json', responseSchema: { type: 'MAP' } } },
    'Invalid value at \'generation_config.response_schema.type\' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), "MAP"',
  ],
  ['a tools value that is not a list', { contents: HI, tools: { functionDeclarations: [] } }, /^Invalid value at 'tools' \(TYPE_LIST\)/],
  [
    'a declaration without a name',
    { contents: HI, tools: [{ functionDeclarations: [{ description: 'x' }] }] },
    /function_declarations\[0\]\.name: name is required/,
  ],
  [
    'a declaration name with a space',
    { contents: HI, tools: [{ functionDeclarations: [{ name: 'get weather' }] }] },
    /function_declarations\[0\]\.name: Invalid function name\. Must start with a letter or an underscore\./,
  ],
  [
    'a declaration name starting with a digit',
    { contents: HI, tools: [{ functionDeclarations: [{ name: '9lives' }] }] },
    /function_declarations\[0\]\.name: Invalid function name\. Must start with a letter or an underscore\./,
  ],
  [
    'two declarations with one name',
    { contents: HI, tools: [{ functionDeclarations: [weatherDecl] }, { functionDeclarations: [weatherDecl] }] },
    'Duplicate function declaration found: get_weather',
  ],
  [
    'additionalProperties in OpenAPI parameters',
    { contents: HI, tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'OBJECT', additionalProperties: false } }] }] },
    'Invalid JSON payload received. Unknown name "additionalProperties" at \'tools[0].function_declarations[0].parameters\': Cannot find field.',
    'tools[0].function_declarations[0].parameters',
  ],
  [
    'an ARRAY without items',
    {
      contents: HI,
      tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'OBJECT', properties: { tags: { type: 'ARRAY' } } } }] }],
    },
    '* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[tags].items: missing field.\n',
  ],
  [
    'a required name that is not a property',
    {
      contents: HI,
      tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'OBJECT', properties: {}, required: ['city'] } }] }],
    },
    /parameters\.required\[0\]: property is not defined/,
  ],
  [
    'properties on a STRING',
    {
      contents: HI,
      tools: [
        { functionDeclarations: [{ name: 'f', parameters: { type: 'OBJECT', properties: { a: { type: 'STRING', properties: {} } } } }] },
      ],
    },
    /properties\[a\]\.properties: only allowed for OBJECT type/,
  ],
  [
    'a non-numeric string bound',
    {
      contents: HI,
      tools: [
        { functionDeclarations: [{ name: 'f', parameters: { type: 'OBJECT', properties: { a: { type: 'STRING', maxLength: 'ten' } } } }] },
      ],
    },
    'Invalid value at \'tools[0].function_declarations[0].parameters.properties[0].value.max_length\' (TYPE_INT64), "ten"',
  ],
  [
    'a type given as a list',
    {
      contents: HI,
      tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'OBJECT', properties: { a: { type: ['STRING', 'NULL'] } } } }] }],
    },
    'Invalid JSON payload received. Unknown name "type" at \'tools[0].function_declarations[0].parameters.properties[0].value\': Proto field is not repeating, cannot start list.',
    'tools[0].function_declarations[0].parameters.properties[0].value',
  ],
  [
    'const in an OpenAPI schema',
    {
      contents: HI,
      tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'OBJECT', properties: { a: { anyOf: [{ const: 'x' }] } } } }] }],
    },
    'Invalid JSON payload received. Unknown name "const" at \'tools[0].function_declarations[0].parameters.properties[0].value.any_of[0]\': Cannot find field.',
  ],
  [
    'an enum value that is not a string',
    {
      contents: HI,
      tools: [
        { functionDeclarations: [{ name: 'f', parameters: { type: 'OBJECT', properties: { n: { type: 'INTEGER', enum: [1, 2] } } } }] },
      ],
    },
    /enum\[0\]' \(TYPE_STRING\), 1/,
  ],
  [
    'parameters that are not an OBJECT',
    { contents: HI, tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'STRING' } }] }] },
    /parameters schema must be of type OBJECT/,
  ],
  [
    'parameters and parametersJsonSchema together',
    {
      contents: HI,
      tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'OBJECT' }, parametersJsonSchema: { type: 'object' } }] }],
    },
    /parameters and parameters_json_schema are mutually exclusive/,
  ],
  [
    'a parametersJsonSchema with an external $ref',
    { contents: HI, tools: [{ functionDeclarations: [{ name: 'f', parametersJsonSchema: { $ref: 'https://example.com/s.json' } }] }] },
    /parameters_json_schema: the schema cannot be used: external \$ref/,
  ],
  ['a built-in tool', { contents: HI, tools: [{ googleSearch: {} }] }, /does not run Gemini's built-in tool "googleSearch"/],
  [
    'an unknown function calling mode',
    { contents: HI, tools: [{ functionDeclarations: [weatherDecl] }], toolConfig: { functionCallingConfig: { mode: 'SOMETIMES' } } },
    'Invalid value at \'tool_config.function_calling_config.mode\' (type.googleapis.com/google.ai.generativelanguage.v1beta.FunctionCallingConfig.Mode), "SOMETIMES"',
  ],
  [
    'allowed names with mode AUTO',
    {
      contents: HI,
      tools: [{ functionDeclarations: [weatherDecl] }],
      toolConfig: { functionCallingConfig: { mode: 'AUTO', allowedFunctionNames: ['get_weather'] } },
    },
    /allowed_function_names: may only be set when mode is ANY or VALIDATED \(mode is AUTO\)/,
  ],
  [
    'an allowed name that is not declared',
    {
      contents: HI,
      tools: [{ functionDeclarations: [weatherDecl] }],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_time'] } },
    },
    /allowed_function_names\[0\]: function "get_time" is not declared/,
  ],
  [
    'mode ANY without declarations',
    { contents: HI, toolConfig: { functionCallingConfig: { mode: 'ANY' } } },
    /mode ANY needs at least one function declaration/,
  ],
  ['cachedContent', { contents: HI, cachedContent: 'cachedContents/abc' }, /keeps no cached contents/],
];

describe('malformed requests get Gemini 400s and consume nothing', () => {
  test("each malformed body: 400 INVALID_ARGUMENT with the front end's message, the script unused [gemini.validation.json -]", async () => {
    const session = await mock.session('gv-cases');
    session.scenario('answer').replies('still here');
    for (const [what, body, message, field] of CASES) {
      const res = await post(session, body);
      assert.equal(res.status, 400, `${what}: ${JSON.stringify(res.body)}`);
      assert.match(res.type, /^application\/json/);
      assert.equal(res.body.error.code, 400, what);
      assert.equal(res.body.error.status, 'INVALID_ARGUMENT', what);
      if (typeof message === 'string') assert.equal(res.body.error.message, message, what);
      else assert.match(res.body.error.message, message, what);
      if (field !== undefined) {
        assert.equal(res.body.error.details?.[0]['@type'], 'type.googleapis.com/google.rpc.BadRequest', what);
        assert.equal(res.body.error.details?.[0].fieldViolations?.[0].field, field, what);
      }
    }
    const { counters, entries } = await session.journal();
    assert.equal(counters.invalid, CASES.length);
    assert.equal(counters.matched, 0);
    assert.ok(entries.every((e) => e.status === 400 && e.error?.code === 'INVALID_ARGUMENT'));
    const ok = await post(session, { contents: HI });
    assert.equal(ok.status, 200, 'the script was not consumed by any of them');
  });

  test('invalid JSON and an unsupported alt answer in Gemini shape too [gemini.validation.json -]', async () => {
    const session = await mock.session('gv-json');
    const broken = await post(session, '{"contents": [');
    assert.equal(broken.status, 400);
    assert.equal(broken.body.error.status, 'INVALID_ARGUMENT');
    assert.match(broken.body.error.message, /^Invalid JSON payload received\. /);
    assert.match(broken.body.error.message, /^Invalid JSON payload received. /);
    const alt = await post(session, { contents: HI }, `/v1beta/models/${MODEL}:streamGenerateContent?alt=proto`);
    assert.equal(alt.status, 400);
    assert.match(alt.body.error.message, /alt=json \(the default\) and alt=sse/);
    const version = await post(session, { contents: HI }, `/v2/models/${MODEL}:generateContent`);
    assert.deepEqual([version.status, version.body.error.status], [404, 'NOT_FOUND']);
  });

  test('the genai SDK throws ApiError 400 carrying the JSON body [gemini.validation.json -]', async () => {
    const session = await mock.session('gv-sdk');
    session.scenario('answer').replies('unused');
    const ai = new GoogleGenAI({ apiKey: session.apiKey, httpOptions: { baseUrl: mock.url('gemini'), timeout: 10_000 } });
    const error = await ai.models
      .generateContent({
        model: MODEL,
        contents: 'Hi',
        config: {
          tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: Type.OBJECT, properties: { tags: { type: Type.ARRAY } } } }] }],
        },
      })
      .catch((e: unknown) => e);
    assert.ok(error instanceof ApiError, `got ${String(error)}`);
    assert.equal(error.status, 400);
    const body = JSON.parse(error.message) as { error: GeminiError };
    assert.deepEqual(
      { code: body.error.code, status: body.error.status, message: body.error.message },
      {
        code: 400,
        status: 'INVALID_ARGUMENT',
        message: '* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[tags].items: missing field.\n',
      },
    );
    const { counters } = await session.journal();
    assert.deepEqual([counters.invalid, counters.matched], [1, 0]);
  });

  test('streamed requests are validated before the stream starts [gemini.validation.stream -]', async () => {
    const session = await mock.session('gv-stream');
    session.scenario('answer').replies('unused');
    const ai = new GoogleGenAI({ apiKey: session.apiKey, httpOptions: { baseUrl: mock.url('gemini'), timeout: 10_000 } });
    const error = await ai.models
      .generateContentStream({ model: MODEL, contents: 'Hi', config: { responseSchema: { type: Type.OBJECT } } })
      .catch((e: unknown) => e);
    assert.ok(error instanceof ApiError, `got ${String(error)}`);
    assert.equal(error.status, 400);
    assert.match(error.message, /response_mime_type must be application\/json or text\/x\.enum/);
    const raw = await post(
      session,
      { contents: [{ role: 'system', parts: [{ text: 'x' }] }] },
      `/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`,
    );
    assert.equal(raw.status, 400);
    assert.equal(raw.body.error.message, 'Please use a valid role: user, model.');
    const { counters, entries } = await session.journal();
    assert.deepEqual([counters.invalid, counters.matched], [2, 0]);
    assert.ok(entries.every((e) => e.operation === 'gemini.streamGenerateContent'));
  });
});

describe('forms the real front end accepts', () => {
  test('snake_case names, no role, lower-case types, numbers as strings, nulls, signature-only parts [gemini.validation.json +]', async () => {
    const session = await mock.session('gv-accepted');
    session.scenario('answer').callsTool('get_weather', { city: 'Paris' });
    const res = await post(session, {
      system_instruction: { parts: [{ text: 'be brief' }] },
      contents: [
        { parts: [{ text: 'Weather in Paris?' }, { thought_signature: 'c2ln' }] },
        { role: 'model', parts: [{ text: 'Let me think.', thought: true }, { text: 'Checking.' }] },
        { role: 'user', parts: [{ text: 'Go on' }, { inline_data: { mime_type: 'image/png', data: 'iVBORw0KGgo=' } }] },
      ],
      tools: [
        {
          function_declarations: [
            {
              name: 'get_weather',
              parameters: { type: 'object', properties: { city: { type: 'string', max_length: 40 } }, required: ['city'] },
            },
          ],
        },
      ],
      tool_config: { function_calling_config: { mode: 'any' } },
      generation_config: {
        temperature: '0.2',
        max_output_tokens: '64',
        top_k: 3,
        stop_sequences: ['END'],
        thinking_config: { thinking_budget: 0 },
      },
      safety_settings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
      labels: { team: 'qa' },
      model: null,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const { entries } = await session.journal();
    const request = entries[0].request;
    assert.deepEqual(
      request?.messages.map((m) => [m.role, m.parts.map((p) => p.type)]),
      [
        ['system', ['text']],
        ['user', ['text']],
        ['assistant', ['reasoning', 'text']],
        ['user', ['text', 'image']],
      ],
    );
    assert.deepEqual(request?.tools[0].parameters, {
      type: 'object',
      properties: { city: { type: 'string', maxLength: 40 } },
      required: ['city'],
    });
    assert.deepEqual(request?.toolChoice, { type: 'required' });
    assert.equal(request?.maxOutputTokens, 64);
    const image = request?.messages[3].parts[1];
    assert.deepEqual(image, { type: 'image', url: 'data:image/png;base64,iVBORw0KGgo=', mediaType: 'image/png' });
  });

  test('a streamed request in snake_case over alt=sse is accepted [gemini.validation.stream +]', async () => {
    const session = await mock.session('gv-accepted-stream');
    session.scenario('answer').replies('{"ok":true}');
    const res = await fetch(`${mock.baseUrl}/gemini/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': session.apiKey },
      body: JSON.stringify({
        contents: [{ parts: [{ text: 'Hi' }] }],
        generation_config: {
          response_mime_type: 'application/json',
          response_schema: { type: 'OBJECT', properties: { ok: { type: 'BOOLEAN' } } },
        },
      }),
      signal: AbortSignal.timeout(10_000),
    });
    assert.equal(res.status, 200);
    const text = await res.text();
    const joined = text
      .split('\r\n\r\n')
      .filter(Boolean)
      .map(
        (e) =>
          (JSON.parse(e.slice('data: '.length)) as { candidates: { content: { parts?: { text: string }[] } }[] }).candidates[0].content
            .parts ?? [],
      )
      .flat()
      .map((p) => p.text)
      .join('');
    assert.equal(joined, '{"ok":true}');
    const { entries } = await session.journal();
    assert.deepEqual(entries[0].request?.output, {
      type: 'json_schema',
      schema: { type: 'object', properties: { ok: { type: 'boolean' } } },
    });
    assert.equal(entries[0].route, `POST /gemini/v1beta/models/${MODEL}:streamGenerateContent`);
  });
});

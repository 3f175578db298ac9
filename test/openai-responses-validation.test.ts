// OpenAI Responses wire validation through the real openai SDK: each malformed request gets
// OpenAI's own 400 shape ({error:{message,type,param,code}}) before anything is selected, so the
// one scripted reply is still there at the end; a request using every accepted option passes and
// its fields come back echoed in the response object.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

const SCRIPTED = 'The one scripted answer.';
const MODEL = 'gpt-4.1-mini';
const TOOL = {
  type: 'function',
  name: 'weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  strict: true,
};

let mock: Understudy;
let session: UnderstudySession;
let openai: OpenAI;

before(async () => {
  mock = await startUnderstudy();
  session = await mock.session('responses-wire-errors');
  await session.load({ scenarios: [{ name: 'only', replies: [{ text: SCRIPTED }] }] });
  openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
});

after(async () => {
  await mock?.close();
});

interface Case {
  name: string;
  body: Record<string, unknown>;
  param: string | null;
  code: string | null;
  message?: RegExp;
}

const base = { model: MODEL, input: 'Hi' };

const CASES: Case[] = [
  {
    name: 'model missing',
    body: { input: 'Hi' },
    param: 'model',
    code: 'missing_required_parameter',
    message: /Missing required parameter: 'model'/,
  },
  { name: 'model not a string', body: { model: 42, input: 'Hi' }, param: 'model', code: 'invalid_type' },
  { name: 'input missing', body: { model: MODEL }, param: 'input', code: 'missing_required_parameter' },
  { name: 'input a number', body: { model: MODEL, input: 42 }, param: 'input', code: 'invalid_type' },
  { name: 'input an empty list', body: { model: MODEL, input: [] }, param: 'input', code: 'empty_array' },
  { name: 'input item not an object', body: { model: MODEL, input: [42] }, param: 'input[0]', code: 'invalid_type' },
  {
    name: 'input item without type or role',
    body: { model: MODEL, input: [{ content: 'Hi' }] },
    param: 'input[0].type',
    code: 'missing_required_parameter',
  },
  {
    name: 'unknown role',
    body: { model: MODEL, input: [{ role: 'robot', content: 'Hi' }] },
    param: 'input[0].role',
    code: 'invalid_value',
  },
  {
    name: 'message without content',
    body: { model: MODEL, input: [{ role: 'user' }] },
    param: 'input[0].content',
    code: 'missing_required_parameter',
  },
  {
    name: 'chat-style text part',
    body: { model: MODEL, input: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] },
    param: 'input[0].content[0].type',
    code: 'invalid_value',
    message: /'input_text', 'input_image', and 'input_file'/,
  },
  {
    name: 'input_text on an assistant message',
    body: {
      model: MODEL,
      input: [
        { role: 'assistant', content: [{ type: 'input_text', text: 'Hi' }] },
        { role: 'user', content: 'x' },
      ],
    },
    param: 'input[0].content[0].type',
    code: 'invalid_value',
  },
  {
    name: 'input_text without text',
    body: { model: MODEL, input: [{ role: 'user', content: [{ type: 'input_text' }] }] },
    param: 'input[0].content[0].text',
    code: 'missing_required_parameter',
  },
  {
    name: 'input_image without a url or file id',
    body: { model: MODEL, input: [{ role: 'user', content: [{ type: 'input_image', detail: 'auto' }] }] },
    param: 'input[0].content[0].image_url',
    code: 'missing_required_parameter',
  },
  {
    name: 'function_call without call_id',
    body: { model: MODEL, input: [{ type: 'function_call', name: 'weather', arguments: '{}' }] },
    param: 'input[0].call_id',
    code: 'missing_required_parameter',
  },
  {
    name: 'function_call arguments as an object',
    body: { model: MODEL, input: [{ type: 'function_call', call_id: 'c1', name: 'weather', arguments: { city: 'Paris' } }] },
    param: 'input[0].arguments',
    code: 'invalid_type',
  },
  {
    name: 'function_call_output without output',
    body: { model: MODEL, input: [{ type: 'function_call_output', call_id: 'c1' }] },
    param: 'input[0].output',
    code: 'missing_required_parameter',
  },
  {
    name: 'function_call_output without its call',
    body: { model: MODEL, input: [{ type: 'function_call_output', call_id: 'call_x', output: 'sunny' }] },
    param: 'input',
    code: null,
    message: /No tool call found for function call output with call_id call_x\./,
  },
  {
    name: 'function_call without its output',
    body: {
      model: MODEL,
      input: [
        { role: 'user', content: 'Hi' },
        { type: 'function_call', call_id: 'call_y', name: 'weather', arguments: '{}' },
      ],
    },
    param: 'input',
    code: null,
    message: /No tool output found for function call call_y\./,
  },
  { name: 'unknown item type', body: { model: MODEL, input: [{ type: 'banana' }] }, param: 'input[0].type', code: 'invalid_value' },
  {
    name: 'hosted tool item',
    body: { model: MODEL, input: [{ type: 'web_search_call', id: 'ws_1', status: 'completed' }] },
    param: 'input[0].type',
    code: 'unsupported_value',
    message: /server-hosted/,
  },
  {
    name: 'reasoning item without summary',
    body: {
      model: MODEL,
      input: [
        { type: 'reasoning', id: 'rs_1' },
        { role: 'user', content: 'Hi' },
      ],
    },
    param: 'input[0].summary',
    code: 'missing_required_parameter',
  },
  { name: 'tools not a list', body: { ...base, tools: { type: 'function' } }, param: 'tools', code: 'invalid_type' },
  {
    name: 'web_search tool',
    body: { ...base, tools: [{ type: 'web_search' }] },
    param: 'tools[0].type',
    code: 'unsupported_value',
    message: /server-side/,
  },
  {
    name: 'file_search tool',
    body: { ...base, tools: [{ type: 'file_search', vector_store_ids: ['vs_1'] }] },
    param: 'tools[0].type',
    code: 'unsupported_value',
  },
  {
    name: 'computer_use_preview tool',
    body: { ...base, tools: [{ type: 'computer_use_preview', display_width: 1024, display_height: 768, environment: 'browser' }] },
    param: 'tools[0].type',
    code: 'unsupported_value',
  },
  { name: 'unknown tool type', body: { ...base, tools: [{ type: 'banana' }] }, param: 'tools[0].type', code: 'invalid_value' },
  {
    name: 'tool without type',
    body: { ...base, tools: [{ name: 'weather', parameters: {} }] },
    param: 'tools[0].type',
    code: 'missing_required_parameter',
  },
  {
    name: 'chat-style nested function tool',
    body: { ...base, tools: [{ type: 'function', function: { name: 'weather', parameters: {} } }] },
    param: 'tools[0].name',
    code: 'missing_required_parameter',
  },
  {
    name: 'tool name with a space',
    body: { ...base, tools: [{ ...TOOL, name: 'get weather' }] },
    param: 'tools[0].name',
    code: 'invalid_value',
  },
  {
    name: 'tool name too long',
    body: { ...base, tools: [{ ...TOOL, name: 'x'.repeat(65) }] },
    param: 'tools[0].name',
    code: 'string_above_max_length',
  },
  {
    name: 'tool parameters a string',
    body: { ...base, tools: [{ ...TOOL, parameters: '{}' }] },
    param: 'tools[0].parameters',
    code: 'invalid_type',
  },
  {
    name: 'tool without parameters',
    body: { ...base, tools: [{ type: 'function', name: 'weather' }] },
    param: 'tools[0].parameters',
    code: 'missing_required_parameter',
  },
  { name: 'tool strict a string', body: { ...base, tools: [{ ...TOOL, strict: 'yes' }] }, param: 'tools[0].strict', code: 'invalid_type' },
  { name: 'unknown tool_choice', body: { ...base, tools: [TOOL], tool_choice: 'sometimes' }, param: 'tool_choice', code: 'invalid_value' },
  {
    name: 'tool_choice naming an undeclared function',
    body: { ...base, tools: [TOOL], tool_choice: { type: 'function', name: 'forecast' } },
    param: 'tool_choice',
    code: 'invalid_value',
  },
  { name: 'tool_choice required without tools', body: { ...base, tool_choice: 'required' }, param: 'tool_choice', code: 'invalid_value' },
  {
    name: 'tool_choice function without name',
    body: { ...base, tools: [TOOL], tool_choice: { type: 'function' } },
    param: 'tool_choice.name',
    code: 'missing_required_parameter',
  },
  {
    name: 'chat-style tool_choice',
    body: { ...base, tools: [TOOL], tool_choice: { type: 'function', function: { name: 'weather' } } },
    param: 'tool_choice.name',
    code: 'missing_required_parameter',
  },
  {
    name: 'hosted tool_choice',
    body: { ...base, tools: [TOOL], tool_choice: { type: 'web_search_preview' } },
    param: 'tool_choice.type',
    code: 'unsupported_value',
  },
  {
    name: 'parallel_tool_calls a string',
    body: { ...base, tools: [TOOL], parallel_tool_calls: 'yes' },
    param: 'parallel_tool_calls',
    code: 'invalid_type',
  },
  { name: 'text not an object', body: { ...base, text: 'json' }, param: 'text', code: 'invalid_type' },
  {
    name: 'unknown text.format type',
    body: { ...base, text: { format: { type: 'xml' } } },
    param: 'text.format.type',
    code: 'invalid_value',
  },
  {
    name: 'json_schema without name',
    body: { ...base, text: { format: { type: 'json_schema', schema: { type: 'object' } } } },
    param: 'text.format.name',
    code: 'missing_required_parameter',
  },
  {
    name: 'chat-style json_schema nesting',
    body: { ...base, text: { format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' } } } } },
    param: 'text.format.name',
    code: 'missing_required_parameter',
    message: /directly in 'text.format'/,
  },
  {
    name: 'json_schema without schema',
    body: { ...base, text: { format: { type: 'json_schema', name: 'answer' } } },
    param: 'text.format.schema',
    code: 'missing_required_parameter',
  },
  {
    name: 'json_schema name with a dot',
    body: { ...base, text: { format: { type: 'json_schema', name: 'an.answer', schema: { type: 'object' } } } },
    param: 'text.format.name',
    code: 'invalid_value',
  },
  { name: 'unknown text.verbosity', body: { ...base, text: { verbosity: 'loud' } }, param: 'text.verbosity', code: 'invalid_value' },
  {
    name: "json_object without the word 'json'",
    body: { ...base, text: { format: { type: 'json_object' } } },
    param: 'input',
    code: null,
    message: /must contain the word 'json'/,
  },
  {
    name: 'chat response_format',
    body: { ...base, response_format: { type: 'json_object' } },
    param: 'response_format',
    code: 'unsupported_parameter',
    message: /text\.format/,
  },
  {
    name: 'chat messages',
    body: { model: MODEL, messages: [{ role: 'user', content: 'Hi' }], input: 'Hi' },
    param: 'messages',
    code: 'unsupported_parameter',
  },
  {
    name: 'chat max_tokens',
    body: { ...base, max_tokens: 100 },
    param: 'max_tokens',
    code: 'unsupported_parameter',
    message: /max_output_tokens/,
  },
  {
    name: 'max_output_tokens below 16',
    body: { ...base, max_output_tokens: 5 },
    param: 'max_output_tokens',
    code: 'integer_below_min_value',
  },
  { name: 'max_output_tokens a decimal', body: { ...base, max_output_tokens: 20.5 }, param: 'max_output_tokens', code: 'invalid_type' },
  { name: 'temperature above 2', body: { ...base, temperature: 3 }, param: 'temperature', code: 'decimal_above_max_value' },
  { name: 'top_p below 0', body: { ...base, top_p: -0.1 }, param: 'top_p', code: 'decimal_below_min_value' },
  { name: 'stream a string', body: { ...base, stream: 'yes' }, param: 'stream', code: 'invalid_type' },
  {
    name: 'stream_options without stream',
    body: { ...base, stream_options: { include_obfuscation: false } },
    param: 'stream_options',
    code: 'invalid_value',
  },
  { name: 'store a string', body: { ...base, store: 'no' }, param: 'store', code: 'invalid_type' },
  {
    name: 'previous_response_id not a response id',
    body: { ...base, previous_response_id: 'abc' },
    param: 'previous_response_id',
    code: 'invalid_value',
  },
  { name: 'instructions a number', body: { ...base, instructions: 7 }, param: 'instructions', code: 'invalid_type' },
  { name: 'background true', body: { ...base, background: true }, param: 'background', code: 'unsupported_value' },
  { name: 'conversation', body: { ...base, conversation: 'conv_1' }, param: 'conversation', code: 'unsupported_parameter' },
  {
    name: 'unknown reasoning.summary',
    body: { ...base, reasoning: { summary: 'verbose' } },
    param: 'reasoning.summary',
    code: 'invalid_value',
  },
  { name: 'metadata value a number', body: { ...base, metadata: { run: 1 } }, param: 'metadata.run', code: 'invalid_type' },
  { name: 'unknown truncation', body: { ...base, truncation: 'sometimes' }, param: 'truncation', code: 'invalid_value' },
  { name: 'include not a list', body: { ...base, include: 'reasoning.encrypted_content' }, param: 'include', code: 'invalid_type' },
];

test('[openai-responses.validation.json -] each malformed Responses request gets OpenAI’s 400 through the SDK and consumes nothing', async (t) => {
  for (const c of CASES) {
    await t.test(c.name, async () => {
      const before = await session.journal();
      const error = await openai.responses.create(c.body as never).then(
        () => assert.fail(`${c.name}: the request was accepted`),
        (e: unknown) => e,
      );
      assert.ok(error instanceof OpenAI.BadRequestError, `${c.name}: expected BadRequestError, got ${String(error)}`);
      assert.equal(error.type, 'invalid_request_error');
      assert.equal(error.param, c.param, `${c.name}: param (message: ${error.message})`);
      assert.equal(error.code, c.code, `${c.name}: code (message: ${error.message})`);
      if (c.message) assert.match(error.message, c.message);
      assert.deepEqual(Object.keys(error.error as object).sort(), ['code', 'message', 'param', 'type']);
      const after = await session.journal();
      assert.equal(after.counters.invalid, before.counters.invalid + 1);
      assert.equal(after.counters.matched, 0, 'nothing was consumed');
      const entry = after.entries[after.entries.length - 1];
      assert.equal(entry.status, 400);
      assert.equal(entry.operation, 'openai.responses');
      assert.equal(entry.request, undefined, 'a rejected body is not decoded into the journal');
    });
  }
  // A body that is not an object.
  const raw = await fetch(`${mock.url('openai')}/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.apiKey}`, 'content-type': 'application/json' },
    body: '[1, 2]',
  });
  assert.equal(raw.status, 400);
  const body = (await raw.json()) as { error: { type: string; code: string } };
  assert.equal(body.error.type, 'invalid_request_error');
  assert.equal(body.error.code, 'invalid_type');
  // Nothing was consumed: the only scripted reply still answers.
  const ok = await openai.responses.create({ model: MODEL, input: 'Hi' });
  assert.equal(ok.output_text, SCRIPTED);
  await session.reset();
});

test('[openai-responses.validation.json +] a valid request using every accepted option passes, and the response echoes its fields', async () => {
  const own = await mock.session('responses-every-option');
  own.scenario('all').replies('{"city":"Paris"}');
  const client = new OpenAI({ baseURL: mock.url('openai'), apiKey: own.apiKey, maxRetries: 0, timeout: 10_000 });
  const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
  const response = await client.responses.create({
    model: MODEL,
    instructions: 'Answer in JSON.',
    input: [
      { role: 'developer', content: 'Be terse.' },
      { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'System note.' }] },
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Which city is this?' },
          { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' },
          { type: 'input_file', file_id: 'file-abc' },
        ],
      },
      { type: 'reasoning', id: 'rs_prev', summary: [{ type: 'summary_text', text: 'Looks like Paris.' }] },
      {
        type: 'message',
        role: 'assistant',
        id: 'msg_prev',
        status: 'completed',
        content: [
          { type: 'output_text', text: 'Let me look it up.', annotations: [] },
          { type: 'refusal', refusal: '' },
        ],
      },
      { type: 'function_call', id: 'fc_prev', call_id: 'call_prev', name: 'weather', arguments: '{"city":"Paris"}', status: 'completed' },
      { type: 'function_call_output', call_id: 'call_prev', output: [{ type: 'input_text', text: 'sunny' }] },
    ],
    tools: [{ type: 'function', name: 'weather', description: 'Weather', parameters: schema, strict: false }],
    tool_choice: 'auto',
    parallel_tool_calls: false,
    text: { format: { type: 'json_schema', name: 'city', schema, strict: true, description: 'A city' }, verbosity: 'low' },
    max_output_tokens: 64,
    temperature: 0.2,
    top_p: 0.9,
    store: false,
    metadata: { run: 'one' },
    reasoning: { effort: 'low', summary: 'auto' },
    include: ['message.output_text.logprobs'],
    truncation: 'auto',
    user: 'user-1',
    service_tier: 'auto',
    prompt_cache_key: 'cache-1',
    safety_identifier: 'safe-1',
    top_logprobs: 2,
    background: false,
    // Accepted by the API, not (yet) typed by this SDK version.
    ...({ max_tool_calls: 3 } as object),
  });
  assert.equal(response.output_text, '{"city":"Paris"}');
  assert.equal(response.instructions, 'Answer in JSON.');
  assert.equal((response as unknown as { store: boolean }).store, false, 'store is echoed (not typed by this SDK version)');
  assert.equal(response.parallel_tool_calls, false);
  assert.equal(response.max_output_tokens, 64);
  assert.equal(response.temperature, 0.2);
  assert.equal(response.top_p, 0.9);
  assert.equal(response.truncation, 'auto');
  assert.equal(response.user, 'user-1');
  assert.deepEqual(response.metadata, { run: 'one' });
  assert.deepEqual(response.reasoning, { effort: 'low', summary: 'auto' });
  assert.deepEqual(response.text, {
    format: { type: 'json_schema', name: 'city', schema, strict: true, description: 'A city' },
    verbosity: 'low',
  });
  assert.deepEqual(response.tools, [{ type: 'function', name: 'weather', description: 'Weather', parameters: schema, strict: false }]);

  const { entries } = await own.journal();
  const request = entries[0].request;
  assert.ok(request);
  assert.deepEqual(
    request.messages.map((m) => m.role),
    ['system', 'developer', 'system', 'user', 'assistant', 'tool'],
  );
  assert.deepEqual(request.messages[3].parts, [
    { type: 'text', text: 'Which city is this?' },
    { type: 'image', url: 'data:image/png;base64,iVBORw0KGgo=' },
  ]);
  assert.deepEqual(
    request.messages[4].parts.map((p) => p.type),
    ['reasoning', 'text', 'text', 'tool_call'],
    'reasoning, the assistant message and its call form one assistant turn',
  );
  assert.deepEqual(request.messages[5].parts, [
    { type: 'tool_result', callId: 'call_prev', name: 'weather', content: 'sunny', isError: false },
  ]);
  assert.equal(request.parallelToolCalls, false);
  assert.equal(request.maxOutputTokens, 64);
  assert.deepEqual(request.tools[0].strict, false);

  // The shapes other clients send: LangChain's `text: {}` with typed message items, a bare string
  // input with tool_choice "none", and tools without description.
  own.scenario('more').replies('a').then().replies('b');
  const langchain = await client.responses.create({
    model: MODEL,
    text: {},
    input: [{ type: 'message', role: 'user', content: 'Hi' }],
  } as never);
  assert.equal((langchain as { output_text: string }).output_text, 'a');
  const bare = await client.responses.create({
    model: MODEL,
    input: 'Hi',
    tools: [{ type: 'function', name: 'weather', parameters: null, strict: null }],
    tool_choice: 'none',
  });
  assert.equal(bare.output_text, 'b');
  assert.deepEqual(bare.tools, [{ type: 'function', name: 'weather', description: null, parameters: null, strict: true }]);
  await own.verify();
});

test('[openai-responses.validation.stream -] a malformed streaming request gets the 400 before any event, and nothing is consumed', async () => {
  const own = await mock.session('responses-stream-wire-errors');
  own.scenario('one').replies('streamed');
  const client = new OpenAI({ baseURL: mock.url('openai'), apiKey: own.apiKey, maxRetries: 0, timeout: 10_000 });
  const seen: string[] = [];
  const helper = client.responses.stream({ model: MODEL, input: 'Hi', tools: [{ type: 'web_search' }] } as never);
  helper.on('event', (e) => seen.push(e.type));
  const error = await helper.finalResponse().then(
    () => assert.fail('accepted'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof OpenAI.BadRequestError, `got ${String(error)}`);
  assert.equal(error.param, 'tools[0].type');
  assert.deepEqual(seen, []);
  const raw = await client.responses.create({ model: MODEL, input: [], stream: true }).then(
    () => assert.fail('accepted'),
    (e: unknown) => e,
  );
  assert.ok(raw instanceof OpenAI.BadRequestError);
  assert.equal(raw.code, 'empty_array');
  const { entries, counters } = await own.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream]),
    [
      // Journalled as the streamed requests they were (ChatDialect.requestedStream).
      [400, true],
      [400, true],
    ],
  );
  assert.equal(counters.matched, 0);
});

test('[openai-responses.validation.stream +] a streaming request with stream_options and typed message items passes validation', async () => {
  const own = await mock.session('responses-stream-valid');
  own.scenario('one').replies('streamed');
  const client = new OpenAI({ baseURL: mock.url('openai'), apiKey: own.apiKey, maxRetries: 0, timeout: 10_000 });
  const final = await client.responses
    .stream({
      model: MODEL,
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }],
      stream_options: { include_obfuscation: false },
      instructions: 'Be brief.',
      store: false,
    })
    .finalResponse();
  assert.equal(final.output_text, 'streamed');
  const { entries } = await own.journal();
  assert.equal(entries[0].stream, true);
  assert.deepEqual(
    entries[0].request?.messages.map((m) => m.role),
    ['system', 'user'],
  );
  await own.verify();
});

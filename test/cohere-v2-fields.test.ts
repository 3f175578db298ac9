// Every member of Cohere's V2ChatRequest (cohere-ai 8.1.0's types), as a table: each row is a
// field, values the API takes, and wrong-typed or out-of-range values with the `invalid request:
// …` message and param Understudy answers them with. cohere-ai checks the types of what it sends
// (a wrong type never leaves the client), so the bodies go with fetch, as another client would
// send them, to a zero-config session: an accepted value is answered 200, a refused one is
// Cohere's 400 `{id, message}`. The rows at the end go through CohereClientV2 itself, which passes
// unknown enum values and members through. A field whose check is missing fails its row.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { CohereClientV2, CohereError, type Cohere } from 'cohere-ai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

type Body = Record<string, unknown>;
/** [value, message after "invalid request: "] */
type Bad = [unknown, string | RegExp];
interface Row {
  field: string;
  body?: (v: unknown) => Body;
  ok: unknown[];
  bad: Bad[];
}

const MODEL = 'command-a-03-2025';
const BASE: Body = { model: MODEL, messages: [{ role: 'user', content: 'Hi' }] };
const TOOL = { type: 'function', function: { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };
const withTools = (extra: Body): Body => ({ ...BASE, tools: [TOOL], ...extra });
const messages = (...list: unknown[]): Body => ({ ...BASE, messages: list });
const CALL = { id: 'weather_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } };

const ROWS: Row[] = [
  { field: 'model', ok: [MODEL], bad: [[1, 'model must be a string']] },
  {
    field: 'messages',
    ok: [
      [{ role: 'user', content: 'Hi' }],
      [
        { role: 'system', content: [{ type: 'text', text: 'be brief' }] },
        { role: 'user', content: 'Hi' },
      ],
    ],
    bad: [
      ['Hi', 'messages must be a list'],
      [[], 'messages must have at least 1 items'],
      [[{ role: 'USER', content: 'Hi' }], 'messages.0.role must be one of: system, user, assistant, tool'],
      [[{ role: 'user' }], 'messages.0.content is required'],
      [[{ role: 'user', content: 3 }], 'messages.0.content must be a string or a list of content items'],
      [[{ role: 'user', content: [{ type: 'audio' }] }], 'messages.0.content.0.type must be one of: text, image_url'],
      [[{ role: 'user', content: [{ type: 'image_url', image_url: { url: 1 } }] }], 'messages.0.content.0.image_url.url must be a string'],
      [[{ role: 'user', content: 'Hi' }, { role: 'assistant' }], 'message must not be empty in a turn'],
    ],
  },
  {
    field: 'assistant tool_calls',
    body: (v) =>
      messages(
        { role: 'user', content: 'Hi' },
        { role: 'assistant', tool_calls: v },
        { role: 'tool', tool_call_id: 'weather_1', content: 'sunny' },
      ),
    ok: [[CALL]],
    bad: [
      [[{ ...CALL, id: 7 }], 'messages.1.tool_calls.0.id must be a string'],
      [[{ ...CALL, type: 'tool' }], 'messages.1.tool_calls.0.type must be one of: function'],
      [
        [{ ...CALL, function: { name: 'weather', arguments: { city: 'Paris' } } }],
        'messages.1.tool_calls.0.function.arguments must be a string',
      ],
    ],
  },
  {
    field: 'tool content',
    body: (v) =>
      messages(
        { role: 'user', content: 'Hi' },
        { role: 'assistant', tool_calls: [CALL] },
        { role: 'tool', tool_call_id: 'weather_1', content: v },
      ),
    ok: [
      'sunny',
      [{ type: 'text', text: 'sunny' }],
      [{ type: 'document', document: { data: { sky: 'sunny' }, id: 'doc-1' } }],
      [{ type: 'document', document: { data: 'sunny' } }],
    ],
    bad: [
      [[{ type: 'image_url' }], 'messages.2.content.0.type must be one of: text, document'],
      [[{ type: 'document', document: {} }], 'messages.2.content.0.document.data is required'],
      [[{ type: 'document', document: { data: 3 } }], 'messages.2.content.0.document.data must be an object or a string'],
    ],
  },
  {
    field: 'tool_call_id',
    body: (v) =>
      messages(
        { role: 'user', content: 'Hi' },
        { role: 'assistant', tool_calls: [CALL] },
        { role: 'tool', tool_call_id: v, content: 'sunny' },
      ),
    ok: ['weather_1'],
    bad: [
      [1, 'messages.2.tool_call_id must be a string'],
      ['weather_2', "tool_call_id 'weather_2' does not match a tool call of an earlier assistant message"],
    ],
  },
  {
    field: 'tools',
    ok: [[TOOL], []],
    bad: [
      [TOOL, 'tools must be a list'],
      [[{ type: 'web_search' }], 'tools.0.type must be one of: function'],
      [[{ type: 'function' }], 'tools.0.function is required'],
      [[{ type: 'function', function: { name: 'w' } }], 'tools.0.function.parameters is required'],
      [
        [{ type: 'function', function: { name: 'w', parameters: { type: 'object', properties: 3 } } }],
        /^tools\.0\.function\.parameters is not a valid JSON schema/,
      ],
      [[TOOL, TOOL], "tool names must be unique, 'weather' is declared twice"],
    ],
  },
  {
    field: 'strict_tools',
    body: (v) => withTools({ strict_tools: v }),
    ok: [true, false],
    bad: [['yes', 'strict_tools must be a boolean']],
  },
  {
    field: 'tool_choice',
    body: (v) => withTools({ tool_choice: v }),
    ok: ['REQUIRED', 'NONE'],
    bad: [
      ['required', 'tool_choice must be one of: REQUIRED, NONE'],
      ['AUTO', 'tool_choice must be one of: REQUIRED, NONE'],
    ],
  },
  {
    field: 'tool_choice without tools',
    body: (v) => ({ ...BASE, tool_choice: v }),
    ok: [],
    bad: [['REQUIRED', 'tool_choice can only be used with tools']],
  },
  {
    field: 'response_format',
    ok: [
      { type: 'text' },
      { type: 'json_object' },
      { type: 'json_object', json_schema: { type: 'object', properties: { a: { type: 'string' } } } },
    ],
    bad: [
      ['json', 'response_format must be an object'],
      [{ type: 'json_schema' }, 'response_format.type must be one of: text, json_object'],
      [{ type: 'json_object', json_schema: [] }, 'response_format.json_schema must be an object'],
    ],
  },
  {
    field: 'documents',
    ok: [['Paris is sunny.', { data: { text: 'Paris is sunny.' }, id: 'd1' }]],
    bad: [
      [[], 'list of documents must not be empty'],
      [[3], 'documents.0 must be a string or a document object'],
      [[{ data: 'x' }], 'documents.0.data must be an object'],
    ],
  },
  {
    field: 'response_format with documents',
    body: (v) => ({ ...BASE, documents: ['Paris is sunny.'], response_format: v }),
    ok: [{ type: 'text' }],
    bad: [[{ type: 'json_object' }, 'response_format is not supported with RAG.']],
  },
  {
    field: 'citation_options',
    ok: [{ mode: 'FAST' }, { mode: 'OFF' }, {}],
    bad: [[{ mode: 'fast' }, 'citation_options.mode must be one of: FAST, ACCURATE, OFF']],
  },
  { field: 'safety_mode', ok: ['CONTEXTUAL', 'STRICT', 'OFF'], bad: [['NONE', 'safety_mode must be one of: CONTEXTUAL, STRICT, OFF']] },
  {
    field: 'max_tokens',
    ok: [1, 4000],
    bad: [
      ['100', 'max_tokens must be an integer'],
      [1.5, 'max_tokens must be an integer'],
      [0, 'max_tokens must be greater than or equal to 1.'],
    ],
  },
  {
    field: 'stop_sequences',
    ok: [['\n\n'], []],
    bad: [
      ['stop', 'stop_sequences must be a list'],
      [['a', 'b', 'c', 'd', 'e', 'f'], 'stop_sequences must have at most 5 items'],
      [[1], 'stop_sequences.0 must be a string'],
    ],
  },
  {
    field: 'temperature',
    ok: [0, 0.3, 1],
    bad: [
      ['hot', 'temperature must be a number'],
      [1.5, 'temperature must be between 0 and 1.0 inclusive.'],
      [-0.1, 'temperature must be between 0 and 1.0 inclusive.'],
    ],
  },
  { field: 'seed', ok: [42], bad: [[4.2, 'seed must be an integer']] },
  { field: 'frequency_penalty', ok: [0, 1], bad: [[2, 'frequency_penalty must be between 0 and 1 inclusive.']] },
  { field: 'presence_penalty', ok: [0.5], bad: [['0.5', 'presence_penalty must be a number']] },
  {
    field: 'k',
    ok: [0, 500],
    bad: [
      [501, 'k must be between 0 and 500 inclusive.'],
      [1.5, 'k must be an integer'],
    ],
  },
  { field: 'p', ok: [0.01, 0.75, 0.99], bad: [[1, 'p must be between 0.01 and 0.99 inclusive.']] },
  { field: 'logprobs', ok: [true], bad: [[1, 'logprobs must be a boolean']] },
  {
    field: 'thinking',
    ok: [{ type: 'enabled', token_budget: 1024 }, { type: 'disabled' }],
    bad: [
      [{ type: 'on' }, 'thinking.type must be one of: enabled, disabled'],
      [{}, 'thinking.type is required'],
      [{ type: 'enabled', token_budget: 0 }, 'thinking.token_budget must be greater than or equal to 1.'],
    ],
  },
  { field: 'priority', ok: [0, 3], bad: [[-1, 'priority must be greater than or equal to 0.']] },
  { field: 'stream', ok: [false], bad: [['yes', 'stream must be a boolean']] },
];

let mock: Understudy;
let session: UnderstudySession;
before(async () => {
  mock = await startUnderstudy();
  session = await mock.session('cohere-fields', { fallback: 'auto' });
});
after(async () => {
  await mock.close();
});

async function send(body: Body): Promise<{ status: number; json: { id?: string; message?: string } }> {
  const response = await fetch(`${mock.url('cohere')}/v2/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, json: (await response.json()) as { id?: string; message?: string } };
}

describe('Cohere v2 Chat: every request field, accepted and refused', () => {
  for (const row of ROWS) {
    const body = row.body ?? ((v: unknown) => ({ ...BASE, [row.field]: v }));
    test(`${row.field}`, async () => {
      for (const value of row.ok) {
        const { status, json } = await send(body(value));
        assert.equal(status, 200, `${row.field} = ${JSON.stringify(value)}: ${JSON.stringify(json)}`);
      }
      for (const [value, problem] of row.bad) {
        const { entries: before } = await session.journal();
        const { status, json } = await send(body(value));
        const what = `${row.field} = ${JSON.stringify(value)}`;
        assert.equal(status, 400, `${what}: ${JSON.stringify(json)}`);
        assert.match(json.id ?? '', /^req_/, what);
        const message = json.message ?? '';
        assert.ok(message.startsWith('invalid request: '), `${what}: ${message}`);
        if (typeof problem === 'string') assert.equal(message.slice('invalid request: '.length), problem, what);
        else assert.match(message.slice('invalid request: '.length), problem, what);
        const { entries } = await session.journal();
        const entry = entries[before.length];
        assert.deepEqual([entry.status, entry.error?.message, entry.step], [400, message, undefined], what);
      }
    });
  }

  test('an unknown member is refused, and the body must be an object', async () => {
    const unknown = await send({ ...BASE, chat_history: [] });
    assert.deepEqual(
      [unknown.status, unknown.json.message],
      [400, 'invalid request: unknown field: parameter chat_history is not a valid field'],
    );
    const missing = await send({ messages: BASE.messages });
    assert.deepEqual([missing.status, missing.json.message], [400, 'invalid request: a model parameter is required for this endpoint.']);
    const list = await send([] as unknown as Body);
    assert.deepEqual([list.status, list.json.message], [400, 'invalid request: the request body must be a JSON object']);
  });
});

describe('Cohere v2 Chat: what CohereClientV2 passes through unchecked', () => {
  function client(): CohereClientV2 {
    return new CohereClientV2({ token: session.apiKey, environment: mock.url('cohere'), maxRetries: 0, timeoutInSeconds: 10 });
  }

  test("an unknown enum value and an unknown member reach Understudy and get Cohere's 400 as BadRequestError", async () => {
    for (const request of [
      { model: MODEL, messages: [{ role: 'user', content: 'Hi' }], citationOptions: { mode: 'SOMETIMES' as Cohere.CitationOptionsMode } },
      { model: MODEL, messages: [{ role: 'user', content: 'Hi' }], connectors: [{ id: 'web-search' }] } as Cohere.V2ChatRequest,
    ] as Cohere.V2ChatRequest[]) {
      const error = await client()
        .chat(request)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      assert.ok(error instanceof CohereError, String(error));
      assert.deepEqual([error.constructor.name, error.statusCode], ['BadRequestError', 400]);
      assert.match(
        (error.body as { message: string }).message,
        /^invalid request: (citation_options\.mode must be one of|unknown field: parameter connectors)/,
      );
    }
  });
});

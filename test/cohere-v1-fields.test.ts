// Every member of Cohere's v1 ChatRequest (the cohere-ai 7 that @langchain/cohere bundles), as a
// table: each row is a field, values the API takes, and wrong-typed or out-of-range values with
// the `invalid request: …` message Understudy answers them with. The SDK checks the types of what
// it sends, so the bodies go with fetch, as another client would send them, to a zero-config
// session: an accepted value is answered 200, a refused one is Cohere's 400 `{id, message}`. The
// last test goes through the bundled CohereClient, which passes unknown enum values through. A
// field whose check is missing fails its row.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { CohereClient, CohereError } from './support/cohere-v1-client.js';

type Body = Record<string, unknown>;
/** [value, message after "invalid request: "] */
type Bad = [unknown, string];
interface Row {
  field: string;
  body?: (v: unknown) => Body;
  ok: unknown[];
  bad: Bad[];
}

const BASE: Body = { model: 'command-r-plus', message: 'Hi' };
const TOOL = { name: 'weather', description: 'Weather', parameter_definitions: { city: { type: 'str', required: true } } };
const CALL = { name: 'weather', parameters: { city: 'Paris' } };
const history = (...turns: unknown[]): Body => ({ ...BASE, chat_history: turns });

const ROWS: Row[] = [
  { field: 'model', ok: ['command-r'], bad: [[1, 'model must be a string']] },
  {
    field: 'message',
    ok: ['Hello'],
    bad: [
      [3, 'message must be a string'],
      ['', 'message must be at least 1 token long or tool results must be specified.'],
    ],
  },
  { field: 'preamble', ok: ['Be brief.'], bad: [[['x'], 'preamble must be a string']] },
  {
    field: 'chat_history',
    body: (v) => ({ ...BASE, chat_history: v }),
    ok: [
      [],
      [
        { role: 'USER', message: 'Hi' },
        { role: 'CHATBOT', message: 'Hello' },
        { role: 'SYSTEM', message: 'Be brief.' },
      ],
    ],
    bad: [
      ['Hi', 'chat_history must be a list'],
      [[{ role: 'user', message: 'Hi' }], 'chat_history.0.role must be one of: USER, CHATBOT, SYSTEM, TOOL'],
      [[{ message: 'Hi' }], 'chat_history.0.role is required'],
      [[{ role: 'USER' }], 'all elements in history must have a message.'],
      [[{ role: 'CHATBOT', message: 4 }], 'all elements in history must have a message.'],
    ],
  },
  {
    field: 'CHATBOT tool_calls',
    body: (v) => history({ role: 'USER', message: 'Weather?' }, { role: 'CHATBOT', message: '', tool_calls: v }),
    ok: [[CALL], []],
    bad: [
      [CALL, 'chat_history.1.tool_calls must be a list'],
      [[{ parameters: {} }], 'chat_history.1.tool_calls.0.name is required'],
      [[{ name: 'weather' }], 'chat_history.1.tool_calls.0.parameters is required'],
      [[{ name: 'weather', parameters: '{}' }], 'chat_history.1.tool_calls.0.parameters must be an object'],
    ],
  },
  {
    field: 'TOOL tool_results',
    body: (v) => history({ role: 'CHATBOT', message: '', tool_calls: [CALL] }, { role: 'TOOL', tool_results: v }),
    ok: [[{ call: CALL, outputs: [{ output: 'sunny' }] }]],
    bad: [
      [{ call: CALL }, 'chat_history.1.tool_results must be a list'],
      [[{ outputs: [] }], 'chat_history.1.tool_results.0.call is required'],
      [[{ call: CALL }], 'chat_history.1.tool_results.0.outputs is required'],
      [[{ call: CALL, outputs: ['sunny'] }], 'chat_history.1.tool_results.0.outputs.0 must be an object'],
    ],
  },
  {
    field: 'tools',
    ok: [[TOOL], [{ name: 'now', description: 'The time' }], [{ ...TOOL, parameter_definitions: { days: { type: 'List[int]' } } }]],
    bad: [
      [TOOL, 'tools must be a list'],
      [[{ description: 'x' }], 'tools.0.name is required'],
      [[{ name: 'weather' }], 'tools.0.description is required'],
      [[{ ...TOOL, name: '' }], 'tools.0.name must not be empty'],
      [[TOOL, TOOL], "tool names must be unique, 'weather' is declared twice"],
      [[{ ...TOOL, parameter_definitions: [] }], 'tools.0.parameter_definitions must be an object'],
      [[{ ...TOOL, parameter_definitions: { city: { description: 'x' } } }], 'tools.0.parameter_definitions.city.type is required'],
      [[{ ...TOOL, parameter_definitions: { city: { type: 1 } } }], 'tools.0.parameter_definitions.city.type must be a string'],
      [
        [{ ...TOOL, parameter_definitions: { city: { type: 'str', description: 2 } } }],
        'tools.0.parameter_definitions.city.description must be a string',
      ],
    ],
  },
  {
    field: 'tool_results',
    body: (v) => ({ ...history({ role: 'CHATBOT', message: '', tool_calls: [CALL] }), message: '', tool_results: v }),
    ok: [[{ call: CALL, outputs: [{ output: 'sunny' }] }]],
    bad: [
      ['sunny', 'tool_results must be a list'],
      [[{ call: { name: 'weather', parameters: [] }, outputs: [] }], 'tool_results.0.call.parameters must be an object'],
    ],
  },
  {
    field: 'response_format',
    ok: [{ type: 'text' }, { type: 'json_object' }, { type: 'json_object', schema: { type: 'object' } }],
    bad: [
      ['json', 'response_format must be an object'],
      [{ type: 'json_schema' }, 'response_format.type must be one of: text, json_object'],
      [{ type: 'json_object', schema: 'object' }, 'response_format.schema must be an object'],
    ],
  },
  { field: 'documents', ok: [[{ title: 'a', text: 'b' }]], bad: [[['b'], 'documents.0 must be an object']] },
  { field: 'connectors', ok: [[{ id: 'web-search' }]], bad: [[[{}], 'connectors.0.id is required']] },
  { field: 'conversation_id', ok: ['c-1'], bad: [[1, 'conversation_id must be a string']] },
  {
    field: 'prompt_truncation',
    ok: ['OFF', 'AUTO', 'AUTO_PRESERVE_ORDER'],
    bad: [['auto', 'prompt_truncation must be one of: OFF, AUTO, AUTO_PRESERVE_ORDER']],
  },
  {
    field: 'citation_quality',
    ok: ['ACCURATE', 'FAST', 'OFF', 'ENABLED', 'DISABLED'],
    bad: [['accurate', 'citation_quality must be one of: ENABLED, DISABLED, FAST, ACCURATE, OFF']],
  },
  { field: 'safety_mode', ok: ['CONTEXTUAL', 'STRICT', 'NONE'], bad: [['OFF', 'safety_mode must be one of: CONTEXTUAL, STRICT, NONE']] },
  {
    field: 'temperature',
    ok: [0, 0.3, 2],
    bad: [
      ['hot', 'temperature must be a number'],
      [-0.1, 'temperature must be greater than or equal to 0.'],
    ],
  },
  {
    field: 'max_tokens',
    ok: [1, 4000],
    bad: [
      [1.5, 'max_tokens must be an integer'],
      [0, 'max_tokens must be greater than or equal to 1.'],
    ],
  },
  { field: 'max_input_tokens', ok: [100], bad: [[0, 'max_input_tokens must be greater than or equal to 1.']] },
  {
    field: 'k',
    ok: [0, 500],
    bad: [
      [501, 'k must be between 0 and 500 inclusive.'],
      [1.5, 'k must be an integer'],
    ],
  },
  { field: 'p', ok: [0.01, 0.75, 0.99], bad: [[1, 'p must be between 0.01 and 0.99 inclusive.']] },
  { field: 'seed', ok: [42], bad: [[4.2, 'seed must be an integer']] },
  {
    field: 'stop_sequences',
    ok: [['\n\n'], []],
    bad: [
      [['a', 'b', 'c', 'd', 'e', 'f'], 'stop_sequences must have at most 5 items'],
      [[1], 'stop_sequences.0 must be a string'],
    ],
  },
  { field: 'frequency_penalty', ok: [0, 1], bad: [[1.5, 'frequency_penalty must be between 0 and 1 inclusive.']] },
  { field: 'presence_penalty', ok: [0.5], bad: [[-1, 'presence_penalty must be between 0 and 1 inclusive.']] },
  { field: 'search_queries_only', ok: [false], bad: [['no', 'search_queries_only must be a boolean']] },
  { field: 'raw_prompting', ok: [false], bad: [[0, 'raw_prompting must be a boolean']] },
  { field: 'force_single_step', ok: [true], bad: [['yes', 'force_single_step must be a boolean']] },
  { field: 'stream', ok: [false], bad: [['true', 'stream must be a boolean']] },
];

let mock: Understudy;
let session: UnderstudySession;
before(async () => {
  mock = await startUnderstudy();
  session = await mock.session('cohere-v1-fields', { fallback: 'auto' });
});
after(async () => {
  await mock.close();
});

async function send(body: unknown): Promise<{ status: number; json: { id?: string; message?: string } }> {
  const response = await fetch(`${mock.url('cohere')}/v1/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, json: (await response.json()) as { id?: string; message?: string } };
}

describe('Cohere v1 Chat: every request field, accepted and refused', () => {
  for (const row of ROWS) {
    const body = row.body ?? ((v: unknown) => ({ ...BASE, [row.field]: v }));
    test(row.field, async () => {
      for (const value of row.ok) {
        const { status, json } = await send(body(value));
        assert.equal(status, 200, `${row.field} = ${JSON.stringify(value)}: ${JSON.stringify(json)}`);
      }
      for (const [value, problem] of row.bad) {
        const { entries: earlier } = await session.journal();
        const { status, json } = await send(body(value));
        const what = `${row.field} = ${JSON.stringify(value)}`;
        assert.equal(status, 400, `${what}: ${JSON.stringify(json)}`);
        assert.match(json.id ?? '', /^req_/, what);
        assert.equal(json.message, `invalid request: ${problem}`, what);
        const entry = (await session.journal()).entries[earlier.length];
        assert.deepEqual([entry.status, entry.error?.message, entry.step], [400, json.message, undefined], what);
      }
    });
  }

  test('an unknown member is refused, and the body must be an object', async () => {
    const unknown = await send({ ...BASE, messages: [] });
    assert.deepEqual(
      [unknown.status, unknown.json.message],
      [400, 'invalid request: unknown field: parameter messages is not a valid field'],
    );
    const missing = await send({ model: 'command-r-plus' });
    assert.deepEqual([missing.status, missing.json.message], [400, 'invalid request: message is required']);
    const list = await send([]);
    assert.deepEqual([list.status, list.json.message], [400, 'invalid request: the request body must be a JSON object']);
  });
});

describe('Cohere v1 Chat: what the bundled CohereClient passes through unchecked', () => {
  test("an unknown enum value reaches Understudy and gets Cohere's 400 as BadRequestError", async () => {
    const client = new CohereClient({ token: session.apiKey, environment: mock.url('cohere'), maxRetries: 0, timeoutInSeconds: 10 });
    const error = await client.chat({ message: 'Hi', safetyMode: 'OFF' as 'NONE' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof CohereError, String(error));
    assert.deepEqual([error.constructor.name, error.statusCode], ['BadRequestError', 400]);
    assert.equal((error.body as { message: string }).message, 'invalid request: safety_mode must be one of: CONTEXTUAL, STRICT, NONE');
  });
});

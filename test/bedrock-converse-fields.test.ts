// Every member of the Converse request, as Bedrock's model declares it
// (@aws-sdk/client-bedrock-runtime 3.1164's schemas), as a table: values the API takes, and
// wrong-typed or out-of-range values with the ValidationException message Understudy answers.
// The rows go through the AWS client, which sends what it is given (its serializer does not check
// types), to a zero-config session. Members the model does not have cannot leave the client (its
// serializer drops them), so those properties go with fetch, as another client would send them.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { BedrockRuntimeServiceException, ConverseCommand, type ConverseCommandInput } from '@aws-sdk/client-bedrock-runtime';
import fc from 'fast-check';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { bedrockClient } from './support/bedrock.js';

type Body = Record<string, unknown>;
interface Row {
  field: string;
  body: (v: unknown) => Body;
  ok: unknown[];
  bad: [unknown, string | RegExp][];
}

const MODEL = 'anthropic.claude-3-haiku-20240307-v1:0';
const HI = [{ role: 'user', content: [{ text: 'Hi' }] }];
const TOOL = { toolSpec: { name: 'weather', inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } } } } } };
const base = (extra: Body): Body => ({ messages: HI, ...extra });
const content = (block: unknown): Body => ({ messages: [{ role: 'user', content: [block] }] });
const REQUEST_MEMBERS = [
  'messages',
  'system',
  'inferenceConfig',
  'toolConfig',
  'guardrailConfig',
  'additionalModelRequestFields',
  'promptVariables',
  'additionalModelResponseFieldPaths',
  'requestMetadata',
  'performanceConfig',
  'serviceTier',
  'outputConfig',
];

const rule = (path: string, value: string, text: string) =>
  `1 validation error detected: Value ${value} at '${path}' failed to satisfy constraint: ${text}`;

const ROWS: Row[] = [
  {
    field: 'inferenceConfig.temperature',
    body: (v) => base({ inferenceConfig: { temperature: v } }),
    ok: [0, 0.5, 1],
    bad: [
      [1.5, rule('inferenceConfig.temperature', "'1.5'", 'Member must have value less than or equal to 1')],
      [-0.1, rule('inferenceConfig.temperature', "'-0.1'", 'Member must have value greater than or equal to 0')],
      ['hot', rule('inferenceConfig.temperature', "'hot'", 'Member must be a number')],
    ],
  },
  {
    field: 'inferenceConfig.topP',
    body: (v) => base({ inferenceConfig: { topP: v } }),
    ok: [0, 0.9, 1],
    bad: [[2, rule('inferenceConfig.topP', "'2'", 'Member must have value less than or equal to 1')]],
  },
  {
    field: 'inferenceConfig.maxTokens',
    body: (v) => base({ inferenceConfig: { maxTokens: v } }),
    ok: [1, 4096],
    bad: [
      [0, rule('inferenceConfig.maxTokens', "'0'", 'Member must have value greater than or equal to 1')],
      [1.5, rule('inferenceConfig.maxTokens', "'1.5'", 'Member must be an integer')],
    ],
  },
  {
    field: 'inferenceConfig.stopSequences',
    body: (v) => base({ inferenceConfig: { stopSequences: v } }),
    ok: [[], ['END']],
    bad: [
      [[''], /at 'inferenceConfig\.stopSequences\.0' failed to satisfy constraint: Member must have length greater than or equal to 1/],
      ['END', rule('inferenceConfig.stopSequences', "'END'", 'Member must be a list')],
    ],
  },
  {
    field: 'messages',
    body: (v) => ({ messages: v }),
    ok: [HI],
    bad: [
      [undefined, rule('messages', 'null', 'Member must not be null')],
      [[{ role: 'assistant', content: [{ text: 'Hi' }] }], /^A conversation must start with a user message\./],
      [[], /^A conversation must start with a user message\./],
      [[...HI, ...HI], /^A conversation must alternate between user and assistant roles\./],
      [
        [{ role: 'human', content: [{ text: 'Hi' }] }],
        rule('messages.0.role', "'human'", 'Member must satisfy enum value set: [user, assistant]'),
      ],
      [[{ role: 'user', content: [] }], /^The content field in the Message object at messages\.0 is empty\./],
      [[{ role: 'user', content: [{ text: '  ' }] }], /^The text field in the ContentBlock object at messages\.0\.content\.0 is blank\./],
    ],
  },
  {
    field: 'content blocks',
    body: content,
    ok: [
      { text: 'Hi' },
      { image: { format: 'png', source: { bytes: 'iVBORw0KGgo=' } } },
      { document: { name: 'notes', format: 'txt', source: { text: 'some notes' } } },
      { video: { format: 'mp4', source: { s3Location: { uri: 's3://bucket/clip.mp4' } } } },
      { guardContent: { text: { text: 'guard me', qualifiers: ['guard_content'] } } },
      { cachePoint: { type: 'default' } },
    ],
    bad: [
      [
        { image: { format: 'bmp', source: { bytes: 'AA==' } } },
        /messages\.0\.content\.0\.image\.format' failed to satisfy constraint: Member must satisfy enum value set: \[gif, jpeg, png, webp\]/,
      ],
      [
        { document: { format: 'txt', source: { text: 'x' } } },
        rule('messages.0.content.0.document.name', 'null', 'Member must not be null'),
      ],
      [
        { cachePoint: { type: 'ephemeral' } },
        /cachePoint\.type' failed to satisfy constraint: Member must satisfy enum value set: \[default\]/,
      ],
      [{ reasoningContent: { reasoningText: { text: 'x' } } }, /only allowed in messages with the assistant role/],
      [
        { toolUse: { toolUseId: 't', name: 'weather', input: {} } },
        /toolUse content block is only allowed in messages with the assistant role/,
      ],
      [{ toolResult: { toolUseId: 't', content: [{ text: 'x' }] } }, /toolConfig field must be defined/],
    ],
  },
  {
    field: 'toolUse and toolResult',
    body: (v) => ({
      toolConfig: { tools: [TOOL] },
      messages: [
        ...HI,
        {
          role: 'assistant',
          content: [
            { toolUse: { toolUseId: 'functions.weather:0', name: 'weather', input: { city: 'Oslo' }, ...(v as Record<string, Body>).use } },
          ],
        },
        {
          role: 'user',
          content: [
            {
              toolResult: { toolUseId: 'functions.weather:0', content: [{ json: { sky: 'grey' } }], ...(v as Record<string, Body>).result },
            },
          ],
        },
      ],
    }),
    ok: [{}, { result: { status: 'error', content: [{ text: 'timeout' }] } }, { result: { content: [{ json: {} }, { text: 'more' }] } }],
    bad: [
      [
        { use: { input: [1, 2] } },
        'The format of the value at messages.1.content.0.toolUse.input is invalid. Provide a json object for the field and try again.',
      ],
      [
        { result: { content: [{ json: 42 }] } },
        'The format of the value at messages.2.content.0.toolResult.content.0.json is invalid. Provide a json object for the field and try again.',
      ],
      [
        { result: { status: 'error', content: [] } },
        'The content field at messages.2.content.0.toolResult cannot be empty when status value is error.',
      ],
      [
        { result: { status: 'failed' } },
        /toolResult\.status' failed to satisfy constraint: Member must satisfy enum value set: \[success, error\]/,
      ],
      [
        { use: { toolUseId: 'bad id' } },
        /toolUse\.toolUseId' failed to satisfy constraint: Member must satisfy regular expression pattern/,
      ],
      [
        { use: { name: '$READFILE' } },
        /Value '\$READFILE' at 'messages\.1\.content\.0\.toolUse\.name' failed to satisfy constraint: Member must satisfy regular expression pattern: \[a-zA-Z0-9_-\]\+/,
      ],
    ],
  },
  {
    field: 'toolConfig',
    body: (v) => base({ toolConfig: v }),
    ok: [
      { tools: [TOOL] },
      { tools: [TOOL, { cachePoint: { type: 'default' } }], toolChoice: { any: {} } },
      { tools: [TOOL], toolChoice: { tool: { name: 'weather' } } },
    ],
    bad: [
      [{ tools: [] }, /toolConfig\.tools' failed to satisfy constraint: Member must have length greater than or equal to 1/],
      [{ tools: [TOOL], toolChoice: { tool: { name: 'other' } } }, /The tool other named in toolChoice is not defined/],
      [{ tools: [TOOL], toolChoice: { auto: {}, any: {} } }, /Member must have exactly one of its members set/],
      [{ tools: [{ toolSpec: { name: 'bad name', inputSchema: { json: { type: 'object' } } } }] }, /regular expression pattern/],
      [
        { tools: [{ toolSpec: { name: 'w', inputSchema: { json: { type: 'string' } } } }] },
        /inputSchema\.json\.type must be one of the following: object/,
      ],
      [
        { tools: [{ toolSpec: { name: 'w', inputSchema: { json: { type: 'object', properties: 3 } } } }] },
        /The JSON schema at toolConfig\.tools\.0\.toolSpec\.inputSchema\.json is invalid/,
      ],
      [{ tools: [TOOL, TOOL] }, /Tool names must be unique/],
      [{ tools: [{ systemTool: { name: 'nova_grounding' } }] }, /does not run Bedrock's system tools/],
    ],
  },
  {
    field: 'outputConfig',
    body: (v) => base({ outputConfig: v }),
    ok: [
      { textFormat: { type: 'json_schema', structure: { jsonSchema: { schema: '{"type":"object"}', name: 'thing' } } } },
      { effort: 'low' },
    ],
    bad: [
      [
        { textFormat: { type: 'json_object', structure: { jsonSchema: { schema: '{}' } } } },
        /Member must satisfy enum value set: \[json_schema\]/,
      ],
      [
        { textFormat: { type: 'json_schema', structure: { jsonSchema: { schema: { type: 'object' } } } } },
        /Member must be a string \(the JSON schema as JSON text\)/,
      ],
      [{ textFormat: { type: 'json_schema', structure: { jsonSchema: { schema: '{"type": 5}' } } } }, /jsonSchema\.schema is invalid/],
      [{ effort: 'extreme' }, /Member must satisfy enum value set: \[low, medium, high, xhigh, max\]/],
    ],
  },
  {
    field: 'the other members',
    body: (v) => base(v as Body),
    ok: [
      { system: [] },
      { additionalModelResponseFieldPaths: ['/delta/stop_sequence'], additionalModelRequestFields: { top_k: 5 } },
      { guardrailConfig: { guardrailIdentifier: 'g', guardrailVersion: '1', trace: 'enabled' } },
      { promptVariables: { topic: { text: 'cats' } }, requestMetadata: { team: 'search' } },
      { performanceConfig: { latency: 'optimized' }, serviceTier: { type: 'flex' } },
    ],
    bad: [
      [{ guardrailConfig: { trace: 'loud' } }, /guardrailConfig\.trace' failed to satisfy constraint: Member must satisfy enum value set/],
      [{ serviceTier: { type: 'gold' } }, /serviceTier\.type' failed to satisfy constraint/],
      [{ additionalModelRequestFields: 'x' }, rule('additionalModelRequestFields', "'x'", 'Member must be a structure')],
      [
        { promptVariables: { topic: { number: 1 } } },
        /promptVariables\.topic' failed to satisfy constraint: Member must have exactly one of its members set: text/,
      ],
      [{ system: [{ text: '' }] }, /The text field in the SystemContentBlock object at system\.0 is blank/],
    ],
  },
];

let mock: Understudy;
let session: UnderstudySession;
before(async () => {
  mock = await startUnderstudy();
  session = await mock.session('converse-fields', { fallback: 'auto' });
});
after(async () => {
  await mock.close();
});

async function send(body: Body): Promise<{ ok: true } | { ok: false; error: BedrockRuntimeServiceException }> {
  const client = bedrockClient(mock, { apiKey: session.apiKey });
  const input = { modelId: MODEL, ...body } as ConverseCommandInput;
  return client.send(new ConverseCommand(input)).then(
    () => ({ ok: true as const }),
    (error: unknown) => {
      assert.ok(error instanceof BedrockRuntimeServiceException, String(error));
      return { ok: false as const, error };
    },
  );
}

describe("Converse members through the AWS client: accepted, or a ValidationException in Bedrock's words [bedrock-converse.validation.json +] [bedrock-converse.validation.json -]", () => {
  for (const row of ROWS) {
    test(row.field, async () => {
      for (const value of row.ok) {
        const outcome = await send(row.body(value));
        assert.ok(outcome.ok, `${row.field} ${JSON.stringify(value)}: ${outcome.ok ? '' : outcome.error.message}`);
      }
      for (const [value, message] of row.bad) {
        const outcome = await send(row.body(value));
        assert.ok(!outcome.ok, `${row.field} ${JSON.stringify(value)} was accepted`);
        assert.equal(outcome.error.name, 'ValidationException', outcome.error.message);
        assert.equal(outcome.error.$metadata.httpStatusCode, 400);
        if (typeof message === 'string') assert.equal(outcome.error.message, message);
        else assert.match(outcome.error.message, message);
      }
    });
  }
});

/** A Converse body posted as another client would, with an access key naming the session. */
async function post(body: unknown): Promise<{ status: number; type: string | null; message: string }> {
  const response = await fetch(`${mock.url('bedrock')}/model/${encodeURIComponent(MODEL)}/converse`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `AWS4-HMAC-SHA256 Credential=${session.apiKey}/20260101/us-east-1/bedrock/aws4_request, SignedHeaders=host, Signature=0`,
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get('x-amzn-errortype'),
    message: (JSON.parse(text) as { message?: string }).message ?? '',
  };
}

const memberName = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,20}$/);

describe('members the model does not have (fetch: the AWS client drops them)', () => {
  test('any unknown top-level member is a ValidationException naming it', async () => {
    await fc.assert(
      fc.asyncProperty(
        memberName.filter((k) => !REQUEST_MEMBERS.includes(k) && k !== '__proto__'),
        fc.jsonValue(),
        async (key, value) => {
          const answer = await post({ messages: HI, [key]: value });
          assert.equal(answer.status, 400);
          assert.match(answer.type ?? '', /^ValidationException:/);
          assert.ok(answer.message.includes(`'${key}'`), answer.message);
        },
      ),
      { numRuns: 40, seed: 19 },
    );
  });

  test('any unknown member inside a content block, a tool spec or inferenceConfig is refused the same way', async () => {
    const places: ((key: string) => Body)[] = [
      (key) => ({ messages: [{ role: 'user', content: [{ text: 'Hi', [key]: 1 }] }] }),
      (key) => ({ messages: [{ role: 'user', content: [{ text: 'Hi' }], [key]: 1 }] }),
      (key) => ({ messages: HI, inferenceConfig: { [key]: 1 } }),
      (key) => ({ messages: HI, toolConfig: { tools: [{ toolSpec: { ...TOOL.toolSpec, [key]: 1 } }] } }),
    ];
    const known = new Set([
      'text',
      'image',
      'document',
      'video',
      'audio',
      'toolUse',
      'toolResult',
      'guardContent',
      'cachePoint',
      'reasoningContent',
      'citationsContent',
      'searchResult',
      'toolAddition',
      'toolRemoval',
      'role',
      'content',
      'maxTokens',
      'temperature',
      'topP',
      'stopSequences',
      'name',
      'inputSchema',
      'description',
      'strict',
      '__proto__',
    ]);
    await fc.assert(
      fc.asyncProperty(
        memberName.filter((k) => !known.has(k)),
        fc.nat(places.length - 1),
        async (key, at) => {
          const answer = await post(places[at](key));
          assert.equal(answer.status, 400, answer.message);
          assert.ok(answer.message.includes(`'${key}'`), answer.message);
        },
      ),
      { numRuns: 40, seed: 19 },
    );
  });

  test('temperature and topP: accepted exactly within [0, 1]; maxTokens exactly from 1', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('temperature', 'topP', 'maxTokens'),
        fc.oneof(fc.double({ min: -5, max: 5, noNaN: true }), fc.integer({ min: -3, max: 3 })),
        async (key, value) => {
          const answer = await post({ messages: HI, inferenceConfig: { [key]: value } });
          const fits = key === 'maxTokens' ? Number.isInteger(value) && value >= 1 : value >= 0 && value <= 1;
          assert.equal(answer.status, fits ? 200 : 400, `${key} ${value}: ${answer.message}`);
        },
      ),
      { numRuns: 60, seed: 19 },
    );
  });

  test('a refused request consumes nothing and is journalled as its 400', async () => {
    const own = await mock.session('converse-fields-journal');
    own.scenario('s').replies('kept');
    const client = bedrockClient(mock, { apiKey: own.apiKey });
    const refused = await client
      .send(new ConverseCommand({ modelId: MODEL, messages: HI as never, inferenceConfig: { temperature: 7 } }))
      .catch((e: unknown) => e);
    assert.ok(refused instanceof BedrockRuntimeServiceException && refused.name === 'ValidationException');
    const ok = await client.send(new ConverseCommand({ modelId: MODEL, messages: HI as never }));
    assert.deepEqual(ok.output?.message?.content, [{ text: 'kept' }]);
    assert.deepEqual(
      (await own.journal()).entries.map((e) => e.status),
      [400, 200],
    );
  });
});

describe('the path (fetch)', () => {
  async function at(method: string, path: string, body?: string) {
    const response = await fetch(`${mock.url('bedrock')}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.apiKey}` },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    return { status: response.status, name: response.headers.get('x-amzn-errortype')?.split(':')[0], message: text };
  }
  const hi = JSON.stringify({ messages: HI });

  test('another method is UnknownOperationException; an unreadable or blank model id is a ValidationException', async () => {
    assert.deepEqual(
      [await at('GET', '/model/m/converse'), await at('GET', '/model/m/count-tokens')].map((r) => [r.status, r.name]),
      [
        [405, 'UnknownOperationException'],
        [405, 'UnknownOperationException'],
      ],
    );
    const unreadable = await at('POST', '/model/m%ZZ/converse', hi);
    assert.deepEqual([unreadable.status, unreadable.name], [400, 'ValidationException']);
    assert.match(unreadable.message, /not valid percent-encoding/);
    const blank = await at('POST', '/model/%20/converse', hi);
    assert.deepEqual([blank.status, blank.name], [400, 'ValidationException']);
    assert.match(blank.message, /The provided model identifier is invalid\./);
    const ok = await at(
      'POST',
      `/s/${session.id}/bedrock/model/${encodeURIComponent('arn:aws:bedrock:us-east-1::foundation-model/m:0')}/converse`,
      hi,
    );
    assert.equal(ok.status, 200, ok.message);
  });
});

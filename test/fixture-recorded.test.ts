// A step's `recorded` member (decision 0017): what a recording sent upstream and the shape of what
// came back. It is described in the JSON Schema, checked at load (a wrong type names its path),
// and ignored at replay: a step with it answers byte for byte as the same step without it.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import fc from 'fast-check';
import OpenAI from 'openai';
import { startUnderstudy } from '../src/client/index.js';
import { formatProblems, parseFixtureText, validateFixture } from '../src/engine/fixture-file.js';
import type { AnswerShape } from '../src/dialects/wire-kit/answer-shape.js';
import type { RecordedExchange } from '../src/engine/recording-book.js';
import type { AnswerShapeSpec, FixtureInput, RecordedSpec } from '../src/engine/spec.js';

// Compile-time: what the recorder writes is what the format describes (the engine cannot import a
// dialect, so the check lives here). A member added to AnswerShape and not to the format, or the
// other way round, fails `npm run typecheck`.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
export const shapeAgrees: Same<AnswerShape, AnswerShapeSpec> = true;
export const exchangeFits = (recorded: RecordedExchange & { shape: AnswerShape }): RecordedSpec => ({ ...recorded, shape: recorded.shape });

const RECORDED = {
  provider: 'openai',
  operation: 'openai.chat.completions',
  method: 'POST',
  path: '/chat/completions',
  headers: { 'content-type': 'application/json', 'x-stainless-lang': 'js' },
  body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: true },
  stream: true,
  status: 200,
  shape: {
    contentType: 'text/event-stream',
    fields: ['chat.completion.chunk $.choices []', 'chat.completion.chunk $.id string'],
    events: ['chat.completion.chunk'],
    finishReason: 'stop',
    tools: [],
  },
};

const fixtureWith = (recorded?: unknown): FixtureInput =>
  ({
    scenarios: [
      {
        name: 'recorded',
        exhausted: 'repeat_last',
        steps: [{ when: { latestUser: 'hi' }, reply: { text: 'Hello from the recording.' }, ...(recorded !== undefined && { recorded }) }],
      },
    ],
  }) as FixtureInput;

async function schemaValidator() {
  const schema = JSON.parse(await readFile(new URL('../schema/fixtures.schema.json', import.meta.url), 'utf8')) as object;
  return new Ajv({ allErrors: true, logger: false }).compile(schema);
}

test('a recorded step loads, and the JSON Schema accepts it (a null finish reason and a shape without events too)', async () => {
  const validate = await schemaValidator();
  const { events: _events, ...noEvents } = RECORDED.shape;
  for (const recorded of [RECORDED, { ...RECORDED, shape: { ...noEvents, finishReason: null } }, { ...RECORDED, shape: undefined }]) {
    const fixture = JSON.parse(JSON.stringify(fixtureWith(recorded))) as FixtureInput;
    const result = validateFixture(fixture, 'recorded.json');
    assert.ok(result.ok, result.ok ? '' : formatProblems(result.problems));
    assert.ok(validate(fixture), JSON.stringify(validate.errors));
  }
});

test('any well-formed recording loads and fits the JSON Schema (property)', async () => {
  const validate = await schemaValidator();
  const word = fc.stringMatching(/^[a-z][a-z0-9.-]{0,12}$/);
  const recorded = fc.record(
    {
      provider: word,
      operation: word,
      method: fc.constantFrom('POST', 'GET'),
      path: fc.string(),
      headers: fc.dictionary(fc.stringMatching(/^[a-z0-9-]{1,12}$/), fc.string()),
      body: fc.jsonValue(),
      stream: fc.boolean(),
      status: fc.integer({ min: 100, max: 599 }),
      shape: fc.record(
        {
          contentType: fc.string(),
          fields: fc.array(fc.string()),
          events: fc.array(fc.string()),
          finishReason: fc.option(fc.string(), { nil: null }),
          tools: fc.array(fc.string()),
        },
        { requiredKeys: ['contentType', 'fields', 'finishReason', 'tools'] },
      ),
    },
    { requiredKeys: ['provider', 'operation', 'method', 'path'] },
  );
  fc.assert(
    fc.property(recorded, (r) => {
      // What a file can hold: JSON (fast-check's -0 is 0 in JSON text).
      const fixture = JSON.parse(JSON.stringify(fixtureWith(r))) as FixtureInput;
      const result = validateFixture(fixture, 'recorded.json');
      assert.ok(result.ok, result.ok ? '' : formatProblems(result.problems));
      assert.ok(validate(fixture), JSON.stringify(validate.errors));
    }),
    { numRuns: 200 },
  );
});

test('a wrong member of `recorded` is refused at load, naming its path', () => {
  const at = '/scenarios/0/steps/0/recorded';
  const cases: [string, string, RegExp][] = [
    ['status: "200"', `${at}/status`, /expected an HTTP status \(an integer from 100 to 599\); found "200"/],
    ['stream: "yes"', `${at}/stream`, /expected true or false; found "yes"/],
    ['headers: { content-type: 1 }', `${at}/headers/content-type`, /expected a header value \(a string\); found 1/],
    ['headers: { Content-Type: a }', `${at}/headers/Content-Type`, /expected a lower-case HTTP header name; found "Content-Type"/],
    ['method: ""', `${at}/method`, /expected an HTTP method \(a non-empty string\)/],
    ['shape: { contentType: a, fields: [], tools: [] }', `${at}/shape`, /missing required key "finishReason" in an answer shape/],
    [
      'shape: { contentType: a, fields: [1], finishReason: stop, tools: [] }',
      `${at}/shape/fields/0`,
      /expected a field \(a string\); found 1/,
    ],
    [
      'shape: { contentType: a, fields: [], finishReason: 3, tools: [] }',
      `${at}/shape/finishReason`,
      /expected a finish reason \(a string\) or null; found 3/,
    ],
    ['shape: { contentType: a, fields: [], finishReason: stop, tools: [], colour: red }', `${at}/shape/colour`, /unknown key "colour"/],
    ['extra: 1', `${at}/extra`, /unknown key "extra"/],
  ];
  const base = 'provider: openai, operation: openai.chat.completions, method: POST, path: /chat/completions';
  for (const [member, path, message] of cases) {
    const fields = member.startsWith('method') ? base.replace('method: POST, ', '') : base;
    const text = `scenarios:\n  - name: s\n    steps:\n      - reply: { text: hi }\n        recorded: { ${fields}, ${member} }\n`;
    const result = parseFixtureText(text, 'rec.yaml');
    assert.equal(result.ok, false, member);
    if (result.ok) continue;
    assert.ok(
      result.problems.some((p) => p.file === 'rec.yaml' && p.path === path && p.line === 5 && message.test(p.message)),
      `${member}:\n${formatProblems(result.problems)}`,
    );
  }
  const missing = parseFixtureText(
    'scenarios:\n  - name: s\n    steps:\n      - reply: { text: hi }\n        recorded: { provider: openai }\n',
    'rec.yaml',
  );
  assert.ok(
    !missing.ok && missing.problems.some((p) => p.path === at && /missing required key "operation" in a recorded exchange/.test(p.message)),
  );
});

test('a step with `recorded` answers exactly as without it (JSON and stream, through the openai SDK and on the wire)', async () => {
  const plain = await startUnderstudy({ fixtures: [fixtureWith()] });
  const recorded = await startUnderstudy({ fixtures: [fixtureWith(RECORDED)] });
  try {
    const raw = async (url: string, stream: boolean) => {
      const res = await fetch(`${url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream }),
        signal: AbortSignal.timeout(10_000),
      });
      return `${res.status} ${res.headers.get('content-type')}\n${await res.text()}`;
    };
    for (const stream of [false, true]) assert.equal(await raw(recorded.url('openai'), stream), await raw(plain.url('openai'), stream));
    const ask = (url: string) =>
      new OpenAI({ baseURL: url, apiKey: 'sk-test', maxRetries: 0, timeout: 10_000 }).chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'hi' }],
      });
    const got = await ask(recorded.url('openai'));
    assert.equal(got.choices[0].message.content, 'Hello from the recording.');
    assert.deepEqual(got, await ask(plain.url('openai')));
  } finally {
    await Promise.all([plain.close(), recorded.close()]);
  }
});

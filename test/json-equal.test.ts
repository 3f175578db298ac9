// JSON Schema's const, enum and uniqueItems compare JSON values, and a value is data the request
// or the script chose: an object with a `valueOf` or `toString` member must compare like any other
// (Ajv's own comparison calls such members and threw, and the request was answered 500).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import OpenAI from 'openai';
import { startUnderstudy, type Understudy } from '../src/client/index.js';
import { jsonEqual } from '../src/core/json-equal.js';
import { compileSchema, isSchemaError } from '../src/core/schema.js';

const awkwardKey = fc.constantFrom('valueOf', 'toString', 'constructor', '__proto__', 'hasOwnProperty', 'a');
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, true, false, 0, 1, -0.5, '', 'x'),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(awkwardKey, fc.string({ maxLength: 3 })), tie('value'), { maxKeys: 3 }),
  ),
})).value;

test('property: jsonEqual is deep equality of JSON values, whatever the member names', () => {
  fc.assert(
    fc.property(json, json, (a, b) => {
      const parsedA = JSON.parse(JSON.stringify(a)) as unknown;
      const parsedB = JSON.parse(JSON.stringify(b)) as unknown;
      assert.equal(jsonEqual(parsedA, parsedB), isDeepStrictEqual(parsedA, parsedB));
      assert.equal(jsonEqual(parsedA, JSON.parse(JSON.stringify(a))), true);
    }),
    { numRuns: 500 },
  );
});

test('const, enum and uniqueItems over objects with valueOf and toString members validate, never throw', () => {
  const compiled = compileSchema({
    type: 'object',
    properties: {
      fixed: { const: { valueOf: '' } },
      pick: { enum: [{ toString: 1 }, 'plain'] },
      set: { type: 'array', uniqueItems: true },
    },
  });
  assert.ok(!isSchemaError(compiled));
  assert.deepEqual(compiled.validate(JSON.parse('{"fixed":{"valueOf":""},"pick":{"toString":1},"set":[{"valueOf":1},{"valueOf":2}]}')), []);
  assert.equal(compiled.validate(JSON.parse('{"fixed":{"valueOf":"x"}}')).length, 1);
  assert.equal(compiled.validate(JSON.parse('{"pick":{"toString":2}}')).length, 1);
  assert.equal(compiled.validate(JSON.parse('{"set":[{"valueOf":1},{"valueOf":1}]}')).length, 1);
});

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

test('a tool whose schema holds such a const: the matching scripted call is answered, another is the 409', async () => {
  const session = await mock.session('json-equal-tool');
  session
    .scenario('first')
    .callsTool('pick', { choice: { valueOf: 'a' } }, 'call_a')
    .then()
    .callsTool('pick', { choice: { valueOf: 'b' } }, 'call_b');
  const client = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const ask = () =>
    client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Pick' }],
      tools: [
        {
          type: 'function',
          function: {
            name: 'pick',
            parameters: { type: 'object', properties: { choice: { const: { valueOf: 'a' } } }, required: ['choice'] },
          },
        },
      ],
    });
  const answered = await ask();
  assert.equal(
    answered.choices[0].message.tool_calls?.[0]?.type === 'function' && answered.choices[0].message.tool_calls[0].function.arguments,
    '{"choice":{"valueOf":"a"}}',
  );
  const refused = await ask().catch((e: unknown) => e);
  assert.ok(refused instanceof OpenAI.ConflictError, String(refused));
  assert.equal(refused.code, 'fixture_mismatch');
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.status),
    [200, 409],
  );
});

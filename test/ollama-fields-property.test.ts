// Properties of what Ollama's /api/chat takes and refuses, over raw HTTP (the values are ones
// ollama-js's types would not let a caller send):
// - any value of another JSON kind in a typed member is refused with Go's decoder sentence naming
//   the struct, the member and its Go type, before any script is consulted;
// - any Go duration (number and unit segments, signed) is taken as `keep_alive`, and a number
//   followed by anything that is not a unit is refused with Go's "unknown unit" sentence.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

const RUNS = 40;
const SEED = 20261201;

let mock: Understudy;
let session: UnderstudySession;
before(async () => {
  mock = await startUnderstudy();
  session = await mock.session('ollama-fields-property', { fallback: 'auto' });
});
after(async () => {
  await mock.close();
});

async function chat(body: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${mock.url('ollama')}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${session.apiKey}` },
    body: JSON.stringify({ model: 'llama3.2', messages: [{ role: 'user', content: 'Hi' }], stream: false, ...body }),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

type Kind = 'string' | 'number' | 'bool' | 'array' | 'object';

/** A JSON value of each kind, named as Go's decoder names it (a fraction shows its value). */
const VALUES: Record<Kind, fc.Arbitrary<unknown>> = {
  string: fc.string({ maxLength: 8 }),
  number: fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.double({ min: -1000, max: 1000, noNaN: true, noDefaultInfinity: true })),
  bool: fc.boolean(),
  array: fc.array(fc.integer(), { maxLength: 3 }),
  object: fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), fc.integer(), { maxKeys: 3 }),
};

function goKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'number' : `number ${String(value)}`;
  return typeof value === 'string' ? 'string' : 'object';
}

/** Typed members of ChatRequest: the kinds Go's decoder takes, and the Go type it names. */
const MEMBERS: { member: string; takes: Kind[]; goType: string }[] = [
  { member: 'model', takes: ['string'], goType: 'string' },
  { member: 'stream', takes: ['bool'], goType: 'bool' },
  { member: 'truncate', takes: ['bool'], goType: 'bool' },
  { member: 'logprobs', takes: ['bool'], goType: 'bool' },
  { member: 'top_logprobs', takes: [], goType: 'int' },
  { member: 'messages', takes: ['array'], goType: '[]api.Message' },
  { member: 'tools', takes: ['array'], goType: 'api.Tools' },
  { member: 'options', takes: ['object'], goType: 'map[string]interface {}' },
];

const wrongTyped = fc.constantFrom(...MEMBERS).chain((field) => {
  const kinds = (Object.keys(VALUES) as Kind[]).filter(
    (kind) => !field.takes.includes(kind) && !(field.goType === 'int' && kind === 'number'),
  );
  return fc.tuple(fc.constant(field), fc.oneof(...kinds.map((kind) => VALUES[kind])));
});

test("any value of another kind in a typed member is Go's 400, naming ChatRequest.<member> and its type", { timeout: 60_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(wrongTyped, async ([field, value]) => {
      const { status, body } = await chat({ [field.member]: value });
      assert.equal(status, 400, JSON.stringify(body));
      assert.deepEqual(body, {
        error: `json: cannot unmarshal ${goKind(value)} into Go struct field ChatRequest.${field.member} of type ${field.goType}`,
      });
    }),
    { numRuns: RUNS, seed: SEED },
  );
  const { entries } = await session.journal();
  assert.ok(
    entries.every((e) => e.status === 400 && e.source === undefined),
    'no refused request reached the engine',
  );
});

const UNITS = ['ns', 'us', 'µs', 'ms', 's', 'm', 'h'];
const segment = fc
  .tuple(fc.nat({ max: 999 }), fc.option(fc.nat({ max: 99 }), { nil: undefined }), fc.constantFrom(...UNITS))
  .map(([whole, fraction, unit]) => `${whole}${fraction === undefined ? '' : `.${fraction}`}${unit}`);
const duration = fc
  .tuple(fc.constantFrom('', '-', '+'), fc.array(segment, { minLength: 1, maxLength: 3 }))
  .map(([sign, parts]) => sign + parts.join(''));
const notAUnit = fc.stringMatching(/^[a-z]{1,3}$/).filter((unit) => !UNITS.includes(unit));

test('any Go duration is a keep_alive the server takes; a number with another suffix is "unknown unit"', { timeout: 60_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(duration, async (keepAlive) => {
      const { status, body } = await chat({ keep_alive: keepAlive });
      assert.equal(status, 200, `${keepAlive}: ${JSON.stringify(body)}`);
    }),
    { numRuns: RUNS, seed: SEED },
  );
  await fc.assert(
    fc.asyncProperty(fc.nat({ max: 999 }), notAUnit, async (amount, unit) => {
      const keepAlive = `${amount}${unit}`;
      const { status, body } = await chat({ keep_alive: keepAlive });
      assert.deepEqual(
        [status, body],
        [400, { error: `time: unknown unit ${JSON.stringify(unit)} in duration ${JSON.stringify(keepAlive)}` }],
      );
    }),
    { numRuns: RUNS, seed: SEED },
  );
});

// Property: for every preset, over values generated from the catalogue's own schemas (valid ones,
// near misses, junk members, members left undefined), a builder accepts a value exactly when an
// independent Ajv 2020-12 validator (with ajv-formats) accepts its JSON form, and what it accepts
// comes back as that JSON form: undefined members left out, nothing else changed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { createRequire } from 'node:module';
import type { FormatsPlugin } from 'ajv-formats';

import { PRESET_DESCRIPTORS, PresetValueError, presets, type JsonSchemaObject, type PresetName } from '../src/presets/index.js';

// CommonJS: `module.exports = plugin; exports.default = plugin`, as src/core/schema.ts loads it.
const formats = createRequire(import.meta.url)('ajv-formats') as FormatsPlugin & { default?: FormatsPlugin };
const addFormats = formats.default ?? formats;
const oracle = new Ajv2020({ strict: false, allErrors: false });
addFormats(oracle);

type Schema = {
  type?: string;
  enum?: unknown[];
  format?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  minimum?: number;
  maximum?: number;
};

const junk = fc.constantFrom<unknown>(null, undefined, 1.5, -1, '', 'x', true, {}, []);

/** Values shaped by the schema, mostly valid, sometimes not. */
function valueOf(schema: Schema): fc.Arbitrary<unknown> {
  const valid = ((): fc.Arbitrary<unknown> => {
    if (schema.enum) return fc.constantFrom(...schema.enum);
    switch (schema.type) {
      case 'object': {
        const members = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, valueOf(s)]));
        // Mostly every member; now and then any subset of them (a required one may go missing).
        return fc.oneof({ arbitrary: fc.record(members), weight: 6 }, { arbitrary: fc.record(members, { requiredKeys: [] }), weight: 1 });
      }
      case 'array':
        return fc.array(valueOf(schema.items ?? {}), { maxLength: 3 });
      case 'string': {
        const url = fc.webUrl();
        const timestamp = fc
          .tuple(fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }), fc.constantFrom('Z', '+01:00', '-05:30'))
          .map(([d, zone]) => d.toISOString().replace('Z', zone));
        const formatted = schema.format === 'uri' ? url : schema.format === 'date-time' ? timestamp : fc.string({ minLength: 1 });
        return fc.oneof(
          { arbitrary: formatted, weight: 12 },
          { arbitrary: fc.string(), weight: 1 },
          { arbitrary: fc.oneof(url, timestamp), weight: 1 },
          { arbitrary: fc.constant(''), weight: 1 },
        );
      }
      case 'integer': {
        const bounds = [schema.minimum, schema.maximum].filter((n): n is number => n !== undefined && Math.abs(n) < 1e6);
        const near = bounds.flatMap((n) => [n - 1, n, n + 1]);
        return fc.oneof(fc.integer({ min: -2, max: 120 }), near.length > 0 ? fc.constantFrom(...near) : fc.integer());
      }
      case 'number':
        return fc.double({ noNaN: true, noDefaultInfinity: true });
      case 'boolean':
        return fc.boolean();
      default:
        return fc.jsonValue();
    }
  })();
  return fc.oneof({ arbitrary: valid, weight: 40 }, { arbitrary: junk, weight: 1 });
}

/** An unknown member now and then, at the root. */
function withSurprise(schema: Schema): fc.Arbitrary<unknown> {
  const surprise = fc.oneof({ arbitrary: fc.constant(null), weight: 9 }, { arbitrary: fc.constantFrom('surprise', 'extra'), weight: 1 });
  return fc
    .tuple(valueOf(schema), surprise)
    .map(([value, extra]) =>
      extra !== null && typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value, [extra]: 1 } : value,
    );
}

function jsonForm(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

function built(build: () => unknown): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: build() };
  } catch (error) {
    assert.ok(error instanceof PresetValueError, `a refusal is a PresetValueError: ${String(error)}`);
    return { ok: false };
  }
}

for (const descriptor of PRESET_DESCRIPTORS) {
  const name = descriptor.name as PresetName;
  const tool = presets[name] as (typeof presets)['calculator'];
  const parts: [string, JsonSchemaObject, (value: unknown) => unknown, (built: unknown) => unknown][] = [
    ['arguments', descriptor.parameters, (v) => tool.call(v as never), (b) => (b as { arguments: unknown }).arguments],
    ['result', descriptor.resultSchema, (v) => tool.result(v as never), (b) => b],
    [
      'error',
      (descriptor.errorSchema as { properties: { error: JsonSchemaObject } }).properties.error,
      (v) => tool.error(v as never),
      (b) => (b as { error: unknown }).error,
    ],
  ];
  for (const [part, schema, build, unwrap] of parts) {
    test(`${name} ${part}: the builder accepts exactly what the schema accepts, as JSON`, () => {
      const validate = oracle.compile(schema);
      let accepted = 0;
      let refused = 0;
      fc.assert(
        fc.property(withSurprise(schema as Schema), (value) => {
          const json = jsonForm(value);
          const expected = json !== undefined && validate(json) === true;
          const outcome = built(() => build(value));
          assert.equal(outcome.ok, expected, `${JSON.stringify(value)}: schema says ${expected}`);
          if (outcome.ok) {
            accepted++;
            assert.deepEqual(unwrap(outcome.value), json);
            assert.equal(JSON.stringify(unwrap(outcome.value)), JSON.stringify(json));
          } else refused++;
        }),
        { numRuns: 300 },
      );
      assert.ok(accepted >= 20 && refused >= 20, `both sides exercised: ${accepted} accepted, ${refused} refused`);
    });
  }
}

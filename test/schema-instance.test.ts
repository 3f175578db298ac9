// The smallest-instance maker behind zero-config answers: exact values for the schemas SDKs emit
// (pydantic, zod), the rules one by one, failures that name the schema path, and properties over
// generated schemas: every value it makes validates with the project's own validator.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { z } from 'zod';
import type { JsonSchema, JsonValue } from '../src/core/model.js';
import { compileSchema, isSchemaError } from '../src/core/schema.js';
import { smallestInstance } from '../src/core/schema-instance.js';
import { regexExample } from '../src/core/regex-example.js';
import { PYDANTIC_PERSON } from './support/pydantic-person.js';

function valid(schema: JsonSchema, value: unknown): string[] {
  const compiled = compileSchema(schema);
  if (isSchemaError(compiled)) return [compiled.error];
  return compiled.validate(value);
}

function make(schema: JsonSchema): JsonValue {
  const result = smallestInstance(schema);
  assert.ok(result.ok, `no instance: ${JSON.stringify(result)}`);
  assert.deepEqual(valid(schema, result.value), [], 'the value validates');
  return result.value;
}

function refusal(schema: JsonSchema): { schemaPath: string; reason: string } {
  const result = smallestInstance(schema);
  assert.ok(!result.ok, `expected no instance, got ${JSON.stringify(result)}`);
  return result;
}

/** What the schema holds at a `#/…` pointer (undefined when the path does not exist). */
function atSchemaPath(schema: JsonSchema, pointer: string): unknown {
  let node: unknown = schema;
  for (const raw of pointer.replace(/^#\/?/, '').split('/').filter(Boolean)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

test('a pydantic strict schema: every required property, the first enum value, nested $defs, Optional as its simplest branch', () => {
  assert.deepEqual(make(PYDANTIC_PERSON), {
    name: '',
    age: 0,
    role: 'admin',
    address: { street: '', postcode: '' },
    previous: null,
    tags: [],
    score: 0,
  });
});

test('zod 4 schemas as their JSON Schema (the form openai/helpers/zod and the AI SDK send)', () => {
  const Person = z.object({
    name: z.string().min(2),
    age: z.number().int().min(18),
    email: z.email(),
    id: z.uuid(),
    when: z.iso.datetime(),
    nick: z.string().nullable(),
    kind: z.enum(['cat', 'dog']),
    pets: z.array(z.object({ name: z.string() })).min(1),
    ratio: z.number().gt(0).lt(1),
    code: z.string().regex(/^[A-Z]{3}-\d{2}$/),
  });
  const schema = z.toJSONSchema(Person) as JsonSchema;
  const value = make(schema) as Record<string, unknown>;
  assert.deepEqual(Person.parse(value), value, 'zod itself accepts it');
  assert.equal(value.name, 'aa');
  assert.equal(value.age, 18);
  assert.equal(value.kind, 'cat');
  assert.deepEqual(value.pets, [{ name: '' }]);
  assert.equal(value.code, 'AAA-00');
  assert.equal(value.nick, '');
});

test('{} whenever the schema accepts it, as seed 002 says (optional properties stay out)', () => {
  assert.deepEqual(make({ type: 'object', properties: { city: { type: 'string' } } }), {});
  assert.deepEqual(make({}), {});
  assert.deepEqual(make(true), {});
  assert.deepEqual(make({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }), { city: '' });
});

test('numbers: 0 when allowed, else the bound nearest to 0 with exclusive bounds and multipleOf', () => {
  assert.equal(make({ type: 'integer', minimum: 3 }), 3);
  assert.equal(make({ type: 'integer', exclusiveMinimum: 3 }), 4);
  assert.equal(make({ type: 'integer', minimum: 3, multipleOf: 5 }), 5);
  assert.equal(make({ type: 'integer', exclusiveMinimum: 5, multipleOf: 5 }), 10);
  assert.equal(make({ type: 'integer', maximum: -3 }), -3);
  assert.equal(make({ type: 'integer', exclusiveMaximum: -3 }), -4);
  assert.equal(make({ type: 'number', exclusiveMinimum: 0 }), 1);
  assert.equal(make({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 0.5 }), 0.25);
  assert.equal(make({ type: 'number', minimum: 0.25, multipleOf: 0.1 }), 0.4);
  assert.equal(make({ type: 'number', minimum: 1.5 }), 1.5);
  assert.equal(make({ type: 'integer', minimum: 1, multipleOf: 0.5 }), 1);
  assert.equal(make({ type: 'integer', minimum: -10, maximum: 10 }), 0);
});

test('strings: minLength, fixed values per format, patterns spelled or tried', () => {
  assert.equal(make({ type: 'string', minLength: 3 }), 'aaa');
  for (const [format, value] of [
    ['date-time', '2026-01-01T00:00:00Z'],
    ['date', '2026-01-01'],
    ['time', '00:00:00Z'],
    ['email', 'user@example.com'],
    ['uri', 'https://example.com'],
    ['uuid', '00000000-0000-0000-0000-000000000000'],
    ['ipv4', '127.0.0.1'],
    ['ipv6', '::1'],
    ['hostname', 'example.com'],
    ['duration', 'P0D'],
  ]) {
    assert.equal(make({ type: 'string', format }), value, format);
  }
  assert.equal(make({ type: 'string', pattern: '^\\d{3}-\\d{4}$' }), '000-0000');
  assert.equal(make({ type: 'string', pattern: '^(foo|ba)r?\\.json$' }), 'ba.json');
  assert.equal(make({ type: 'string', pattern: '^[^a-z]+$' }), 'A');
  assert.equal(make({ type: 'string', pattern: '^[0-9]+$', minLength: 4 }), '0000');
  assert.equal(make({ type: 'string', pattern: 'x' }), 'x');
  assert.equal(make({ type: 'string', pattern: '^\\p{Lu}' }), 'A', 'a pattern the reader cannot spell: a candidate');
  assert.equal(make({ type: 'string', const: 'fixed' }), 'fixed');
});

test('arrays: minItems items, prefixItems first, contains honoured', () => {
  assert.deepEqual(make({ type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 2 }), [1, 1]);
  assert.deepEqual(make({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'boolean' }], minItems: 2 }), ['', false]);
  assert.deepEqual(make({ type: 'array', items: { type: 'integer' }, contains: { const: 7 } }), [7]);
  // uniqueItems (pydantic's conset, zod's set-like arrays): the next enum value, or a scalar changed a little.
  assert.deepEqual(make({ type: 'array', minItems: 3, uniqueItems: true, items: { type: 'string' } }), ['', 'b', 'c']);
  assert.deepEqual(make({ type: 'array', minItems: 2, uniqueItems: true, items: { type: 'string', minLength: 2 } }), ['aa', 'ab']);
  assert.deepEqual(make({ type: 'array', minItems: 2, uniqueItems: true, items: { type: 'integer', minimum: 1 } }), [1, 2]);
  assert.deepEqual(make({ type: 'array', minItems: 2, uniqueItems: true, items: { enum: ['x', 'y', 'z'] } }), ['x', 'y']);
  assert.deepEqual(make({ type: 'array', minItems: 2, uniqueItems: true, items: { type: 'boolean' } }), [false, true]);
});

test('alternatives: the fewest JSON nodes, null only where it is the simplest, oneOf discriminated by const', () => {
  assert.equal(make({ type: ['null', 'string'] }), '');
  assert.equal(make({ type: ['boolean', 'null'] }), false);
  assert.equal(make({ anyOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { type: 'null' }] }), null);
  assert.deepEqual(
    make({
      oneOf: [
        { type: 'object', properties: { kind: { const: 'circle' }, r: { type: 'number' } }, required: ['kind', 'r'] },
        { type: 'object', properties: { kind: { const: 'dot' } }, required: ['kind'] },
      ],
    }),
    { kind: 'dot' },
  );
  assert.deepEqual(
    make({
      allOf: [
        { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        { required: ['b'], properties: { b: { type: 'integer', minimum: 2 } } },
      ],
    }),
    { a: '', b: 2 },
  );
  assert.deepEqual(
    make({ type: 'object', properties: { a: { $ref: '#/definitions/A' } }, required: ['a'], definitions: { A: { type: 'boolean' } } }),
    {
      a: false,
    },
  );
});

test('recursion is bounded: a recursive model ends at its null or empty branch', () => {
  const tree = {
    $defs: {
      Node: {
        type: 'object',
        properties: {
          value: { type: 'integer' },
          next: { anyOf: [{ $ref: '#/$defs/Node' }, { type: 'null' }] },
          children: { type: 'array', items: { $ref: '#/$defs/Node' } },
        },
        required: ['value', 'next', 'children'],
        additionalProperties: false,
      },
    },
    $ref: '#/$defs/Node',
  };
  assert.deepEqual(make(tree), { value: 0, next: null, children: [] });
  const forced = refusal({
    $defs: { Loop: { type: 'object', properties: { again: { $ref: '#/$defs/Loop' } }, required: ['again'] } },
    type: 'object',
    properties: { loop: { $ref: '#/$defs/Loop' } },
    required: ['loop'],
  });
  assert.equal(forced.schemaPath, '#/$defs/Loop/properties/again/$ref');
  assert.match(forced.reason, /recurses/);
});

test('zod 4\'s recursive schemas ($ref "#" to the root) compile, validate and get their smallest value', () => {
  type Category = { name: string; subcategories: Category[] };
  const Category: z.ZodType<Category> = z.object({ name: z.string(), subcategories: z.array(z.lazy(() => Category)) });
  const schema = z.toJSONSchema(Category) as JsonSchema;
  assert.match(JSON.stringify(schema), /"\$ref":"#"/);
  assert.deepEqual(valid(schema, { name: 'a', subcategories: [{ name: 'b', subcategories: [] }] }), []);
  assert.notDeepEqual(valid(schema, { name: 'a', subcategories: [{ name: 1, subcategories: [] }] }), []);
  assert.deepEqual(make(schema), { name: '', subcategories: [] });
  const Tree = z.object({
    value: z.number(),
    get children() {
      return z.array(Tree);
    },
    get parent() {
      return Tree.nullable();
    },
  });
  assert.deepEqual(make(z.toJSONSchema(Tree) as JsonSchema), { value: 0, children: [], parent: null });
  assert.deepEqual(Tree.parse(make(z.toJSONSchema(Tree) as JsonSchema)), { value: 0, children: [], parent: null });
});

test('no instance: the answer names the schema path that cannot be satisfied', () => {
  const cases: [JsonSchema, string, RegExp][] = [
    [
      { type: 'object', properties: { age: { type: 'integer', minimum: 5, maximum: 3 } }, required: ['age'] },
      '#/properties/age/minimum',
      /between 5 and 3/,
    ],
    [
      { type: 'object', properties: { code: { type: 'string', pattern: '^(?=a)b' } }, required: ['code'] },
      '#/properties/code/pattern',
      /no string matching/,
    ],
    [{ type: 'object', properties: { x: { not: {} } }, required: ['x'] }, '#/properties/x/not', /must NOT be valid/],
    [
      { type: 'object', properties: { s: { type: 'string', minLength: 5, maxLength: 2 } }, required: ['s'] },
      '#/properties/s/maxLength',
      /minLength 5/,
    ],
    [{ type: 'object', properties: {}, required: ['ghost'], additionalProperties: false }, '#/required', /ghost/],
    [{ type: 'object', properties: { e: { type: 'string', enum: [1, 2] } }, required: ['e'] }, '#/properties/e/enum', /no enum value/],
    [
      { type: 'object', properties: { n: { allOf: [{ type: 'string' }, { type: 'integer' }] } }, required: ['n'] },
      '#/properties/n/allOf/1/type',
      /no type/,
    ],
    [
      { type: 'object', properties: { a: { type: 'array', minItems: 3, uniqueItems: true, items: { type: 'boolean' } } }, required: ['a'] },
      '#/properties/a/uniqueItems',
      /distinct/,
    ],
    [
      { type: 'object', properties: { big: { type: 'string', minLength: 1e9 } }, required: ['big'] },
      '#/properties/big/minLength',
      /more than zero-config makes/,
    ],
  ];
  for (const [schema, path, reason] of cases) {
    const r = refusal(schema);
    assert.equal(r.schemaPath, path, JSON.stringify(schema));
    assert.match(r.reason, reason);
    assert.notEqual(atSchemaPath(schema, r.schemaPath), undefined, 'the path exists in the schema');
  }
});

test('made once per schema: the same value object for the same schema object and for an equal copy; frozen', () => {
  const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
  const first = smallestInstance(schema);
  const again = smallestInstance(schema);
  const copy = smallestInstance(structuredClone(schema));
  assert.ok(first.ok && again.ok && copy.ok);
  assert.equal(again.value, first.value);
  assert.equal(copy.value, first.value);
  assert.ok(Object.isFrozen(first.value));
});

test('regexExample spells the shortest string of the syntax it reads, and gives up on the rest', () => {
  assert.equal(regexExample('^[a-z]{2,5}$'), 'aa');
  assert.equal(regexExample('^(?:ab|c)+\\d?$'), 'c');
  assert.equal(regexExample('^\\u0041\\x42$'), 'AB');
  assert.equal(regexExample('^(?<year>\\d{4})-(\\d{2})$'), '0000-00');
  assert.equal(regexExample('(?=x)'), undefined);
  assert.equal(regexExample('(a)\\1'), undefined);
  assert.equal(regexExample('(ab'), undefined);
});

// ---------- properties ----------

// Schemas that always admit a value, built from the keywords the maker reads.
const scalar = fc.oneof(
  fc.constant<JsonSchema>({ type: 'boolean' }),
  fc.constant<JsonSchema>({ type: 'null' }),
  fc
    .record({
      minLength: fc.integer({ min: 0, max: 6 }),
      extra: fc.integer({ min: 0, max: 4 }),
      pattern: fc.constantFrom(undefined, '^[a-z]*$', '\\d', '^[A-Z0-9_-]+$', '^(ab|cd)+$'),
    })
    .map(
      ({ minLength, extra, pattern }) =>
        ({ type: 'string', minLength, maxLength: minLength + extra + 4, ...(pattern !== undefined && { pattern }) }) as JsonSchema,
    ),
  fc.constantFrom<JsonSchema>(
    { type: 'string', format: 'date-time' },
    { type: 'string', format: 'email' },
    { type: 'string', format: 'uuid' },
    { type: 'string', format: 'uri' },
    { type: 'string', format: 'date' },
  ),
  fc
    .record({
      integer: fc.boolean(),
      lo: fc.integer({ min: -100, max: 100 }),
      step: fc.constantFrom(undefined, 1, 2, 3, 5, 0.5, 0.25),
      exclusive: fc.boolean(),
      upper: fc.boolean(),
    })
    .map(({ integer, lo, step, exclusive, upper }) => {
      const width = Math.max(step ?? 1, 1) * 3;
      const s: Record<string, unknown> = { type: integer ? 'integer' : 'number' };
      s[exclusive ? 'exclusiveMinimum' : 'minimum'] = lo;
      if (upper) s.maximum = lo + width;
      if (step !== undefined) s.multipleOf = step;
      return s as JsonSchema;
    }),
  fc
    .array(fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.boolean()), { minLength: 1, maxLength: 3 })
    .map((e) => ({ enum: e }) as JsonSchema),
  fc.jsonValue({ maxDepth: 2 }).map((v) => ({ const: v }) as JsonSchema),
);

const { schema: arbitrarySchema } = fc.letrec<{ schema: JsonSchema; object: JsonSchema; array: JsonSchema; choice: JsonSchema }>((tie) => ({
  schema: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('object'), tie('array'), tie('choice')),
  object: fc
    .record({
      props: fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), tie('schema'), { maxKeys: 4 }),
      requiredMask: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
      closed: fc.boolean(),
      nullable: fc.boolean(),
    })
    .map(({ props, requiredMask, closed, nullable }) => ({
      type: nullable ? ['object', 'null'] : 'object',
      properties: props,
      required: Object.keys(props).filter((_, i) => requiredMask[i]),
      ...(closed && { additionalProperties: false }),
    })),
  array: fc
    .record({ items: tie('schema'), minItems: fc.integer({ min: 0, max: 3 }) })
    .map(({ items, minItems }) => ({ type: 'array', items, minItems, maxItems: minItems + 2 })),
  choice: fc
    .record({ kind: fc.constantFrom('anyOf', 'allOf', 'ref'), subs: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }) })
    .map(({ kind, subs }) => {
      if (kind === 'anyOf') return { anyOf: [...subs, { type: 'null' }] };
      // allOf of one schema, as pydantic wraps a $ref with a description.
      if (kind === 'allOf') return { allOf: [subs[0]], description: 'wrapped' };
      return { $ref: '#/$defs/Shared' };
    }),
}));

/** A root object with the $defs the generated `$ref`s point at. */
const rootSchema = fc.record({ shared: scalar, body: arbitrarySchema, required: fc.boolean() }).map(({ shared, body, required }) => ({
  $defs: { Shared: shared },
  type: 'object',
  properties: { body },
  ...(required && { required: ['body'] }),
}));

test('property: every value made validates against its schema with the project validator', () => {
  fc.assert(
    fc.property(rootSchema, (schema) => {
      const result = smallestInstance(schema);
      assert.ok(result.ok, `no instance for ${JSON.stringify(schema)}: ${JSON.stringify(result)}`);
      assert.deepEqual(valid(schema, result.value), [], JSON.stringify({ schema, value: result.value }));
    }),
    { numRuns: 400 },
  );
});

test('property: the same value on every run, for an equal copy of the schema too', () => {
  fc.assert(
    fc.property(rootSchema, (schema) => {
      const a = smallestInstance(schema);
      const b = smallestInstance(JSON.parse(JSON.stringify(schema)) as JsonSchema);
      assert.deepEqual(a, b);
    }),
    { numRuns: 100 },
  );
});

test('property: an impossible numeric range is refused, naming a path that exists in the schema', () => {
  fc.assert(
    fc.property(fc.integer({ min: -50, max: 50 }), fc.integer({ min: 1, max: 20 }), fc.boolean(), (lo, gap, integer) => {
      const schema: JsonSchema = {
        type: 'object',
        properties: { n: { type: integer ? 'integer' : 'number', minimum: lo, maximum: lo - gap } },
        required: ['n'],
      };
      const r = refusal(schema);
      assert.notEqual(atSchemaPath(schema, r.schemaPath), undefined, r.schemaPath);
      assert.match(r.schemaPath, /^#\/properties\/n\//);
    }),
    { numRuns: 100 },
  );
});

test('a required property named like an inherited one ("constructor", "toString") must be present', () => {
  const schema = JSON.parse(
    '{"type":"object","properties":{"constructor":{"type":"string"},"toString":{"type":"string"}},"required":["constructor","toString"]}',
  ) as JsonSchema;
  const compiled = compileSchema(schema);
  assert.ok(!isSchemaError(compiled));
  assert.deepEqual(
    compiled.problems({}).map((p) => p.keyword),
    ['required', 'required'],
    'an empty object lacks both (inherited members do not count)',
  );
  const made = smallestInstance(schema);
  assert.ok(made.ok);
  assert.deepEqual(made.value, { constructor: '', toString: '' });
  assert.ok(Object.prototype.hasOwnProperty.call(made.value, 'constructor'));
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { ChatRequest, JsonSchema, Reply, ToolDefinition } from '../src/core/model.js';
import { compileSchema, isSchemaError, jsonEquals, parseJson, SCHEMA_CACHE_LIMIT, schemaCacheSize } from '../src/core/schema.js';
import type { CompiledSchema, SchemaError } from '../src/core/schema.js';
import { checkReplyContract } from '../src/core/contract.js';

// ---------- helpers ----------

const weather: ToolDefinition = {
  name: 'weather',
  parameters: {
    type: 'object',
    properties: {
      city: { type: 'string' },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    },
    required: ['city'],
    additionalProperties: false,
  },
};
const time: ToolDefinition = {
  name: 'time',
  parameters: { type: 'object', properties: { zone: { type: 'string' } } },
};

function req(over: Partial<ChatRequest> = {}): ChatRequest {
  return {
    model: 'gpt-test',
    messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
    tools: [weather, time],
    toolChoice: { type: 'auto' },
    parallelToolCalls: true,
    output: { type: 'text' },
    stream: false,
    streamUsage: false,
    ...over,
  };
}

function compiled(schema: JsonSchema): CompiledSchema {
  const c = compileSchema(schema);
  if (isSchemaError(c)) assert.fail(`expected the schema to compile, got: ${c.error}`);
  return c;
}

function schemaError(schema: JsonSchema): string {
  const c = compileSchema(schema);
  assert.ok(isSchemaError(c), 'expected a SchemaError');
  return (c as SchemaError).error;
}

function reason(request: ChatRequest, reply: Reply): string {
  const r = checkReplyContract(request, reply);
  assert.notEqual(r, null, 'expected a reason, got null');
  return r as string;
}

// ---------- schema.ts: messages and basics ----------

test('schema: problems are short, pathed and readable', () => {
  const c = compiled(weather.parameters);
  assert.deepEqual(c.validate({ city: 'Paris' }), []);
  assert.deepEqual(c.validate({ city: 42 }), ['at /city: must be string']);
  assert.deepEqual(c.validate({}), ["at (root): must have required property 'city'"]);
  assert.deepEqual(c.validate({ city: 'Paris', unit: 'kelvin' }), [
    'at /unit: must be equal to one of the allowed values: celsius, fahrenheit',
  ]);
  assert.deepEqual(c.validate({ city: 'Paris', extra: 1 }), ["at (root): must NOT have additional properties ('extra')"]);
  // allErrors: every problem is reported, not just the first.
  assert.equal(c.validate({ city: 1, unit: 'kelvin' }).length, 2);
});

test('schema: true, false and {} schemas', () => {
  assert.deepEqual(compiled(true).validate({ anything: [1] }), []);
  assert.equal(compiled(false).validate(null).length, 1);
  assert.match(compiled(false).validate(1)[0], /^at \(root\): /);
  const empty = compiled({});
  for (const v of [null, 0, 'x', [], {}, { a: [1] }]) assert.deepEqual(empty.validate(v), []);
});

test('schema: formats from ajv-formats are checked', () => {
  const c = compiled({ type: 'string', format: 'email' });
  assert.deepEqual(c.validate('a@example.com'), []);
  assert.deepEqual(c.validate('not-an-email'), ['at (root): must match format "email"']);
});

test('schema: provider keywords strict mode would reject are ignored', () => {
  const c = compiled({ type: 'object', propertyOrdering: ['a'], 'x-extra': true, required: ['a'] });
  assert.deepEqual(c.validate({ a: 1 }), []);
  assert.equal(c.validate({}).length, 1);
});

// ---------- dialects ----------

test('schema: draft-07 items array is a tuple (http with #, https without #)', () => {
  for (const uri of ['http://json-schema.org/draft-07/schema#', 'https://json-schema.org/draft-07/schema']) {
    const c = compiled({
      $schema: uri,
      type: 'array',
      items: [{ type: 'string' }, { type: 'number' }],
      additionalItems: false,
    });
    assert.deepEqual(c.validate(['a', 1]), [], uri);
    assert.deepEqual(c.validate(['a', 'b']), ['at /1: must be number'], uri);
    assert.deepEqual(c.validate(['a', 1, true]), ['at (root): must NOT have more than 2 items'], uri);
  }
});

test('schema: 2020-12 prefixItems is a tuple; absent $schema means 2020-12', () => {
  for (const extra of [{ $schema: 'https://json-schema.org/draft/2020-12/schema' }, {}]) {
    const c = compiled({ ...extra, type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false });
    assert.deepEqual(c.validate(['a', 1]), []);
    assert.deepEqual(c.validate(['a', 'b']), ['at /1: must be number']);
    assert.equal(c.validate(['a', 1, 2]).length, 1);
  }
  // The draft-07 tuple form is not 2020-12: it is rejected rather than silently reinterpreted.
  assert.match(schemaError({ type: 'array', items: [{ type: 'string' }] }), /^schema is invalid: at \/items: /);
});

test('schema: draft-04/06 URIs are treated as draft-07; other unknown URIs as 2020-12', () => {
  const d06 = compiled({
    $schema: 'http://json-schema.org/draft-06/schema#',
    type: 'array',
    items: [{ type: 'integer', exclusiveMinimum: 1 }],
  });
  assert.deepEqual(d06.validate([2]), []);
  assert.deepEqual(d06.validate([1]), ['at /0: must be > 1']);
  const d04 = compiled({ $schema: 'http://json-schema.org/draft-04/schema#', items: [{ type: 'string' }] });
  assert.deepEqual(d04.validate([3]), ['at /0: must be string']);
  const unknown = compiled({ $schema: 'https://example.com/my-meta', prefixItems: [{ type: 'string' }] });
  assert.deepEqual(unknown.validate([3]), ['at /0: must be string']);
  assert.equal(schemaError({ $schema: 42 }), '$schema must be a string');
});

// ---------- references ----------

test('schema: local $ref to $defs (2020-12) and definitions (draft-07) resolve', () => {
  const s2020 = compiled({
    type: 'object',
    properties: { a: { $ref: '#/$defs/pos' }, b: { type: 'array', items: { $ref: '#/$defs/pos' } } },
    $defs: { pos: { type: 'integer', minimum: 0 } },
  });
  assert.deepEqual(s2020.validate({ a: 1, b: [0, 2] }), []);
  assert.deepEqual(s2020.validate({ a: -1, b: [0, 'x'] }), ['at /a: must be >= 0', 'at /b/1: must be integer']);

  const s07 = compiled({
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { a: { $ref: '#/definitions/name' } },
    definitions: { name: { type: 'string', minLength: 2 } },
  });
  assert.deepEqual(s07.validate({ a: 'ok' }), []);
  assert.deepEqual(s07.validate({ a: 'x' }), ['at /a: must NOT have fewer than 2 characters']);

  const anchored = compiled({ $defs: { s: { $anchor: 'str', type: 'string' } }, properties: { p: { $ref: '#str' } } });
  assert.deepEqual(anchored.validate({ p: 3 }), ['at /p: must be string']);

  const recursive = compiled({
    $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' }, v: { type: 'number' } } } },
    $ref: '#/$defs/node',
  });
  assert.deepEqual(recursive.validate({ v: 1, next: { v: 2, next: { v: 'x' } } }), ['at /next/next/v: must be number']);
});

test('schema: external $ref anywhere is rejected without compiling', () => {
  const ext = 'https://example.com/schemas/city.json';
  const message = `external $ref "${ext}" is not allowed; Understudy never fetches schemas`;
  const places: JsonSchema[] = [
    { $ref: ext },
    { properties: { city: { $ref: ext } } },
    { items: { $ref: ext } },
    { $defs: { a: { $ref: ext } }, properties: { x: { $ref: '#/$defs/a' } } },
    { definitions: { a: { anyOf: [{ type: 'null' }, { $ref: ext }] } } },
    { properties: { p: { oneOf: [{ allOf: [{ not: { $ref: ext } }] }] } } },
    { prefixItems: [{ type: 'string' }, { $ref: ext }] },
  ];
  for (const s of places) assert.equal(schemaError(s), message, JSON.stringify(s));
  // Relative references point at other documents too.
  assert.match(schemaError({ properties: { a: { $ref: 'other.json#/a' } } }), /external \$ref "other\.json#\/a"/);
  assert.match(schemaError({ $dynamicRef: 'https://example.com/meta#node' }), /external \$ref "https:\/\/example\.com\/meta#node"/);
  // "$ref" inside data keywords is data, not a reference.
  const data = compiled({ const: { $ref: ext }, default: { $ref: ext } });
  assert.deepEqual(data.validate({ $ref: ext }), []);
  assert.equal(data.validate({ $ref: 'x' }).length, 1);
});

test('schema: an external $ref is never fetched (refused at once, server untouched)', async () => {
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.setHeader('content-type', 'application/json');
    res.end('{"type":"string"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x.json`;
    const started = Date.now();
    assert.match(schemaError({ properties: { a: { $ref: url } } }), /never fetches/);
    assert.match(schemaError({ properties: { a: { $ref: 'http://127.0.0.1:1/x.json' } } }), /never fetches/);
    const r = reason(req({ tools: [{ name: 'lookup', parameters: { $ref: url } }] }), {
      toolCalls: [{ name: 'lookup', arguments: {} }],
    });
    assert.match(r, /^tool "lookup" declares a schema Understudy cannot use: external \$ref/);
    assert.ok(Date.now() - started < 1000, 'refusal must be immediate');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(hits, 0, 'the schema server must never be contacted');
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('schema: $id is harmless — root ids never collide, embedded resources resolve locally', () => {
  const id = 'https://example.com/args';
  const a = compiled({ $id: id, type: 'object', properties: { x: { $ref: '#/$defs/t' } }, $defs: { t: { type: 'string' } } });
  const b = compiled({ $id: id, type: 'object', properties: { x: { $ref: '#/$defs/t' } }, $defs: { t: { type: 'number' } } });
  assert.deepEqual(a.validate({ x: 's' }), []);
  assert.deepEqual(a.validate({ x: 1 }), ['at /x: must be string']);
  assert.deepEqual(b.validate({ x: 1 }), []);
  assert.deepEqual(b.validate({ x: 's' }), ['at /x: must be number']);
  // A root $id equal to a meta-schema's id must not disturb the shared instance.
  compiled({ $id: 'http://json-schema.org/draft-07/schema', type: 'string' });
  assert.deepEqual(compiled({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'integer' }).validate(1.5), [
    'at (root): must be integer',
  ]);

  const embedded = (inner: string): JsonSchema => ({
    type: 'object',
    properties: {
      item: { $id: 'https://example.com/item', properties: { n: { $ref: '#/$defs/n' } }, $defs: { n: { type: inner } } },
    },
  });
  assert.deepEqual(compiled(embedded('integer')).validate({ item: { n: 'x' } }), ['at /item/n: must be integer']);
  assert.deepEqual(compiled(embedded('string')).validate({ item: { n: 'x' } }), []);
});

test("schema: an uncompilable schema gives ajv's message", () => {
  assert.match(schemaError({ properties: { a: { $ref: '#/$defs/missing' } } }), /can't resolve reference #\/\$defs\/missing/);
  assert.match(schemaError({ type: 'nope' }), /^schema is invalid: at \/type: must be equal to one of the allowed values/);
  assert.match(schemaError({ type: 'string', pattern: '([' }), /pattern|Invalid regular expression/i);
});

// ---------- cache ----------

test('schema: compiled schemas are cached by JSON text', () => {
  const s = { type: 'object', properties: { cacheProbe: { type: 'boolean' } } };
  const first = compileSchema(s);
  assert.equal(compileSchema(s), first, 'same object, same compiled schema');
  assert.equal(compileSchema(JSON.parse(JSON.stringify(s)) as JsonSchema), first, 'equal text, same compiled schema');
  // Mutating the caller's object afterwards changes neither the cached validator nor its key.
  const mutable: { [k: string]: unknown } = { type: 'object', properties: { m: { type: 'string' } } };
  const before = compiled(mutable);
  (mutable.properties as { m: { type: string } }).m.type = 'number';
  assert.deepEqual(before.validate({ m: 'text' }), []);
  assert.deepEqual(compiled(mutable).validate({ m: 'text' }), ['at /m: must be number']);
});

test('schema: the cache is bounded and stays correct past the bound', () => {
  const total = SCHEMA_CACHE_LIMIT + 300;
  const schemaFor = (i: number): JsonSchema => ({
    type: 'object',
    properties: { [`k${i}`]: { type: 'integer', maximum: i } },
    required: [`k${i}`],
  });
  for (let i = 0; i < total; i++) {
    const c = compiled(schemaFor(i));
    assert.deepEqual(c.validate({ [`k${i}`]: i }), []);
    if (i % 97 === 0) assert.deepEqual(c.validate({ [`k${i}`]: i + 1 }), [`at /k${i}: must be <= ${i}`]);
    assert.ok(schemaCacheSize() <= SCHEMA_CACHE_LIMIT, 'cache never exceeds its bound');
  }
  assert.equal(schemaCacheSize(), SCHEMA_CACHE_LIMIT);
  // The earliest entries were evicted; asking again recompiles and is still correct.
  const again = compiled(schemaFor(0));
  assert.deepEqual(again.validate({ k0: 0 }), []);
  assert.deepEqual(again.validate({ k0: 1 }), ['at /k0: must be <= 0']);
  assert.deepEqual(again.validate({}), ["at (root): must have required property 'k0'"]);
  assert.ok(schemaCacheSize() <= SCHEMA_CACHE_LIMIT);
});

// ---------- JSON helpers ----------

test('parseJson', () => {
  assert.deepEqual(parseJson('{"a":[1,null]}'), { ok: true, value: { a: [1, null] } });
  assert.deepEqual(parseJson(' 3 '), { ok: true, value: 3 });
  const bad = parseJson('{"a":');
  assert.equal(bad.ok, false);
  assert.ok(!bad.ok && bad.error.length > 0);
  assert.equal(parseJson('').ok, false);
});

test('jsonEquals', () => {
  assert.ok(jsonEquals({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 }));
  assert.ok(jsonEquals(1, 1.0));
  assert.ok(jsonEquals(null, null));
  assert.ok(!jsonEquals([1, 2], [2, 1]));
  assert.ok(!jsonEquals({ a: 1 }, { a: 1, b: 2 }));
  assert.ok(!jsonEquals({ a: 1, b: 2 }, { a: 1 }));
  assert.ok(!jsonEquals({ a: null }, {}));
  assert.ok(!jsonEquals([], {}));
  assert.ok(!jsonEquals('1', 1));
  assert.ok(!jsonEquals(null, {}));
  assert.ok(jsonEquals({ a: undefined, b: 1 }, { b: 1 }));
});

// ---------- contract: tools ----------

test('contract: a scripted error is not checked', () => {
  const request = req({ tools: [], toolChoice: { type: 'required' } });
  assert.equal(checkReplyContract(request, { error: { status: 429, message: 'slow down' }, toolCalls: [{ name: 'x' }] }), null);
});

test('contract: plain text reply with auto tool choice passes', () => {
  assert.equal(checkReplyContract(req(), { text: 'Hello' }), null);
  assert.equal(checkReplyContract(req({ tools: [] }), { text: 'Hello' }), null);
  assert.equal(checkReplyContract(req(), {}), null);
});

test('contract: tool calls need declared tools', () => {
  assert.equal(
    reason(req({ tools: [] }), { toolCalls: [{ name: 'weather', arguments: { city: 'Paris' } }] }),
    'the reply calls tool "weather" but the request declares no tools',
  );
  const r = reason(req(), { toolCalls: [{ name: 'wether', arguments: { city: 'Paris' } }] });
  assert.match(r, /"wether" is not declared; declared tools: weather, time$/);
  assert.equal(checkReplyContract(req(), { toolCalls: [{ name: 'weather', arguments: { city: 'Paris' } }] }), null);
  assert.match(reason(req(), { toolCalls: [{ name: '' }] }), /tool call #1 has no tool name/);
});

test('contract: object arguments are validated against the tool parameters', () => {
  const r = reason(req(), { toolCalls: [{ name: 'weather', arguments: { city: 42 } }] });
  assert.equal(
    r,
    'tool call #1 ("weather"): the arguments do not match the tool\'s declared parameters: at /city: must be string (got 42)',
  );
  const e = reason(req(), { toolCalls: [{ name: 'weather', arguments: { city: 'Paris', unit: 'kelvin' } }] });
  assert.match(e, /at \/unit: must be equal to one of the allowed values: celsius, fahrenheit \(got "kelvin"\)/);
  const arr = reason(req(), { toolCalls: [{ name: 'weather', arguments: ['Paris'] }] });
  assert.match(arr, /at \(root\): must be object \(got an array\)/);
  // The second call is the faulty one and is named as such.
  const second = reason(req(), {
    toolCalls: [
      { name: 'time', arguments: { zone: 'UTC' } },
      { name: 'weather', arguments: {} },
    ],
  });
  assert.match(second, /^tool call #2 \("weather"\): .*must have required property 'city'/);
});

test('contract: string arguments must be JSON text and are then validated', () => {
  assert.equal(checkReplyContract(req(), { toolCalls: [{ name: 'weather', arguments: '{"city":"Paris"}' }] }), null);
  assert.match(
    reason(req(), { toolCalls: [{ name: 'weather', arguments: '{"city":' }] }),
    /^tool call #1 \("weather"\): the arguments are a string sent verbatim, and it is not valid JSON/,
  );
  assert.match(reason(req(), { toolCalls: [{ name: 'weather', arguments: '{"city":7}' }] }), /at \/city: must be string \(got 7\)/);
});

test('contract: absent arguments mean {}', () => {
  assert.equal(checkReplyContract(req(), { toolCalls: [{ name: 'time' }] }), null);
  assert.match(reason(req(), { toolCalls: [{ name: 'weather' }] }), /must have required property 'city'/);
});

test('contract: a tool schema Understudy cannot use is itself the reason', () => {
  const bad: ToolDefinition = { name: 'fetcher', parameters: { properties: { a: { $ref: 'https://example.com/a.json' } } } };
  assert.equal(
    reason(req({ tools: [bad] }), { toolCalls: [{ name: 'fetcher', arguments: {} }] }),
    'tool "fetcher" declares a schema Understudy cannot use: external $ref "https://example.com/a.json" is not allowed; Understudy never fetches schemas',
  );
  const broken: ToolDefinition = { name: 'broken', parameters: { type: 'nope' } };
  assert.match(
    reason(req({ tools: [broken] }), { toolCalls: [{ name: 'broken' }] }),
    /^tool "broken" declares a schema Understudy cannot use: schema is invalid/,
  );
});

test('contract: draft-07 and 2020-12 tool schemas, with local refs', () => {
  const tuple07: ToolDefinition = {
    name: 'move',
    parameters: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { to: { $ref: '#/definitions/point' } },
      required: ['to'],
      definitions: { point: { type: 'array', items: [{ type: 'number' }, { type: 'number' }], minItems: 2 } },
    },
  };
  const tuple2020: ToolDefinition = {
    name: 'jump',
    parameters: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { to: { $ref: '#/$defs/point' } },
      required: ['to'],
      $defs: { point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], minItems: 2 } },
    },
  };
  const request = req({ tools: [tuple07, tuple2020] });
  assert.equal(checkReplyContract(request, { toolCalls: [{ name: 'move', arguments: { to: [1, 2] } }] }), null);
  assert.match(reason(request, { toolCalls: [{ name: 'move', arguments: { to: [1, 'b'] } }] }), /at \/to\/1: must be number \(got "b"\)/);
  assert.equal(checkReplyContract(request, { toolCalls: [{ name: 'jump', arguments: { to: [1, 2] } }] }), null);
  assert.match(reason(request, { toolCalls: [{ name: 'jump', arguments: { to: ['a', 2] } }] }), /at \/to\/0: must be number \(got "a"\)/);
});

test('contract: tool choice none', () => {
  const request = req({ toolChoice: { type: 'none' } });
  assert.equal(checkReplyContract(request, { text: 'no tools today' }), null);
  assert.equal(
    reason(request, { toolCalls: [{ name: 'weather', arguments: { city: 'Paris' } }] }),
    'the request sets tool choice "none" but the reply calls tool "weather"',
  );
});

test('contract: tool choice required', () => {
  const request = req({ toolChoice: { type: 'required' } });
  assert.match(reason(request, { text: 'just text' }), /requires a tool call \(tool choice "required"\) but the reply makes none/);
  assert.match(reason(request, { toolCalls: [] }), /makes none/);
  assert.equal(checkReplyContract(request, { toolCalls: [{ name: 'time' }] }), null);
});

test('contract: tool choice named', () => {
  const request = req({ toolChoice: { type: 'named', name: 'weather' } });
  assert.match(reason(request, { text: 'x' }), /requires a call to tool "weather" \(named tool choice\) but the reply makes none/);
  assert.match(reason(request, { toolCalls: [{ name: 'time' }] }), /requires tool "weather" .* tool call #1 \("time"\) calls "time"/);
  assert.match(
    reason(request, { toolCalls: [{ name: 'weather', arguments: { city: 'A' } }, { name: 'time' }] }),
    /tool call #2 \("time"\) calls "time"/,
  );
  assert.equal(
    checkReplyContract(request, {
      toolCalls: [
        { name: 'weather', arguments: { city: 'A' } },
        { name: 'weather', arguments: { city: 'B' } },
      ],
    }),
    null,
  );
});

test('contract: parallelToolCalls false allows at most one call', () => {
  const calls = [{ name: 'weather', arguments: { city: 'A' } }, { name: 'time' }];
  assert.match(
    reason(req({ parallelToolCalls: false }), { toolCalls: calls }),
    /disables parallel tool calls but the reply makes 2 \(weather, time\)/,
  );
  assert.equal(checkReplyContract(req({ parallelToolCalls: false }), { toolCalls: [calls[0]] }), null);
  assert.equal(checkReplyContract(req({ parallelToolCalls: true }), { toolCalls: calls }), null);
});

test('contract: call ids are non-blank, at most 128 characters, unique', () => {
  const call = (id: string) => ({ id, name: 'time' });
  assert.match(reason(req(), { toolCalls: [call('  ')] }), /tool call #1 \("time"\): the call id is blank/);
  assert.match(reason(req(), { toolCalls: [call('')] }), /the call id is blank/);
  assert.match(reason(req(), { toolCalls: [call('x'.repeat(129))] }), /the call id is 129 characters long; at most 128/);
  assert.equal(checkReplyContract(req(), { toolCalls: [call('x'.repeat(128))] }), null);
  assert.match(
    reason(req(), { toolCalls: [call('c1'), call('c2'), call('c1')] }),
    /tool call #3 \("time"\): the call id "c1" is used by another call/,
  );
  assert.equal(checkReplyContract(req(), { toolCalls: [call('c1'), { name: 'time' }, call('c2')] }), null);
});

// ---------- contract: content ----------

test('contract: chunks must spell the content exactly', () => {
  assert.equal(checkReplyContract(req(), { text: 'Hello world', chunks: ['Hel', 'lo ', 'world'] }), null);
  assert.equal(checkReplyContract(req(), { json: { a: 1 }, chunks: ['{"a"', ':1}'] }), null);
  assert.equal(
    reason(req(), { text: 'Hello world', chunks: ['Hello', 'World'] }),
    'the reply\'s chunks join to 10 characters but the content has 11; they first differ at offset 5 (chunks: "World", content: " world")',
  );
  assert.match(
    reason(req(), { text: 'abc', chunks: ['abd'] }),
    /join to 3 characters but the content has 3; they first differ at offset 2/,
  );
  assert.match(reason(req(), { json: { a: 1 }, chunks: ['{"a": 1}'] }), /join to 8 characters but the content has 7/);
});

test('contract: chunks without content are a reason', () => {
  assert.equal(reason(req(), { chunks: ['a', 'b'] }), 'the reply gives chunks but no text or json for them to spell');
  assert.match(reason(req(), { chunks: ['a'], toolCalls: [{ name: 'time' }] }), /chunks but no text or json/);
});

test('contract: text and json together are ambiguous', () => {
  assert.match(reason(req(), { text: '{"a":1}', json: { a: 1 } }), /sets both text and json/);
});

test('contract: json_object output', () => {
  const request = req({ output: { type: 'json_object' } });
  assert.equal(checkReplyContract(request, { text: '{"ok":true}' }), null);
  assert.equal(checkReplyContract(request, { json: { ok: true } }), null);
  assert.match(reason(request, { text: 'Sure! {"ok":true}' }), /asks for JSON output \(json_object\) but the reply text is not valid JSON/);
  assert.equal(reason(request, { text: '[1,2]' }), 'the request asks for a JSON object (json_object) but the reply content is an array');
  assert.match(reason(request, { json: 'text' }), /content is a string$/);
  // Tool calls without content are fine under JSON output.
  assert.equal(checkReplyContract(request, { toolCalls: [{ name: 'time' }] }), null);
});

test('contract: json_schema output (2020-12 and draft-07)', () => {
  const schema = {
    type: 'object',
    properties: { answer: { type: 'integer' }, tags: { type: 'array', items: { $ref: '#/$defs/tag' } } },
    required: ['answer'],
    additionalProperties: false,
    $defs: { tag: { type: 'string', maxLength: 5 } },
  };
  const request = req({ output: { type: 'json_schema', name: 'answer', schema } });
  assert.equal(checkReplyContract(request, { json: { answer: 42, tags: ['a'] } }), null);
  assert.equal(checkReplyContract(request, { text: '{"answer":42}', chunks: ['{"answer"', ':42}'] }), null);
  assert.equal(
    reason(request, { json: { answer: '42' } }),
    'the reply content does not match the requested output schema "answer": at /answer: must be integer (got "42")',
  );
  assert.match(
    reason(request, { text: '{"answer":1,"tags":["toolong"]}' }),
    /at \/tags\/0: must NOT have more than 5 characters \(got "toolong"\)/,
  );
  assert.match(reason(request, { text: '{}' }), /must have required property 'answer'/);
  assert.match(reason(request, { text: 'not json' }), /json_schema.*not valid JSON/);
  assert.equal(checkReplyContract(request, { toolCalls: [{ name: 'time' }] }), null);

  const d07 = req({
    output: {
      type: 'json_schema',
      schema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'array', items: [{ type: 'string' }, { type: 'boolean' }] },
    },
  });
  assert.equal(checkReplyContract(d07, { json: ['x', true] }), null);
  assert.match(reason(d07, { json: ['x', 'y'] }), /output schema: at \/1: must be boolean \(got "y"\)/);
});

test('contract: an output schema Understudy cannot use is the reason', () => {
  const request = req({ output: { type: 'json_schema', name: 'r', schema: { $ref: 'http://127.0.0.1:1/x.json' } } });
  assert.equal(
    reason(request, { json: {} }),
    'the request\'s output schema "r" is one Understudy cannot use: external $ref "http://127.0.0.1:1/x.json" is not allowed; Understudy never fetches schemas',
  );
});

test('contract: many problems are summarised in one reason', () => {
  const request = req({
    output: {
      type: 'json_schema',
      schema: {
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: 'string' }, c: { type: 'string' }, d: { type: 'string' }, e: { type: 'string' } },
      },
    },
  });
  const r = reason(request, { json: { a: 1, b: 2, c: 3, d: 4, e: 5 } });
  assert.match(r, /at \/a: must be string \(got 1\); at \/b: .*; at \/c: .*; and 2 more$/);
});

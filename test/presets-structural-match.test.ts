// How a step's `toolResult` with a preset's result compares the application's tool message
// (predicates.ts), over open-ended values: the content is parsed as JSON and compared
// structurally, so member order and whitespace never matter and any changed leaf rejects, with the
// near-miss explanation naming the path that changed. The content is parsed once per request,
// however many steps compare it, and not at all for steps that do not.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ChatRequest, JsonValue } from '../src/core/model.js';
import { checkAll, compileWhen } from '../src/engine/predicates.js';

function request(content: string, args: JsonValue = { query: 'q' }): ChatRequest {
  return {
    model: 'gpt-4o-mini',
    messages: [
      { role: 'user', parts: [{ type: 'text', text: 'search' }] },
      {
        role: 'assistant',
        parts: [{ type: 'tool_call', id: 'call_1', name: 'web_search', argumentsText: JSON.stringify(args), arguments: args }],
      },
      { role: 'tool', parts: [{ type: 'tool_result', callId: 'call_1', name: 'web_search', content, isError: false }] },
    ],
    tools: [],
    toolChoice: { type: 'auto' },
    parallelToolCalls: true,
    output: { type: 'text' },
    stream: false,
    streamUsage: false,
  };
}

/** A seeded shuffle of every object's members, all the way down. */
function shuffled(value: JsonValue, seed: number): JsonValue {
  let state = seed >>> 0 || 1;
  const next = () => ((state = (state * 1103515245 + 12345) >>> 0), state / 2 ** 32);
  const walk = (v: JsonValue): JsonValue => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    const entries = Object.entries(v);
    for (let i = entries.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [entries[i], entries[j]] = [entries[j], entries[i]];
    }
    const out: { [key: string]: JsonValue } = {};
    for (const [key, member] of entries)
      Object.defineProperty(out, key, { value: walk(member), enumerable: true, writable: true, configurable: true });
    return out;
  };
  return walk(value);
}

type Segment = string | number;

function leaves(value: JsonValue, at: Segment[] = [], out: Segment[][] = []): Segment[][] {
  if (Array.isArray(value)) value.forEach((v, i) => leaves(v, [...at, i], out));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) leaves(v, [...at, k], out);
  else out.push(at);
  return out;
}

function changedAt(value: JsonValue, path: Segment[]): JsonValue {
  const copy = structuredClone(value);
  if (path.length === 0) return changedLeaf(copy);
  let parent = copy as Record<Segment, JsonValue>;
  for (const segment of path.slice(0, -1)) parent = parent[segment] as Record<Segment, JsonValue>;
  const key = path[path.length - 1];
  Object.defineProperty(parent, key, { value: changedLeaf(parent[key]), enumerable: true, writable: true, configurable: true });
  return copy;
}

function changedLeaf(leaf: JsonValue): JsonValue {
  if (typeof leaf === 'string') return leaf + 'x';
  if (typeof leaf === 'number') return leaf + 1 === leaf ? -leaf - 1 : leaf + 1;
  if (typeof leaf === 'boolean') return !leaf;
  return 0;
}

const pointer = (path: Segment[]) =>
  path.length === 0 ? '(root)' : path.map((p) => '/' + String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('');

// JSON values as JSON text carries them (no -0: JSON.parse gives it back as 0, which is equal anyway).
const json = fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.parse(JSON.stringify(v)) as JsonValue);
const withLeaves = json.filter((v) => leaves(v).length > 0);
const INDENTS = [0, 1, 2, '\t', ' \t', '    '];

test('property: a preset result matches whatever the member order and whitespace of the content', () => {
  fc.assert(
    fc.property(json, fc.integer(), fc.constantFrom(...INDENTS), (result, seed, indent) => {
      const [predicate] = compileWhen({ toolResult: { preset: 'web_search', id: 'call_1', result } });
      const content = JSON.stringify(shuffled(result, seed), null, indent);
      assert.equal(predicate.check(request(content)), null, content);
    }),
    { numRuns: 1000 },
  );
});

test('property: any changed leaf rejects the step, and the explanation names where', () => {
  fc.assert(
    fc.property(
      withLeaves.chain((result) => fc.tuple(fc.constant(result), fc.constantFrom(...leaves(result)))),
      fc.integer(),
      ([result, path], seed) => {
        const when = { toolResult: { preset: 'web_search' as const, id: 'call_1', result } };
        const content = JSON.stringify(shuffled(changedAt(result, path), seed), null, 2);
        const misses = checkAll(compileWhen(when), request(content));
        assert.equal(misses.length, 1, content);
        assert.ok(misses[0].actual.includes(`result differs at ${pointer(path)}: expected `), `${pointer(path)} in ${misses[0].actual}`);
      },
    ),
    { numRuns: 1000 },
  );
});

test("property: a changed leaf of the call's arguments rejects the step, and the explanation names where", () => {
  fc.assert(
    fc.property(
      withLeaves.chain((args) => fc.tuple(fc.constant(args), fc.constantFrom(...leaves(args)))),
      ([args, path]) => {
        const when = { toolResult: { preset: 'web_search' as const, id: 'call_1', arguments: args } };
        assert.equal(compileWhen(when)[0].check(request('{}', shuffled(args, 7))), null);
        const misses = checkAll(compileWhen(when), request('{}', changedAt(args, path)));
        assert.equal(misses.length, 1);
        assert.ok(misses[0].actual.includes(`arguments differ at ${pointer(path)}: expected `), misses[0].actual);
      },
    ),
    { numRuns: 500 },
  );
});

test('the content is parsed once per request however many steps compare it, and never by steps that do not', () => {
  const content = '{"results":[]}';
  const comparing = Array.from({ length: 5 }, (_, i) =>
    compileWhen({ toolResult: { preset: 'web_search', id: 'call_1', result: { results: i === 4 ? [] : [{ n: i }] } } }),
  );
  const others = compileWhen({ toolResult: { name: 'web_search', id: 'call_1' }, latestUser: 'search' });
  const parse = JSON.parse;
  let parsed = 0;
  JSON.parse = ((text: string, reviver?: Parameters<typeof parse>[1]) => {
    if (text === content) parsed++;
    return parse(text, reviver);
  }) as typeof JSON.parse;
  try {
    const plain = request(content);
    for (const p of others) assert.equal(p.check(plain), null);
    assert.equal(parsed, 0, 'a step without a result to compare parses nothing');
    const r = request(content);
    const verdicts = comparing.map(([p]) => p.check(r) === null);
    assert.deepEqual(verdicts, [false, false, false, false, true]);
    for (const [p] of comparing) checkAll([p], r);
    assert.equal(parsed, 1);
  } finally {
    JSON.parse = parse;
  }
});

test('toolArguments near misses name what differed; jsonPath in the tool result shares the parse', () => {
  const [args] = compileWhen({ toolArguments: { name: 'web_search', equals: { query: 'q', limit: 5 } } });
  const [miss] = checkAll([args], request('{}', { query: 'q', limit: 6 }));
  assert.match(miss.actual, /^web_search\({"query":"q","limit":6}\): arguments differ at \/limit: expected 5, found 6$/);

  const content = '{"results":[{"title":"t"}]}';
  const parse = JSON.parse;
  let parsed = 0;
  JSON.parse = ((text: string, reviver?: Parameters<typeof parse>[1]) => {
    if (text === content) parsed++;
    return parse(text, reviver);
  }) as typeof JSON.parse;
  try {
    const r = request(content);
    const path = compileWhen({ jsonPath: { path: '$.results[0].title', equals: 't', in: 'toolResult' } });
    const result = compileWhen({ toolResult: { preset: 'web_search', result: { results: [{ title: 't' }] } } });
    assert.equal(path[0].check(r), null);
    assert.equal(result[0].check(r), null);
    assert.equal(parsed, 1);
  } finally {
    JSON.parse = parse;
  }
});

// The shape scan that runs before a large body is parsed (src/transport/json-shape.ts): its verdict
// on any JSON text must be what the parsed value says, however the text is sliced.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { JsonShapeScan, type JsonShape } from '../src/transport/json-shape.js';

interface Measure {
  depth: number;
  values: number;
  widest: number;
}

/** Depth, object members plus array elements, and the most members of one object, of a value. */
function measure(value: unknown, depth = 0, into: Measure = { depth: 0, values: 0, widest: 0 }): Measure {
  if (typeof value !== 'object' || value === null) return into;
  const level = depth + 1;
  into.depth = Math.max(into.depth, level);
  const children = Array.isArray(value) ? value : Object.values(value);
  if (!Array.isArray(value)) into.widest = Math.max(into.widest, children.length);
  into.values += children.length;
  for (const child of children) measure(child, level, into);
  return into;
}

function scan(text: string, limits: { values: number; depth: number; members: number }, slice: number): JsonShape | undefined {
  const scanner = new JsonShapeScan(text, limits.values, limits.depth, limits.members);
  while (!scanner.advance(slice));
  return scanner.verdict;
}

const jsonText = fc
  .jsonValue({ maxDepth: 6 })
  .chain((value) =>
    fc
      .constantFrom(JSON.stringify(value), JSON.stringify(value, null, 2), JSON.stringify(value, null, '\t'))
      .map((text) => ({ value, text })),
  );

test('the scan agrees with the parsed value on depth, values and widest object, in any slicing', () => {
  fc.assert(
    fc.property(
      jsonText,
      fc.record({
        values: fc.integer({ min: 0, max: 40 }),
        depth: fc.integer({ min: 1, max: 7 }),
        members: fc.integer({ min: 0, max: 8 }),
      }),
      fc.integer({ min: 1, max: 64 }),
      ({ value, text }, limits, slice) => {
        const m = measure(value);
        const verdict = scan(text, limits, slice);
        const over = [m.depth > limits.depth, m.values > limits.values, m.widest > limits.members];
        if (!over.some(Boolean)) assert.equal(verdict, 'ok', text);
        else {
          assert.notEqual(verdict, 'ok', `${text} is over a bound`);
          const named = { too_deep: over[0], too_many_values: over[1], too_many_members: over[2] } as Record<string, boolean>;
          assert.ok(named[verdict as string], `${verdict} is a bound the text passes (${text})`);
        }
        // Within every bound but the one measured exactly: the verdict is that bound.
        assert.equal(scan(text, { values: m.values, depth: m.depth, members: m.widest }, slice), 'ok');
        if (m.values > 0) assert.equal(scan(text, { values: m.values - 1, depth: 99, members: 99 }, slice), 'too_many_values');
        if (m.widest > 0) assert.equal(scan(text, { values: 999, depth: 99, members: m.widest - 1 }, slice), 'too_many_members');
        if (m.depth > 0) assert.equal(scan(text, { values: 999, depth: m.depth - 1, members: 99 }, slice), 'too_deep');
      },
    ),
    { numRuns: 2000 },
  );
});

test('strings holding brackets, quotes and backslashes are skipped whole', () => {
  const text = JSON.stringify({ a: '{[,:"\\', b: ['\\"', '\\\\'], 'c,:': { '[': ']' } });
  assert.deepEqual(measure(JSON.parse(text)), { depth: 2, values: 6, widest: 3 });
  assert.equal(scan(text, { values: 6, depth: 2, members: 3 }, 3), 'ok');
  assert.equal(scan(text, { values: 5, depth: 2, members: 3 }, 3), 'too_many_values');
});

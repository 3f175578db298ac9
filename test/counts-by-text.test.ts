// The bounded text → count map behind token counting: memory stays within its bound of
// characters, the oldest go first, and one text larger than the whole bound is not kept (it would
// evict everything else and, through the deleted entries it leaves, slow every later eviction).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { CountsByText } from '../src/core/counts-by-text.js';

test('a text longer than the whole bound is not kept and evicts nothing', () => {
  const counts = new CountsByText(100);
  counts.set('a'.repeat(40), 1);
  counts.set('b'.repeat(40), 2);
  counts.set('c'.repeat(101), 3);
  assert.equal(counts.get('c'.repeat(101)), undefined);
  assert.equal(counts.get('a'.repeat(40)), 1);
  assert.equal(counts.get('b'.repeat(40)), 2);
});

test('the characters held never pass the bound, and the newest text that fits is always kept', () => {
  fc.assert(
    fc.property(fc.array(fc.string({ maxLength: 60 }), { maxLength: 80 }), (texts) => {
      const counts = new CountsByText(100);
      const held = new Map<string, number>();
      texts.forEach((text, i) => {
        counts.set(text, i);
        if (text.length <= 100) assert.equal(counts.get(text), i, 'the newest fitting text is kept');
        held.set(text, i);
      });
      let chars = 0;
      for (const text of held.keys()) if (counts.get(text) !== undefined) chars += text.length;
      assert.ok(chars <= 100, `${chars} characters held`);
    }),
    { seed: 20261201, numRuns: 300 },
  );
});

// The id sequence a session draws its ids from must give exactly deterministicId's ids (the ids
// every SDK test pins), across the block boundaries where its cached head changes.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deterministicId, IdSequence, idPrefix } from '../src/engine/ids.js';

test('IdSequence gives deterministicId(prefix, n) for every n, in order and out of order', { timeout: 10_000 }, () => {
  const prefix = idPrefix('some-session');
  const sequence = new IdSequence(prefix);
  for (let n = 0; n < 5000; n++) assert.equal(sequence.id(n), deterministicId(prefix, n));
  const far = [36 ** 8 - 1, 36 ** 8, 36 ** 10 - 1, 36 ** 10, 36 ** 10 + 1297, 1295, 1296, 1297, 7, 2 ** 40];
  for (const n of far) assert.equal(sequence.id(n), deterministicId(prefix, n), `counter ${n}`);
  assert.equal(sequence.id(1), `${prefix}0000000001`);
});

// The one FNV-1a of src/core/fnv.ts: the published test vectors, and the values derived from it
// (id prefixes, Anthropic thinking signatures) pinned as they were before its copies became one.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fnv1a, fnv1aBytes } from '../src/core/fnv.js';
import { thinkingSignature } from '../src/dialects/anthropic-messages/encode-response.js';
import { idPrefix } from '../src/engine/ids.js';

test('fnv1a gives the published FNV-1a 32-bit vectors, over text and over bytes', () => {
  const vectors: [string, number][] = [
    ['', 0x811c9dc5],
    ['a', 0xe40c292c],
    ['foobar', 0xbf9cf968],
  ];
  for (const [text, hash] of vectors) {
    assert.equal(fnv1a(text), hash, JSON.stringify(text));
    const bytes = Buffer.from(`<${text}>`, 'latin1');
    assert.equal(fnv1aBytes(bytes, 1, bytes.length - 1), hash, `bytes of ${JSON.stringify(text)}`);
  }
});

test('ids and signatures made from it are the ones sessions have always had', () => {
  assert.deepEqual(
    ['', 'default', 'some-session', 'é漢😀'].map((seed) => idPrefix(seed)),
    ['n92kWm92kWp92k', 'KecKrfVtOiWRpj', 'O9f0IL1dkXKgTW', 'z6w7wwNPYZJEj4'],
  );
  assert.equal(thinkingSignature('a'), 'dW5kZXJzdHVkeS10aGlua2luZzplNDBjMjkyYzMzNTg2M2RhOjE=');
  assert.equal(thinkingSignature('some-session'), 'dW5kZXJzdHVkeS10aGlua2luZzplMjM3MGFiMDJkNDNkZWEwOjEy');
});

// A request body larger than the journal's per-entry limit is kept as a short preview: the preview
// must be a copy, since V8's slice of a long string keeps the whole body alive beneath it (a
// server that answered such bodies grew until it ran out of memory). Distinct caches keyed by
// schema text are bounded by characters too.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import OpenAI from 'openai';
import { startUnderstudy } from '../src/client/index.js';
import { TextKeyedCache } from '../src/core/text-keyed-cache.js';

test('bodies over the journal entry limit leave only their preview behind', { timeout: 60_000 }, async () => {
  setFlagsFromString('--expose_gc');
  const gc = runInNewContext('gc') as () => void;
  const mock = await startUnderstudy({ defaultSession: { fallback: 'auto' } });
  try {
    const session = await mock.session('big-bodies', { fallback: 'auto' });
    const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 30_000 });
    const send = (i: number) =>
      openai.chat.completions.create({ model: 'g', messages: [{ role: 'user', content: `${i} ${'x '.repeat(1_000_000)}` }] });
    await send(-1);
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 20; i++) await send(i);
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    const { entries } = await session.journal();
    assert.equal(entries.length, 21);
    assert.ok(entries.every((e) => e.truncated && (e.requestPreview?.length ?? 0) <= 4096));
    assert.ok(grown < 16 * 1024 * 1024, `the heap grew by ${(grown / 1e6).toFixed(0)} MB for 20 bodies of 2 MB`);
  } finally {
    await mock.close();
  }
});

test('a text-keyed cache holds at most its characters and entries, least recently used out first', () => {
  const cache = new TextKeyedCache<number>(10, 3);
  cache.set('aaaa', 1);
  cache.set('bbbb', 2);
  assert.equal(cache.get('aaaa'), 1); // now the most recently used
  cache.set('cccc', 3); // 12 characters: the least recently used (bbbb) goes
  assert.equal(cache.get('bbbb'), undefined);
  assert.equal(cache.get('aaaa'), 1);
  cache.set('d', 4);
  cache.set('e', 5); // four entries: one goes
  assert.equal(cache.size, 3);
  cache.set('x'.repeat(11), 6); // longer than the whole bound: not kept, nothing evicted
  assert.equal(cache.size, 3);
  assert.equal(cache.get('x'.repeat(11)), undefined);
});

// PromptCache.warm adds only the keys of a request that could stay (the last maxPrefixes): the
// prefixes it remembers must be exactly those of adding every key, oldest evicted first.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { PromptCache, type CacheProbe } from '../src/core/prompt-cache.js';

/** Every key added in order to an insertion-ordered set of at most `max`, a key seen again moved last. */
function reference(probes: CacheProbe[], minTokens: number, max: number): string[] {
  const set = new Set<string>();
  for (const probe of probes) {
    probe.keys.forEach((key, i) => {
      if (probe.tokens[i] < minTokens) return;
      set.delete(key);
      set.add(key);
      if (set.size > max) set.delete(set.values().next().value as string);
    });
  }
  return [...set];
}

// A request's keys are distinct (each is the hash of a longer prefix); requests share some.
const probe = fc
  .uniqueArray(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 30 })
  .chain((keys) =>
    fc.array(fc.integer({ min: 0, max: 40 }), { minLength: keys.length, maxLength: keys.length }).map((grows) => ({ keys, grows })),
  )
  .map(({ keys, grows }): CacheProbe => {
    let tokens = 0;
    return { keys: keys.map((key) => `k${key}`), tokens: grows.map((grow) => (tokens += grow)), cachedTokens: 0, writeTokens: 0 };
  });

test('warming remembers the same prefixes, in the same order, as adding every key', () => {
  fc.assert(
    fc.property(
      fc.array(probe, { maxLength: 6 }),
      fc.integer({ min: 0, max: 60 }),
      fc.integer({ min: 1, max: 10 }),
      (probes, minTokens, max) => {
        const cache = new PromptCache({ minTokens, granularity: 1, maxPrefixes: max });
        for (const p of probes) cache.warm(p);
        const remembered = [...(cache as unknown as { prefixes: Set<string> }).prefixes];
        assert.deepEqual(remembered, reference(probes, minTokens, max));
      },
    ),
    { numRuns: 2000 },
  );
});

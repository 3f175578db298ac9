// Issue 13 §1, the units under test/timing/bounded-work.test.ts: counting a request in slices gives the
// counts it would get at once, runs cut at the window stay close to gpt-tokenizer's counts, and
// the JSON depth scan that skips strings with indexOf agrees with the scan it replaced.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { countTokens as oracleCount } from 'gpt-tokenizer/encoding/o200k_base';
import { PIECE_WINDOW } from '../src/core/bpe/o200k.js';
import type { ChatRequest } from '../src/core/model.js';
import { PrefixKeyTally, PromptCache } from '../src/core/prompt-cache.js';
import { countInputTokens, countTokens, inputTokenBoundaries, InputTokenTally } from '../src/core/tokens.js';
import { jsonTooDeep } from '../src/transport/body.js';

test('property: a request counted and hashed in slices gets the counts and prefix keys it would get at once', () => {
  const long = fc.tuple(fc.constantFrom('a', ' ', '漢', '😀', '!?', 'ab1 ', 'x\n'), fc.integer({ min: 1, max: 12_000 }));
  const text = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    long.map(([piece, times]) => piece.repeat(times)),
  );
  const part = fc.oneof(
    text.map((t) => ({ type: 'text' as const, text: t })),
    fc.tuple(text, text).map(([name, args]) => ({ type: 'tool_call' as const, id: 'c', name, argumentsText: args })),
    text.map((t) => ({ type: 'tool_result' as const, callId: 'c', content: t, isError: false })),
    fc.constant({ type: 'image' as const, url: 'data:,' }),
  );
  const message = fc.record({ role: fc.constantFrom('user' as const, 'assistant' as const), parts: fc.array(part, { maxLength: 4 }) });
  const tool = fc.record({ name: fc.string({ maxLength: 10 }), description: text, parameters: fc.constant({ type: 'object' }) });
  fc.assert(
    fc.property(
      fc.array(message, { maxLength: 5 }),
      fc.array(tool, { maxLength: 2 }),
      fc.integer({ min: 1, max: 30_000 }),
      (messages, tools, step) => {
        const request = { model: 'g', messages, tools } as unknown as ChatRequest;
        const copy = structuredClone(request);
        const tally = new InputTokenTally(request);
        let steps = 0;
        while (!tally.advance(step)) steps++;
        assert.ok(steps < 1_000_000);
        assert.deepEqual(inputTokenBoundaries(request), inputTokenBoundaries(copy));
        assert.equal(countInputTokens(request), countInputTokens(copy));
        const keys = new PrefixKeyTally(request);
        while (!keys.advance(step)) steps++;
        const cache = new PromptCache({ minTokens: 0, granularity: 1, maxPrefixes: 100 });
        assert.deepEqual(cache.probe(request)?.keys, cache.probe(copy)?.keys, 'prefix keys made in steps');
        assert.equal(JSON.stringify(request), JSON.stringify(copy), 'what was kept is not part of the request');
      },
    ),
    { numRuns: 150 },
  );
});

/** The depth scan as it was before strings were skipped with indexOf: the reference. */
function tooDeepByCharacters(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

test('property: the JSON depth scan agrees with a scan character by character', () => {
  const tricky = fc.string({ unit: fc.constantFrom('\\', '"', '[', '{', ']', '}', 'a', '\\\\'), maxLength: 12 });
  const leaf = fc.oneof(
    fc.json(),
    tricky.map((s: string) => JSON.stringify(s)),
  );
  const { tree } = fc.letrec((tie) => ({
    tree: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('tree')), fc.dictionary(tricky, tie('tree'), { maxKeys: 3 })),
  }));
  fc.assert(
    fc.property(tree, fc.integer({ min: 0, max: 6 }), (value, max) => {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      assert.equal(jsonTooDeep(text, max), tooDeepByCharacters(text, max), text);
    }),
    { numRuns: 2000 },
  );
});

test('runs longer than the 16,384-character window count within one token per window of gpt-tokenizer', { timeout: 120_000 }, () => {
  for (const unit of ['a', 'A', ' ', '!@#$%^&*()', 'qwertyuiopasdfghjklzxcvbnm', 'Zz']) {
    const text = unit.repeat(Math.ceil(40_000 / unit.length)).slice(0, 40_000) + 'x';
    assert.equal(PIECE_WINDOW, 16_384);
    const ours = countTokens(text);
    const exact = oracleCount(text, { disallowedSpecial: new Set() });
    assert.ok(
      Math.abs(ours - exact) <= Math.ceil(text.length / PIECE_WINDOW),
      `${JSON.stringify(unit)} x ${text.length}: ours ${ours}, gpt-tokenizer ${exact}`,
    );
  }
});

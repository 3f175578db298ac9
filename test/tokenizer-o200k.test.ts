// Our o200k_base counter (src/core/bpe, data/o200k_base.bin) against gpt-tokenizer 4.0.0, the
// library it replaced at run time and still the oracle: the same count for every text, the same
// pieces from the split pattern, and a rank table that holds exactly the oracle's ranks.
//
// One deliberate difference: gpt-tokenizer's countTokens(text) throws on special-token text such
// as "<|endoftext|>"; we count it as ordinary text, which is what gpt-tokenizer counts when told to
// allow nothing special and to disallow nothing (`{ disallowedSpecial: new Set() }`). Everywhere
// else the two oracles agree, and the tests below check that too.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import oracleRanks from 'gpt-tokenizer/bpeRanks/o200k_base';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { countTokens as oracleDefault } from 'gpt-tokenizer/encoding/o200k_base';
import { countO200k } from '../src/core/bpe/o200k.js';
import { RankTable } from '../src/core/bpe/rank-table.js';
import { O200K_SPLIT_SOURCE, splitO200k } from '../src/core/bpe/split.js';
import { countTokens, loadTokenizer } from '../src/core/tokens.js';
import { tokenCorpus } from './support/token-corpus.js';

const TABLE_URL = new URL('../data/o200k_base.bin', import.meta.url);
const table = RankTable.fromFile(TABLE_URL);
const ORDINARY = { disallowedSpecial: new Set<string>() };
const oracle = (text: string) => oracleDefault(text, ORDINARY);
const oracleSplit = (text: string) => [...text.matchAll(new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'gu'))].map((m) => m[0]);
const SPECIAL = [
  '<|endoftext|>',
  '<|fim_prefix|>',
  '<|fim_middle|>',
  '<|fim_suffix|>',
  '<|im_start|>',
  '<|im_end|>',
  '<|im_sep|>',
  '<|endofprompt|>',
];

function assertSameCount(text: string): void {
  const ours = countO200k(table, text);
  const expected = oracle(text);
  if (ours !== expected)
    assert.fail(`count of ${JSON.stringify(text.length > 300 ? text.slice(0, 300) + '…' : text)}: ours ${ours}, gpt-tokenizer ${expected}`);
}

function assertSameSplit(text: string): void {
  assert.deepEqual(splitO200k(text), oracleSplit(text), `pieces of ${JSON.stringify(text)}`);
}

const EDGE_CASES = [
  '',
  'a',
  'Hello, world!',
  "I'm sure they'll say it's fine, we've seen you'd've done it. DON'T SHOUT'S 'tis ''s 'S 'LL 'Ve 're",
  "rock'n'roll o'clock it's' 's's'",
  'HTTPServer XMLHttpRequest iPhone McDonald ǅemal ǈubljana',
  '  leading and trailing  \n\n\t\ttabs\t\n \r\n\r\n   \n',
  ' '.repeat(17) + 'x' + '\t'.repeat(9) + '\n' + ' '.repeat(33),
  '1 12 123 1234 12345 123456 3.14159 -42 1e10 0x1F 1,234,567.89 ٣٤٥ １２３ ½ ² Ⅻ 𝟙𝟚',
  '$$$ !!! ... /// \\\\ ?? -> => <= |> ~~ ``` ### *** ___ ',
  '.\n/\r\n//\n!!\r\n/*\n*/\n',
  'function f(a, b) {\n  return a + b; // sum\n}\n',
  '{"key": [1, 2.5, true, null], "nested": {"a": "b\\n"}}',
  '漢字かな交じり文、カタカナ。한국어 문장입니다. 中文句子，还有标点！',
  'Привет мир! مرحبا بالعالم नमस्ते दुनिया สวัสดีชาวโลก Γειά σου',
  'cafe\u0301 nai\u0308ve e\u0301\u0301\u0301 a\u20dd',
  '👩‍👩‍👧‍👦 👍🏽 🇫🇷 ❤️ 🧑‍💻 1️⃣ 😀😀😀',
  '\u00a0\u2003\u3000\u2028\u2029\u000b\u000c\u0085 nbsp\u00a0word',
  '\x00\x01\x1c\x1f\x7f control',
  // Special-token text is ordinary text.
  ...SPECIAL,
  '<|endoftext|><|endoftext|>',
  'before <|im_start|>user\nhi<|im_end|> after',
  '<|endoftext',
  '<|start|>',
  // U+FEFF: gpt-tokenizer drops a leading U+FEFF from a merge candidate that is valid UTF-8, which
  // changes a count where the rest is a token and the candidate is EF BB + a token BF…
  // (BF E5 90 8D, BF E1 9E 84): "\uFEFF名" is 1 token there, 2 in a plain byte-level BPE.
  '\uFEFF名',
  '\uFEFFង',
  'x\uFEFFង \uFEFF名前',
  '\uFEFF',
  '\uFEFFusing System;',
  '\uFEFF\uFEFF\n',
  '\uFEFFnamespace \uFEFF//\n\uFEFF#',
  'x\uFEFF\n\n\uFEFF\uFEFF\uFEFF\uFEFFword',
  // Lone surrogates: U+FFFD in the bytes, never found as a whole piece (no o200k_base count we
  // found depends on the latter, but it is how gpt-tokenizer works, so we do the same).
  '\uD800',
  '\uDC00',
  'a\uD800b',
  '\uD83D',
  '\uD83D\uD83D\uDE00',
  '\uDE00\uD83D',
  '\uFFFD',
  // Long pieces: merged with the heap.
  'a'.repeat(3000),
  'ab'.repeat(700),
  ' '.repeat(5000) + 'end',
  '\n'.repeat(400),
  '漢'.repeat(300),
  'สวัสดี'.repeat(80),
  '😀'.repeat(200),
  '\uFEFF'.repeat(50),
  '-='.repeat(400),
  'x'.repeat(120) + "'ll",
];

test('the rank table holds every gpt-tokenizer rank with its bytes, and finds each by its bytes', { timeout: 60_000 }, () => {
  assert.equal(table.rankCount, oracleRanks.length);
  const encoder = new TextEncoder();
  let unreachable = 0;
  for (let rank = 0; rank < oracleRanks.length; rank++) {
    const value = oracleRanks[rank];
    const bytes = typeof value === 'string' ? encoder.encode(value) : Uint8Array.from(value);
    const stored = table.tokenBytes(rank);
    if (stored.length !== bytes.length || stored.some((b, i) => b !== bytes[i]))
      assert.fail(`bytes of rank ${rank}: ${stored} vs ${bytes}`);
    const found = table.rank(bytes, 0, bytes.length);
    if (found === -1) unreachable++;
    else assert.equal(found, rank, `rank of the bytes of rank ${rank}`);
  }
  // Byte-array tokens whose bytes are valid UTF-8 (all start with U+FEFF): gpt-tokenizer looks
  // such bytes up as text, where they are absent, so they are never found.
  assert.equal(unreachable, 9);
  assert.equal(table.rank(new Uint8Array([0xef, 0xbb, 0xbf]), 0, 3), -1);
});

test('every text of the vocabulary counts as in gpt-tokenizer', { timeout: 60_000 }, () => {
  for (const value of oracleRanks) if (typeof value === 'string') assertSameCount(value);
});

test('edge cases count and split as in gpt-tokenizer', { timeout: 60_000 }, () => {
  for (const text of EDGE_CASES) {
    assertSameCount(text);
    assertSameSplit(text);
  }
  assertSameCount(EDGE_CASES.join(''));
  assertSameCount(EDGE_CASES.join(' \n'));
});

test(
  'a mixed corpus (prose, code, JSON, CJK, other scripts, emoji, numbers, whitespace) counts as in gpt-tokenizer',
  { timeout: 60_000 },
  () => {
    const corpus = tokenCorpus(7, 2_500, 4);
    for (const { text } of corpus) {
      assertSameCount(text);
      assertSameSplit(text);
    }
    assertSameCount(corpus.map((s) => s.text).join(''));
  },
);

test('the split pattern is the one gpt-tokenizer uses for o200k_base', () => {
  assert.equal(O200K_SPLIT_SOURCE, O200K_TOKEN_SPLIT_REGEX.source);
  assert.ok(O200K_TOKEN_SPLIT_REGEX.unicode && O200K_TOKEN_SPLIT_REGEX.global);
});

test('gpt-tokenizer without options agrees wherever it does not throw on special-token text', { timeout: 60_000 }, () => {
  for (const text of [...EDGE_CASES, ...tokenCorpus(11, 1_000, 1).map((s) => s.text)]) {
    if (SPECIAL.some((s) => text.includes(s))) {
      assert.throws(() => oracleDefault(text), /Disallowed special token/);
    } else {
      assert.equal(countO200k(table, text), oracleDefault(text));
    }
  }
});

// Pieces that exercise the pattern's branches and the merge rules.
const TRICKY = [
  ...'abzAZsStTlLvVeErRdDmM',
  ...["'", "'s", "'t", "'re", "'ve", "'m", "'ll", "'d", "'S", "'LL", "'Re"],
  ...[' ', ' ', '  ', '    ', '\t', '\n', '\r', '\r\n', '\n\n', '\v', '\f'],
  ...['0', '1', '7', '42', '999', '1234'],
  ...'.,!?/-_(){}"#$<|>\\\x00\x1c\x7f',
  '//',
  ...'éÉßǅʰ\u0301\u0308٣１½Ⅻ',
  ...'\u00a0\u3000\u2028\u0085\uFEFF\uFFFD',
  ...'漢字名ងかカ한жشन्ส😀🇫\u200d',
  ...['👍🏽', '\uD800', '\uDC00'],
  ...['<|endoftext|>', '<|im_start|>', 'hello', ' world', 'HTTP', 'Server', 'the'],
];
const trickyText = fc.array(fc.constantFrom(...TRICKY), { maxLength: 40 }).map((parts) => parts.join(''));
const PROPERTY_RUNS = 3_000;

test('property: arbitrary Unicode strings count as in gpt-tokenizer', { timeout: 120_000 }, () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 120 }), (text) => countO200k(table, text) === oracle(text)),
    { numRuns: PROPERTY_RUNS },
  );
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (text) => countO200k(table, text) === oracle(text)),
    { numRuns: PROPERTY_RUNS },
  );
});

test('property: ASCII strings split and count as in gpt-tokenizer', { timeout: 120_000 }, () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary-ascii', maxLength: 80 }), (text) => {
      assertSameSplit(text);
      return countO200k(table, text) === oracle(text);
    }),
    { numRuns: PROPERTY_RUNS },
  );
});

test('property: mixes of letters, contractions, digits, punctuation, whitespace and newlines', { timeout: 120_000 }, () => {
  fc.assert(
    fc.property(trickyText, (text) => {
      assertSameSplit(text);
      return countO200k(table, text) === oracle(text);
    }),
    { numRuns: 2 * PROPERTY_RUNS },
  );
});

test('property: long runs (pieces merged with the heap) count as in gpt-tokenizer', { timeout: 120_000 }, () => {
  const run = fc.tuple(fc.constantFrom(...TRICKY), fc.integer({ min: 1, max: 150 })).map(([piece, times]) => piece.repeat(times));
  fc.assert(
    fc.property(fc.array(run, { minLength: 1, maxLength: 4 }), (runs) => {
      const text = runs.join('');
      return countO200k(table, text) === oracle(text);
    }),
    { numRuns: 300 },
  );
});

test('countTokens() of src/core/tokens.ts: the counts, cached or not, and special-token text', { timeout: 60_000 }, async () => {
  await loadTokenizer();
  for (const text of [...EDGE_CASES, ...tokenCorpus(3, 500, 1).map((s) => s.text), 'x'.repeat(10_000)]) {
    assert.equal(countTokens(text), oracle(text));
    assert.equal(countTokens(text), oracle(text), 'a second (cached) count');
  }
  assert.equal(countTokens('<|endoftext|>'), 7);
});

test('a missing or damaged table is reported with the way to make it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'understudy-table-'));
  try {
    assert.throws(
      () => RankTable.fromFile(join(dir, 'o200k_base.bin')),
      /o200k_base token table missing: .*o200k_base\.bin does not exist; `npm run build` creates it/,
    );
    const damaged = join(dir, 'damaged.bin');
    writeFileSync(damaged, 'not a table');
    assert.throws(() => RankTable.fromFile(damaged), /not a usable o200k_base rank table \(wrong magic\).*npm run build/);
    const truncated = join(dir, 'truncated.bin');
    writeFileSync(truncated, Buffer.concat([Buffer.from('O2KB'), Buffer.from([1, 0, 0, 0]), Buffer.alloc(56)]));
    assert.throws(() => RankTable.fromFile(truncated), /not a usable o200k_base rank table \(wrong size\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// o200k_base token counting: cut the text into pieces (split.ts), then count each piece's tokens
// by byte-pair merging over the rank table (rank-table.ts). Special-token text such as
// "<|endoftext|>" is ordinary text here (as in a chat message sent to the real API).
//
// Counts equal gpt-tokenizer 4.0.0's for the same text (test/tokenizer-o200k.test.ts), including
// two ways in which that library departs from a plain byte-level BPE:
//  - a piece is first looked up whole, as text: a piece holding a lone surrogate is never found
//    whole (its bytes carry U+FFFD in the surrogate's place) and goes straight to merging;
//  - while merging, a candidate that is valid UTF-8 and starts with U+FEFF (EF BB BF) is looked
//    up without that first U+FEFF.

import type { RankTable } from './rank-table.js';
import { nextPieceStart, pieceEnd } from './split.js';
import { CountsByText } from '../counts-by-text.js';

const NONE = 0x7fffffff;
/** Pieces longer than this (in bytes) merge with a heap instead of rescanning for the minimum. */
const LINEAR_LIMIT = 96;

/** Pieces that needed merging, with their counts: words recur, merging is the costly part. Bounded
 * by characters held (oldest first out), as gpt-tokenizer bounds its own merge cache. There is one
 * o200k_base table, so the cache is not keyed by table. */
const PIECE_CACHE_CHARS = 1_000_000;
const pieceCache = new CountsByText(PIECE_CACHE_CHARS);

let bytes = new Uint8Array(256);
let starts = new Int32Array(256);
let ranks = new Int32Array(256);
let next = new Int32Array(0);
let prev = new Int32Array(0);
let heap = new Float64Array(0);

/**
 * A piece is looked for within this many UTF-16 units: a longer run (of letters of one case, CJK,
 * whitespace, punctuation or emoji, the only kinds of piece that can be long) is cut here and
 * counting goes on after the cut as if a new piece began there. So merging and the search for a
 * piece's end stay linear in the text's length, with bounded memory. Shorter pieces are exact.
 */
export const PIECE_WINDOW = 16_384;
/** Characters past the window that the pattern may look at to end a shorter piece. */
const WINDOW_MARGIN = 16;

/** Number of o200k_base tokens in text. */
export function countO200k(table: RankTable, text: string): number {
  whole.at = 0;
  return countO200kFrom(table, text, whole, text.length);
}

/** Where counting a text in steps stands: `at` is a piece boundary, text.length once done. */
export interface O200kCursor {
  at: number;
}

const whole: O200kCursor = { at: 0 };

/**
 * Tokens from the cursor on until at least `minChars` characters are counted (a piece is never
 * cut) or the text ends; moves the cursor. Counting a text in such steps gives the same total as
 * countO200k.
 */
export function countO200kFrom(table: RankTable, text: string, cursor: O200kCursor, minChars: number): number {
  let count = 0;
  let at = cursor.at;
  const length = text.length;
  const stop = Math.min(length, at + minChars);
  while (at < stop) {
    const end = length - at > PIECE_WINDOW + WINDOW_MARGIN ? windowedPieceEnd(text, at) : pieceEnd(text, at);
    if (end < 0) {
      at = nextPieceStart(text, at);
      if (at < 0) at = length;
      continue;
    }
    count += countPiece(table, text, at, end);
    at = end;
  }
  cursor.at = at;
  return count;
}

/** pieceEnd(text, at), looked for in the window after `at` only; a piece reaching the window's
 * end is cut there (never between the halves of a surrogate pair). */
function windowedPieceEnd(text: string, at: number): number {
  const end = pieceEnd(text.slice(at, at + PIECE_WINDOW + WINDOW_MARGIN), 0);
  if (end < PIECE_WINDOW) return end < 0 ? -1 : at + end;
  const last = text.charCodeAt(at + PIECE_WINDOW - 1);
  return last >= 0xd800 && last <= 0xdbff ? at + PIECE_WINDOW - 1 : at + PIECE_WINDOW;
}

/** Tokens in text[from, to), one pre-tokenised piece. */
function countPiece(table: RankTable, text: string, from: number, to: number): number {
  if (bytes.length < 3 * (to - from)) bytes = new Uint8Array(3 * (to - from) + 64);
  const buf = bytes;
  let n = 0;
  let whole = true;
  for (let i = from; i < to; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      buf[n++] = c;
      continue;
    }
    if (c < 0x800) {
      buf[n++] = 0xc0 | (c >> 6);
      buf[n++] = 0x80 | (c & 0x3f);
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const low = i + 1 < to ? text.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
        i++;
        buf[n++] = 0xf0 | (c >> 18);
        buf[n++] = 0x80 | ((c >> 12) & 0x3f);
        buf[n++] = 0x80 | ((c >> 6) & 0x3f);
        buf[n++] = 0x80 | (c & 0x3f);
        continue;
      }
      c = 0xfffd;
      whole = false;
    }
    buf[n++] = 0xe0 | (c >> 12);
    buf[n++] = 0x80 | ((c >> 6) & 0x3f);
    buf[n++] = 0x80 | (c & 0x3f);
  }
  if (n === 1) return 1;
  if (whole && table.rank(buf, 0, n) >= 0) return 1;
  const piece = text.slice(from, to);
  const cached = pieceCache.get(piece);
  if (cached !== undefined) return cached;
  const count = n <= LINEAR_LIMIT ? mergeLinear(table, buf, n) : mergeHeap(table, buf, n);
  if (piece.length <= PIECE_CACHE_CHARS / 100) pieceCache.set(piece, count);
  return count;
}

/** Rank of the merge candidate buf[from, to) (buf holds n bytes of valid UTF-8), or NONE. */
function pairRank(table: RankTable, buf: Uint8Array, n: number, from: number, to: number): number {
  if (to - from >= 3 && buf[from] === 0xef && buf[from + 1] === 0xbb && buf[from + 2] === 0xbf && (to === n || (buf[to] & 0xc0) !== 0x80)) {
    from += 3;
  }
  const rank = table.rank(buf, from, to);
  return rank < 0 ? NONE : rank;
}

/** Byte-pair merging by rescanning for the lowest rank: part i spans starts[i]..starts[i + 1]. */
function mergeLinear(table: RankTable, buf: Uint8Array, n: number): number {
  if (starts.length < n + 1) starts = new Int32Array(2 * n + 2);
  if (ranks.length < n + 1) ranks = new Int32Array(2 * n + 2);
  const s = starts;
  const r = ranks;
  for (let i = 0; i <= n; i++) s[i] = i;
  for (let i = 0; i < n - 1; i++) r[i] = pairRank(table, buf, n, i, i + 2);
  r[n - 1] = NONE;
  let parts = n;
  for (;;) {
    let best = NONE;
    let at = -1;
    for (let i = 0; i < parts - 1; i++) {
      if (r[i] < best) {
        best = r[i];
        at = i;
      }
    }
    if (at < 0) break;
    // Part at+1 joins part at.
    s.copyWithin(at + 1, at + 2, parts + 1);
    r.copyWithin(at + 1, at + 2, parts);
    parts--;
    r[at] = at + 2 <= parts ? pairRank(table, buf, n, s[at], s[at + 2]) : NONE;
    if (at > 0) r[at - 1] = pairRank(table, buf, n, s[at - 1], s[at + 1]);
  }
  return parts;
}

/**
 * The same merges, for long pieces: parts in a linked list (a part is named by its first byte),
 * candidates in a binary min-heap keyed by rank then position, stale entries skipped on pop.
 */
function mergeHeap(table: RankTable, buf: Uint8Array, n: number): number {
  if (next.length < n + 1) {
    next = new Int32Array(2 * n + 2);
    prev = new Int32Array(2 * n + 2);
  }
  if (ranks.length < n + 1) ranks = new Int32Array(2 * n + 2);
  // At most n - 1 first candidates and two more per merge are ever pushed.
  if (heap.length < 3 * n) heap = new Float64Array(6 * n);
  const nx = next;
  const pv = prev;
  const r = ranks;
  const h = heap;
  const POS = 2 ** 32;
  let size = 0;
  const push = (key: number) => {
    let i = size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (h[parent] <= key) break;
      h[i] = h[parent];
      i = parent;
    }
    h[i] = key;
  };
  const pop = (): number => {
    const top = h[0];
    const last = h[--size];
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && h[child + 1] < h[child]) child++;
      if (h[child] >= last) break;
      h[i] = h[child];
      i = child;
    }
    h[i] = last;
    return top;
  };

  for (let i = 0; i <= n; i++) {
    nx[i] = i + 1;
    pv[i] = i - 1;
  }
  for (let i = 0; i < n - 1; i++) {
    r[i] = pairRank(table, buf, n, i, i + 2);
    if (r[i] !== NONE) push(r[i] * POS + i);
  }
  r[n - 1] = NONE;
  let parts = n;
  while (size > 0) {
    const key = pop();
    const rank = Math.floor(key / POS);
    const at = key - rank * POS;
    // A part's candidate only ever grows, so an entry is current iff its rank still matches.
    if (r[at] !== rank) continue;
    const gone = nx[at];
    nx[at] = nx[gone];
    pv[nx[gone]] = at;
    r[gone] = NONE;
    parts--;
    const after = nx[at];
    r[at] = after < n ? pairRank(table, buf, n, at, nx[after]) : NONE;
    if (r[at] !== NONE) push(r[at] * POS + at);
    const before = pv[at];
    if (before >= 0) {
      r[before] = pairRank(table, buf, n, before, after);
      if (r[before] !== NONE) push(r[before] * POS + before);
    }
  }
  return parts;
}

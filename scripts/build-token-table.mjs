// Builds data/o200k_base.bin, the o200k_base rank table that src/core/bpe/ reads at run time.
// Run by `npm run build` (and so by `npm ci`, through `prepare`). Plain Node, no dependencies but
// gpt-tokenizer (a devDependency), whose rank list is the source of the data and the oracle the
// tests compare against.
//
// Layout (all integers unsigned 32-bit little-endian; see src/core/bpe/rank-table.ts):
//   header   8 words: magic "O2KB", format version, rank count, slot bits, entries, blob bytes, 0, 0
//   pairs    65536 words: for every two-byte string (first byte * 256 + second), 0 if it is no key,
//            else rank + 1 (half of all lookups while merging are two-byte strings)
//   slots    2^slotBits words: 0 = empty, else (fingerprint << 18) | (rank + 1), open addressing
//            with linear probing on hash(token bytes)
//   offsets  rankCount + 1 words: token bytes of rank r are blob[offsets[r], offsets[r + 1])
//   blob     the token bytes, in rank order
//
// Which byte strings are keys mirrors how gpt-tokenizer 4.0.0 looks ranks up, so counts match it
// exactly: a token listed as text is found by its UTF-8 bytes; a token listed as a byte array is
// found only if those bytes are not valid UTF-8 (valid ones are looked up as text, where such a
// token is absent, so they are never found). The run-time reader adds the one other rule (a
// leading U+FEFF is dropped from a valid UTF-8 key before the lookup).

import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'data', 'o200k_base.bin');

const MAGIC = [0x4f, 0x32, 0x4b, 0x42]; // "O2KB"
const FORMAT_VERSION = 1;
const HEADER_WORDS = 8;
const PAIR_WORDS = 65536;
const RANK_BITS = 18;
const FINGERPRINT_MASK = 0x3fff;

/** FNV-1a over the bytes, then the murmur3 finaliser; the reader computes the same. */
function hashBytes(bytes, start, end) {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Strict UTF-8 validity: no overlong forms, no surrogates, nothing above U+10FFFF. */
function isValidUtf8(bytes) {
  try {
    new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function hasLoneSurrogate(text) {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
      else return true;
    } else if (c >= 0xdc00 && c <= 0xdfff) return true;
  }
  return false;
}

async function buildTable() {
  let ranks;
  try {
    ({ default: ranks } = await import('gpt-tokenizer/bpeRanks/o200k_base'));
  } catch (error) {
    throw new Error(`data/o200k_base.bin is built from gpt-tokenizer (a devDependency), which did not load: ${error.message}`);
  }
  const rankCount = ranks.length;
  if (rankCount >= 1 << RANK_BITS) throw new Error(`o200k_base: ${rankCount} ranks do not fit in ${RANK_BITS} bits`);

  const tokens = new Array(rankCount);
  const keyed = new Array(rankCount).fill(false);
  let blobBytes = 0;
  for (let rank = 0; rank < rankCount; rank++) {
    const value = ranks[rank];
    if (typeof value === 'string') {
      if (hasLoneSurrogate(value)) throw new Error(`o200k_base: rank ${rank} is text with a lone surrogate; the table cannot key it`);
      tokens[rank] = new TextEncoder().encode(value);
      keyed[rank] = true;
    } else if (Array.isArray(value)) {
      tokens[rank] = Uint8Array.from(value);
      keyed[rank] = !isValidUtf8(tokens[rank]);
    } else {
      throw new Error(`o200k_base: rank ${rank} is missing`);
    }
    blobBytes += tokens[rank].length;
  }

  let entries = 0;
  for (const k of keyed) if (k) entries++;
  let slotBits = 1;
  while (1 << slotBits < entries * 2.5) slotBits++; // load factor at most 0.4
  const slotCount = 1 << slotBits;
  const shift = 32 - slotBits;
  const mask = slotCount - 1;

  const byteLength = 4 * (HEADER_WORDS + PAIR_WORDS + slotCount + rankCount + 1) + blobBytes;
  const out = new Uint8Array(byteLength);
  const view = new DataView(out.buffer);
  out.set(MAGIC, 0);
  const header = [FORMAT_VERSION, rankCount, slotBits, entries, blobBytes, 0, 0];
  header.forEach((word, i) => view.setUint32(4 * (i + 1), word, true));

  const pairsAt = 4 * HEADER_WORDS;
  const slotsAt = pairsAt + 4 * PAIR_WORDS;
  const offsetsAt = slotsAt + 4 * slotCount;
  const blobAt = offsetsAt + 4 * (rankCount + 1);
  const slots = new Uint32Array(slotCount);
  const seen = new Map();
  let offset = 0;
  for (let rank = 0; rank < rankCount; rank++) {
    const bytes = tokens[rank];
    view.setUint32(offsetsAt + 4 * rank, offset, true);
    out.set(bytes, blobAt + offset);
    offset += bytes.length;
    if (!keyed[rank]) continue;
    const key = Buffer.from(bytes).toString('latin1');
    if (seen.has(key)) throw new Error(`o200k_base: ranks ${seen.get(key)} and ${rank} have the same bytes`);
    seen.set(key, rank);
    if (bytes.length === 2) view.setUint32(pairsAt + 4 * (bytes[0] * 256 + bytes[1]), rank + 1, true);
    const h = hashBytes(bytes, 0, bytes.length);
    let slot = h >>> shift;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = (((h & FINGERPRINT_MASK) << RANK_BITS) | (rank + 1)) >>> 0;
  }
  view.setUint32(offsetsAt + 4 * rankCount, offset, true);
  for (let i = 0; i < slotCount; i++) view.setUint32(slotsAt + 4 * i, slots[i], true);
  return { bytes: out, rankCount, entries, slotBits };
}

const started = performance.now();
const table = await buildTable();
mkdirSync(dirname(OUT), { recursive: true });
// Written beside the target and renamed, so a process reading the table never sees half a file.
const partial = `${OUT}.${process.pid}.tmp`;
writeFileSync(partial, table.bytes);
renameSync(partial, OUT);
const ms = Math.round(performance.now() - started);
console.log(
  `data/o200k_base.bin: ${table.rankCount} ranks, ${table.entries} keys in 2^${table.slotBits} slots, ${table.bytes.length} bytes (${ms} ms)`,
);

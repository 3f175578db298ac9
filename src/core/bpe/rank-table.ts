// Reader of the binary rank table written by scripts/build-token-table.mjs (layout described
// there). The file is read once into memory and used in place: typed-array views over the one
// buffer, no per-token objects, so loading costs a file read.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fnv1aBytes } from '../fnv.js';

const MAGIC = [0x4f, 0x32, 0x4b, 0x42]; // "O2KB"
const FORMAT_VERSION = 1;
const HEADER_WORDS = 8;
const PAIR_WORDS = 65536;
const RANK_BITS = 18;
const RANK_MASK = (1 << RANK_BITS) - 1;
const FINGERPRINT_MASK = 0x3fff;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Maps a token's bytes to its rank; absent byte strings have rank -1. */
export class RankTable {
  readonly rankCount: number;
  private readonly pairs: Uint32Array;
  private readonly slots: Uint32Array;
  private readonly offsets: Uint32Array;
  private readonly blob: Uint8Array;
  private readonly shift: number;
  private readonly mask: number;

  constructor(file: Uint8Array, source = 'rank table') {
    const bad = (why: string) => new Error(`${source}: not a usable o200k_base rank table (${why}); \`npm run build\` recreates it`);
    if (file.length < 4 * HEADER_WORDS || MAGIC.some((b, i) => file[i] !== b)) throw bad('wrong magic');
    const header = new DataView(file.buffer, file.byteOffset, 4 * HEADER_WORDS);
    const word = (i: number) => header.getUint32(4 * i, true);
    if (word(1) !== FORMAT_VERSION) throw bad(`format version ${word(1)}, expected ${FORMAT_VERSION}`);
    const rankCount = word(2);
    const slotBits = word(3);
    const blobBytes = word(5);
    const slotCount = 2 ** slotBits;
    const words = HEADER_WORDS + PAIR_WORDS + slotCount + rankCount + 1;
    if (slotBits < 1 || slotBits > 30 || file.length !== 4 * words + blobBytes) throw bad('wrong size');

    // Zero-copy views need a 4-byte-aligned little-endian buffer; otherwise the words are copied.
    let wordView: Uint32Array;
    if (LITTLE_ENDIAN && file.byteOffset % 4 === 0) {
      wordView = new Uint32Array(file.buffer, file.byteOffset, words);
    } else {
      const dv = new DataView(file.buffer, file.byteOffset, 4 * words);
      wordView = new Uint32Array(words);
      for (let i = 0; i < words; i++) wordView[i] = dv.getUint32(4 * i, true);
    }
    this.rankCount = rankCount;
    const slotsAt = HEADER_WORDS + PAIR_WORDS;
    this.pairs = wordView.subarray(HEADER_WORDS, slotsAt);
    this.slots = wordView.subarray(slotsAt, slotsAt + slotCount);
    this.offsets = wordView.subarray(slotsAt + slotCount, words);
    this.blob = new Uint8Array(file.buffer, file.byteOffset + 4 * words, blobBytes);
    this.shift = 32 - slotBits;
    this.mask = slotCount - 1;
    if (this.offsets[rankCount] !== blobBytes) throw bad('offsets do not end at the blob end');
  }

  static fromFile(path: URL | string): RankTable {
    const where = path instanceof URL ? fileURLToPath(path) : path;
    let file: Buffer;
    try {
      file = readFileSync(where);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new Error(`o200k_base token table missing: ${where} does not exist; \`npm run build\` creates it`);
      }
      throw error;
    }
    return new RankTable(file, where);
  }

  /** The rank of bytes[start, end), or -1. */
  rank(bytes: Uint8Array, start: number, end: number): number {
    const length = end - start;
    if (length === 2) return this.pairs[(bytes[start] << 8) | bytes[start + 1]] - 1;
    if (length <= 0) return -1;
    let h = fnv1aBytes(bytes, start, end);
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    const fingerprint = h & FINGERPRINT_MASK;
    const slots = this.slots;
    const mask = this.mask;
    let slot = h >>> this.shift;
    for (;;) {
      const entry = slots[slot];
      if (entry === 0) return -1;
      if (entry >>> RANK_BITS === fingerprint) {
        const rank = (entry & RANK_MASK) - 1;
        const at = this.offsets[rank];
        if (this.offsets[rank + 1] - at === length && this.sameBytes(at, bytes, start, length)) return rank;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** The bytes of a rank (a view into the table). */
  tokenBytes(rank: number): Uint8Array {
    return this.blob.subarray(this.offsets[rank], this.offsets[rank + 1]);
  }

  private sameBytes(at: number, bytes: Uint8Array, start: number, length: number): boolean {
    const blob = this.blob;
    for (let i = 0; i < length; i++) if (blob[at + i] !== bytes[start + i]) return false;
    return true;
  }
}

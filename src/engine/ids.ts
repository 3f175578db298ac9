// Deterministic ids: a prefix hashed once from the session seed, then the session counter in
// base 36, so ids are unique in the session, the same on every run, and cheap to make.

import { fnv1a, FNV_OFFSET_BASIS } from '../core/fnv.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const PREFIX_LENGTH = 14;
const COUNTER_LENGTH = 10;

/** The seed's fixed part of every id: 14 base-62 characters. */
export function idPrefix(seed: string): string {
  let out = '';
  let salt = 0;
  while (out.length < PREFIX_LENGTH) {
    let h = fnv1a(seed, FNV_OFFSET_BASIS ^ salt++);
    for (let i = 0; i < 5 && out.length < PREFIX_LENGTH; i++) {
      out += ALPHABET[h % 62];
      h = Math.floor(h / 62);
    }
  }
  return out;
}

/** 24 characters: the seed prefix, then the counter in base 36, zero-padded. */
export function deterministicId(prefix: string, counter: number): string {
  return prefix + counter.toString(36).padStart(COUNTER_LENGTH, '0');
}

/**
 * The same string, flattened. An id made by concatenation is a V8 "cons" string (a pair of
 * pointers); every character read and regular-expression test of it then goes through a slower
 * path, and node:http's header-value check flattens it anyway. Reading one character makes V8
 * flatten it once, here, so the template's id check and node's header check run on flat text.
 */
export function flattened(text: string): string {
  text.charCodeAt(0);
  return text;
}

/** Base-36 pairs "00" … "zz": the last two counter digits. */
const PAIRS = Array.from({ length: 36 * 36 }, (_, i) => i.toString(36).padStart(2, '0'));

/**
 * deterministicId(prefix, n) for one prefix, made cheaply: the head (prefix and every counter digit
 * but the last two) is built once per 1,296 ids and the last two digits come from a table.
 */
export class IdSequence {
  private block = -1;
  private head = '';

  constructor(private readonly prefix: string) {}

  id(counter: number): string {
    const block = Math.floor(counter / PAIRS.length);
    if (block !== this.block) {
      this.block = block;
      this.head = this.prefix + block.toString(36).padStart(COUNTER_LENGTH - 2, '0');
    }
    return this.head + (PAIRS[counter % PAIRS.length] as string);
  }
}

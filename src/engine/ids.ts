// Deterministic ids: a prefix hashed once from the session seed, then the session counter in
// base 36, so ids are unique in the session, the same on every run, and cheap to make.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const PREFIX_LENGTH = 14;
const COUNTER_LENGTH = 10;

function fnv1a(text: string, salt: number): number {
  let hash = 0x811c9dc5 ^ salt;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The seed's fixed part of every id: 14 base-62 characters. */
export function idPrefix(seed: string): string {
  let out = '';
  let salt = 0;
  while (out.length < PREFIX_LENGTH) {
    let h = fnv1a(seed, salt++);
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

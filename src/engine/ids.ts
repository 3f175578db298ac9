// Deterministic ids: a per-session seed and counter, hashed to provider-looking characters.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function fnv1a(text: string, salt: number): number {
  let hash = 0x811c9dc5 ^ salt;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function deterministicId(seed: string, counter: number, length = 24): string {
  const key = `${seed}:${counter}`;
  let out = '';
  let salt = 0;
  while (out.length < length) {
    let h = fnv1a(key, salt++);
    for (let i = 0; i < 5 && out.length < length; i++) {
      out += ALPHABET[h % 62];
      h = Math.floor(h / 62);
    }
  }
  return out;
}

// FNV-1a, 32 bits: the one small non-cryptographic hash the project uses where a stable number is
// needed from text (id prefixes, jitter seeds, opaque signatures, the token table's slots). Its
// results are visible (ids, signatures, timings), so the constants and the order of operations
// here must not change.

/** The FNV-1a 32-bit offset basis. */
export const FNV_OFFSET_BASIS = 0x811c9dc5;
/** The FNV 32-bit prime. */
export const FNV_PRIME = 0x01000193;

/** FNV-1a over the UTF-16 code units of `text`, as an unsigned 32-bit number; `basis` replaces the
 * offset basis (a salted basis gives a family of hashes). */
export function fnv1a(text: string, basis: number = FNV_OFFSET_BASIS): number {
  let hash = basis;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
  return hash >>> 0;
}

/** FNV-1a over bytes[start, end), as an unsigned 32-bit number. */
export function fnv1aBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = FNV_OFFSET_BASIS;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i], FNV_PRIME);
  return hash >>> 0;
}

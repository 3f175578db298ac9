// Pre-tokenisation for o200k_base: the text is cut into pieces by the encoding's split pattern,
// and byte-pair merging then works inside each piece.
//
// The pattern needs Unicode property classes, and V8 compiles such a regular expression on first
// use (a few ms, then again when it tiers up to native code). Most text sent to a test double is
// ASCII, so a piece is first cut by a hand-written scanner that applies the same pattern to ASCII
// characters; the scanner gives up (and the regular expression cuts that piece) as soon as the
// answer would depend on the class of a non-ASCII character.

// Branches in the pattern's order: letters-with-case runs (optionally after one non-letter
// character, with an optional English contraction suffix), digits in groups of up to three,
// punctuation runs, line breaks with the whitespace before them, other whitespace.
const CONTRACTION = String.raw`(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?`;
export const O200K_SPLIT_SOURCE = [
  String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+${CONTRACTION}`,
  String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*${CONTRACTION}`,
  String.raw`\p{N}{1,3}`,
  String.raw` ?[^\s\p{L}\p{N}]+[\r\n/]*`,
  String.raw`\s*[\r\n]+`,
  String.raw`\s+(?!\S)`,
  String.raw`\s+`,
].join('|');
// Made on first use: even constructing one costs over a millisecond.
/** Sticky: matches only at lastIndex, and test() allocates nothing. */
let splitAt: RegExp | undefined;
/** Global: where no piece starts at a position, the next one (a global match skips such text). */
let splitNext: RegExp | undefined;

// Character kinds as the pattern sees them. END: past the text; WIDE: not ASCII.
const END = 0;
const UPPER = 1; // \p{Lu}
const LOWER = 2; // \p{Ll}
const DIGIT = 3; // \p{N}
const SPACE = 4; // \s other than \r and \n: \t \v \f and space
const NEWLINE = 5; // \r \n
const OTHER = 6; // none of the above: punctuation, symbols, other control characters
const WIDE = 7;

const ASCII_KIND = new Uint8Array(128).fill(OTHER);
for (let c = 0x41; c <= 0x5a; c++) ASCII_KIND[c] = UPPER;
for (let c = 0x61; c <= 0x7a; c++) ASCII_KIND[c] = LOWER;
for (let c = 0x30; c <= 0x39; c++) ASCII_KIND[c] = DIGIT;
for (const c of [0x09, 0x0b, 0x0c, 0x20]) ASCII_KIND[c] = SPACE;
for (const c of [0x0a, 0x0d]) ASCII_KIND[c] = NEWLINE;

function kindAt(text: string, i: number): number {
  if (i >= text.length) return END;
  const c = text.charCodeAt(i);
  return c < 0x80 ? ASCII_KIND[c] : WIDE;
}

/** After a letter run ending at i: the end of an optional contraction suffix ('s 'd 'm 't 'll 've 're). */
function contractionEnd(text: string, i: number): number {
  if (text.charCodeAt(i) !== 0x27) return i;
  const a = text.charCodeAt(i + 1) | 0x20; // lower-cases ASCII letters; compared with letters only
  if (a === 0x73 || a === 0x64 || a === 0x6d || a === 0x74) return i + 2; // s d m t
  const b = text.charCodeAt(i + 2) | 0x20;
  if ((a === 0x6c && b === 0x6c) || ((a === 0x76 || a === 0x72) && b === 0x65)) return i + 3; // ll ve re
  return i;
}

/**
 * End of the piece starting at `at` by the pattern's rules on ASCII, or 0 when that depends on a
 * non-ASCII character. Every class test below is exact for ASCII; a WIDE character met where its
 * class would matter ends the attempt.
 */
function asciiPieceEnd(text: string, at: number): number {
  const first = kindAt(text, at);
  if (first === WIDE) return 0;
  // Branches 1 and 2: [prefix]? upper* lower* (at least one letter), then a contraction.
  let i = first === SPACE || first === OTHER ? at + 1 : at;
  let k = i === at ? first : kindAt(text, i);
  if (k === WIDE) return 0;
  if (k === UPPER || k === LOWER) {
    while (k === UPPER) k = kindAt(text, ++i);
    while (k === LOWER) k = kindAt(text, ++i);
    if (k === WIDE) return 0;
    return contractionEnd(text, i);
  }
  // Branch 3: one to three digits.
  if (first === DIGIT) {
    i = at + 1;
    for (k = kindAt(text, i); i < at + 3 && k === DIGIT; k = kindAt(text, ++i));
    return i < at + 3 && k === WIDE ? 0 : i;
  }
  // Branch 4: an optional space, punctuation, then any \r \n / (k is the kind after a prefix).
  if (first === OTHER || (k === OTHER && text.charCodeAt(at) === 0x20)) {
    i = first === OTHER ? at : at + 1;
    do k = kindAt(text, ++i);
    while (k === OTHER);
    if (k === WIDE) return 0;
    for (let c = text.charCodeAt(i); c === 0x0a || c === 0x0d || c === 0x2f; c = text.charCodeAt(++i));
    return i;
  }
  // Branches 5 to 7: a whitespace run.
  let end = at;
  let lastNewline = -1;
  for (k = first; k === SPACE || k === NEWLINE; k = kindAt(text, ++end)) if (k === NEWLINE) lastNewline = end;
  if (k === WIDE) return 0;
  if (lastNewline >= 0) return lastNewline + 1; // \s*[\r\n]+
  if (k === END || end - at === 1) return end; // \s+(?!\S), or else \s+
  return end - 1; // \s+(?!\S), leaving the last space to the piece after it
}

/** End of the piece starting at `at`, or -1 when no piece starts there. */
export function pieceEnd(text: string, at: number): number {
  const end = asciiPieceEnd(text, at);
  if (end > 0) return end;
  splitAt ??= new RegExp(O200K_SPLIT_SOURCE, 'uy');
  splitAt.lastIndex = at;
  return splitAt.test(text) ? splitAt.lastIndex : -1;
}

/** Start of the next piece after a position where none starts, or -1. */
export function nextPieceStart(text: string, at: number): number {
  splitNext ??= new RegExp(O200K_SPLIT_SOURCE, 'gu');
  splitNext.lastIndex = at;
  const found = splitNext.exec(text);
  return found ? found.index : -1;
}

/** The pieces of text, in order (for tests; counting walks the pieces without making strings). */
export function splitO200k(text: string): string[] {
  const pieces: string[] = [];
  let at = 0;
  while (at < text.length) {
    const end = pieceEnd(text, at);
    if (end < 0) {
      at = nextPieceStart(text, at);
      if (at < 0) break;
      continue;
    }
    pieces.push(text.slice(at, end));
    at = end;
  }
  return pieces;
}

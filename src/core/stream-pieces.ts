// How long text is cut into stream events, with the number of events per stream bounded: word-sized
// pieces of a reply's text, fixed-size fragments of a tool call's arguments. Up to the bound the
// pieces are the same as they always were; past it they grow, so a very long reply streams in at
// most STREAM_PIECES events instead of millions (docs/fixtures.md, "Limits").

/** Most pieces one text or one tool call's arguments is cut into by default. */
export const STREAM_PIECES = 100_000;

/** A reply this heavy (characters of text, reasoning and tool arguments, plus EVENT_WEIGHT per
 * scripted chunk) is `large`: its stream is written incrementally, not as one string. */
export const LARGE_REPLY_WEIGHT = 256 * 1024;
/** About what one stream event adds to the wire besides its text (ids, model, JSON keys, framing). */
export const EVENT_WEIGHT = 256;

const WORDS = /\s*\S+\s*|\s+/g;

/** Word-sized pieces that keep their whitespace; past `most` characters, runs of whole words
 * (at most `most` pieces). */
export function wordPieces(text: string, most = STREAM_PIECES): string[] {
  // A piece holds at least one character: text this short cannot have more pieces than the bound.
  if (text.length <= most) return text.match(WORDS) ?? [];
  const target = Math.ceil(text.length / most);
  const pieces: string[] = [];
  let from = 0;
  while (from < text.length) {
    // Cut at the first word start at or after `from + target`: each piece ends with a word's
    // trailing whitespace, as the word-sized pieces do, and no cut falls inside a word.
    let at = from + target;
    while (at < text.length && !(isSpace(text.charCodeAt(at - 1)) && !isSpace(text.charCodeAt(at)))) at++;
    pieces.push(text.slice(from, at));
    from = at;
  }
  return pieces;
}

/** Fragments of `fragment` characters, longer past STREAM_PIECES of them. */
export function fixedPieces(text: string, fragment: number, most = STREAM_PIECES): string[] {
  if (text.length <= fragment) return [text];
  const size = Math.max(fragment, Math.ceil(text.length / most));
  const parts: string[] = [];
  for (let at = 0; at < text.length; at += size) parts.push(text.slice(at, at + size));
  return parts;
}

/** The characters `\s` matches in a regular expression. */
function isSpace(c: number): boolean {
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

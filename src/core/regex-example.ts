// A short string that a JSON Schema `pattern` accepts, for zero-config answers. Reads the common
// part of the regular-expression syntax (literals, escapes, classes, groups, alternation,
// quantifiers) and spells the shortest string it describes; what it cannot read (lookarounds,
// back-references, Unicode properties) gives undefined. Callers still test the result with the
// real RegExp: this only proposes.

/** Characters tried, in order, where any of several would do. */
const PREFERRED = 'aA0_- .@b1zZ9';

interface Cursor {
  src: string;
  at: number;
}

class Unreadable extends Error {}

/** The shortest string `pattern` describes, or undefined when the syntax is beyond this reader. */
export function regexExample(pattern: string): string | undefined {
  const cursor: Cursor = { src: pattern, at: 0 };
  try {
    const out = alternation(cursor);
    if (cursor.at !== pattern.length) return undefined;
    return out;
  } catch (e) {
    if (e instanceof Unreadable) return undefined;
    throw e;
  }
}

function alternation(c: Cursor): string {
  let best = sequence(c);
  while (c.src[c.at] === '|') {
    c.at++;
    const other = sequence(c);
    if (other.length < best.length) best = other;
  }
  return best;
}

function sequence(c: Cursor): string {
  let out = '';
  while (c.at < c.src.length && c.src[c.at] !== '|' && c.src[c.at] !== ')') {
    const piece = atom(c);
    out += piece.repeat(quantifier(c));
  }
  return out;
}

/** The least number of repetitions the quantifier after an atom asks for (1 without one). */
function quantifier(c: Cursor): number {
  const ch = c.src[c.at];
  let min = 1;
  if (ch === '*' || ch === '?') {
    min = 0;
    c.at++;
  } else if (ch === '+') {
    c.at++;
  } else if (ch === '{') {
    const m = /^\{(\d+)(,\d*)?\}/.exec(c.src.slice(c.at));
    if (!m) return 1; // a literal brace
    min = Number(m[1]);
    if (min > 10_000) throw new Unreadable();
    c.at += m[0].length;
  } else {
    return 1;
  }
  if (c.src[c.at] === '?') c.at++; // lazy
  return min;
}

function atom(c: Cursor): string {
  const ch = c.src[c.at++];
  switch (ch) {
    case '^':
    case '$':
      return '';
    case '.':
      return 'a';
    case '(':
      return group(c);
    case '[':
      return charClass(c);
    case '\\':
      return escape(c, false);
    case '*':
    case '+':
    case '?':
      throw new Unreadable();
    default:
      return ch;
  }
}

function group(c: Cursor): string {
  if (c.src[c.at] === '?') {
    const rest = c.src.slice(c.at);
    if (rest.startsWith('?:')) c.at += 2;
    else if (/^\?<[A-Za-z_$][\w$]*>/.test(rest)) c.at = c.src.indexOf('>', c.at) + 1;
    else throw new Unreadable(); // lookaround
  }
  const out = alternation(c);
  if (c.src[c.at] !== ')') throw new Unreadable();
  c.at++;
  return out;
}

/** An escape outside a class gives its text; inside a class, `inClass` turns \b into backspace. */
function escape(c: Cursor, inClass: boolean): string {
  const ch = c.src[c.at++];
  if (ch === undefined) throw new Unreadable();
  switch (ch) {
    case 'd':
      return '0';
    case 'w':
      return 'a';
    case 's':
      return ' ';
    case 'D':
    case 'S':
      return 'a';
    case 'W':
      return '-';
    case 'b':
      if (inClass) return '\b';
      return '';
    case 'n':
      return '\n';
    case 't':
      return '\t';
    case 'r':
      return '\r';
    case 'f':
      return '\f';
    case 'v':
      return '\v';
    case '0':
      return '\0';
    case 'x': {
      const hex = /^[0-9a-fA-F]{2}/.exec(c.src.slice(c.at));
      if (!hex) throw new Unreadable();
      c.at += 2;
      return String.fromCharCode(parseInt(hex[0], 16));
    }
    case 'u': {
      const rest = c.src.slice(c.at);
      const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(rest);
      const plain = /^[0-9a-fA-F]{4}/.exec(rest);
      const m = braced ?? plain;
      if (!m) throw new Unreadable();
      c.at += m[0].length;
      return String.fromCodePoint(parseInt(braced ? braced[1] : m[0], 16));
    }
    default:
      // \B, back-references, \p{…}, \c…: beyond this reader.
      if (/[A-Za-z0-9]/.test(ch)) throw new Unreadable();
      return ch;
  }
}

/** A bracket class: the first preferred character it admits, else the first it names. */
function charClass(c: Cursor): string {
  let negated = false;
  if (c.src[c.at] === '^') {
    negated = true;
    c.at++;
  }
  const ranges: [number, number][] = [];
  const wide: string[] = []; // \d, \w … inside the class: their stand-in character
  let first = true;
  while (c.at < c.src.length && (c.src[c.at] !== ']' || first)) {
    first = false;
    let lo: string;
    if (c.src[c.at] === '\\') {
      c.at++;
      const kind = c.src[c.at];
      if (kind !== undefined && 'dwsDWS'.includes(kind)) {
        wide.push(kind);
        c.at++;
        continue;
      }
      lo = escape(c, true);
    } else {
      lo = c.src[c.at++];
    }
    let hi = lo;
    if (c.src[c.at] === '-' && c.src[c.at + 1] !== undefined && c.src[c.at + 1] !== ']') {
      c.at++;
      if (c.src[c.at] === '\\') {
        c.at++;
        hi = escape(c, true);
      } else {
        hi = c.src[c.at++];
      }
    }
    ranges.push([lo.codePointAt(0) ?? 0, hi.codePointAt(0) ?? 0]);
  }
  if (c.src[c.at] !== ']') throw new Unreadable();
  c.at++;
  const admits = (ch: string): boolean => {
    const code = ch.codePointAt(0) ?? 0;
    let inside = ranges.some(([lo, hi]) => code >= lo && code <= hi);
    if (!inside) inside = wide.some((kind) => classAdmits(kind, ch));
    return inside !== negated;
  };
  for (const ch of PREFERRED) if (admits(ch)) return ch;
  if (!negated) {
    if (ranges.length > 0) return String.fromCodePoint(ranges[0][0]);
    if (wide.length > 0) return escapeStandIn(wide[0]);
  }
  for (let code = 0x21; code < 0x7f; code++) if (admits(String.fromCharCode(code))) return String.fromCharCode(code);
  throw new Unreadable();
}

function classAdmits(kind: string, ch: string): boolean {
  switch (kind) {
    case 'd':
      return /\d/.test(ch);
    case 'w':
      return /\w/.test(ch);
    case 's':
      return /\s/.test(ch);
    case 'D':
      return /\D/.test(ch);
    case 'W':
      return /\W/.test(ch);
    default:
      return /\S/.test(ch);
  }
}

function escapeStandIn(kind: string): string {
  return kind === 'd' ? '0' : kind === 's' ? ' ' : kind === 'W' ? '-' : 'a';
}

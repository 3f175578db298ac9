// A large body's shape is read before it is parsed: how deep it nests and how many values it
// holds. JSON.parse and a dialect's decode each run in one turn of the event loop, and their cost
// grows with the number of values (object members above all), not with the body's length, so a
// body of very many small values is refused before either runs (decision 0007).

import type { ServerResponse } from 'node:http';
import { invalidRequest, type NeutralError } from '../core/errors.js';
import { MAX_JSON_DEPTH } from './body.js';

/** Most object members and array elements a request body may hold, in all. */
export const MAX_REQUEST_VALUES = 200_000;
/** Most members one object may have: V8 keeps an object of many keys as a dictionary, the costliest
 * shape to parse. */
export const MAX_OBJECT_MEMBERS = 10_000;

/** Characters scanned before the loop gets a turn (a long string is skipped whole, quickly). */
const SLICE_CHARS = 256 * 1024;

export type JsonShape = 'ok' | 'too_deep' | 'too_many_values' | 'too_many_members';

const OBJECT = 1;
const ARRAY = 2;

/** Reads a text's nesting and value count resumably, a slice at a time. It does not validate:
 * JSON.parse does, afterwards, when the shape is within bounds. */
export class JsonShapeScan {
  private index = 0;
  private depth = 0;
  private values = 0;
  /** Per depth: 0 where a value may begin, 1 once one began, 2 after a member's colon. */
  private readonly filled = new Uint8Array(MAX_JSON_DEPTH + 2);
  /** Per depth: object or array, and the members counted so far of an object. */
  private readonly kinds = new Uint8Array(MAX_JSON_DEPTH + 2);
  private readonly members = new Uint32Array(MAX_JSON_DEPTH + 2);
  verdict: JsonShape | undefined;

  constructor(
    private readonly text: string,
    private readonly maxValues = MAX_REQUEST_VALUES,
    private readonly maxDepth = MAX_JSON_DEPTH,
    private readonly maxMembers = MAX_OBJECT_MEMBERS,
  ) {}

  /** Scans up to `chars` further characters; true once the verdict is known. */
  advance(chars: number): boolean {
    const text = this.text;
    const end = Math.min(text.length, this.index + chars);
    let i = this.index;
    while (i < end) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i = closingQuote(text, i);
        if (i < 0) return this.finish('ok');
        this.markValue();
      } else if (c === 0x7b || c === 0x5b) {
        this.markValue();
        if (++this.depth > this.maxDepth) return this.finish('too_deep');
        this.filled[this.depth] = 0;
        this.kinds[this.depth] = c === 0x7b ? OBJECT : ARRAY;
        this.members[this.depth] = 0;
      } else if (c === 0x7d || c === 0x5d) {
        if (this.depth > 0) this.depth--;
      } else if (c === 0x2c) {
        // The next value of an array, or the next member of an object, begins.
        this.filled[this.depth] = 0;
      } else if (c === 0x3a) {
        // A member's value follows its key: the key already counted the member.
        this.filled[this.depth] = 2;
      } else if (c > 0x20) {
        this.markValue();
      }
      if (this.values > this.maxValues) return this.finish('too_many_values');
      if (this.members[this.depth] > this.maxMembers) return this.finish('too_many_members');
      i++;
    }
    this.index = i;
    return i >= text.length ? this.finish('ok') : false;
  }

  /** Counts one value where one begins: an array element, or an object member at its key. */
  private markValue(): void {
    const depth = this.depth;
    if (depth === 0 || this.filled[depth] !== 0) return;
    this.filled[depth] = 1;
    this.values++;
    if (this.kinds[depth] === OBJECT) this.members[depth]++;
  }

  private finish(verdict: JsonShape): true {
    this.verdict = verdict;
    return true;
  }
}

/** Index of the quote closing the string that opens at `open`: the next quote not escaped by an
 * odd run of backslashes (indexOf is far quicker than a loop over a long string's characters). */
function closingQuote(text: string, open: number): number {
  let from = open;
  for (;;) {
    const quote = text.indexOf('"', from + 1);
    if (quote < 0) return -1;
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return quote;
    from = quote;
  }
}

/** The shape of a large body, read in slices with turns of the event loop between them; undefined
 * when the client went away first. */
export function scanShapeInSlices(text: string, res: ServerResponse): Promise<JsonShape | undefined> {
  const scan = new JsonShapeScan(text);
  return new Promise((resolve) => {
    const step = () => {
      if (res.destroyed) {
        resolve(undefined);
        return;
      }
      if (scan.advance(SLICE_CHARS)) resolve(scan.verdict);
      else setImmediate(step);
    };
    setImmediate(step);
  });
}

/** 200000 as "200,000". toLocaleString would do it, but its first call loads the locale data:
 * tens of milliseconds on the event loop, in the very turn that refuses a body for being costly. */
function withThousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** The invalid-request error for a body whose shape is out of bounds, in the neutral form every
 * dialect encodes as its own 400. */
export function shapeRefusal(shape: Exclude<JsonShape, 'ok'>): NeutralError {
  if (shape === 'too_deep') {
    return invalidRequest(
      `The JSON body of your request nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`,
      null,
      'json_too_deep',
    );
  }
  const what =
    shape === 'too_many_values'
      ? `holds more than ${withThousands(MAX_REQUEST_VALUES)} values (object members and array elements)`
      : `has an object of more than ${withThousands(MAX_OBJECT_MEMBERS)} members`;
  return invalidRequest(
    `The JSON body of your request ${what}. Understudy refuses such bodies so that one request cannot hold up other clients (docs/security.md).`,
    null,
    'request_too_complex',
  );
}

// Byte templates of whole answers (JSON bodies and unpaced streams). A scripted reply answers with
// the same bytes on every request except for its response id, which has a fixed length
// (engine/ids.ts). The template is rendered twice with two placeholder ids of that length; the
// bytes that differ are where the id goes, so each request costs one copy of the template and the
// id written into it — not one string per event, joined and encoded again.
//
// A template is built on the second sighting of its key, so one-off keys (a prompt seen once) never
// pay for two renders; a reply keeps at most MAX_KEYS templates.
//
// A small answer (at most SMALL_TEXT bytes) is instead handed out as a latin1
// string (one character per byte) joined from the template's pieces around the id: node:http
// then writes header and body as one string, and nothing is copied or recycled here.
//
// Bodies are recycled: the server says which response sends a body (`sentBy`), and once that
// response has handed every byte to the kernel the body is free again; the next request of the
// same template only rewrites the characters of the id that changed (consecutive ids share all but
// their last characters). A fresh buffer per answer would otherwise cost more in
// allocation and garbage collection than the copy itself. Lent bodies are checked oldest first when
// the template is next used, which costs less than a 'finish' listener on every response.

import type { Flushable } from '../dialects/dialect.js';

const MAX_KEYS = 8;
/** Templates up to this many bytes answer as latin1 text (see above). */
const SMALL_TEXT = 8 * 1024;
/** Spare bodies kept per template: enough for every connection a load test keeps busy at once. */
const MAX_SPARES = 64;
/** Bodies bigger than this get no template: the server writes large streams incrementally
 * instead, and a template's spare bodies (up to MAX_SPARES of them) would hold many copies. */
const MAX_TEMPLATE = 1024 * 1024;
/** Whether id[from..] is made only of ASCII letters, digits, `_` and `-`: written into JSON
 * unescaped and one byte per character. Only the characters about to be written are checked. */
function safeId(id: string, from: number): boolean {
  if (id.length === 0) return false;
  for (let i = from; i < id.length; i++) {
    const c = id.charCodeAt(i);
    const ok = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;
    if (!ok) return false;
  }
  return true;
}

interface Template {
  bytes: Buffer;
  /** For a small template: its bytes as latin1 strings between the ids (one more than the ids). */
  pieces: string[] | undefined;
  /** Byte offsets of every occurrence of the id. */
  idOffsets: number[];
  /** Bodies free to write. */
  spares: Spare[];
  /** Bodies out with a response, oldest first from `lentHead`. */
  lent: Spare[];
  lentHead: number;
}

export type TemplatedBody = TemplatedBytes | TemplatedText;

export interface TemplatedBytes {
  body: Buffer;
  encoding?: undefined;
  /** Call with the response that sends the body, once it has been given it; the body is reused
   * only after that response has flushed it. Not calling it just leaves the body to the collector. */
  sentBy: (by: Flushable) => void;
}

/** A small answer's bytes as a latin1 string: write it with that encoding; its length is its byte length. */
export interface TemplatedText {
  body: string;
  encoding: 'latin1';
  sentBy?: undefined;
}

/** A body buffer of a template, out for one response at a time, with its own `sentBy` made once
 * per buffer: a request allocates nothing here. */
interface Spare extends TemplatedBytes {
  buffer: Buffer;
  /** The id written in the buffer last ('' before the first). */
  id: string;
  /** The response sending it now. */
  by: Flushable | undefined;
}

type Slot = Template | 'seen' | 'unusable';

/** Everything a rendering depends on besides the reply's shape and the id, as plain values
 * (compared one by one: building and hashing a string key cost more than the lookup saves). */
export type TemplateKey = readonly (string | number | boolean | object)[];

interface Keyed {
  key: TemplateKey;
  idLength: number;
  slot: Slot;
}

/** Per reply shape, its keys, the one used last first. */
const templates = new WeakMap<object, Keyed[]>();

function sameKey(a: TemplateKey, b: TemplateKey): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function find(keyed: Keyed[], key: TemplateKey, idLength: number): Keyed | undefined {
  for (let i = 0; i < keyed.length; i++) {
    const entry = keyed[i] as Keyed;
    if (entry.idLength !== idLength || !sameKey(entry.key, key)) continue;
    if (i > 0) {
      keyed.copyWithin(1, 0, i);
      keyed[0] = entry;
    }
    return entry;
  }
  return undefined;
}

/**
 * The body `render(id)` would produce for this id, as bytes — or undefined
 * when no template applies yet (the caller renders as usual). `shape` identifies the reply and
 * `key` everything else the rendering depends on besides the id.
 */
export function templatedBody(shape: object, key: TemplateKey, id: string, render: (id: string) => string): TemplatedBody | undefined {
  let keyed = templates.get(shape);
  if (!keyed) templates.set(shape, (keyed = []));
  const entry = find(keyed, key, id.length);
  if (entry === undefined) {
    if (keyed.length < MAX_KEYS) keyed.push({ key, idLength: id.length, slot: 'seen' });
    return undefined;
  }
  if (entry.slot === 'seen') entry.slot = buildTemplate(render, id.length);
  if (entry.slot === 'unusable') return undefined;
  if (entry.slot.pieces) return text(entry.slot.pieces, id);
  return fill(entry.slot, id);
}

function buildTemplate(render: (id: string) => string, idLength: number): Template | 'unusable' {
  const a = Buffer.from(render('A'.repeat(idLength)), 'utf8');
  if (a.length > MAX_TEMPLATE) return 'unusable';
  const b = Buffer.from(render('B'.repeat(idLength)), 'utf8');
  if (a.length !== b.length) return 'unusable';
  const idOffsets: number[] = [];
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    let end = i;
    while (end < a.length && a[end] !== b[end]) end++;
    // Adjacent ids make one longer run; anything else means the rendering used the id otherwise.
    if ((end - i) % idLength !== 0) return 'unusable';
    for (let at = i; at < end; at += idLength) idOffsets.push(at);
    i = end - 1;
  }
  let pieces: string[] | undefined;
  if (a.length <= SMALL_TEXT) {
    pieces = [];
    let from = 0;
    for (const at of idOffsets) {
      pieces.push(a.toString('latin1', from, at));
      from = at + idLength;
    }
    pieces.push(a.toString('latin1', from));
  }
  return { bytes: a, pieces, idOffsets, spares: [], lent: [], lentHead: 0 };
}

/** What safeId checks, as one test of the whole id (quicker than the loop over every character). */
const SAFE_ID = /^[A-Za-z0-9_-]+$/;

/** The small template's text with this id, or undefined when the id cannot be written as is. */
function text(pieces: string[], id: string): TemplatedText | undefined {
  if (!SAFE_ID.test(id)) return undefined;
  let body = pieces[0] as string;
  for (let i = 1; i < pieces.length; i++) body += id + (pieces[i] as string);
  return { body, encoding: 'latin1' };
}

function newSpare(template: Template): Spare {
  const buffer = Buffer.from(template.bytes);
  const spare: Spare = {
    body: buffer,
    buffer,
    id: '',
    by: undefined,
    sentBy: (by) => {
      if (template.lent.length - template.lentHead >= MAX_SPARES) return;
      spare.by = by;
      template.lent.push(spare);
    },
  };
  return spare;
}

/** Takes back lent bodies whose responses have flushed them, oldest first; a body whose response
 * was torn down first is dropped (its write may still be pending). */
function reclaim(template: Template): void {
  const lent = template.lent;
  let head = template.lentHead;
  while (head < lent.length) {
    const spare = lent[head] as Spare;
    const by = spare.by as Flushable;
    if (by.writableFinished) {
      if (template.spares.length < MAX_SPARES) template.spares.push(spare);
    } else if (!by.destroyed) break;
    spare.by = undefined;
    head++;
  }
  if (head === lent.length) {
    lent.length = 0;
    head = 0;
  } else if (head >= MAX_SPARES) {
    lent.splice(0, head);
    head = 0;
  }
  template.lentHead = head;
}

/** The template's bytes with this id, or undefined when the id cannot be written as is. */
function fill(template: Template, id: string): TemplatedBody | undefined {
  if (template.lentHead < template.lent.length) reclaim(template);
  const spare = template.spares.pop() ?? newSpare(template);
  const previous = spare.id;
  let from = 0;
  while (from < id.length && id.charCodeAt(from) === previous.charCodeAt(from)) from++;
  if (!safeId(id, from)) {
    if (template.spares.length < MAX_SPARES) template.spares.push(spare);
    return undefined;
  }
  if (from < id.length) writeId(spare.buffer, template.idOffsets, id, from);
  spare.id = id;
  return spare;
}

/** Writes id[from..] at every offset (the characters before `from` are already there). */
function writeId(buffer: Buffer, offsets: number[], id: string, from: number): void {
  const n = id.length - from;
  if (n <= 4) {
    for (let k = 0; k < offsets.length; k++) {
      const at = offsets[k] + from;
      for (let j = 0; j < n; j++) buffer[at + j] = id.charCodeAt(from + j);
    }
    return;
  }
  const bytes = Buffer.from(from === 0 ? id : id.slice(from), 'latin1');
  for (let k = 0; k < offsets.length; k++) buffer.set(bytes, offsets[k] + from);
}

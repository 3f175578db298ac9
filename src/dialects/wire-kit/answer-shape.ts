// The shape of a provider's answer, as `understudy drift` compares a recording with what the
// provider answers now (decision 0017 item 9): the JSON paths and their types, a stream's event
// types, the finish reason and the tools called. Values never count, so a different text, id or
// count is not drift; a field added, removed or retyped is.

import { crc32 } from 'node:zlib';
import type { RecordedAnswer } from './recorded-answer.js';
import { sseData } from './recorded-answer.js';
import { isObject } from './values.js';

export interface AnswerShape {
  /** The media type, lower case, without parameters (`text/event-stream`). */
  contentType: string;
  /** Sorted, distinct "path type" strings of the JSON answer, or "key path type" of each stream
   * event's data, keyed by the event's type; arrays as `[]`, their elements' shapes unioned. */
  fields: string[];
  /** A stream's event types in order, consecutive repeats collapsed; absent for a JSON answer. */
  events?: string[];
  finishReason: string | null;
  /** The names of the tools called, in order. */
  tools: string[];
}

export interface WireAnswer {
  status: number;
  contentType: string;
  /** The body as text: latin1 (one character per byte) for a binary stream. */
  body: string;
  stream: boolean;
}

const EVENT_STREAM = 'application/vnd.amazon.eventstream';

function mediaType(contentType: string): string {
  return contentType.split(';')[0].trim().toLowerCase();
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function member(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** Adds "prefix path type" for `value` and everything inside it. */
function collect(value: unknown, path: string, out: Set<string>): void {
  out.add(`${path} ${typeOf(value)}`);
  if (Array.isArray(value)) for (const element of value) collect(element, `${path}[]`, out);
  else if (isObject(value)) for (const [key, inner] of Object.entries(value)) collect(inner, `${path}${member(key)}`, out);
}

function parsed(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** An event's type from its data: a `type` member (Anthropic, Responses), or `event_type` (Cohere). */
function typeMember(value: unknown): string | undefined {
  if (!isObject(value)) return undefined;
  const type = typeof value.type === 'string' ? value.type : value.event_type;
  return typeof type === 'string' && type !== '' ? type : undefined;
}

/** Event types are keys of the field strings, so they may hold no space. */
function key(type: string): string {
  return type.replace(/\s+/g, '_');
}

interface Streamed {
  fields: Set<string>;
  events: string[];
}

function addEvent(into: Streamed, type: string, data: { value: unknown } | { text: true }): void {
  const k = key(type);
  if (into.events[into.events.length - 1] !== k) into.events.push(k);
  if ('value' in data) collect(data.value, `${k} $`, into.fields);
  else into.fields.add(`${k} $ text`);
}

/** An SSE stream: each event keyed by its `event:` name, else its data's type member, else `data`.
 * A data line that is a bracketed marker (`[DONE]`) is an event type of its own. */
function sseShape(text: string): Streamed {
  const into: Streamed = { fields: new Set(), events: [] };
  for (const event of text.replace(/\r\n?/g, '\n').split('\n\n')) {
    const name = event
      .split('\n')
      .find((line) => line.startsWith('event:'))
      ?.slice(6)
      .trim();
    const [data] = sseData(event);
    if (data === undefined) continue;
    const json = parsed(data);
    if (json.ok) addEvent(into, name || typeMember(json.value) || 'data', { value: json.value });
    else if (/^\[[A-Za-z_]+\]$/.test(data.trim())) addEvent(into, name || data.trim(), { text: true });
    else addEvent(into, name || 'data', { text: true });
  }
  return into;
}

/** NDJSON (Ollama, Cohere v1): each line keyed by its type member, else `line`. */
function ndjsonShape(text: string): Streamed {
  const into: Streamed = { fields: new Set(), events: [] };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const json = parsed(line);
    if (json.ok) addEvent(into, typeMember(json.value) ?? 'line', { value: json.value });
    else addEvent(into, 'line', { text: true });
  }
  return into;
}

/** One AWS event-stream message's string headers. */
function frameHeaders(bytes: Buffer): Record<string, string> {
  const headers: Record<string, string> = {};
  let at = 0;
  while (at < bytes.length) {
    const nameLength = bytes[at];
    const name = bytes.toString('utf8', at + 1, at + 1 + nameLength);
    at += 1 + nameLength;
    const type = bytes[at++];
    // Type 7 is a string and 6 a byte array, both with a 16-bit length; the others have fixed sizes.
    const fixed: Record<number, number> = { 0: 0, 1: 0, 2: 1, 3: 2, 4: 4, 5: 8, 8: 8, 9: 16 };
    if (type === 6 || type === 7) {
      const length = bytes.readUInt16BE(at);
      if (type === 7) headers[name] = bytes.toString('utf8', at + 2, at + 2 + length);
      at += 2 + length;
    } else if (type in fixed) at += fixed[type];
    else break;
  }
  return headers;
}

/** Bedrock's binary event stream: each frame keyed by its `:event-type` (or `:exception-type`);
 * an InvokeModel `chunk` by the type of the model event its base64 `bytes` carry (`chunk:message_start`).
 * A frame whose checksum does not match ends the reading as a `malformed-frame` event. */
function eventStreamShape(latin1: string): Streamed {
  const into: Streamed = { fields: new Set(), events: [] };
  const bytes = Buffer.from(latin1, 'latin1');
  let at = 0;
  while (at + 16 <= bytes.length) {
    const total = bytes.readUInt32BE(at);
    const headersLength = bytes.readUInt32BE(at + 4);
    const message = bytes.subarray(at, at + total);
    if (
      total < 16 ||
      message.length !== total ||
      crc32(message.subarray(0, 8)) !== message.readUInt32BE(8) ||
      crc32(message.subarray(0, total - 4)) !== message.readUInt32BE(total - 4)
    ) {
      addEvent(into, 'malformed-frame', { text: true });
      return into;
    }
    const headers = frameHeaders(message.subarray(12, 12 + headersLength));
    const payload = message.toString('utf8', 12 + headersLength, total - 4);
    let type = headers[':event-type'] ?? headers[':exception-type'] ?? headers[':message-type'] ?? 'frame';
    const json = parsed(payload);
    let value = json.ok ? json.value : undefined;
    if (isObject(value) && typeof value.bytes === 'string' && Object.keys(value).length === 1) {
      const inner = parsed(Buffer.from(value.bytes, 'base64').toString('utf8'));
      if (inner.ok) {
        value = inner.value;
        type = `${type}:${typeMember(inner.value) ?? 'data'}`;
      }
    }
    addEvent(into, type, json.ok ? { value } : { text: true });
    at += total;
  }
  return into;
}

/** The shape of an answer, with the finish reason and tools of `read` (the dialect's reader's
 * result), or none and [] without it. */
export function answerShape(answer: WireAnswer, read?: RecordedAnswer): AnswerShape {
  const contentType = mediaType(answer.contentType);
  const reading = { finishReason: read?.finishReason ?? null, tools: read ? read.toolCalls.map((call) => call.name) : [] };
  let streamed: Streamed | undefined;
  if (contentType === EVENT_STREAM) streamed = eventStreamShape(answer.body);
  else if (contentType.includes('ndjson')) streamed = ndjsonShape(answer.body);
  else if (contentType === 'text/event-stream' || (answer.stream && !contentType.includes('json'))) streamed = sseShape(answer.body);
  if (streamed) return { contentType, fields: [...streamed.fields].sort(), events: streamed.events, ...reading };
  const json = parsed(answer.body);
  const fields = new Set<string>();
  if (json.ok) collect(json.value, '$', fields);
  else if (answer.body !== '') fields.add('$ text');
  return { contentType, fields: [...fields].sort(), ...reading };
}

/** A field string's path (event key included) and its type. */
function splitField(field: string): { path: string; type: string } {
  const space = field.lastIndexOf(' ');
  return { path: field.slice(0, space), type: field.slice(space + 1) };
}

/** The proper ancestors of a path: `k $.a[].b` has `k $`, `k $.a`, `k $.a[]`. */
function ancestors(path: string): string[] {
  const start = path.startsWith('$') ? 0 : path.indexOf(' ') + 1;
  const out: string[] = [];
  let at = start + 1;
  for (const segment of path.slice(at).matchAll(/\.[A-Za-z0-9_-]+|\[\]|\["(?:[^"\\]|\\.)*"\]/g)) {
    out.push(path.slice(0, at));
    at += segment[0].length;
  }
  return out;
}

function typesByPath(fields: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const field of fields) {
    const { path, type } = splitField(field);
    const types = out.get(path);
    if (types) types.push(type);
    else out.set(path, [type]);
  }
  for (const types of out.values()) types.sort();
  return out;
}

/** True when `path` lies inside an array that `other` has but only ever empty: its elements'
 * shape is unknown there, so their fields are neither added nor removed. */
function insideEmptyArray(path: string, other: Map<string, string[]>, otherPaths: readonly string[]): boolean {
  return ancestors(path).some(
    (array) =>
      path.startsWith(`${array}[]`) && other.get(array)?.includes('array') === true && !otherPaths.some((p) => p.startsWith(`${array}[]`)),
  );
}

const listed = (names: readonly string[]) => (names.length === 0 ? 'none' : names.join(', '));

export type ComparedShape = AnswerShape & { status?: number };

/** What changed between a recorded shape and the one answered now, as lines a person acts on.
 * A different status is reported alone (an error's body is no drift of the answer's fields), and
 * a different content type without the fields and events (they are not comparable then). With
 * `reading: false` (no reader for the dialect, or none could read the answer) the finish reason
 * and tools are not compared. */
export function shapeDifferences(recorded: ComparedShape, now: ComparedShape, options: { reading?: boolean } = {}): string[] {
  if (recorded.status !== undefined && now.status !== undefined && recorded.status !== now.status) {
    return [`status: ${recorded.status} → ${now.status}`];
  }
  const lines: string[] = [];
  if (recorded.contentType !== now.contentType) lines.push(`content type: ${recorded.contentType} → ${now.contentType}`);
  else {
    const before = recorded.events ?? [];
    const after = now.events ?? [];
    if (before.join('\n') !== after.join('\n')) lines.push(`event types: ${listed(before)} → ${listed(after)}`);
    lines.push(...fieldDifferences(recorded.fields, now.fields));
  }
  if (options.reading !== false) {
    if (recorded.finishReason !== now.finishReason) {
      lines.push(`finish reason: ${recorded.finishReason ?? 'none'} → ${now.finishReason ?? 'none'}`);
    }
    if (recorded.tools.join('\n') !== now.tools.join('\n')) lines.push(`tools called: ${listed(recorded.tools)} → ${listed(now.tools)}`);
  }
  return lines;
}

function fieldDifferences(recordedFields: readonly string[], nowFields: readonly string[]): string[] {
  const before = typesByPath(recordedFields);
  const after = typesByPath(nowFields);
  const beforePaths = [...before.keys()];
  const afterPaths = [...after.keys()];
  const changed = beforePaths.filter((p) => after.has(p) && before.get(p)!.join('|') !== after.get(p)!.join('|'));
  const removed = beforePaths.filter((p) => !after.has(p) && !insideEmptyArray(p, after, afterPaths));
  const added = afterPaths.filter((p) => !before.has(p) && !insideEmptyArray(p, before, beforePaths));
  // A field inside one added, removed or retyped is not reported again.
  const reported = new Set([...changed, ...removed, ...added]);
  const outermost = (p: string) => !ancestors(p).some((a) => reported.has(a));
  const lines = [
    ...removed.filter(outermost).map((p) => ({ p, line: `field removed: ${p} (${before.get(p)!.join(' | ')})` })),
    ...added.filter(outermost).map((p) => ({ p, line: `field added: ${p} (${after.get(p)!.join(' | ')})` })),
    ...changed.map((p) => ({ p, line: `type changed: ${p} ${before.get(p)!.join(' | ')} → ${after.get(p)!.join(' | ')}` })),
  ];
  return lines.sort((a, b) => (a.p < b.p ? -1 : a.p > b.p ? 1 : 0)).map((x) => x.line);
}

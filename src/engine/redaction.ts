// What a recording leaves out of the files it writes (decision 0017 item 5): body members named by
// JSON paths, and any text a pattern finds anywhere in the file, replaced by REDACTED.

import type { JsonValue } from '../core/model.js';
import { JSON_PATH_SEGMENT } from './json-path.js';

export const REDACTED = '[redacted]';

/** Body members no recording keeps unless told otherwise: the end user's identifiers. */
export const DEFAULT_REDACTED_PATHS: readonly string[] = ['$.user', '$.metadata.user_id', '$.safety_identifier', '$.prompt_cache_key'];

export interface Redaction {
  /** Parsed JSON paths; `*` stands for every member or element at that level. */
  paths: (string | number)[][];
  patterns: RegExp[];
}

const WILDCARD = /\[\*\]|\.\*/y;

/** `$.a.b`, `$.a[0]`, `$['a b']`, with `[*]` or `.*` for every element or member. */
export function parseRedactionPath(path: string): (string | number)[] {
  if (!path.startsWith('$')) throw new Error(`a redaction path must start with "$": ${path}`);
  const segments: (string | number)[] = [];
  const segment = new RegExp(JSON_PATH_SEGMENT);
  let at = 1;
  while (at < path.length) {
    WILDCARD.lastIndex = at;
    if (WILDCARD.exec(path)) {
      segments.push('*');
      at = WILDCARD.lastIndex;
      continue;
    }
    segment.lastIndex = at;
    const m = segment.exec(path);
    if (!m) throw new Error(`cannot read the redaction path ${path} at character ${at}`);
    if (m[1] !== undefined) segments.push(m[1]);
    else if (m[2] !== undefined) segments.push(Number(m[2]));
    else segments.push((m[3] ?? m[4]).replace(/\\(.)/g, '$1'));
    at = segment.lastIndex;
  }
  if (segments.length === 0) throw new Error(`a redaction path must name a member, not the whole body: ${path}`);
  return segments;
}

/** A `--redact` value: `/source/flags` is a pattern, anything else a JSON path. */
export function redactionOf(rules: readonly string[], withDefaults = true): Redaction {
  const redaction: Redaction = { paths: [], patterns: [] };
  for (const rule of withDefaults ? [...DEFAULT_REDACTED_PATHS, ...rules] : rules) {
    const pattern = /^\/(.+)\/([a-z]*)$/s.exec(rule);
    if (pattern) {
      const flags = pattern[2].includes('g') ? pattern[2] : `${pattern[2]}g`;
      try {
        redaction.patterns.push(new RegExp(pattern[1], flags));
      } catch (error) {
        throw new Error(`the redaction pattern ${rule} is not a regular expression: ${(error as Error).message}`);
      }
    } else {
      redaction.paths.push(parseRedactionPath(rule));
    }
  }
  return redaction;
}

/** A copy of the body with every member a path names replaced (members that are absent stay absent). */
export function redactPaths(body: JsonValue, paths: readonly (string | number)[][]): JsonValue {
  let out = body;
  for (const path of paths) out = replaceAt(out, path, 0);
  return out;
}

function replaceAt(value: JsonValue, path: readonly (string | number)[], at: number): JsonValue {
  if (value === null || typeof value !== 'object') return value;
  const segment = path[at];
  const last = at === path.length - 1;
  if (Array.isArray(value)) {
    if (segment !== '*' && typeof segment !== 'number') return value;
    const copy = value.slice();
    for (let i = 0; i < copy.length; i++) {
      if (segment !== '*' && segment !== i) continue;
      copy[i] = last ? REDACTED : replaceAt(copy[i], path, at + 1);
    }
    return copy;
  }
  const copy: Record<string, JsonValue> = { ...value };
  for (const key of Object.keys(copy)) {
    if (segment !== '*' && segment !== key) continue;
    copy[key] = last ? REDACTED : replaceAt(copy[key], path, at + 1);
  }
  return copy;
}

/** A copy with every string's matches of the patterns replaced, keys included. */
export function redactText<T>(value: T, patterns: readonly RegExp[]): T {
  if (patterns.length === 0) return value;
  const scrub = (text: string): string => patterns.reduce((t, p) => t.replace(p, REDACTED), text);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return scrub(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, inner] of Object.entries(v)) out[scrub(k)] = walk(inner);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}

// JSON paths as predicates use them: `$`, `.name`, `[0]`, `['a b']`, `["a b"]`.

import type { JsonValue } from '../core/model.js';

/** One path segment, matched sticky at a position. Shared with the fixture validator. */
export const JSON_PATH_SEGMENT = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/y;

/** Parses `$`, `$.a.b`, `$.a[0]`, `$['a b']` into segments. */
export function parseJsonPath(path: string): (string | number)[] {
  if (!path.startsWith('$')) throw new Error(`JSON path must start with "$": ${path}`);
  const segments: (string | number)[] = [];
  const re = new RegExp(JSON_PATH_SEGMENT);
  let at = 1;
  while (at < path.length) {
    re.lastIndex = at;
    const m = re.exec(path);
    if (!m) throw new Error(`cannot read JSON path ${path} at character ${at}`);
    if (m[1] !== undefined) segments.push(m[1]);
    else if (m[2] !== undefined) segments.push(Number(m[2]));
    else segments.push((m[3] ?? m[4]).replace(/\\(.)/g, '$1'));
    at = re.lastIndex;
  }
  return segments;
}

export function readJsonPath(value: JsonValue | undefined, segments: (string | number)[]): JsonValue | undefined {
  let current: JsonValue | undefined = value;
  for (const segment of segments) {
    if (current === null || typeof current !== 'object') return undefined;
    current = Array.isArray(current)
      ? typeof segment === 'number'
        ? current[segment]
        : undefined
      : (current as Record<string, JsonValue>)[String(segment)];
  }
  return current;
}

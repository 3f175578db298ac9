// Anthropic's words for a request that fails a check: the API validates bodies with pydantic and
// answers `<path>: <problem>` ("messages.0.content: Field required", "temperature: Input should be
// less than or equal to 1"), the path dotted with list indices (`tools.2.name`), the whole
// sentence as the message and the path as `param`; wire errors carry no code.

import { invalidRequest, type NeutralError } from '../../core/errors.js';
import { wireChecks } from '../wire-kit/checks.js';
import { reject } from '../wire-kit/wire-error.js';
import type { Expected, Wording } from '../wire-kit/wording.js';

/** A problem at `path` ('' for the request as a whole). */
export function problem(path: string, text: string): NeutralError {
  return invalidRequest(path ? `${path}: ${text}` : text, path || null);
}

/** Refuses the request with a problem at `path`. */
export function fail(path: string, text: string): never {
  reject(problem(path, text));
}

const EXPECTED: Record<Expected, string> = {
  string: 'Input should be a valid string',
  boolean: 'Input should be a valid boolean',
  number: 'Input should be a valid number',
  integer: 'Input should be a valid integer',
  object: 'Input should be a valid dictionary',
  array: 'Input should be a valid list',
};

/** `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'` — pydantic's way of listing literals. */
function quoted(values: readonly string[]): string {
  const q = values.map((v) => `'${v}'`);
  return q.length === 1 ? q[0] : `${q.slice(0, -1).join(', ')} or ${q[q.length - 1]}`;
}

const plural = (n: number | undefined, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export const ANTHROPIC_WORDING: Wording = {
  wrongType(path, expected, value, as) {
    if (as !== undefined) return problem(path, as);
    if (expected === 'integer' && typeof value === 'number' && Number.isFinite(value)) {
      return problem(
        path,
        Math.abs(value) > Number.MAX_SAFE_INTEGER
          ? 'Input should be a valid integer, unable to parse number as an integer'
          : 'Input should be a valid integer, got a number with a fractional part',
      );
    }
    return problem(path, EXPECTED[expected]);
  },
  missing: (path) => problem(path, 'Field required'),
  notAllowed: (path, _value, allowed) => problem(path, `Input should be ${quoted(allowed)}`),
  outOfRange(path, value, bounds) {
    if (bounds.min !== undefined && value < bounds.min) return problem(path, `Input should be greater than or equal to ${bounds.min}`);
    return problem(path, `Input should be less than or equal to ${bounds.max}`);
  },
  wrongLength(path, kind, length, bounds) {
    const below = bounds.min !== undefined && length < bounds.min;
    if (kind === 'string') {
      return problem(
        path,
        below
          ? `String should have at least ${plural(bounds.min, 'character')}`
          : `String should have at most ${plural(bounds.max, 'character')}`,
      );
    }
    return problem(
      path,
      below
        ? `List should have at least ${plural(bounds.min, 'item')} after validation, not ${length}`
        : `List should have at most ${plural(bounds.max, 'item')} after validation, not ${length}`,
    );
  },
  member: (path, key) => (path ? `${path}.${key}` : key),
};

export const {
  expectString,
  expectBoolean,
  expectObject,
  expectArray,
  expectNumber,
  expectInteger,
  expectEnum,
  expectLength,
  requiredMember,
} = wireChecks(ANTHROPIC_WORDING);

/** The `type` discriminator of a tagged union member. */
export function tag(o: Record<string, unknown>, tags: readonly string[], path: string): string {
  const type = o.type;
  if (type === undefined) fail(path, "Unable to extract tag using discriminator 'type'");
  if (typeof type !== 'string' || !tags.includes(type)) {
    fail(
      path,
      `Input tag '${String(type)}' found using 'type' does not match any of the expected tags: ${tags.map((t) => `'${t}'`).join(', ')}`,
    );
  }
  return type;
}

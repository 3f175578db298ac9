// Cohere's words for a request that fails a check, in both Chat APIs (v1 and v2). The API answers
// 400 with `{"id","message"}` and its messages read `invalid request: <what is wrong>` ("invalid
// request: temperature must be between 0 and 1.0 inclusive."); where Cohere's own sentence for a
// check is not known, the same pattern names the field (docs/dialects/cohere-v2.md,
// cohere-v1.md). Paths are dotted with list indices (`messages.1.content`), the path is the
// error's `param`; wire errors carry no code.

import { invalidRequest, type NeutralError } from '../../core/errors.js';
import { wireChecks } from '../wire-kit/checks.js';
import { reject } from '../wire-kit/wire-error.js';
import type { Expected, Wording } from '../wire-kit/wording.js';

/** `invalid request: <text>`, at `path` ('' for the request as a whole). */
export function problem(path: string, text: string): NeutralError {
  return invalidRequest(`invalid request: ${text}`, path || null);
}

/** Refuses the request with a problem at `path`. */
export function fail(path: string, text: string): never {
  reject(problem(path, text));
}

const EXPECTED: Record<Expected, string> = {
  string: 'a string',
  boolean: 'a boolean',
  number: 'a number',
  integer: 'an integer',
  object: 'an object',
  array: 'a list',
};

function range(bounds: { min?: number; max?: number }): string {
  if (bounds.min !== undefined && bounds.max !== undefined) return `between ${bounds.min} and ${bounds.max} inclusive`;
  if (bounds.min !== undefined) return `greater than or equal to ${bounds.min}`;
  return `less than or equal to ${bounds.max}`;
}

export const COHERE_WORDING: Wording = {
  wrongType: (path, expected, _value, as) => problem(path, `${path} must be ${as ?? EXPECTED[expected]}`),
  missing: (path) => problem(path, `${path} is required`),
  notAllowed: (path, _value, allowed) => problem(path, `${path} must be one of: ${allowed.join(', ')}`),
  outOfRange: (path, _value, bounds) => problem(path, `${path} must be ${range(bounds)}.`),
  wrongLength(path, kind, length, bounds) {
    const unit = kind === 'string' ? 'characters' : 'items';
    const below = bounds.min !== undefined && length < bounds.min;
    return problem(path, below ? `${path} must have at least ${bounds.min} ${unit}` : `${path} must have at most ${bounds.max} ${unit}`);
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
} = wireChecks(COHERE_WORDING);

// What a provider says when a field check fails: one table per provider (OpenAI's "Invalid type
// for 'x': expected …", Anthropic's pydantic "x: Input should be …", Google's "Invalid value at
// 'x' (TYPE_…)"), read by the checks in checks.ts. Each entry builds the neutral error; the
// checks decide when.

import type { NeutralError } from '../../core/errors.js';

export type Expected = 'string' | 'boolean' | 'number' | 'integer' | 'object' | 'array';

/** Inclusive bounds: of a number's value, or of a string's or list's length. */
export interface Bounds {
  min?: number;
  max?: number;
}

export interface Wording {
  /** `value` is not of the `expected` type. `as`: the provider's own name for what was expected,
   * when the field has one (OpenAI's "one of a string or array of strings", a proto type). */
  wrongType(path: string, expected: Expected, value: unknown, as?: string): NeutralError;
  /** A required field is absent. */
  missing(path: string): NeutralError;
  /** `value` is not one of `allowed` (it may not even be a string). */
  notAllowed(path: string, value: unknown, allowed: readonly string[], as?: string): NeutralError;
  /** A number outside `bounds` (the check has already found which side). */
  outOfRange(path: string, value: number, bounds: Bounds, kind: 'number' | 'integer'): NeutralError;
  /** A string or a list whose length is outside `bounds`. */
  wrongLength(path: string, kind: 'string' | 'array', length: number, bounds: Bounds): NeutralError;
  /** The path of member `key` of the value at `path`. */
  member(path: string, key: string): string;
}

/** How a provider reads values before checking them. */
export interface Reading {
  /** Numbers may be sent as strings (proto3 JSON: "0.5", and int64 fields as "123"). */
  numericStrings?: boolean;
  /** Enum values are matched after this mapping (Google takes `object` for `OBJECT`). */
  enumKey?: (value: string) => string;
}

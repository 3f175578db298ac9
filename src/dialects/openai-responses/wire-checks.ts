// Type and shape checks that answer with OpenAI's 400 wording: a failed check throws a WireError
// that decodeResponsesRequest turns back into the neutral error it carries.

import { invalidRequest, type NeutralError } from '../../core/errors.js';

export class WireError extends Error {
  constructor(readonly neutral: NeutralError) {
    super(neutral.message);
  }
}

export function fail(message: string, param: string | null, code: string | null = null): never {
  throw new WireError(invalidRequest(message, param, code));
}

/** Throws any neutral error (404, 409 …) through the same path as a 400. */
export function failWith(error: NeutralError): never {
  throw new WireError(error);
}

import { isObject, typeName } from '../openai-wire-values.js';

export { isObject, typeName };

type Expected = 'string' | 'object' | 'array' | 'boolean' | 'number' | 'integer';

const DEFAULT_WORDING: Record<Expected, string> = {
  string: 'a string',
  object: 'an object',
  array: 'an array',
  boolean: 'a boolean',
  number: 'a decimal',
  integer: 'an integer',
};

function hasType(value: unknown, expected: Expected): boolean {
  switch (expected) {
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    default:
      return typeof value === expected;
  }
}

export function expectType(value: unknown, expected: Expected, param: string, wording?: string): void {
  if (!hasType(value, expected)) {
    fail(
      `Invalid type for '${param}': expected ${wording ?? DEFAULT_WORDING[expected]}, but got ${typeName(value)} instead.`,
      param,
      'invalid_type',
    );
  }
}

export function required(value: unknown, param: string): void {
  if (value === undefined) fail(`Missing required parameter: '${param}'.`, param, 'missing_required_parameter');
}

/** `value` must be one of `allowed` (a string). */
export function expectOneOf(value: unknown, allowed: readonly string[], param: string): void {
  expectType(value, 'string', param);
  if (!allowed.includes(value as string)) {
    fail(`Invalid value: '${String(value)}'. Supported values are: ${listValues(allowed)}.`, param, 'invalid_value');
  }
}

/** `'a'`, `'a' and 'b'`, `'a', 'b', and 'c'` — OpenAI's way of listing values. */
export function listValues(values: readonly string[]): string {
  const quoted = values.map((v) => `'${v}'`);
  if (quoted.length <= 1) return quoted.join('');
  if (quoted.length === 2) return `${quoted[0]} and ${quoted[1]}`;
  return `${quoted.slice(0, -1).join(', ')}, and ${quoted[quoted.length - 1]}`;
}

export function expectRange(value: unknown, param: string, min: number, max: number | undefined, integer: boolean): void {
  expectType(value, integer ? 'integer' : 'number', param);
  const n = value as number;
  const kind = integer ? 'integer' : 'decimal';
  if (n < min) {
    fail(
      `Invalid '${param}': ${kind} below minimum value. Expected a value >= ${min}, but got ${n} instead.`,
      param,
      `${kind}_below_min_value`,
    );
  }
  if (max !== undefined && n > max) {
    fail(
      `Invalid '${param}': ${kind} above maximum value. Expected a value <= ${max}, but got ${n} instead.`,
      param,
      `${kind}_above_max_value`,
    );
  }
}

const NAME = /^[a-zA-Z0-9_-]+$/;

/** Tool and schema names: `^[a-zA-Z0-9_-]+$`, at most 64 characters. */
export function expectName(value: unknown, param: string): string {
  expectType(value, 'string', param);
  const name = value as string;
  if (!NAME.test(name)) {
    fail(
      `Invalid '${param}': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
      param,
      'invalid_value',
    );
  }
  if (name.length > 64) {
    fail(
      `Invalid '${param}': string too long. Expected a string with maximum length 64, but got a string with length ${name.length} instead.`,
      param,
      'string_above_max_length',
    );
  }
  return name;
}

/** Present and not null. */
export function given(value: unknown): boolean {
  return value !== undefined && value !== null;
}

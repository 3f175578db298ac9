// Type and range checks that answer with OpenAI's 400 wording, shared by Chat Completions and
// Responses: a failed check throws a WireError that the dialect's decoder turns back into the
// neutral error it carries. Field rules are small functions built once at module load, so a table
// of them reads as the field list of an endpoint and costs one lookup per field sent.

import { invalidRequest, type NeutralError } from '../core/errors.js';
import { checkSchema } from '../core/schema.js';
import { TextKeyedCache } from '../core/text-keyed-cache.js';
import { strictSchemaProblem } from './openai-strict-schema.js';
import { isObject, typeName } from './openai-wire-values.js';

export { isObject, typeName };

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
      // The API reads a number written with an exponent or beyond 64 bits as a decimal; a safe
      // integer is what JSON.parse can tell apart from one.
      return typeof value === 'number' && Number.isSafeInteger(value);
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

export function expectRange(value: unknown, param: string, min: number | undefined, max: number | undefined, integer: boolean): void {
  expectType(value, integer ? 'integer' : 'number', param);
  const n = value as number;
  const kind = integer ? 'integer' : 'decimal';
  if (min !== undefined && n < min) {
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

export function expectMaxLength(value: string, param: string, max: number): void {
  if (value.length > max) {
    fail(
      `Invalid '${param}': string too long. Expected a string with maximum length ${max}, but got a string with length ${value.length} instead.`,
      param,
      'string_above_max_length',
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
  expectMaxLength(name, param, 64);
  return name;
}

/** Present and not null. */
export function given(value: unknown): boolean {
  return value !== undefined && value !== null;
}

// ---------- schemas ----------

/** The Structured Outputs verdict of schemas sent with `strict: true`, by schema text (bounded:
 * the oldest are forgotten first). */
const strictVerdicts = new TextKeyedCache<string | null>(8 * 1024 * 1024, 2048);

/**
 * A tool's parameters or an output schema must be a schema Understudy can compile (checked without
 * compiling where that can be told, and cached by schema text: core/schema.ts checkSchema) and,
 * with `strict: true`, keep OpenAI's Structured Outputs rules.
 */
export function expectSchema(schema: Record<string, unknown>, param: string, what: string, code: string, strict = false): void {
  // Function parameters and response formats are objects at the root on every OpenAI route.
  if (schema.type !== undefined && schema.type !== 'object') {
    fail(
      `Invalid schema for ${what}: schema must be a JSON Schema of 'type: "object"', got 'type: ${JSON.stringify(schema.type)}'.`,
      param,
      code,
    );
  }
  const invalid = checkSchema(schema);
  if (invalid) fail(`Invalid schema for ${what}: ${invalid.error}.`, param, code);
  if (!strict) return;
  const key = JSON.stringify(schema);
  let problem = strictVerdicts.get(key);
  if (problem === undefined) {
    problem = strictSchemaProblem(schema);
    strictVerdicts.set(key, problem);
  }
  if (problem !== null) fail(`Invalid schema for ${what}: ${problem}`, param, code);
}

/** Most tools one request may declare: OpenAI documents 128 functions for Chat Completions; other
 * OpenAI routes take Understudy's own bound on declared schemas. */
export const CHAT_MAX_TOOLS = 128;

// ---------- field rules ----------

/** Checks one field's value (never null or absent: the caller skips those, as the API does). */
export type FieldRule = (value: unknown, param: string) => void;

/** Checked by the dialect's own decoder, which reads the field anyway. */
export const DECODED: FieldRule = () => {};

export const boolean: FieldRule = (v, p) => expectType(v, 'boolean', p);

export function number(min?: number, max?: number): FieldRule {
  return (v, p) => expectRange(v, p, min, max, false);
}

export function integer(min?: number, max?: number): FieldRule {
  return (v, p) => expectRange(v, p, min, max, true);
}

export function string(maxLength?: number): FieldRule {
  return (v, p) => {
    expectType(v, 'string', p);
    if (maxLength !== undefined) expectMaxLength(v as string, p, maxLength);
  };
}

export function oneOf(...values: string[]): FieldRule {
  return (v, p) => expectOneOf(v, values, p);
}

export function arrayOf(item: FieldRule, options: { min?: number; max?: number; wording?: string } = {}): FieldRule {
  return (v, p) => {
    expectType(v, 'array', p, options.wording);
    const list = v as unknown[];
    if (options.min !== undefined && list.length < options.min) {
      if (list.length === 0) {
        fail(
          `Invalid '${p}': empty array. Expected an array with minimum length ${options.min}, but got an empty array instead.`,
          p,
          'empty_array',
        );
      }
      fail(
        `Invalid '${p}': array too short. Expected an array with minimum length ${options.min}, but got an array with length ${list.length} instead.`,
        p,
        'array_below_min_length',
      );
    }
    if (options.max !== undefined && list.length > options.max) {
      fail(
        `Invalid '${p}': array too long. Expected an array with maximum length ${options.max}, but got an array with length ${list.length} instead.`,
        p,
        'array_above_max_length',
      );
    }
    for (let i = 0; i < list.length; i++) if (given(list[i])) item(list[i], `${p}[${i}]`);
  };
}

/** An object whose listed members are checked (members not listed are let through). */
export function object(members: Record<string, FieldRule>, requiredMembers: readonly string[] = []): FieldRule {
  return (v, p) => {
    expectType(v, 'object', p);
    const o = v as Record<string, unknown>;
    for (const key of requiredMembers) required(o[key], `${p}.${key}`);
    for (const key in members) if (given(o[key])) members[key](o[key], `${p}.${key}`);
  };
}

/** A string, or (when not a string) the other rule — OpenAI's `oneOf [string, …]` fields. */
export function stringOr(other: FieldRule, wording: string): FieldRule {
  return (v, p) => {
    if (typeof v === 'string') return;
    if (typeof v !== 'object' || v === null) expectType(v, 'string', p, wording);
    other(v, p);
  };
}

/** OpenAI's `metadata`: at most 16 string values, keys up to 64 characters, values up to 512. */
export const metadata: FieldRule = (v, p) => {
  expectType(v, 'object', p);
  const o = v as Record<string, unknown>;
  let count = 0;
  for (const key in o) {
    count++;
    if (key.length > 64) {
      fail(
        `Invalid '${p}': metadata keys must be at most 64 characters; '${key.slice(0, 16)}…' has ${key.length}.`,
        p,
        'string_above_max_length',
      );
    }
    expectType(o[key], 'string', `${p}.${key}`);
    expectMaxLength(o[key] as string, `${p}.${key}`, 512);
  }
  if (count > 16) {
    fail(
      `Invalid '${p}': too many properties. Expected an object with at most 16 properties, but got ${count} instead.`,
      p,
      'object_above_max_properties',
    );
  }
};

/** A map of token ids to integer biases from -100 to 100 (Chat's `logit_bias`). */
export const logitBias: FieldRule = (v, p) => {
  expectType(v, 'object', p);
  const o = v as Record<string, unknown>;
  for (const key in o) expectRange(o[key], `${p}.${key}`, -100, 100, true);
};

/**
 * Checks every member of `body` against `fields`. A member the table does not name is refused by
 * `unknown` (each API words it its own way); null members are skipped, as the API reads them as
 * not sent.
 */
export function checkFields(
  body: Record<string, unknown>,
  fields: Readonly<Record<string, FieldRule>>,
  unknown: (key: string) => never,
): void {
  for (const key in body) {
    const rule = Object.hasOwn(fields, key) ? fields[key] : undefined;
    if (rule === undefined) unknown(key);
    const value = body[key];
    if (value !== undefined && value !== null) rule(value, key);
  }
}

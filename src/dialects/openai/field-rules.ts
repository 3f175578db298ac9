// Field rules for OpenAI request bodies: small functions built once at module load, so a table of
// them reads as the field list of an endpoint (`temperature: number(0, 2)`) and a request costs
// one lookup per field it sends. A failed rule throws OpenAI's 400 naming the field.

import { given } from '../wire-kit/values.js';
import {
  expectArray,
  expectBoolean,
  expectEnum,
  expectInteger,
  expectLength,
  expectNumber,
  expectObject,
  expectString,
  fail,
  required,
} from './checks.js';

/** Checks one field's value (never null or absent: the caller skips those, as the API does). */
export type FieldRule = (value: unknown, param: string) => void;

/** Checked by the dialect's own decoder, which reads the field anyway. */
export const DECODED: FieldRule = () => {};

export const boolean: FieldRule = (v, p) => expectBoolean(v, p);

export function number(min?: number, max?: number): FieldRule {
  const range = { min, max };
  return (v, p) => expectNumber(v, p, range);
}

export function integer(min?: number, max?: number): FieldRule {
  const range = { min, max };
  return (v, p) => expectInteger(v, p, range);
}

export function string(maxLength?: number): FieldRule {
  if (maxLength === undefined) return (v, p) => expectString(v, p);
  const bounds = { max: maxLength };
  return (v, p) => expectLength(expectString(v, p), p, bounds);
}

export function oneOf(...values: string[]): FieldRule {
  return (v, p) => expectEnum(v, values, p);
}

export function arrayOf(item: FieldRule, options: { min?: number; max?: number; wording?: string } = {}): FieldRule {
  const bounds = options.min !== undefined || options.max !== undefined ? { min: options.min, max: options.max } : undefined;
  return (v, p) => {
    const list = expectArray(v, p, options.wording);
    if (bounds) expectLength(list, p, bounds);
    for (let i = 0; i < list.length; i++) if (given(list[i])) item(list[i], `${p}[${i}]`);
  };
}

/** An object whose listed members are checked (members not listed are let through). */
export function object(members: Record<string, FieldRule>, requiredMembers: readonly string[] = []): FieldRule {
  return (v, p) => {
    const o = expectObject(v, p);
    for (const key of requiredMembers) required(o[key], `${p}.${key}`);
    for (const key in members) if (given(o[key])) members[key](o[key], `${p}.${key}`);
  };
}

/** An object with only the listed members, as the OpenAPI description closes a few
 * (`additionalProperties: false`); other objects let members they do not list through. */
export function closedObject(members: Record<string, FieldRule>, requiredMembers: readonly string[] = []): FieldRule {
  const open = object(members, requiredMembers);
  return (v, p) => {
    open(v, p);
    for (const key in v as Record<string, unknown>) {
      if (!Object.hasOwn(members, key)) fail(`Unrecognized request argument supplied: ${p}.${key}`, `${p}.${key}`, 'unknown_parameter');
    }
  };
}

/** A string, or (when not a string) the other rule — OpenAI's `oneOf [string, …]` fields. */
export function stringOr(other: FieldRule, wording: string): FieldRule {
  return (v, p) => {
    if (typeof v === 'string') return;
    if (typeof v !== 'object' || v === null) expectString(v, p, wording);
    other(v, p);
  };
}

const MODERATION_CONFIG = object({ mode: oneOf('score', 'block') }, ['mode']);

/** `moderation` on Chat and Responses: the moderation model, and a mode per direction
 * (ModerationParam, ModerationPolicyParam). */
export const moderation: FieldRule = object({ model: string(), policy: object({ input: MODERATION_CONFIG, output: MODERATION_CONFIG }) }, [
  'model',
]);

/** A content part's `prompt_cache_breakpoint` (PromptCacheBreakpointParam). */
export const promptCacheBreakpoint: FieldRule = object({ mode: oneOf('explicit') }, ['mode']);

const METADATA_VALUE = { max: 512 };

/** OpenAI's `metadata`: at most 16 string values, keys up to 64 characters, values up to 512. */
export const metadata: FieldRule = (v, p) => {
  const o = expectObject(v, p);
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
    expectLength(expectString(o[key], `${p}.${key}`), `${p}.${key}`, METADATA_VALUE);
  }
  if (count > 16) {
    fail(
      `Invalid '${p}': too many properties. Expected an object with at most 16 properties, but got ${count} instead.`,
      p,
      'object_above_max_properties',
    );
  }
};

const BIAS = { min: -100, max: 100 };
const TOKEN_ID = /^\d+$/;
/** Most tokens one request may bias: the bound reported for OpenAI's completions since GPT-3 (no
 * current statement of it was found; docs/dialects/openai-chat.md). */
export const MAX_BIASED_TOKENS = 300;

/** A map of token ids (non-negative integers, as strings) to integer biases from -100 to 100
 * (Chat's `logit_bias`), of at most MAX_BIASED_TOKENS entries. */
export const logitBias: FieldRule = (v, p) => {
  const o = expectObject(v, p);
  let count = 0;
  for (const key in o) {
    if (!TOKEN_ID.test(key)) fail(`Invalid key in '${p}': ${key}. You should only be submitting non-negative integers.`, p);
    expectInteger(o[key], `${p}.${key}`, BIAS);
    count++;
  }
  if (count > MAX_BIASED_TOKENS) {
    fail(
      `Invalid '${p}': too many properties. Expected an object with at most ${MAX_BIASED_TOKENS} properties, but got ${count} instead.`,
      p,
      'object_above_max_properties',
    );
  }
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

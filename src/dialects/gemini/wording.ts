// How the Gemini front end words a rejected request. Google's JSON front end answers three kinds
// of 400: payload errors (a field it does not know, a value of the wrong proto type), field rules
// ("* GenerateContentRequest.<field>: <rule>"), and a few conversation rules stated as a plain
// sentence. Field paths are written with snake_case names, the way the proto names them.

import { invalidRequest, type NeutralError } from '../../core/errors.js';
import { wireChecks } from '../wire-kit/checks.js';
import { reject } from '../wire-kit/wire-error.js';
import type { Expected, Wording } from '../wire-kit/wording.js';

export const INVALID_ARGUMENT = 'INVALID_ARGUMENT';

function refusal(message: string, field: string | null): NeutralError {
  return invalidRequest(message, field, INVALID_ARGUMENT);
}

/** A JSON key the proto message has no field for. */
export function unknownFieldError(key: string, at: string): NeutralError {
  return refusal(
    `Invalid JSON payload received. Unknown name ${JSON.stringify(key)}${at === '' ? '' : ` at '${at}'`}: Cannot find field.`,
    at || key,
  );
}

function shown(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function invalidValueError(field: string, protoType: string, value: unknown): NeutralError {
  return refusal(`Invalid value at '${field}' (${protoType}), ${shown(value)}`, field);
}

function fieldRuleError(field: string, rule: string): NeutralError {
  return refusal(`* GenerateContentRequest.${field}: ${rule}\n`, field);
}

/** A value that does not parse as the field's proto type (TYPE_STRING, TYPE_INT32, an enum's full name…). */
export function invalidValue(field: string, protoType: string, value: unknown): never {
  reject(invalidValueError(field, protoType, value));
}

/** A field rule, in the front end's "* GenerateContentRequest.<field>: <rule>" form. */
export function fieldRule(field: string, rule: string): never {
  reject(fieldRuleError(field, rule));
}

/** A rule stated as a sentence with no field (the conversation-order rules). */
export function requestRule(message: string, field: string | null = null): never {
  reject(refusal(message, field));
}

/** Understudy's own refusal of something the real API accepts but a stand-in cannot honour. */
export function unsupported(field: string, message: string): never {
  reject(refusal(message, field));
}

const PROTO_TYPES: Record<Expected, string> = {
  string: 'TYPE_STRING',
  boolean: 'TYPE_BOOL',
  number: 'TYPE_DOUBLE',
  integer: 'TYPE_INT64',
  object: 'TYPE_MESSAGE',
  array: 'TYPE_LIST',
};

/** The last segment of a path: the field's own name. */
const nameOf = (path: string) => path.slice(path.lastIndexOf('.') + 1);

export const GEMINI_WORDING: Wording = {
  wrongType: (path, expected, value, as) => invalidValueError(path, as ?? PROTO_TYPES[expected], value),
  missing: (path) => fieldRuleError(path, 'required field is not set'),
  notAllowed: (path, value, _allowed, as) => invalidValueError(path, as ?? 'TYPE_ENUM', value),
  outOfRange(path, value, { min, max }) {
    const range = max === undefined ? `at least ${min}` : min === undefined ? `at most ${max}` : `in the range [${min}, ${max}]`;
    return fieldRuleError(path, `${nameOf(path)} must be ${range} (got ${value})`);
  },
  wrongLength(path, kind, length, { min, max }) {
    const what = kind === 'string' ? 'characters' : 'items';
    const range = max === undefined ? `at least ${min}` : min === undefined ? `at most ${max}` : `from ${min} to ${max}`;
    return fieldRuleError(path, `${nameOf(path)} must have ${range} ${what} (got ${length})`);
  },
  member: (path, key) => (path === '' ? key : `${path}.${key}`),
};

/** The kit's checks in Gemini's words; numbers may come as strings and enums in any case, as
 * proto3 JSON allows. Type names default to the generic proto ones: pass `TYPE_FLOAT`,
 * `TYPE_INT32` or an enum's full name where the field has that type. */
export const { expectString, expectBoolean, expectObject, expectArray, expectNumber, expectInteger, expectEnum, expectLength } = wireChecks(
  GEMINI_WORDING,
  { numericStrings: true, enumKey: (value) => value.toUpperCase() },
);

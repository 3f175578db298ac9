// Mistral's error body, {"object":"error","message","type","param","code"}, and which refusals are
// its 422: what its request schema refuses (FastAPI, pydantic) is a 422 whose message is
// {"detail":[{type, loc, msg}]}; what its handlers refuse is a 400 with a sentence.

import type { NeutralError } from '../../core/errors.js';
import type { EncodedBody } from '../dialect.js';
import { errorTypeOf, withExtra, type ErrorTypeNames } from '../openai/encode-error.js';
import type { JsonObject } from './host.js';

/** The pydantic error type of each refusal Mistral's request schema makes (a 422). */
const SCHEMA_REFUSALS: Record<string, string> = {
  invalid_type: 'type_error',
  missing_required_parameter: 'missing',
  unknown_parameter: 'extra_forbidden',
  unknown_member: 'extra_forbidden',
  invalid_role: 'union_tag_invalid',
  invalid_value: 'enum',
  integer_below_min_value: 'greater_than_equal',
  decimal_below_min_value: 'greater_than_equal',
  integer_above_max_value: 'less_than_equal',
  decimal_above_max_value: 'less_than_equal',
  empty_string: 'string_too_short',
  string_below_min_length: 'string_too_short',
  string_above_max_length: 'string_too_long',
  empty_array: 'too_short',
  array_below_min_length: 'too_short',
  array_above_max_length: 'too_long',
};

/** pydantic's wording where it is one fixed sentence; other refusals keep Understudy's. */
const PYDANTIC_WORDS: Record<string, string> = {
  missing: 'Field required',
  extra_forbidden: 'Extra inputs are not permitted',
};

/** The type error of a value that should have been `expected` (OpenAI's wording names it). */
const TYPE_ERRORS: [RegExp, string][] = [
  [/expected a decimal/, 'float_type'],
  [/expected an integer/, 'int_type'],
  [/expected a string/, 'string_type'],
  [/expected a boolean/, 'bool_type'],
  [/expected an array/, 'list_type'],
  [/expected an object/, 'dict_type'],
];

function schemaTypeOf(error: NeutralError): string | undefined {
  const type = error.code === null ? undefined : SCHEMA_REFUSALS[error.code];
  if (type !== 'type_error') return type;
  for (const [pattern, name] of TYPE_ERRORS) if (pattern.test(error.message)) return name;
  return type;
}

/** A refusal of the request schema is Mistral's 422; every other refusal stays a 400. */
export function mistralRefusal(error: NeutralError): NeutralError {
  return error.kind === 'invalid_request' && error.param && schemaTypeOf(error) ? { ...error, status: 422 } : error;
}

/** `messages[0].content` (or OpenAI's `messages.[0].role`) as FastAPI's loc: body, messages, 0, content. */
function locOf(param: string | null | undefined): (string | number)[] {
  const loc: (string | number)[] = ['body'];
  if (!param) return loc;
  for (const piece of param.split(/\.|\[|\]/)) {
    if (piece === '') continue;
    loc.push(/^\d+$/.test(piece) ? Number(piece) : piece);
  }
  return loc;
}

/** Where a 422's detail says the refusal is: an unknown top-level member named whole (dots and
 * brackets included), any other param as its path (an unknown message member's param holds its
 * role, as pydantic's loc does: body, messages, 0, user, name). */
function locFor(error: NeutralError): (string | number)[] {
  return error.code === 'unknown_parameter' ? ['body', error.param ?? ''] : locOf(error.param);
}

const MISTRAL_TYPES: ErrorTypeNames = { rateLimited: 'rate_limited', server: 'internal_server_error', otherwise: 'invalid_request_error' };

function errorObject(error: NeutralError): JsonObject {
  if (error.status === 422 && error.kind === 'invalid_request') {
    const type = schemaTypeOf(error) ?? 'value_error';
    const loc = locFor(error);
    const detail = { type, loc, msg: PYDANTIC_WORDS[type] ?? error.message };
    return { object: 'error', message: { detail: [detail] }, type: 'invalid_request_error', param: null, code: null };
  }
  return withExtra(
    {
      object: 'error',
      message: error.message,
      type: errorTypeOf(error, MISTRAL_TYPES),
      param: error.param ?? null,
      code: error.code ?? null,
    },
    error,
  );
}

export function encodeMistralError(error: NeutralError): EncodedBody {
  return {
    status: error.status,
    headers: { 'content-type': 'application/json', ...(error.headers ?? {}) },
    body: JSON.stringify(errorObject(error)),
  };
}

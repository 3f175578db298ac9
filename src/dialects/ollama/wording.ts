// How the Ollama server words a refused request. Its handlers bind the body with Go's encoding/json,
// so a value of the wrong type is refused with the decoder's sentence ("json: cannot unmarshal
// string into Go struct field ChatRequest.stream of type bool"), naming the innermost struct and the
// dotted path of JSON names that led to the field; the handlers' own rules are short sentences
// ("top_logprobs must be between 0 and 20"). A JSON null is "not sent" everywhere, and a member the
// structs do not name is ignored, as Go's decoder ignores it.

import { invalidRequest, type NeutralError } from '../../core/errors.js';
import { wireChecks } from '../wire-kit/checks.js';
import { reject } from '../wire-kit/wire-error.js';
import type { Expected, Wording } from '../wire-kit/wording.js';

/** Where a field sits, as Go names it: the struct it belongs to and the path of JSON names. */
export interface GoField {
  /** The innermost Go struct type, e.g. `ChatRequest`, `Message`, `ToolCall`. */
  struct: string;
  /** The JSON names from the request body down to the field, dotted, without indices. */
  path: string;
  /** Where a person finds it in the body, with indices (the journal's `param`). */
  at: string;
}

const GO_TYPES: Record<Expected, string> = {
  string: 'string',
  boolean: 'bool',
  number: 'float64',
  integer: 'int',
  object: 'map[string]interface {}',
  array: '[]interface {}',
};

/** The kind of a JSON value as Go's decoder names it in a type error. */
function goValueKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(value) ? 'number' : `number ${String(value)}`;
    default:
      return 'object';
  }
}

/** A request field path as the checks pass it: `Struct|json.path|at`. */
export function goPath(field: GoField): string {
  return `${field.struct}|${field.path}|${field.at}`;
}

function parsePath(path: string): GoField {
  const [struct, dotted, at] = path.split('|');
  return { struct, path: dotted ?? struct, at: at ?? dotted ?? struct };
}

export function refusal(message: string, param: string | null = null): NeutralError {
  return invalidRequest(message, param);
}

/** Go's type error for `value` at `field`, whose Go type is `goType`. */
export function typeError(field: GoField, value: unknown, goType: string): NeutralError {
  return refusal(
    `json: cannot unmarshal ${goValueKind(value)} into Go struct field ${field.struct}.${field.path} of type ${goType}`,
    field.at,
  );
}

/** A handler's own rule, as a sentence. */
export function rule(message: string, param: string | null = null): never {
  reject(refusal(message, param));
}

export const OLLAMA_WORDING: Wording = {
  wrongType: (path, expected, value, as) => typeError(parsePath(path), value, as ?? GO_TYPES[expected]),
  missing: (path) => refusal(`${parsePath(path).path} is required`, parsePath(path).at),
  notAllowed: (path, value) => refusal(`invalid value ${JSON.stringify(value)} for ${parsePath(path).path}`, parsePath(path).at),
  outOfRange: (path, _value, { min, max }) =>
    refusal(`${parsePath(path).path} must be between ${min ?? '-inf'} and ${max ?? 'inf'}`, parsePath(path).at),
  wrongLength: (path) => refusal(`${parsePath(path).path} has the wrong length`, parsePath(path).at),
  member: (path, key) => {
    const field = parsePath(path);
    return goPath({ struct: field.struct, path: `${field.path}.${key}`, at: `${field.at}.${key}` });
  },
};

/** The kit's checks in Go's words; paths are `goPath(...)` strings. */
export const { expectString, expectBoolean, expectObject, expectArray, expectNumber, expectInteger } = wireChecks(OLLAMA_WORDING);

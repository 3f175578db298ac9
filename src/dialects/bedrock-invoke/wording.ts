// Bedrock's words for an InvokeModel body that fails the model's request schema: the service
// validates the body against a JSON Schema before the model sees it and answers a
// ValidationException "Malformed input request: <pointer>: <problem>, please reformat your input
// and try again.", the pointer a JSON pointer from `#` ("#/messages/0/content"), the problem in the
// validator's own phrasing ("expected type: String, found: Integer", "required key [messages] not
// found", "extraneous key [model] is not permitted", "2 is not less or equal to 1").

import { invalidRequest, type NeutralError } from '../../core/errors.js';
import { wireChecks } from '../wire-kit/checks.js';
import { reject } from '../wire-kit/wire-error.js';
import type { Expected, Wording } from '../wire-kit/wording.js';

export const MALFORMED = 'Malformed input request: ';

/** The ValidationException of a body that breaks the schema at `pointer`. */
export function malformed(pointer: string, problem: string): NeutralError {
  return invalidRequest(`${MALFORMED}${pointer}: ${problem}, please reformat your input and try again.`, pointer);
}

/** Refuses the body with a schema problem at `pointer`. */
export function failSchema(pointer: string, problem: string): never {
  reject(malformed(pointer, problem));
}

/** Refuses what Understudy does not answer on InvokeModel, in a ValidationException of its own words. */
export function refuse(message: string, param: string | null = null): never {
  reject(invalidRequest(message, param));
}

const EXPECTED: Record<Expected, string> = {
  string: 'String',
  boolean: 'Boolean',
  number: 'Number',
  integer: 'Integer',
  object: 'JSONObject',
  array: 'JSONArray',
};

/** The validator's name for the type of what was sent. */
function found(value: unknown): string {
  if (value === null) return 'Null';
  if (Array.isArray(value)) return 'JSONArray';
  switch (typeof value) {
    case 'string':
      return 'String';
    case 'boolean':
      return 'Boolean';
    case 'number':
      return Number.isSafeInteger(value) ? 'Integer' : 'BigDecimal';
    default:
      return 'JSONObject';
  }
}

/** `#/a/b` → [`#/a`, `b`]. */
function parentAndKey(pointer: string): [string, string] {
  const at = pointer.lastIndexOf('/');
  return at < 0 ? ['#', pointer] : [pointer.slice(0, at), pointer.slice(at + 1)];
}

export const INVOKE_WORDING: Wording = {
  wrongType: (path, expected, value) => malformed(path, `expected type: ${EXPECTED[expected]}, found: ${found(value)}`),
  missing(path) {
    const [parent, key] = parentAndKey(path);
    return malformed(parent, `required key [${key}] not found`);
  },
  notAllowed: (path, value) => malformed(path, `${typeof value === 'string' ? value : JSON.stringify(value)} is not a valid enum value`),
  outOfRange(path, value, bounds) {
    if (bounds.min !== undefined && value < bounds.min) return malformed(path, `${value} is not greater or equal to ${bounds.min}`);
    return malformed(path, `${value} is not less or equal to ${bounds.max}`);
  },
  wrongLength(path, kind, length, bounds) {
    const below = bounds.min !== undefined && length < bounds.min;
    if (kind === 'string') {
      return malformed(
        path,
        below ? `expected minLength: ${bounds.min}, actual: ${length}` : `expected maxLength: ${bounds.max}, actual: ${length}`,
      );
    }
    return malformed(
      path,
      below
        ? `expected minimum item count: ${bounds.min}, found: ${length}`
        : `expected maximum item count: ${bounds.max}, found: ${length}`,
    );
  },
  member: (path, key) => `${path}/${key}`,
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
} = wireChecks(INVOKE_WORDING);

/** Refuses the members of `o` not in `allowed`, as the schema's `additionalProperties: false` does:
 * all of them, one violation after another, as Bedrock lists them. */
export function onlyMembers(o: Record<string, unknown>, allowed: ReadonlySet<string>, pointer: string): void {
  let problems = '';
  for (const key in o) if (!allowed.has(key)) problems += `${problems ? pointer + ': ' : ''}extraneous key [${key}] is not permitted`;
  if (problems) failSchema(pointer, problems);
}

/** A member that may be left out; sent, it must not be null (the schema types it). */
export function present(o: Record<string, unknown>, key: string): boolean {
  return o[key] !== undefined;
}

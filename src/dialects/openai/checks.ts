// The wire-kit checks in OpenAI's words, and the few checks every OpenAI route shares beyond
// them (names of tools and schemas, a free-form 400).

import { invalidRequest } from '../../core/errors.js';
import { wireChecks } from '../wire-kit/checks.js';
import { reject } from '../wire-kit/wire-error.js';
import { OPENAI_WORDING } from './wording.js';

export const {
  expectString,
  expectBoolean,
  expectObject,
  expectArray,
  expectNumber,
  expectInteger,
  expectEnum,
  expectLength,
  required,
  requiredMember,
} = wireChecks(OPENAI_WORDING);

/** A 400 in OpenAI's shape for a rule the field checks do not state. */
export function fail(message: string, param: string | null, code: string | null = null): never {
  reject(invalidRequest(message, param, code));
}

/** A tool's name must differ from every name declared before it in the request (`seen`). */
export function expectNewToolName(seen: Set<string>, name: string, param: string): void {
  if (seen.has(name)) fail(`Invalid '${param}': duplicate function name '${name}'.`, param, 'invalid_value');
  seen.add(name);
}

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

/** A URL where the OpenAPI description says `format: uri` (image and file URLs): it must at least
 * begin with a scheme, as `https:` and `data:` URLs do. */
export function expectUrl(value: unknown, param: string): string {
  const url = expectString(value, param);
  if (!SCHEME.test(url)) fail(`Invalid '${param}': Expected a valid URL, but got a value with an invalid format.`, param, 'invalid_value');
  return url;
}

const NAME = /^[a-zA-Z0-9_-]+$/;
const NAME_BOUNDS = { max: 64 };

/** Tool and schema names: `^[a-zA-Z0-9_-]+$`, at most 64 characters. */
export function expectName(value: unknown, param: string): string {
  const name = expectString(value, param);
  if (!NAME.test(name)) {
    fail(
      `Invalid '${param}': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
      param,
      'invalid_value',
    );
  }
  return expectLength(name, param, NAME_BOUNDS);
}

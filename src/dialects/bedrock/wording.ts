// Bedrock's words for a request that fails a check. The service validates its inputs against the
// API's model and answers ValidationException (400) with "1 validation error detected: Value '…' at
// '<path>' failed to satisfy constraint: Member must …"; rules about the conversation (roles, tool
// pairing, blank text) are plain sentences that name where, as `messages.1.content.0`. Paths here
// are written that way throughout: members as the API's model names them, list elements by their
// index from 0. Where the live wording of a check is not known, the same pattern names the member
// (docs/dialects/bedrock.md).

import { invalidRequest, type NeutralError } from '../../core/errors.js';
import { wireChecks } from '../wire-kit/checks.js';
import { reject } from '../wire-kit/wire-error.js';
import type { Expected, Wording } from '../wire-kit/wording.js';

/** A problem at `path` ('' for the request as a whole), as a whole sentence. */
export function problem(path: string, text: string): NeutralError {
  return invalidRequest(text, path || null);
}

/** Refuses the request with a sentence about `path`. */
export function fail(path: string, text: string): never {
  reject(problem(path, text));
}

function shown(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `'${text.length > 60 ? `${text.slice(0, 60)}…` : text}'`;
}

/** The model's constraint sentence: "Value '…' at 'path' failed to satisfy constraint: …". */
export function constraint(path: string, value: unknown, rule: string): never {
  reject(problem(path, `1 validation error detected: Value ${shown(value)} at '${path}' failed to satisfy constraint: ${rule}`));
}

/** A member the API's model does not have for that structure. */
export function unknownMember(path: string, key: string): never {
  const at = path ? `${path}.${key}` : key;
  reject(
    problem(
      at,
      `1 validation error detected: Value at '${at}' failed to satisfy constraint: Member is not part of the input model (unknown member '${key}')`,
    ),
  );
}

/** The path of list element `index` of the list at `path`. */
export function element(path: string, index: number): string {
  return `${path}.${index}`;
}

const EXPECTED: Record<Expected, string> = {
  string: 'Member must be a string',
  boolean: 'Member must be a boolean',
  number: 'Member must be a number',
  integer: 'Member must be an integer',
  object: 'Member must be a structure',
  array: 'Member must be a list',
};

export const BEDROCK_WORDING: Wording = {
  wrongType(path, expected, value, as) {
    const rule = as ?? EXPECTED[expected];
    return problem(path, `1 validation error detected: Value ${shown(value)} at '${path}' failed to satisfy constraint: ${rule}`);
  },
  missing: (path) =>
    problem(path, `1 validation error detected: Value null at '${path}' failed to satisfy constraint: Member must not be null`),
  notAllowed: (path, value, allowed) =>
    problem(
      path,
      `1 validation error detected: Value ${shown(value)} at '${path}' failed to satisfy constraint: Member must satisfy enum value set: [${allowed.join(', ')}]`,
    ),
  outOfRange(path, value, bounds) {
    const rule =
      bounds.min !== undefined && value < bounds.min
        ? `Member must have value greater than or equal to ${bounds.min}`
        : `Member must have value less than or equal to ${bounds.max}`;
    return problem(path, `1 validation error detected: Value '${value}' at '${path}' failed to satisfy constraint: ${rule}`);
  },
  wrongLength(path, _kind, length, bounds) {
    const rule =
      bounds.min !== undefined && length < bounds.min
        ? `Member must have length greater than or equal to ${bounds.min}`
        : `Member must have length less than or equal to ${bounds.max}`;
    return problem(path, `1 validation error detected: Value at '${path}' failed to satisfy constraint: ${rule}`);
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
} = wireChecks(BEDROCK_WORDING);

/** Checks that `o` has only `members`. */
export function onlyMembers(o: Record<string, unknown>, members: ReadonlySet<string>, path: string): void {
  for (const key in o) if (!members.has(key)) unknownMember(path, key);
}

/** The one member set of a union (`{"text": …}`, `{"toolUse": …}`), which must be one of `members`. */
export function unionMember(o: Record<string, unknown>, members: readonly string[], path: string): string {
  let found: string | undefined;
  for (const key in o) {
    if (o[key] === undefined || o[key] === null) continue;
    if (!members.includes(key)) unknownMember(path, key);
    if (found !== undefined) constraint(path, o, `Member must have exactly one of its members set (${found}, ${key})`);
    found = key;
  }
  if (found === undefined) constraint(path, o, `Member must have exactly one of its members set: ${members.join(', ')}`);
  return found;
}

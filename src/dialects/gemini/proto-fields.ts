// How Google's JSON front end reads field names: camelCase or snake_case for the same proto field,
// snake_case in the paths its messages print, and JSON null as "not set".

import { reject } from '../wire-kit/wire-error.js';
import { unknownFieldError } from './wording.js';

/** The prefix of the full names of the API's enums in its messages. */
export const ENUM = 'type.googleapis.com/google.ai.generativelanguage.v1beta.';

const snakeNames = new Map<string, string>();

/** camelCase → snake_case, for field paths in messages (`generationConfig` → `generation_config`).
 * Field names come from a fixed set, so each is converted once. */
export function snake(name: string): string {
  let converted = snakeNames.get(name);
  if (converted === undefined) {
    converted = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    if (snakeNames.size < 4096) snakeNames.set(name, converted);
  }
  return converted;
}

/** A path segment joined to its parent: `join('contents[0]', 'parts')`. */
export function join(parent: string, child: string): string {
  return parent === '' ? child : `${parent}.${child}`;
}

/** Reads a field sent either in camelCase or snake_case (the front end accepts both). */
export function field(obj: Record<string, unknown>, camel: string): unknown {
  const value = obj[camel];
  if (value !== undefined) return value;
  const alt = snake(camel);
  return alt === camel ? undefined : obj[alt];
}

/** Rejects keys that are not among `known` (camelCase names; snake_case forms accepted too). */
export function onlyKnownFields(obj: Record<string, unknown>, known: ReadonlySet<string>, at: string): void {
  for (const key in obj) {
    if (known.has(key)) continue;
    if (key.includes('_') && known.has(key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase()))) continue;
    reject(unknownFieldError(key, at));
  }
}

/** Absent, or JSON null (which the front end reads as "not set"). */
export function unset(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}

// What a JSON value is, as a provider's JSON reader sees it.

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Present and not null: every provider reads a JSON null as "not sent". */
export function given(value: unknown): boolean {
  return value !== undefined && value !== null;
}

export type JsonKind = 'undefined' | 'null' | 'array' | 'object' | 'string' | 'boolean' | 'integer' | 'decimal';

/** A number is an integer only within 2^53: beyond that (or written with an exponent, as
 * 1.5e300) the providers' JSON readers hold a decimal. */
export function jsonKind(value: unknown): JsonKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'number':
      return Number.isSafeInteger(value) ? 'integer' : 'decimal';
    case 'string':
    case 'boolean':
    case 'object':
      return typeof value as JsonKind;
    default:
      // Not a JSON value: a member that is absent.
      return 'undefined';
  }
}

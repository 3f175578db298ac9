// Path-aware field checks, bound to one provider's wording: `wireChecks(OPENAI_WORDING)` gives
// expectString, expectObject … that throw that provider's 400 naming the field's path, and return
// the value typed when it passes. A passing check costs a typeof and, where asked, a comparison.

import { reject } from './wire-error.js';
import { isObject } from './values.js';
import type { Bounds, Reading, Wording } from './wording.js';

export interface WireChecks {
  expectString(value: unknown, path: string, as?: string): string;
  expectBoolean(value: unknown, path: string, as?: string): boolean;
  expectObject(value: unknown, path: string, as?: string): Record<string, unknown>;
  expectArray(value: unknown, path: string, as?: string): unknown[];
  /** A finite number, within `range` when given. */
  expectNumber(value: unknown, path: string, range?: Bounds, as?: string): number;
  /** An integer a JSON reader can hold exactly (within 2^53), within `range` when given. */
  expectInteger(value: unknown, path: string, range?: Bounds, as?: string): number;
  /** One of `allowed`; returns the allowed value it matched. */
  expectEnum<T extends string>(value: unknown, allowed: readonly T[], path: string, as?: string): T;
  /** A string or a list whose length is within `bounds`. */
  expectLength<T extends string | unknown[]>(value: T, path: string, bounds: Bounds): T;
  /** Refuses an absent (undefined) value as a missing required field. */
  required(value: unknown, path: string): void;
  /** Member `key` of `o`, which must be present; the path is only built when it is not. */
  requiredMember(o: Record<string, unknown>, key: string, path: string): unknown;
}

function outside(n: number, range: Bounds): boolean {
  return (range.min !== undefined && n < range.min) || (range.max !== undefined && n > range.max);
}

export function wireChecks(wording: Wording, reading: Reading = {}): WireChecks {
  const { numericStrings = false, enumKey } = reading;

  function expectNumber(value: unknown, path: string, range?: Bounds, as?: string): number {
    let n = value;
    if (numericStrings && typeof value === 'string' && value.trim() !== '') n = Number(value);
    if (typeof n !== 'number' || !Number.isFinite(n)) reject(wording.wrongType(path, 'number', value, as));
    if (range !== undefined && outside(n, range)) reject(wording.outOfRange(path, n, range, 'number'));
    return n;
  }

  function expectInteger(value: unknown, path: string, range?: Bounds, as?: string): number {
    let n = value;
    if (numericStrings && typeof value === 'string' && /^-?\d+$/.test(value.trim())) n = Number(value);
    if (typeof n !== 'number' || !Number.isSafeInteger(n)) reject(wording.wrongType(path, 'integer', value, as));
    if (range !== undefined && outside(n, range)) reject(wording.outOfRange(path, n, range, 'integer'));
    return n;
  }

  return {
    expectString(value, path, as) {
      if (typeof value !== 'string') reject(wording.wrongType(path, 'string', value, as));
      return value;
    },
    expectBoolean(value, path, as) {
      if (typeof value !== 'boolean') reject(wording.wrongType(path, 'boolean', value, as));
      return value;
    },
    expectObject(value, path, as) {
      if (!isObject(value)) reject(wording.wrongType(path, 'object', value, as));
      return value;
    },
    expectArray(value, path, as) {
      if (!Array.isArray(value)) reject(wording.wrongType(path, 'array', value, as));
      return value;
    },
    expectNumber,
    expectInteger,
    expectEnum<T extends string>(value: unknown, allowed: readonly T[], path: string, as?: string): T {
      if (typeof value === 'string') {
        const key = enumKey ? enumKey(value) : value;
        for (const option of allowed) if (option === key) return option;
      }
      reject(wording.notAllowed(path, value, allowed, as));
    },
    expectLength(value, path, bounds) {
      if (outside(value.length, bounds)) {
        reject(wording.wrongLength(path, typeof value === 'string' ? 'string' : 'array', value.length, bounds));
      }
      return value;
    },
    required(value, path) {
      if (value === undefined) reject(wording.missing(path));
    },
    requiredMember(o, key, path) {
      const value = o[key];
      if (value === undefined) reject(wording.missing(wording.member(path, key)));
      return value;
    },
  };
}

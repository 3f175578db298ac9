// How the Gemini front end words a rejected request. Google's JSON front end answers three kinds
// of 400: payload errors (a field it does not know, a value of the wrong proto type), field rules
// ("* GenerateContentRequest.<field>: <rule>"), and a few conversation rules stated as a plain
// sentence. Field paths are written with snake_case names, the way the proto names them.

import { invalidRequest, type NeutralError } from '../../core/errors.js';

/** Thrown inside the decoder; the decoder returns its neutral error. */
export class GeminiWireError extends Error {
  constructor(readonly neutral: NeutralError) {
    super(neutral.message);
  }
}

export const INVALID_ARGUMENT = 'INVALID_ARGUMENT';

/** camelCase → snake_case, for field paths in messages (`generationConfig` → `generation_config`). */
export function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

// The decoder reads every field by its camelCase name from the code, so the snake_case forms are
// a small fixed set, made once each rather than for every field of every part.
const snakeOfField = new Map<string, string>();

function snakeOfKnown(camel: string): string {
  let alt = snakeOfField.get(camel);
  if (alt === undefined) {
    alt = snake(camel);
    snakeOfField.set(camel, alt);
  }
  return alt;
}

/** A path segment joined to its parent: `join('contents[0]', 'parts')`. */
export function join(parent: string, child: string): string {
  return parent === '' ? child : `${parent}.${child}`;
}

function reject(message: string, field: string | null): never {
  throw new GeminiWireError(invalidRequest(message, field, INVALID_ARGUMENT));
}

/** A JSON key the proto message has no field for. */
export function unknownField(key: string, at: string): never {
  reject(
    `Invalid JSON payload received. Unknown name ${JSON.stringify(key)}${at === '' ? '' : ` at '${at}'`}: Cannot find field.`,
    at || key,
  );
}

function shown(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** A value that does not parse as the field's proto type (TYPE_STRING, TYPE_INT32, an enum's full name…). */
export function invalidValue(field: string, protoType: string, value: unknown): never {
  reject(`Invalid value at '${field}' (${protoType}), ${shown(value)}`, field);
}

/** A field rule, in the front end's "* GenerateContentRequest.<field>: <rule>" form. */
export function fieldRule(field: string, rule: string): never {
  reject(`* GenerateContentRequest.${field}: ${rule}\n`, field);
}

/** A rule stated as a sentence with no field (the conversation-order rules). */
export function requestRule(message: string, field: string | null = null): never {
  reject(message, field);
}

/** Understudy's own refusal of something the real API accepts but a stand-in cannot honour. */
export function unsupported(field: string, message: string): never {
  reject(message, field);
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads a field sent either in camelCase or snake_case (the front end accepts both). */
export function field(obj: Record<string, unknown>, camel: string): unknown {
  const value = obj[camel];
  if (value !== undefined) return value;
  const alt = snakeOfKnown(camel);
  return alt === camel ? undefined : obj[alt];
}

/** Rejects keys that are not among `known` (camelCase names; snake_case forms accepted too). */
export function onlyKnownFields(obj: Record<string, unknown>, known: ReadonlySet<string>, at: string): void {
  for (const key of Object.keys(obj)) {
    if (known.has(key)) continue;
    if (key.includes('_') && known.has(key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase()))) continue;
    unknownField(key, at);
  }
}

/** Absent, or JSON null (which the front end reads as "not set"). */
export function unset(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}

export function expectString(value: unknown, at: string): string {
  if (typeof value !== 'string') invalidValue(at, 'TYPE_STRING', value);
  return value;
}

export function expectBool(value: unknown, at: string): boolean {
  if (typeof value !== 'boolean') invalidValue(at, 'TYPE_BOOL', value);
  return value;
}

/** Numbers may arrive as JSON numbers or as numeric strings (proto3 JSON allows both). */
export function expectNumber(value: unknown, at: string, protoType: 'TYPE_FLOAT' | 'TYPE_DOUBLE'): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) invalidValue(at, protoType, value);
  return n;
}

/** Integers may arrive as JSON numbers or as strings of digits (int64 fields are strings in proto3 JSON). */
export function expectInteger(value: unknown, at: string, protoType: 'TYPE_INT32' | 'TYPE_INT64'): number {
  const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) invalidValue(at, protoType, value);
  return n;
}

export function expectObject(value: unknown, at: string): Record<string, unknown> {
  if (!isObject(value)) invalidValue(at, 'TYPE_MESSAGE', value);
  return value;
}

export function expectArray(value: unknown, at: string): unknown[] {
  if (!Array.isArray(value)) invalidValue(at, 'TYPE_LIST', value);
  return value;
}

/** A proto enum, matched without regard to case (the front end takes `object` for `OBJECT`). */
export function expectEnum<T extends string>(value: unknown, at: string, enumName: string, allowed: readonly T[]): T {
  if (typeof value === 'string') {
    const upper = value.toUpperCase();
    for (const option of allowed) if (option === upper) return option;
  }
  invalidValue(at, enumName, value);
}

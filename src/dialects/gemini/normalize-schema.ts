// Gemini's `Schema` (the OpenAPI 3.0 subset used by `parameters`, `response` and `responseSchema`)
// checked as the front end checks it, and turned into the JSON Schema the contract check
// validates against:
//   - type names in any case (`OBJECT`, `object`) become JSON Schema's lower-case names;
//   - `nullable: true` adds "null" to the type (a nullable enum also accepts null);
//   - int64 bounds sent as strings (minItems, maxItems, minProperties, maxProperties, minLength,
//     maxLength) become numbers, and so do numeric strings in minimum / maximum;
//   - the walk goes through `properties`, `items` and `anyOf` only: `enum`, `example` and
//     `default` are data and are kept exactly as sent (one exception: on an INTEGER or NUMBER
//     schema, enum strings that spell numbers become those numbers, see enumFor).
// Keys the proto has no field for are refused, as the real API refuses them.

import type { JsonSchema } from '../../core/model.js';
import { field, join, onlyKnownFields, snake, unset } from './proto-fields.js';
import {
  expectArray,
  expectBoolean,
  expectEnum,
  expectInteger,
  expectNumber,
  expectObject,
  expectString,
  fieldRule,
  requestRule,
} from './wording.js';

const SCHEMA_FIELDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);

const INT64_BOUNDS = ['minItems', 'maxItems', 'minProperties', 'maxProperties', 'minLength', 'maxLength'] as const;

const TYPES = ['TYPE_UNSPECIFIED', 'STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL'] as const;
const TYPE_ENUM = 'type.googleapis.com/google.ai.generativelanguage.v1beta.Type';

/** Most levels of nesting followed; deeper schemas are refused rather than walked. */
const MAX_DEPTH = 64;

/**
 * Where a node sits, spelled two ways: the JSON front end names map entries by position
 * (`properties[2].value`) in payload errors, while field rules name them by key
 * (`properties[city]`).
 */
interface At {
  payload: string;
  rule: string;
}

function child(at: At, name: string): At {
  return { payload: join(at.payload, name), rule: join(at.rule, name) };
}

/**
 * Checks one Gemini `Schema` and returns the equivalent JSON Schema. `at` is the field path used
 * in error messages (snake_case, e.g. `tools[0].function_declarations[0].parameters`).
 */
export function normalizeOpenApiSchema(schema: unknown, at: string): JsonSchema {
  return convert(schema, { payload: at, rule: at }, 0);
}

function convert(raw: unknown, at: At, depth: number): Record<string, unknown> {
  const node = expectObject(raw, at.payload);
  if (depth > MAX_DEPTH) fieldRule(at.rule, `schema nesting exceeds ${MAX_DEPTH} levels`);
  onlyKnownFields(node, SCHEMA_FIELDS, at.payload);
  const out: Record<string, unknown> = {};

  let type: string | undefined;
  const rawType = field(node, 'type');
  if (Array.isArray(rawType)) {
    requestRule(
      `Invalid JSON payload received. Unknown name "type" at '${at.payload}': Proto field is not repeating, cannot start list.`,
      at.payload,
    );
  }
  if (!unset(rawType)) {
    const name = expectEnum(rawType, TYPES, child(at, 'type').payload, TYPE_ENUM);
    if (name !== 'TYPE_UNSPECIFIED') type = name.toLowerCase();
  }
  if (type !== undefined) out.type = type;

  for (const key of ['format', 'title', 'description', 'pattern'] as const) {
    const value = field(node, key);
    if (!unset(value)) out[key] = expectString(value, child(at, key).payload);
  }
  for (const key of ['minimum', 'maximum'] as const) {
    const value = field(node, key);
    if (!unset(value)) out[key] = expectNumber(value, child(at, key).payload, undefined, 'TYPE_DOUBLE');
  }
  for (const key of INT64_BOUNDS) {
    const value = field(node, key);
    if (unset(value)) continue;
    const path = child(at, snake(key));
    const n = expectInteger(value, path.payload, undefined, 'TYPE_INT64');
    if (n < 0) fieldRule(path.rule, `must be non-negative, got ${n}`);
    out[key] = n;
  }

  const enumValues = field(node, 'enum');
  if (!unset(enumValues)) {
    const path = child(at, 'enum').payload;
    const list = expectArray(enumValues, path);
    list.forEach((value, i) => expectString(value, `${path}[${i}]`));
    out.enum = enumFor(type, list as string[]);
  }
  // Data, not schema: copied as sent.
  for (const key of ['example', 'default'] as const) {
    const value = field(node, key);
    if (value !== undefined) out[key] = value;
  }

  const ordering = field(node, 'propertyOrdering');
  if (!unset(ordering)) {
    const path = child(at, 'property_ordering').payload;
    expectArray(ordering, path).forEach((value, i) => expectString(value, `${path}[${i}]`));
    out.propertyOrdering = ordering;
  }

  const properties = field(node, 'properties');
  let propertyNames: Set<string> | undefined;
  if (!unset(properties)) {
    const path = child(at, 'properties');
    const map = expectObject(properties, path.payload);
    if (type !== undefined && type !== 'object') fieldRule(path.rule, 'only allowed for OBJECT type');
    const converted: Record<string, unknown> = {};
    Object.entries(map).forEach(([name, value], i) => {
      converted[name] = convert(value, { payload: `${path.payload}[${i}].value`, rule: `${path.rule}[${name}]` }, depth + 1);
    });
    out.properties = converted;
    propertyNames = new Set(Object.keys(map));
  }

  const required = field(node, 'required');
  if (!unset(required)) {
    const path = child(at, 'required');
    const list = expectArray(required, path.payload);
    list.forEach((name, i) => {
      expectString(name, `${path.payload}[${i}]`);
      if (!propertyNames?.has(name as string)) fieldRule(`${path.rule}[${i}]`, 'property is not defined');
    });
    out.required = list;
  }

  const items = field(node, 'items');
  if (!unset(items)) out.items = convert(items, child(at, 'items'), depth + 1);
  else if (type === 'array') fieldRule(child(at, 'items').rule, 'missing field.');

  const anyOf = field(node, 'anyOf');
  if (!unset(anyOf)) {
    const path = child(at, 'any_of');
    const list = expectArray(anyOf, path.payload);
    out.anyOf = list.map((value, i) => convert(value, { payload: `${path.payload}[${i}]`, rule: `${path.rule}[${i}]` }, depth + 1));
  }

  const nullable = field(node, 'nullable');
  if (!unset(nullable) && expectBoolean(nullable, child(at, 'nullable').payload)) return allowNull(out);
  return out;
}

/**
 * The proto's enum values are strings. On a STRING (or untyped) schema they are kept exactly as
 * sent. On an INTEGER or NUMBER schema they stand for numbers (Gemini's own example is
 * `{type: INTEGER, format: enum, enum: ["101", "201"]}`, and the Vercel AI SDK sends numeric enums
 * that way), so numeric strings become the numbers they spell: otherwise no argument could ever
 * satisfy the schema.
 */
function enumFor(type: string | undefined, values: string[]): unknown[] {
  if (type !== 'integer' && type !== 'number') return values;
  return values.map((value) => {
    const n = value.trim() === '' ? NaN : Number(value);
    return Number.isFinite(n) ? n : value;
  });
}

/** `nullable: true`: null is valid too. The enum list is left as sent, so a nullable enum is
 * written as "this schema, or null". */
function allowNull(schema: Record<string, unknown>): Record<string, unknown> {
  const type = schema.type;
  if (schema.enum !== undefined) {
    const { title, description, ...rest } = schema;
    return {
      ...(title !== undefined && { title }),
      ...(description !== undefined && { description }),
      anyOf: [rest, { type: 'null' }],
    };
  }
  if (typeof type === 'string') {
    if (type !== 'null') schema.type = [type, 'null'];
    return schema;
  }
  if (Array.isArray(schema.anyOf)) {
    schema.anyOf = [...(schema.anyOf as unknown[]), { type: 'null' }];
    return schema;
  }
  // No type and no alternatives: null is already allowed.
  return schema;
}

/** True when a value is a JSON Schema whose `type` allows an object (or says nothing of type). */
export function describesObject(schema: Record<string, unknown>): boolean {
  const type = schema.type;
  if (type === undefined) return true;
  if (typeof type === 'string') return type === 'object';
  return Array.isArray(type) && type.includes('object');
}

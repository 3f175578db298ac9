// One schema's constraints with its local $refs and allOf folded in, for the smallest-instance
// maker (schema-instance.ts): lower bounds take the larger value, upper bounds the smaller, types
// and enums intersect, required lists and properties merge, anyOf/oneOf groups wait to be chosen
// from. Each keyword remembers the schema path it came from, so a value that cannot be made is
// reported where the schema says so.

import type { JsonSchema, JsonValue } from './model.js';
import { jsonEquals } from './schema.js';

/** How often one $ref may be entered again inside itself. */
const REF_REPEATS = 2;

export interface FoldContext {
  root: JsonSchema;
  budget: number;
  /** $refs entered on the current path. */
  refs: string[];
}

export type Schema = Record<string, unknown>;

export interface Failure {
  ok: false;
  /** JSON Pointer into the schema (`#/properties/age/minimum`). */
  schemaPath: string;
  reason: string;
}

/** A value made, or why none could be. */
export type Made = { ok: true; value: JsonValue } | Failure;

/** One schema's constraints with $ref and allOf folded in; `at` says where each keyword came from. */
export interface Facts {
  s: Schema;
  at: Record<string, string>;
  /** anyOf / oneOf groups still to choose from, each with its path. */
  groups: { alternatives: unknown[]; path: string }[];
  /** Set when the schema is `false`, or two merged constraints cannot both hold. */
  impossible?: { schemaPath: string; reason: string };
  /** $refs this fact set followed (kept on the path while its value is made). */
  refs: string[];
}

export function fail(schemaPath: string, reason: string): Failure {
  return { ok: false, schemaPath, reason };
}

export function isObject(x: unknown): x is Schema {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

export function emptyFacts(): Facts {
  return { s: {}, at: {}, groups: [], refs: [] };
}

/** Folds `schema` (at `path`) into `facts`. */
export function fold(facts: Facts, schema: unknown, path: string, ctx: FoldContext): void {
  if (--ctx.budget < 0) {
    facts.impossible ??= { schemaPath: path, reason: 'the schema is too large for zero-config to make a value' };
    return;
  }
  if (schema === true || schema === undefined) return;
  if (schema === false) {
    facts.impossible ??= { schemaPath: path, reason: 'the schema is false; no value is allowed' };
    return;
  }
  if (!isObject(schema)) return;
  const ref = schema.$ref;
  if (typeof ref === 'string') {
    const target = resolveRef(ctx.root, ref);
    const seen = ctx.refs.filter((r) => r === ref).length + facts.refs.filter((r) => r === ref).length;
    if (target === undefined) {
      facts.impossible ??= { schemaPath: `${path}/$ref`, reason: `$ref "${ref}" does not resolve inside the schema` };
    } else if (seen > REF_REPEATS) {
      facts.impossible ??= {
        schemaPath: `${path}/$ref`,
        reason: `$ref "${ref}" recurses without a way out (no optional, empty or null branch)`,
      };
    } else {
      facts.refs.push(ref);
      fold(facts, target, ref, ctx);
    }
  }
  for (const key of Object.keys(schema)) {
    if (key === '$ref' || key === '$defs' || key === 'definitions') continue;
    const value = schema[key];
    const where = `${path}/${escapePointer(key)}`;
    if (key === 'allOf' && Array.isArray(value)) {
      value.forEach((sub, i) => fold(facts, sub, `${where}/${i}`, ctx));
    } else if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(value)) {
      facts.groups.push({ alternatives: value, path: where });
    } else {
      mergeKeyword(facts, key, value, where);
    }
  }
}

export function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function resolveRef(root: JsonSchema, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node)) node = node[key];
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

const LOWER_BOUNDS = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties', 'minContains']);
const UPPER_BOUNDS = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties', 'maxContains']);

function mergeKeyword(facts: Facts, key: string, value: unknown, where: string): void {
  const s = facts.s;
  const had = s[key];
  if (had === undefined) {
    s[key] = key === 'pattern' ? [value] : value;
    facts.at[key] = where;
    return;
  }
  if (LOWER_BOUNDS.has(key) && typeof value === 'number' && typeof had === 'number') {
    if (value > had) {
      s[key] = value;
      facts.at[key] = where;
    }
  } else if (UPPER_BOUNDS.has(key) && typeof value === 'number' && typeof had === 'number') {
    if (value < had) {
      s[key] = value;
      facts.at[key] = where;
    }
  } else if (key === 'type') {
    const both = intersectTypes(typesOf(had), typesOf(value));
    if (both.length === 0) facts.impossible ??= { schemaPath: where, reason: `no type is both ${show(had)} and ${show(value)}` };
    s.type = both;
  } else if (key === 'required' && Array.isArray(had) && Array.isArray(value)) {
    s.required = [...had, ...value.filter((k) => !had.includes(k))];
  } else if (key === 'enum' && Array.isArray(had) && Array.isArray(value)) {
    s.enum = had.filter((a) => value.some((b) => jsonEquals(a, b)));
    if ((s.enum as unknown[]).length === 0) facts.impossible ??= { schemaPath: where, reason: 'no value is in every enum list' };
  } else if (key === 'const') {
    if (!jsonEquals(had, value)) facts.impossible ??= { schemaPath: where, reason: `two const values: ${show(had)} and ${show(value)}` };
  } else if (key === 'pattern') {
    (had as unknown[]).push(value);
  } else if ((key === 'properties' || key === 'patternProperties') && isObject(had) && isObject(value)) {
    const merged: Schema = { ...had };
    for (const [name, sub] of Object.entries(value)) merged[name] = name in had ? { allOf: [had[name], sub] } : sub;
    s[key] = merged;
  } else if (key === 'items' || key === 'additionalProperties' || key === 'contains' || key === 'propertyNames') {
    if (Array.isArray(had) || Array.isArray(value)) return;
    s[key] = { allOf: [had, value] };
  } else if (key === 'prefixItems' && Array.isArray(had) && Array.isArray(value)) {
    const n = Math.max(had.length, value.length);
    s.prefixItems = Array.from({ length: n }, (_, i) =>
      i < had.length && i < value.length ? { allOf: [had[i], value[i]] } : (had[i] ?? value[i]),
    );
  } else if (key === 'multipleOf' && typeof had === 'number' && typeof value === 'number') {
    s.multipleOf = Number.isInteger(had / value) ? had : Number.isInteger(value / had) ? value : had * value;
  }
  // Any other keyword met twice: the first stays, and the final validation judges the value.
}

const ALL_TYPES = ['null', 'boolean', 'object', 'array', 'number', 'integer', 'string'];

export function typesOf(type: unknown): string[] {
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  return ALL_TYPES;
}

function intersectTypes(a: string[], b: string[]): string[] {
  const out: string[] = [];
  for (const t of a) {
    if (b.includes(t)) out.push(t);
    else if (t === 'integer' && b.includes('number')) out.push('integer');
    else if (t === 'number' && b.includes('integer')) out.push('integer');
  }
  return [...new Set(out)];
}

export function show(v: unknown): string {
  return JSON.stringify(v) ?? String(v);
}

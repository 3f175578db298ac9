// The smallest deterministic value a JSON Schema accepts: what zero-config answers put in tool
// arguments and structured output, so that an SDK that parses them (pydantic, zod) accepts them.
//
// The rules (docs/fixtures.md, "Zero-config answers"):
//   - at the root, `{}` when the schema accepts it;
//   - `const`, else the first `enum` value of a fitting type;
//   - objects: the required properties only (plus optional ones, in order, up to minProperties);
//   - arrays: minItems items (prefixItems first); strings: "" or minLength × "a", a fixed value
//     per format, a string spelled from the pattern or a few candidates tried against it;
//   - numbers: 0 when in range, else the bound nearest to 0 (exclusive bounds and multipleOf
//     honoured); booleans false;
//   - several types, anyOf, oneOf: the alternative whose value has the fewest JSON nodes (the
//     first on a tie, but null loses ties), so null only where it is the simplest; allOf and local $ref
//     merged; a $ref met again on its own path more than REF_REPEATS times is not followed.
// The value is then validated with the project's validator (schema.ts); when it fails, or none
// could be made, the answer names the schema path. Results are kept per schema.

import { deepFreeze } from './deep-freeze.js';
import type { JsonSchema, JsonValue } from './model.js';
import { regexExample } from './regex-example.js';
import { compileSchema, isSchemaError, jsonEquals } from './schema.js';

export type InstanceResult =
  | { ok: true; value: JsonValue }
  | {
      ok: false;
      /** JSON Pointer into the schema (`#/properties/age/minimum`). */
      schemaPath: string;
      reason: string;
    };

/** Steps of generation one schema may take (each visit of a sub-schema is one). */
const BUDGET = 20_000;
/** Longest string and array made. */
const MAX_LENGTH = 10_000;
/** How often one $ref may be entered again inside itself. */
const REF_REPEATS = 2;
const CACHE_LIMIT = 1000;

/** Fixed values for string formats (ajv-formats' names). */
const FORMAT_VALUES: Record<string, string> = {
  'date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  time: '00:00:00Z',
  duration: 'P0D',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  uri: 'https://example.com',
  'uri-reference': 'https://example.com',
  iri: 'https://example.com',
  'iri-reference': 'https://example.com',
  url: 'https://example.com',
  'uri-template': 'https://example.com',
  uuid: '00000000-0000-0000-0000-000000000000',
  'json-pointer': '',
  'relative-json-pointer': '0',
  regex: '',
  byte: '',
};

/** Strings tried against a pattern the regex reader could not spell. */
const PATTERN_CANDIDATES = ['', 'a', 'A', '0', 'a0', 'aa', 'example', 'A0', '00', 'a-a', 'a_a', 'a.a', 'a@a.aa'];

// Keyed by the JSON text, as compileSchema is: a request decoded afresh brings new schema objects.
const byText = new Map<string, InstanceResult>();

/** The smallest value `schema` accepts (see the rules above); the value is shared and frozen. */
export function smallestInstance(schema: JsonSchema): InstanceResult {
  let key: string;
  try {
    key = JSON.stringify(schema) ?? 'undefined';
  } catch {
    return { ok: false, schemaPath: '#', reason: 'the schema is not JSON' };
  }
  let result = byText.get(key);
  if (result) {
    // Least recently used first: a hit moves to the end.
    byText.delete(key);
    byText.set(key, result);
    return result;
  }
  result = make(schema);
  if (result.ok) deepFreeze(result.value);
  byText.set(key, result);
  if (byText.size > CACHE_LIMIT) byText.delete(byText.keys().next().value as string);
  return result;
}

function make(schema: JsonSchema): InstanceResult {
  const compiled = compileSchema(schema);
  if (isSchemaError(compiled)) return { ok: false, schemaPath: '#', reason: compiled.error };
  if (compiled.problems({}).length === 0) return { ok: true, value: {} };
  const ctx: Context = { root: schema, budget: BUDGET, refs: [] };
  const made = generate(schema, '#', ctx);
  if (!made.ok) return made;
  const problems = compiled.problems(made.value);
  if (problems.length > 0) {
    const p = problems[0];
    return { ok: false, schemaPath: p.schemaPath, reason: `the value zero-config made fails it: ${p.text}` };
  }
  return made;
}

// ---------- merging: a schema, its $refs and allOf as one set of facts ----------

interface Context {
  root: JsonSchema;
  budget: number;
  /** $refs entered on the current path. */
  refs: string[];
}

type Made = InstanceResult;

type Schema = Record<string, unknown>;

/** One schema's constraints with $ref and allOf folded in; `at` says where each keyword came from. */
interface Facts {
  s: Schema;
  at: Record<string, string>;
  /** anyOf / oneOf groups still to choose from, each with its path. */
  groups: { alternatives: unknown[]; path: string }[];
  /** Set when the schema is `false`, or two merged constraints cannot both hold. */
  impossible?: { schemaPath: string; reason: string };
  /** $refs this fact set followed (kept on the path while its value is made). */
  refs: string[];
}

function fail(schemaPath: string, reason: string): Made {
  return { ok: false, schemaPath, reason };
}

function isObject(x: unknown): x is Schema {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function emptyFacts(): Facts {
  return { s: {}, at: {}, groups: [], refs: [] };
}

/** Folds `schema` (at `path`) into `facts`. */
function fold(facts: Facts, schema: unknown, path: string, ctx: Context): void {
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

function escapePointer(key: string): string {
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

function typesOf(type: unknown): string[] {
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

function show(v: unknown): string {
  return JSON.stringify(v) ?? String(v);
}

// ---------- making a value ----------

function generate(schema: unknown, path: string, ctx: Context): Made {
  const facts = emptyFacts();
  fold(facts, schema, path, ctx);
  return fromFacts(facts, path, ctx);
}

function fromFacts(facts: Facts, path: string, ctx: Context): Made {
  if (facts.impossible) return fail(facts.impossible.schemaPath, facts.impossible.reason);
  ctx.refs.push(...facts.refs);
  try {
    if (facts.groups.length > 0) return chooseAlternative(facts, path, ctx);
    return fromPlainFacts(facts, path, ctx);
  } finally {
    ctx.refs.length -= facts.refs.length;
  }
}

/** One anyOf/oneOf group: every alternative merged with the rest, the shortest value kept. */
function chooseAlternative(facts: Facts, path: string, ctx: Context): Made {
  const [group, ...rest] = facts.groups;
  let best: Ranked | undefined;
  let firstFailure: Made | undefined;
  group.alternatives.forEach((alternative, i) => {
    const merged: Facts = {
      s: { ...facts.s },
      at: { ...facts.at },
      groups: [...rest],
      refs: [],
    };
    fold(merged, alternative, `${group.path}/${i}`, ctx);
    const made = fromFacts(merged, path, ctx);
    if (!made.ok) {
      firstFailure ??= made;
      return;
    }
    best = better(best, made.value);
  });
  if (best) return { ok: true, value: best.value };
  return firstFailure ?? fail(group.path, 'the list of alternatives is empty');
}

interface Ranked {
  value: JsonValue;
  cost: number;
}

/** The simpler of two values: fewer JSON nodes; on a tie the one already held, except that a
 * value beats null (null is chosen only where it is simpler than anything else). */
function better(held: Ranked | undefined, value: JsonValue): Ranked {
  const cost = nodes(value);
  if (!held || cost < held.cost || (cost === held.cost && held.value === null && value !== null)) return { value, cost };
  return held;
}

function nodes(value: JsonValue): number {
  if (Array.isArray(value)) return value.reduce<number>((n, v) => n + nodes(v), 1);
  if (isObject(value)) return Object.values(value as Record<string, JsonValue>).reduce<number>((n, v) => n + nodes(v), 1);
  return 1;
}

function fromPlainFacts(facts: Facts, path: string, ctx: Context): Made {
  const s = facts.s;
  const types = s.type === undefined ? undefined : typesOf(s.type);
  if (s.const !== undefined) return { ok: true, value: s.const as JsonValue };
  if (Array.isArray(s.enum)) {
    const fitting = s.enum.find((v) => types === undefined || types.some((t) => hasType(v, t)));
    if (fitting === undefined) return fail(facts.at.enum ?? path, `no enum value is of type ${show(s.type)}`);
    return { ok: true, value: fitting as JsonValue };
  }
  const candidates = types ?? inferTypes(s);
  let best: Ranked | undefined;
  let firstFailure: Made | undefined;
  for (const type of candidates) {
    const made = ofType(type, facts, path, ctx);
    if (!made.ok) {
      firstFailure ??= made;
      continue;
    }
    best = better(best, made.value);
  }
  if (best) return { ok: true, value: best.value };
  return firstFailure ?? fail(facts.at.type ?? path, 'no type is allowed');
}

function hasType(v: unknown, type: string): boolean {
  switch (type) {
    case 'null':
      return v === null;
    case 'boolean':
      return typeof v === 'boolean';
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number';
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'array':
      return Array.isArray(v);
    default:
      return isObject(v);
  }
}

/** Without `type`: the types the keywords speak of, or null for a schema that asks nothing. */
function inferTypes(s: Schema): string[] {
  const out: string[] = [];
  const has = (...keys: string[]): boolean => keys.some((k) => s[k] !== undefined);
  if (has('properties', 'required', 'additionalProperties', 'patternProperties', 'minProperties', 'maxProperties', 'dependentRequired'))
    out.push('object');
  if (has('items', 'prefixItems', 'minItems', 'maxItems', 'contains', 'uniqueItems')) out.push('array');
  if (has('minLength', 'maxLength', 'pattern', 'format')) out.push('string');
  if (has('minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf')) out.push('number');
  if (out.length === 0) out.push('null');
  return out;
}

function ofType(type: string, facts: Facts, path: string, ctx: Context): Made {
  switch (type) {
    case 'null':
      return { ok: true, value: null };
    case 'boolean':
      return { ok: true, value: false };
    case 'integer':
    case 'number':
      return numberOf(type === 'integer', facts, path);
    case 'string':
      return stringOf(facts, path);
    case 'array':
      return arrayOf(facts, path, ctx);
    case 'object':
      return objectOf(facts, path, ctx);
    default:
      return fail(facts.at.type ?? path, `unknown type "${type}"`);
  }
}

// ---------- numbers ----------

/** Ajv's own multipleOf test (without multipleOfPrecision). */
function isMultiple(v: number, m: number): boolean {
  const q = v / m;
  return q === parseInt(String(q), 10);
}

function numberOf(integer: boolean, facts: Facts, path: string): Made {
  const s = facts.s;
  const num = (k: string): number | undefined => (typeof s[k] === 'number' ? (s[k] as number) : undefined);
  const min = num('minimum');
  const xmin = num('exclusiveMinimum');
  const max = num('maximum');
  const xmax = num('exclusiveMaximum');
  const m = num('multipleOf');
  const fits = (v: number): boolean =>
    Number.isFinite(v) &&
    (min === undefined || v >= min) &&
    (xmin === undefined || v > xmin) &&
    (max === undefined || v <= max) &&
    (xmax === undefined || v < xmax) &&
    (!integer || Number.isInteger(v)) &&
    (m === undefined || m <= 0 || isMultiple(v, m));
  if (fits(0)) return { ok: true, value: 0 };
  const lo = Math.max(min ?? -Infinity, xmin ?? -Infinity);
  const hi = Math.min(max ?? Infinity, xmax ?? Infinity);
  // 0 is out of range, so the range lies at or above 0, or at or below it: the value nearest to 0
  // is near that bound.
  const up = lo >= 0;
  if (!up && hi > 0) return fail(facts.at.type ?? path, 'no number satisfies the bounds');
  const binding = up
    ? xmin !== undefined && xmin >= (min ?? -Infinity)
      ? 'exclusiveMinimum'
      : 'minimum'
    : xmax !== undefined && xmax <= (max ?? Infinity)
      ? 'exclusiveMaximum'
      : 'maximum';
  const where = facts.at[binding] ?? path;
  let step = m !== undefined && m > 0 ? m : integer ? 1 : undefined;
  if (integer && step !== undefined && !Number.isInteger(step)) {
    let k = 1;
    while (k <= 1000 && !Number.isInteger(step * k)) k++;
    if (k > 1000) return fail(facts.at.multipleOf ?? path, `no integer is a multiple of ${step}`);
    step = Math.round(step * k);
  }
  const bound = up ? lo : hi;
  if (!Number.isFinite(bound)) return fail(where, 'no number satisfies the bounds');
  if (step === undefined) {
    const candidates = up
      ? [bound, Math.ceil(bound), Math.floor(bound) + 1, (lo + hi) / 2]
      : [bound, Math.floor(bound), Math.ceil(bound) - 1, (lo + hi) / 2];
    for (const v of candidates) if (fits(v)) return { ok: true, value: v };
    return fail(where, `no number lies between ${show(lo)} and ${show(hi)}`);
  }
  let k = up ? Math.ceil(bound / step) : Math.floor(bound / step);
  for (let tries = 0; tries < 16; tries++, k += up ? 1 : -1) {
    const v = k * step;
    if (up ? v > hi : v < lo) break;
    if (fits(v)) return { ok: true, value: v };
  }
  return fail(
    where,
    `no ${integer ? 'integer' : 'number'}${m !== undefined ? ` that is a multiple of ${m}` : ''} lies between ${show(lo)} and ${show(hi)}`,
  );
}

// ---------- strings ----------

function stringOf(facts: Facts, path: string): Made {
  const s = facts.s;
  const minLength = typeof s.minLength === 'number' ? s.minLength : 0;
  const maxLength = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
  if (minLength > MAX_LENGTH)
    return fail(facts.at.minLength ?? path, `minLength ${minLength} is more than zero-config makes (${MAX_LENGTH})`);
  if (minLength > maxLength) return fail(facts.at.maxLength ?? path, `minLength ${minLength} is more than maxLength ${maxLength}`);
  const patterns = Array.isArray(s.pattern) ? (s.pattern as unknown[]).filter((p): p is string => typeof p === 'string') : [];
  let regexes: RegExp[];
  try {
    regexes = patterns.map((p) => new RegExp(p, 'u'));
  } catch (e) {
    return fail(facts.at.pattern ?? path, `the pattern is not a valid regular expression: ${(e as Error).message}`);
  }
  const length = (v: string): number => [...v].length;
  const fits = (v: string): boolean => length(v) >= minLength && length(v) <= maxLength && regexes.every((r) => r.test(v));

  const format = typeof s.format === 'string' ? s.format : undefined;
  if (format !== undefined && FORMAT_VALUES[format] !== undefined) {
    const v = FORMAT_VALUES[format];
    if (fits(v)) return { ok: true, value: v };
    return fail(facts.at.format ?? path, `the fixed ${format} value ${show(v)} does not fit the schema's length or pattern`);
  }
  const padded = 'a'.repeat(minLength);
  if (fits(padded)) return { ok: true, value: padded };
  const proposals: string[] = [];
  for (const p of patterns) {
    const spelled = regexExample(p);
    if (spelled !== undefined) proposals.push(spelled);
  }
  proposals.push(...PATTERN_CANDIDATES);
  for (const base of proposals) {
    if (fits(base)) return { ok: true, value: base };
    const short = minLength - length(base);
    if (short > 0) {
      for (const v of [
        base + 'a'.repeat(short),
        'a'.repeat(short) + base,
        base + '0'.repeat(short),
        base.repeat(Math.ceil(minLength / Math.max(1, length(base)))),
      ]) {
        if (fits(v)) return { ok: true, value: v };
      }
    }
  }
  if (regexes.length > 0)
    return fail(
      facts.at.pattern ?? path,
      `zero-config found no string matching ${patterns.map((p) => `/${p}/`).join(' and ')}${minLength > 0 ? ` with at least ${minLength} characters` : ''}`,
    );
  return fail(facts.at.maxLength ?? path, 'no string fits the length bounds');
}

// ---------- arrays ----------

function arrayOf(facts: Facts, path: string, ctx: Context): Made {
  const s = facts.s;
  const minItems = typeof s.minItems === 'number' ? s.minItems : 0;
  const maxItems = typeof s.maxItems === 'number' ? s.maxItems : Infinity;
  const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : [];
  const rest = Array.isArray(s.items) ? (s.additionalItems ?? true) : (s.items ?? true);
  const restPath = Array.isArray(s.items) ? (facts.at.additionalItems ?? path) : (facts.at.items ?? path);
  const wantsContains = s.contains !== undefined && s.minContains !== 0;
  const count = Math.max(minItems, wantsContains ? Math.max(1, typeof s.minContains === 'number' ? s.minContains : 1) : 0);
  if (count > MAX_LENGTH) return fail(facts.at.minItems ?? path, `minItems ${count} is more than zero-config makes (${MAX_LENGTH})`);
  if (count > maxItems) return fail(facts.at.maxItems ?? path, `${count} items are needed but maxItems is ${maxItems}`);
  const out: JsonValue[] = [];
  for (let i = 0; i < count; i++) {
    let schema: unknown = i < prefix.length ? prefix[i] : rest;
    let where = i < prefix.length ? `${facts.at.prefixItems ?? facts.at.items ?? path}/${i}` : restPath;
    if (wantsContains && i < (typeof s.minContains === 'number' ? s.minContains : 1)) {
      schema = { allOf: [schema, s.contains] };
      where = facts.at.contains ?? where;
    }
    const made = generate(schema, where, ctx);
    if (!made.ok) return made;
    out.push(made.value);
  }
  if (s.uniqueItems === true && out.length > 1) {
    for (let i = 1; i < out.length; i++) {
      if (out.slice(0, i).some((v) => jsonEquals(v, out[i]))) {
        return fail(
          facts.at.uniqueItems ?? path,
          `${count} distinct items are needed and zero-config makes only one value per item schema`,
        );
      }
    }
  }
  return { ok: true, value: out };
}

// ---------- objects ----------

function objectOf(facts: Facts, path: string, ctx: Context): Made {
  const s = facts.s;
  const properties = isObject(s.properties) ? s.properties : {};
  const patternProps = isObject(s.patternProperties) ? s.patternProperties : {};
  const required = Array.isArray(s.required) ? s.required.filter((k): k is string => typeof k === 'string') : [];
  const minProperties = typeof s.minProperties === 'number' ? s.minProperties : 0;
  const dependent = isObject(s.dependentRequired) ? s.dependentRequired : {};
  const keys: string[] = [];
  const add = (k: string): void => {
    if (keys.includes(k)) return;
    keys.push(k);
    const more = dependent[k];
    if (Array.isArray(more)) for (const d of more) if (typeof d === 'string') add(d);
  };
  for (const k of required) add(k);
  for (const k of Object.keys(properties)) {
    if (keys.length >= minProperties) break;
    add(k);
  }
  if (keys.length < minProperties)
    return fail(facts.at.minProperties ?? path, `minProperties ${minProperties} asks for more properties than the schema names`);
  if (typeof s.maxProperties === 'number' && keys.length > s.maxProperties) {
    return fail(facts.at.maxProperties ?? path, `${keys.length} properties are required but maxProperties is ${s.maxProperties}`);
  }
  const out: { [key: string]: JsonValue } = {};
  for (const key of keys) {
    let schema: unknown;
    let where: string;
    if (Object.prototype.hasOwnProperty.call(properties, key)) {
      schema = properties[key];
      where = `${facts.at.properties ?? path}/${escapePointer(key)}`;
    } else {
      const pattern = Object.keys(patternProps).find((p) => safeTest(p, key));
      if (pattern !== undefined) {
        schema = patternProps[pattern];
        where = `${facts.at.patternProperties ?? path}/${escapePointer(pattern)}`;
      } else if (s.additionalProperties === false) {
        return fail(
          facts.at.required ?? path,
          `property "${key}" is required but additionalProperties is false and no property schema names it`,
        );
      } else {
        schema = s.additionalProperties ?? true;
        where = facts.at.additionalProperties ?? path;
      }
    }
    const made = generate(schema, where, ctx);
    if (!made.ok) return made;
    out[key] = made.value;
  }
  return { ok: true, value: out };
}

function safeTest(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch {
    return false;
  }
}

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
//     first on a tie, but null loses ties), so null only where it is the simplest;
//   - allOf and local $ref merged (schema-facts.ts); a $ref entered again inside itself more than
//     twice is not followed, so recursion ends at an optional, empty or null branch.
// Numbers and strings: schema-scalars.ts. The value is then validated with the project's
// validator (schema.ts); when it fails, or none could be made, the answer names the schema path.
// Results are kept per schema.

import { deepFreeze } from './deep-freeze.js';
import type { JsonSchema, JsonValue } from './model.js';
import { compileSchema, isSchemaError, jsonEquals } from './schema.js';
import {
  emptyFacts,
  escapePointer,
  fail,
  fold,
  isObject,
  show,
  typesOf,
  type Facts,
  type FoldContext,
  type Made,
  type Schema,
} from './schema-facts.js';
import { MAX_LENGTH, numberOf, stringOf } from './schema-scalars.js';
import { TextKeyedCache } from './text-keyed-cache.js';

/** The value, or the schema path (`#/properties/age/minimum`) where none could be made, and why. */
export type InstanceResult = Made;

/** Steps of generation one schema may take (each visit of a sub-schema is one). */
const BUDGET = 20_000;
const CACHE_LIMIT = 1000;

// Keyed by the JSON text, as compileSchema is: a request decoded afresh brings new schema objects.
const byText = new TextKeyedCache<InstanceResult>(8 * 1024 * 1024, CACHE_LIMIT);

/** The smallest value `schema` accepts (see the rules above); the value is shared and frozen. */
export function smallestInstance(schema: JsonSchema): InstanceResult {
  let key: string;
  try {
    key = JSON.stringify(schema) ?? 'undefined';
  } catch {
    return { ok: false, schemaPath: '#', reason: 'the schema is not JSON' };
  }
  let result = byText.get(key);
  if (result) return result;
  result = make(schema);
  if (result.ok) deepFreeze(result.value);
  byText.set(key, result);
  return result;
}

function make(schema: JsonSchema): InstanceResult {
  const compiled = compileSchema(schema);
  if (isSchemaError(compiled)) return { ok: false, schemaPath: '#', reason: compiled.error };
  if (compiled.problems({}).length === 0) return { ok: true, value: {} };
  const ctx: FoldContext = { root: schema, budget: BUDGET, refs: [] };
  const made = generate(schema, '#', ctx);
  if (!made.ok) return made;
  const problems = compiled.problems(made.value);
  if (problems.length > 0) {
    const p = problems[0];
    return { ok: false, schemaPath: p.schemaPath, reason: `the value zero-config made fails it: ${p.text}` };
  }
  return made;
}

// ---------- making a value ----------

function generate(schema: unknown, path: string, ctx: FoldContext): Made {
  const facts = emptyFacts();
  fold(facts, schema, path, ctx);
  return fromFacts(facts, path, ctx);
}

function fromFacts(facts: Facts, path: string, ctx: FoldContext): Made {
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
function chooseAlternative(facts: Facts, path: string, ctx: FoldContext): Made {
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

function fromPlainFacts(facts: Facts, path: string, ctx: FoldContext): Made {
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

function ofType(type: string, facts: Facts, path: string, ctx: FoldContext): Made {
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

// ---------- arrays ----------

function arrayOf(facts: Facts, path: string, ctx: FoldContext): Made {
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
      if (!out.slice(0, i).some((v) => jsonEquals(v, out[i]))) continue;
      const other = variants(out[i], enumOf(i < prefix.length ? prefix[i] : rest, ctx)).find((v) => !out.some((u) => jsonEquals(u, v)));
      if (other === undefined) {
        return fail(facts.at.uniqueItems ?? path, `${count} distinct items are needed and zero-config found only ${i}`);
      }
      out[i] = other;
    }
  }
  return { ok: true, value: out };
}

/** The enum list a schema (with its $refs and allOf) names, if any. */
function enumOf(schema: unknown, ctx: FoldContext): unknown[] | undefined {
  const facts = emptyFacts();
  fold(facts, schema, '#', ctx);
  return Array.isArray(facts.s.enum) ? facts.s.enum : undefined;
}

/** Other values near `value` for uniqueItems: the next enum values, or a scalar changed a little.
 * Whether one fits the item schema is left to the final validation. */
function variants(value: JsonValue, enumValues: unknown[] | undefined): JsonValue[] {
  if (enumValues) return enumValues as JsonValue[];
  const out: JsonValue[] = [];
  if (typeof value === 'boolean') out.push(!value);
  else if (typeof value === 'number') for (let k = 1; k <= 16; k++) out.push(value + k);
  else if (typeof value === 'string') {
    for (const c of 'bcdefghijklmnopq') out.push(value === '' ? c : value.slice(0, -1) + c, value + c);
  }
  return out;
}

// ---------- objects ----------

function objectOf(facts: Facts, path: string, ctx: FoldContext): Made {
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
    // An own property even for "__proto__" (an assignment would set the prototype instead).
    Object.defineProperty(out, key, { value: made.value, enumerable: true, writable: true, configurable: true });
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

// Requests OpenAI's published description forbids, made from its structural facts rather than
// listed by hand: for each member of a request schema (top-level fields, the members of
// single-shaped objects and the items of arrays under them), values of a wrong type, outside a
// range, off an enum, too long, too short, too many, or not declared in a closed object. Each
// candidate is kept only when the description itself refuses the body it makes (ajv says so) while
// the body without it is valid, so every case is forbidden by the description and by nothing else.

import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { DescriptionFacts, Schema } from './description-facts.js';

export interface ForbiddenCase {
  /** Where the value sits, in OpenAI's `param` notation (`stream_options.include_usage`, `stop[0]`). */
  path: string;
  value: unknown;
  /** Which rules of the description it breaks (ajv's keywords, `+`-joined): type, maximum, enum … */
  rule: string;
  body: Record<string, unknown>;
  /** The valid request it was made from (which Understudy may refuse for reasons of its own). */
  base: Record<string, unknown>;
}

type Obj = Record<string, any>;

/** Representatives of every JSON type, tried against every member. */
const WRONG_TYPES: unknown[] = ['yes', 12345, 1.5, true, [], {}];
const MAX_SAFE = 2 ** 53;
/** Strings longer than this are not built (no such bound is near it in the description). */
const LONGEST = 100_000;
/** How deep below a top-level field members are walked (messages[0].content[0].image_url.detail). */
const MAX_DEPTH = 4;

export interface Generator {
  /** Forbidden cases under `base` (which must be valid) for the members of `rootSchema`. */
  cases(base: Obj, skip?: ReadonlySet<string>): ForbiddenCase[];
  /** Optional members whose value null the description refuses. */
  nullRefused(base: Obj, skip?: ReadonlySet<string>): ForbiddenCase[];
}

export function forbiddenRequests(facts: DescriptionFacts, rootSchema: string, validate: ValidateFunction): Generator {
  const resolve = (s: Schema): Schema => {
    let node = s;
    for (let guard = 0; typeof node === 'object' && typeof node.$ref === 'string' && guard < 32; guard++) {
      const name = (node.$ref as string).split('/').pop() as string;
      const { $ref: _, ...rest } = node;
      node = Object.keys(rest).length ? { ...(facts.schemas[name] as Obj), ...rest } : facts.schemas[name];
    }
    return node;
  };

  /** The alternatives a value of this schema may take, each without anyOf/oneOf; allOf merged. */
  function branches(s: Schema, depth = 0): Obj[] {
    const node = resolve(s);
    if (typeof node === 'boolean' || depth > 8) return [];
    const out: Obj[] = [];
    if (node.nullable === true) out.push({ type: 'null' });
    const union = (node.anyOf ?? node.oneOf) as Schema[] | undefined;
    if (union) {
      for (const member of union) out.push(...branches(member, depth + 1));
      return out;
    }
    if (node.allOf) {
      const merged: Obj = { type: 'object', properties: {}, required: [] };
      for (const part of node.allOf as Schema[]) {
        for (const b of branches(part, depth + 1)) {
          Object.assign(merged.properties, b.properties ?? {});
          merged.required.push(...((b.required as string[]) ?? []));
          if (b.additionalProperties === false) merged.additionalProperties = false;
        }
      }
      Object.assign(merged.properties, node.properties ?? {});
      out.push(merged);
      return out;
    }
    out.push(node);
    return out;
  }

  const nonNull = (s: Schema) => branches(s).filter((b) => b.type !== 'null');

  /** A small valid value of a schema, when one is easy to make. */
  function sample(s: Schema, depth = 0): unknown {
    if (depth > 4) return undefined;
    for (const b of nonNull(s)) {
      if ('const' in b) return b.const;
      if (Array.isArray(b.enum)) return b.enum[0];
      if ('default' in b && b.default !== null && typeof b.default !== 'object') return b.default;
      switch (b.type) {
        case 'string':
          if (b.format === 'uri') return 'https://example.invalid/x';
          return 'x'.repeat(Math.max(1, (b.minLength as number | undefined) ?? 1));
        case 'integer':
        case 'number':
          return (b.minimum as number | undefined) ?? (b.exclusiveMinimum !== undefined ? (b.exclusiveMinimum as number) + 1 : 1);
        case 'boolean':
          return false;
        case 'array': {
          const item = b.items === undefined ? 'x' : sample(b.items, depth + 1);
          if (item === undefined) continue;
          return Array.from({ length: (b.minItems as number | undefined) ?? 0 }, () => item);
        }
        case 'object':
        case undefined: {
          if (!b.properties && b.type === undefined) continue;
          const o: Obj = {};
          let ok = true;
          for (const key of (b.required as string[] | undefined) ?? []) {
            const v = sample(b.properties?.[key] ?? {}, depth + 1);
            if (v === undefined) ok = false;
            o[key] = v;
          }
          if (ok) return o;
        }
      }
    }
    return undefined;
  }

  /** Values this member's own rules refuse (before the description is asked which really are). */
  function candidates(s: Schema): { value: unknown; rule: string }[] {
    const out: { value: unknown; rule: string }[] = WRONG_TYPES.map((value) => ({ value, rule: 'type' }));
    for (const b of nonNull(s)) {
      const min = b.minimum as number | undefined;
      const max = b.maximum as number | undefined;
      if (min !== undefined && Math.abs(min) < MAX_SAFE) out.push({ value: min - 1, rule: 'minimum' });
      if (max !== undefined && Math.abs(max) < MAX_SAFE) {
        out.push({ value: max + 1, rule: 'maximum' });
        if (max < 12345) out.push({ value: 12345, rule: 'maximum' });
      }
      if (b.exclusiveMinimum !== undefined) out.push({ value: b.exclusiveMinimum, rule: 'exclusiveMinimum' });
      if (b.exclusiveMaximum !== undefined) out.push({ value: b.exclusiveMaximum, rule: 'exclusiveMaximum' });
      if (Array.isArray(b.enum) || 'const' in b) out.push({ value: 'not-a-listed-value', rule: 'enum' });
      if (b.type === 'string') {
        if (typeof b.maxLength === 'number' && b.maxLength < LONGEST) out.push({ value: 'x'.repeat(b.maxLength + 1), rule: 'maxLength' });
        if (typeof b.minLength === 'number' && b.minLength > 0) out.push({ value: 'x'.repeat(b.minLength - 1), rule: 'minLength' });
      }
      if (b.type === 'array') {
        const item = b.items === undefined ? 'x' : sample(b.items);
        if (typeof b.minItems === 'number' && b.minItems > 0) out.push({ value: [], rule: 'minItems' });
        if (typeof b.maxItems === 'number' && item !== undefined) {
          out.push({ value: Array.from({ length: b.maxItems + 1 }, () => item), rule: 'maxItems' });
        }
      }
    }
    return out;
  }

  const valid = (body: unknown) => validate(body) === true;

  function set(body: Obj, path: (string | number)[], value: unknown): Obj {
    const copy = structuredClone(body);
    let at: any = copy;
    for (const key of path.slice(0, -1)) at = at[key];
    at[path[path.length - 1] as string] = value;
    return copy;
  }

  const paramOf = (path: (string | number)[]) => path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('');

  /** The cases for the members of `s`, found at `path` in `body` (a valid request): for an object,
   * each member's candidates, then one level into the member; for an array, its first item's;
   * a union is walked once per object shape it has, under a small valid value of that shape. */
  function walk(body: Obj, path: (string | number)[], s: Schema, depth: number, out: Cases): void {
    const shapes = nonNull(s);
    const here = path.reduce((o: any, k) => o?.[k], body);
    const inside = (at: Obj, shape: Obj) => {
      if (shape.type === 'object' || shape.properties) members(at, path, shape, depth, out);
      else if (shape.type === 'array' && shape.items !== undefined) items(at, path, shape, depth, out);
    };
    for (const shape of shapes) {
      // What the base holds there, when it is of this shape's kind, is walked as it is; and (for a
      // union, or where the base holds nothing) a small value of the shape in its place.
      const isArray = shape.type === 'array';
      if (here !== undefined && typeof here === 'object' && here !== null && Array.isArray(here) === isArray) inside(body, shape);
      if (shapes.length === 1 && here !== undefined) continue;
      const value = sample(shape);
      if (value === undefined || typeof value !== 'object' || value === null) continue;
      const at = set(body, path, value);
      if (valid(at)) inside(at, shape);
    }
  }

  function members(body: Obj, path: (string | number)[], shape: Obj, depth: number, out: Cases): void {
    for (const [key, member] of Object.entries((shape.properties as Obj | undefined) ?? {})) {
      const memberPath = [...path, key];
      const param = paramOf(memberPath);
      if (depth === 0 && out.skip.has(key)) continue;
      for (const { value, rule } of candidates(member)) out.add(body, memberPath, param, value, rule);
      if (depth < MAX_DEPTH) walk(body, memberPath, member, depth + 1, out);
    }
    if (path.length === 0) return;
    if (shape.additionalProperties === false)
      out.add(body, [...path, 'not_a_member'], paramOf([...path, 'not_a_member']), 1, 'additionalProperties');
    if (typeof shape.additionalProperties === 'object') {
      for (const { value, rule } of candidates(shape.additionalProperties))
        out.add(body, [...path, 'some_key'], paramOf([...path, 'some_key']), value, rule);
    }
  }

  function items(body: Obj, path: (string | number)[], shape: Obj, depth: number, out: Cases): void {
    // Items the base already holds (a tool round): each one's own members, as it is.
    const existing = path.reduce((o: any, k) => o?.[k], body);
    if (Array.isArray(existing) && existing.length > 0) {
      existing.forEach((element, i) => {
        if (typeof element !== 'object' || element === null) return;
        for (const branch of nonNull(shape.items))
          if (branch.type === 'object' || branch.properties) members(body, [...path, i], branch, depth + 1, out);
      });
    }
    const itemPath = [...path, 0];
    for (const branch of nonNull(shape.items)) {
      const item = sample(branch);
      if (item === undefined) continue;
      const withItem = set(body, path, [item]);
      if (!valid(withItem)) continue;
      for (const { value, rule } of candidates(branch)) out.add(withItem, itemPath, paramOf(itemPath), value, rule);
      if (typeof item === 'object' && item !== null && depth < MAX_DEPTH) walk(withItem, itemPath, branch, depth + 1, out);
    }
  }

  class Cases {
    readonly list: ForbiddenCase[] = [];
    private readonly seen = new Set<string>();
    constructor(readonly skip: ReadonlySet<string>) {}
    add(base: Obj, path: (string | number)[], param: string, value: unknown, rule: string): void {
      const body = set(base, path, value);
      if (valid(body)) return;
      // The rules the description itself says the body breaks (a union's wrappers left out).
      const broken = new Set((validate.errors ?? []).map((e) => e.keyword).filter((k) => k !== 'anyOf' && k !== 'oneOf'));
      rule = [...broken].sort().join('+') || rule;
      const key = `${JSON.stringify(base)}\u0000${param}\u0000${JSON.stringify(value)}`;
      if (this.seen.has(key)) return;
      this.seen.add(key);
      this.list.push({ path: param, value, rule, body, base });
    }
  }

  const rootShape = (): Obj => {
    const shapes = nonNull({ $ref: `#/components/schemas/${rootSchema}` });
    if (shapes.length !== 1) throw new Error(`${rootSchema} is not one object shape`);
    return shapes[0] as Obj;
  };

  return {
    cases(base, skip = new Set()) {
      if (!valid(base)) throw new Error(`the base request is not valid by the description: ${JSON.stringify(validate.errors)}`);
      const out = new Cases(skip);
      members(base, [], rootShape(), 0, out);
      return out.list;
    },
    nullRefused(base, skip = new Set()) {
      const shape = rootShape();
      const required = new Set((shape.required as string[] | undefined) ?? []);
      const out: ForbiddenCase[] = [];
      for (const key of Object.keys((shape.properties as Obj | undefined) ?? {})) {
        if (required.has(key) || skip.has(key)) continue;
        const mutated = set(base, [key], null);
        if (!valid(mutated)) out.push({ path: key, value: null, rule: 'type', body: mutated, base });
      }
      return out;
    },
  };
}

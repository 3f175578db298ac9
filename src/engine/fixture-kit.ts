// The vocabulary the fixture format is described in (fixture-schema.ts): zod schemas that carry
// their own problem wording, plus the format's rules — what one field cannot say alone (unknown
// keys with a guess, required keys named in their object, "steps or replies", ids that must
// resolve, reply limits). zod checks each field; walkRules() then goes over the same value, led by
// the same schemas, and applies the rules. Each rule names its JSON Schema counterpart next to it
// (in the object's meta), so the generated schema says what the rule says, as far as JSON Schema can.

import type * as Z from 'zod';
import type { JsonValue } from '../core/model.js';
import type { ReplyLimits } from './reply-limits.js';
import { found, has, isObj, nearest, quoteList, type Obj } from './fixture-words.js';

export type Segment = string | number;
export type Path = readonly Segment[];

/** A path as problems print it: a JSON pointer, `/` for the root. */
export function pointer(path: Path): string {
  if (path.length === 0) return '/';
  return path.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

export interface RawProblem {
  path: Path;
  message: string;
  /** Point at the key of the last segment rather than its value (unknown keys, header names). */
  atKey?: boolean;
}

export interface RuleContext {
  limits: ReplyLimits;
  report(path: Path, message: string, atKey?: boolean): void;
}

/** A rule sees the value as written (any shape: rules check what they rely on) and its path. */
export type Rule = (value: any, path: Path, ctx: RuleContext) => void;

interface ObjectInfo {
  what: string;
  keys: readonly string[];
  required: readonly string[];
}

// Keyed by a schema's definition, which zod shares between a schema and its copies (.meta()).
const OBJECTS = new WeakMap<object, ObjectInfo>();
const RULES = new WeakMap<object, Rule[]>();

/** Keys a file may carry that the messages do not list (editor support). */
const UNLISTED_KEYS = new Set(['$schema']);

type Message = (issue: { input?: unknown; code?: string }) => string;

/** The helpers, bound to a loaded zod (it is loaded only when a script is checked). */
export function fixtureKit(z: typeof Z) {
  const say =
    (what: string): Message =>
    (issue) =>
      `expected ${what}; found ${found(issue.input)}`;

  /** A string. */
  const text = (what: string) => z.string({ error: say(what) });

  /** A string with something other than whitespace in it. */
  const name = (what: string) => {
    const error = say(`${what} (a non-empty string)`);
    return z.string({ error }).min(1, { error }).regex(/\S/, { error });
  };

  const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
    z.enum(values, {
      error: (issue) => {
        const guess = typeof issue.input === 'string' ? nearest(issue.input, values) : undefined;
        return `expected one of ${quoteList(values)}; found ${found(issue.input)}${guess ? ` (did you mean "${guess}"?)` : ''}`;
      },
    });

  const integer = (what: string, min: number, max?: number) => {
    const error = say(what);
    const base = z.number({ error }).int({ error }).min(min, { error });
    return max === undefined ? base : base.max(max, { error });
  };

  /** A finite number ≥ 0 (`what` says so in its own words). */
  const nonNegative = (what: string) => {
    const error = say(what);
    return z.number({ error }).min(0, { error });
  };

  const list = <T extends Z.ZodType>(what: string, item: T, nonEmpty: boolean) => {
    const schema = z.array(item, { error: say(`${what} (a list)`) });
    return nonEmpty ? schema.min(1, { error: () => `expected ${what} with at least one entry; found an empty list` }) : schema;
  };

  /** Any JSON value: no NaN or Infinity, only plain objects and lists (a rule checks, with the path). */
  const json = () =>
    rule(
      z.custom<JsonValue>(() => true),
      jsonRule,
    );

  /** A closed object; its unknown and missing keys are reported by walkRules() with `what`. */
  const object = <S extends Z.ZodRawShape>(what: string, shape: S, meta: Record<string, unknown>) => {
    const keys = Object.keys(shape);
    const listed = quoteList(keys.filter((k) => !UNLISTED_KEYS.has(k)));
    const schema = z
      .strictObject(shape, {
        error: (issue) =>
          issue.code === 'invalid_type' ? `expected ${what} (an object with keys ${listed}); found ${found(issue.input)}` : undefined,
      })
      .meta(meta);
    const required = keys.filter((k) => (shape[k] as unknown as { _zod: { optin?: string } })._zod.optin !== 'optional');
    OBJECTS.set(defOf(schema), { what, keys, required });
    return schema;
  };

  return { text, name, oneOf, integer, nonNegative, list, json, object };
}

/** Adds a rule to a schema (the same instance must end up in the format). */
export function rule<T extends Z.ZodType>(schema: T, fn: Rule): T {
  const rules = RULES.get(defOf(schema)) ?? [];
  rules.push(fn);
  RULES.set(defOf(schema), rules);
  return schema;
}

/** `expected a fixture (an object with keys …)`, for a document with nothing in it. */
export function objectExpectation(schema: Z.ZodType): string {
  const info = OBJECTS.get(defOf(schema));
  if (!info) return 'expected an object';
  return `expected ${info.what} (an object with keys ${quoteList(info.keys.filter((k) => !UNLISTED_KEYS.has(k)))})`;
}

function jsonRule(value: unknown, path: Path, ctx: RuleContext): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return true;
    ctx.report(path, `expected a JSON value; found ${String(value)} (not representable in JSON)`);
    return false;
  }
  if (Array.isArray(value)) return value.every((v, i) => jsonRule(v, [...path, i], ctx));
  if (isObj(value)) return Object.entries(value).every(([k, v]) => jsonRule(v, [...path, k], ctx));
  ctx.report(path, `expected a JSON value; found ${typeof value}`);
  return false;
}

/** Whether a value is JSON as the format means it (the same test as the json() rule, silently). */
export function isJsonValue(value: unknown): boolean {
  let ok = true;
  jsonRule(value, [], { limits: undefined as never, report: () => void (ok = false) });
  return ok;
}

interface Def {
  type: string;
  shape?: Record<string, Z.ZodType>;
  element?: Z.ZodType;
  options?: Z.ZodType[];
  innerType?: Z.ZodType;
  valueType?: Z.ZodType;
}

const defOf = (schema: Z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

function kindMatches(kind: string, value: unknown): boolean {
  if (kind === 'object' || kind === 'record') return isObj(value);
  if (kind === 'array') return Array.isArray(value);
  if (kind === 'string' || kind === 'enum') return typeof value === 'string';
  if (kind === 'number') return typeof value === 'number';
  return true;
}

/** How the walk goes over values of one schema, worked out once per schema. */
interface Plan {
  kind: string;
  rules?: Rule[];
  info?: ObjectInfo;
  keys?: ReadonlySet<string>;
  fields?: [string, Plan][];
  element?: Plan;
  values?: Plan;
  branches?: Plan[];
}

const PLANS = new WeakMap<object, Plan>();

function planOf(schema: Z.ZodType): Plan {
  let def = defOf(schema);
  while (def.type === 'optional' && def.innerType) def = defOf(def.innerType);
  const known = PLANS.get(def);
  if (known) return known;
  const info = OBJECTS.get(def);
  const plan: Plan = { kind: def.type, rules: RULES.get(def), info, keys: info && new Set(info.keys) };
  PLANS.set(def, plan);
  if (def.type === 'object' && def.shape) plan.fields = Object.entries(def.shape).map(([key, child]) => [key, planOf(child)]);
  else if (def.type === 'array' && def.element) plan.element = planOf(def.element);
  else if (def.type === 'record' && def.valueType) plan.values = planOf(def.valueType);
  else if (def.type === 'union' && def.options) plan.branches = def.options.map(planOf);
  return plan;
}

/** Applies the format's rules to `value`, following `schema` down wherever the value has the shape
 * the schema expects (zod reports where it does not). `path` is a stack the walk pushes to and pops:
 * rules and reports copy what they keep. */
export function walkRules(schema: Z.ZodType, value: unknown, path: Segment[], ctx: RuleContext): void {
  walk(planOf(schema), value, path, ctx);
}

function walk(plan: Plan, value: unknown, path: Segment[], ctx: RuleContext): void {
  if (plan.branches) {
    // A union: the branch that looks like the value (a string, or a text match object).
    for (const branch of plan.branches) {
      if (kindMatches(branch.kind, value)) return walk(branch, value, path, ctx);
    }
    return;
  }
  if (!kindMatches(plan.kind, value)) return;
  if (plan.info && plan.keys) objectKeys(value as Obj, path, plan.info, plan.keys, ctx);
  if (plan.rules) for (const fn of plan.rules) fn(value, path, ctx);
  if (plan.fields) {
    const obj = value as Obj;
    for (const [key, child] of plan.fields) {
      if (!has(obj, key)) continue;
      path.push(key);
      walk(child, obj[key], path, ctx);
      path.pop();
    }
  } else if (plan.element) {
    const list = value as unknown[];
    for (let i = 0; i < list.length; i++) {
      path.push(i);
      walk(plan.element, list[i], path, ctx);
      path.pop();
    }
  } else if (plan.values) {
    for (const [key, item] of Object.entries(value as Obj)) {
      path.push(key);
      walk(plan.values, item, path, ctx);
      path.pop();
    }
  }
}

function objectKeys(obj: Obj, path: Path, info: ObjectInfo, keys: ReadonlySet<string>, ctx: RuleContext): void {
  for (const key in obj) {
    if (keys.has(key) || !Object.prototype.hasOwnProperty.call(obj, key)) continue;
    const guess = nearest(key, info.keys);
    const message = guess
      ? `unknown key "${key}"; did you mean "${guess}"?`
      : `unknown key "${key}"; expected one of ${quoteList(info.keys.filter((k) => !UNLISTED_KEYS.has(k)))}`;
    ctx.report([...path, key], message, true);
  }
  for (const key of info.required) {
    if (!has(obj, key)) ctx.report(path, `missing required key "${key}" in ${info.what}`);
  }
}

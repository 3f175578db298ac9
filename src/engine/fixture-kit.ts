// The vocabulary the fixture format is described in (fixture-schema.ts): zod schemas that carry
// their own problem wording, objects that know how problems name them, and the format's rules —
// what one field cannot say alone (fixture-rules.ts), attached to the schema they constrain with
// their JSON Schema counterpart in its meta. planOf() turns the description into plain data
// (fixture-plan.ts), which checks valid scripts without loading zod.

import type * as Z from 'zod';
import type { JsonValue } from '../core/model.js';
import type { PlanNode } from './fixture-plan.js';
import { UNLISTED_KEYS } from './fixture-plan.js';
import { jsonRule, RULES_BY_NAME } from './fixture-rules.js';
import { found, nearest, quoteList, type Rule } from './fixture-words.js';

interface ObjectInfo {
  what: string;
  keys: readonly string[];
  required: readonly string[];
}

// Keyed by a schema's definition, which zod shares between a schema and its copies (.meta()).
const OBJECTS = new WeakMap<object, ObjectInfo>();
const RULES = new WeakMap<object, Rule[]>();

type Message = (issue: { input?: unknown; code?: string }) => string;

/** The helpers, bound to a loaded zod (loaded only to word the problems of a refused script, and by the generator). */
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

  /** A closed object; its unknown and missing keys are reported with `what` (fixture-plan.ts). */
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

interface Def {
  type: string;
  shape?: Record<string, Z.ZodType>;
  element?: Z.ZodType;
  options?: Z.ZodType[];
  innerType?: Z.ZodType;
  valueType?: Z.ZodType;
  entries?: Record<string, string>;
  checks?: { _zod: { def: CheckDef } }[];
}

interface CheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
  pattern?: RegExp;
}

function defOf(schema: Z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

const NAME_OF_RULE = new Map<Rule, string>(Object.entries(RULES_BY_NAME).map(([name, fn]) => [fn, name]));

/** The description as plain data (fixture-plan.ts), the root schema first. Throws on a schema or a
 * check the plan cannot say, so the plan never accepts what zod would refuse. */
export function planOf(root: Z.ZodType): PlanNode[] {
  const nodes: PlanNode[] = [];
  const index = new Map<object, number>();
  const visit = (schema: Z.ZodType): number => {
    let def = defOf(schema);
    while (def.type === 'optional' && def.innerType) def = defOf(def.innerType);
    const known = index.get(def);
    if (known !== undefined) return known;
    const at = nodes.length;
    index.set(def, at);
    const node: PlanNode = { kind: kindOf(def) };
    nodes.push(node);
    const rules = RULES.get(def)?.map((fn) => {
      const name = NAME_OF_RULE.get(fn);
      if (!name) throw new Error(`a rule of the fixture format is missing from RULES_BY_NAME: ${fn.name}`);
      return name;
    });
    if (rules) node.rules = rules;
    const info = OBJECTS.get(def);
    if (info) {
      node.what = info.what;
      if (info.required.length) node.required = [...info.required];
    }
    if (def.type === 'object' && def.shape) node.fields = Object.entries(def.shape).map(([key, child]) => [key, visit(child)]);
    if (def.type === 'array' && def.element) node.element = visit(def.element);
    if (def.type === 'record' && def.valueType) node.values = visit(def.valueType);
    if (def.type === 'union' && def.options) node.branches = def.options.map(visit);
    if (def.type === 'enum' && def.entries) node.options = Object.values(def.entries);
    for (const check of def.checks ?? []) addCheck(node, check._zod.def);
    return at;
  };
  visit(root);
  return nodes;
}

function kindOf(def: Def): PlanNode['kind'] {
  if (def.type === 'custom') return 'json';
  const kinds: string[] = ['object', 'array', 'record', 'union', 'string', 'enum', 'number', 'boolean', 'null'];
  if (!kinds.includes(def.type)) throw new Error(`the fixture plan has no kind for zod type ${def.type}`);
  return def.type as PlanNode['kind'];
}

function addCheck(node: PlanNode, check: CheckDef): void {
  if (check.check === 'min_length') node.minLength = check.minimum;
  else if (check.check === 'max_length') node.maxLength = check.maximum;
  else if (check.check === 'string_format' && check.format === 'regex' && check.pattern && !check.pattern.flags)
    node.pattern = check.pattern.source;
  else if (check.check === 'number_format' && check.format === 'safeint') node.integer = true;
  else if (check.check === 'greater_than' && check.inclusive) node.min = check.value;
  else if (check.check === 'greater_than') node.above = check.value;
  else if (check.check === 'less_than' && check.inclusive) node.max = check.value;
  else throw new Error(`the fixture plan cannot say the zod check ${check.check}${check.format ? ` (${check.format})` : ''}`);
}

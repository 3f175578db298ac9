// The fixture format as plain data: what each schema of the description (fixture-schema.ts)
// accepts, its object keys and its rules, derived from the description by
// scripts/build-fixture-schema.ts into fixture-plan.generated.ts (a test keeps it current).
// Checking a valid script needs only this and the rules, not zod: zod, slow to load and build
// (docs/decisions/0009), is loaded only to word the problems of an invalid one. The same walk
// applies the rules then.

import { FIXTURE_PLAN } from './fixture-plan.generated.js';
import { RULES_BY_NAME } from './fixture-rules.js';
import { has, isObj, nearest, quoteList, type Obj, type Rule, type RuleContext, type Segment } from './fixture-words.js';
import type { ReplyLimits } from './reply-limits.js';

/** One schema, serialisable: children are indexes into the plan. */
export interface PlanNode {
  kind: 'object' | 'array' | 'record' | 'union' | 'string' | 'enum' | 'number' | 'boolean' | 'null' | 'json';
  rules?: string[];
  /** Objects: how problems name it, its keys, the required ones, and each key's schema. */
  what?: string;
  required?: string[];
  fields?: [string, number][];
  /** Arrays, records and unions. */
  element?: number;
  values?: number;
  branches?: number[];
  /** Leaf constraints, as zod checks them. */
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  options?: string[];
  integer?: boolean;
  min?: number;
  /** Exclusive lower bound. */
  above?: number;
  max?: number;
}

interface Plan {
  node: PlanNode;
  rules?: Rule[];
  keys?: ReadonlySet<string>;
  fields?: [string, Plan][];
  element?: Plan;
  values?: Plan;
  branches?: Plan[];
  pattern?: RegExp;
  options?: ReadonlySet<string>;
}

/** Keys a file may carry that the messages do not list (editor support). */
export const UNLISTED_KEYS = new Set(['$schema']);

function hydrate(nodes: readonly PlanNode[]): Plan {
  const plans: Plan[] = nodes.map((node) => ({
    node,
    rules: node.rules?.map((name) => {
      const fn = RULES_BY_NAME[name];
      if (!fn) throw new Error(`fixture plan names an unknown rule: ${name}`);
      return fn;
    }),
    keys: node.fields && new Set(node.fields.map(([key]) => key)),
    pattern: node.pattern === undefined ? undefined : new RegExp(node.pattern),
    options: node.options && new Set(node.options),
  }));
  plans.forEach((plan) => {
    const { node } = plan;
    if (node.fields) plan.fields = node.fields.map(([key, i]) => [key, plans[i]]);
    if (node.element !== undefined) plan.element = plans[node.element];
    if (node.values !== undefined) plan.values = plans[node.values];
    if (node.branches) plan.branches = node.branches.map((i) => plans[i]);
  });
  return plans[0];
}

let root: Plan | undefined;

function fixturePlan(): Plan {
  return (root ??= hydrate(FIXTURE_PLAN));
}

/** Whether a value is a valid script: every field as the description says and no rule objecting. */
export function acceptsFixture(value: unknown, limits: ReplyLimits): boolean {
  let ok = true;
  walk(fixturePlan(), value, [], { limits, report: () => void (ok = false) }, true);
  return ok;
}

/** Applies the rules (and reports unknown and missing keys) wherever the value has the shape the
 * schemas expect; zod words what does not. */
export function applyRules(value: unknown, ctx: RuleContext): void {
  walk(fixturePlan(), value, [], ctx, false);
}

/** Whether `path` ends at a key an object schema declares (not a record's entry or a list's). */
export function isDeclaredKey(value: unknown, path: readonly Segment[]): boolean {
  let plan: Plan | undefined = fixturePlan();
  let node = value;
  for (let i = 0; i < path.length && plan; i++) {
    while (plan?.branches) plan = plan.branches.find((branch) => kindMatches(branch.node.kind, node));
    if (!plan) return false;
    const segment = path[i];
    if (plan.fields) {
      if (i === path.length - 1) return plan.keys?.has(String(segment)) ?? false;
      plan = plan.fields.find(([key]) => key === segment)?.[1];
    } else plan = plan.element ?? plan.values;
    node = isObj(node) || Array.isArray(node) ? (node as Record<Segment, unknown>)[segment] : undefined;
  }
  return false;
}

/** `expected a fixture (an object with keys …)`, for a document with nothing in it. */
export function fixtureExpectation(): string {
  const { node } = fixturePlan();
  return `expected ${node.what} (an object with keys ${listed(node)})`;
}

function listed(node: PlanNode): string {
  return quoteList((node.fields ?? []).map(([key]) => key).filter((k) => !UNLISTED_KEYS.has(k)));
}

function kindMatches(kind: PlanNode['kind'], value: unknown): boolean {
  if (kind === 'object' || kind === 'record') return isObj(value);
  if (kind === 'array') return Array.isArray(value);
  if (kind === 'string' || kind === 'enum') return typeof value === 'string';
  if (kind === 'number') return typeof value === 'number';
  if (kind === 'boolean') return typeof value === 'boolean';
  if (kind === 'null') return value === null;
  return true;
}

/** A leaf as zod checks it (only asked when accepting: otherwise zod has said it). */
function leafAccepts(plan: Plan, value: unknown): boolean {
  const { node } = plan;
  if (!kindMatches(node.kind, value)) return false;
  if (typeof value === 'string') {
    if (node.minLength !== undefined && value.length < node.minLength) return false;
    if (node.maxLength !== undefined && value.length > node.maxLength) return false;
    if (plan.pattern && !plan.pattern.test(value)) return false;
    if (plan.options && !plan.options.has(value)) return false;
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value) || (node.integer && !Number.isSafeInteger(value))) return false;
    if (node.min !== undefined && value < node.min) return false;
    if (node.above !== undefined && value <= node.above) return false;
    if (node.max !== undefined && value > node.max) return false;
  } else if (Array.isArray(value)) {
    if (node.minLength !== undefined && value.length < node.minLength) return false;
  }
  return true;
}

function walk(plan: Plan, value: unknown, path: Segment[], ctx: RuleContext, accepting: boolean): void {
  if (plan.branches) {
    // A union: the branch that looks like the value (a string, a list, a text match object).
    for (const branch of plan.branches) {
      if (kindMatches(branch.node.kind, value)) return walk(branch, value, path, ctx, accepting);
    }
    if (accepting) ctx.report(path, 'no branch');
    return;
  }
  if (accepting && !leafAccepts(plan, value)) {
    ctx.report(path, 'not accepted');
    return;
  }
  if (!kindMatches(plan.node.kind, value)) return;
  if (plan.keys) objectKeys(value as Obj, path, plan, ctx);
  if (plan.rules) for (const fn of plan.rules) fn(value, path, ctx);
  if (plan.fields) {
    const obj = value as Obj;
    for (const [key, child] of plan.fields) {
      if (!has(obj, key)) continue;
      path.push(key);
      walk(child, obj[key], path, ctx, accepting);
      path.pop();
    }
  } else if (plan.element) {
    const list = value as unknown[];
    for (let i = 0; i < list.length; i++) {
      path.push(i);
      walk(plan.element, list[i], path, ctx, accepting);
      path.pop();
    }
  } else if (plan.values) {
    for (const [key, item] of Object.entries(value as Obj)) {
      path.push(key);
      walk(plan.values, item, path, ctx, accepting);
      path.pop();
    }
  }
}

function objectKeys(obj: Obj, path: Segment[], plan: Plan, ctx: RuleContext): void {
  const { node } = plan;
  const keys = plan.keys as ReadonlySet<string>;
  for (const key in obj) {
    if (keys.has(key) || !Object.prototype.hasOwnProperty.call(obj, key)) continue;
    const guess = nearest(key, [...keys]);
    const message = guess ? `unknown key "${key}"; did you mean "${guess}"?` : `unknown key "${key}"; expected one of ${listed(node)}`;
    ctx.report([...path, key], message, true);
  }
  for (const key of node.required ?? []) {
    if (!has(obj, key)) ctx.report(path, `missing required key "${key}" in ${node.what}`);
  }
}

// The wording of fixture problems: how a found value is described, the did-you-mean guess for a
// misspelt key or value, and the path a problem is at. Shared by the format's description
// (fixture-schema.ts), its plan (fixture-plan.ts) and its rules (fixture-rules.ts).

import type { ReplyLimits } from './reply-limits.js';

export type Segment = string | number;
export type Path = readonly Segment[];

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

/** A path as problems print it: a JSON pointer, `/` for the root. */
export function pointer(path: Path): string {
  if (path.length === 0) return '/';
  return path.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/** A short description of a value for "found …" (strings quoted, long ones cut). */
export function found(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : `a list`;
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') {
    const text = JSON.stringify(value);
    return text.length > 60 ? `${text.slice(0, 57)}…"` : text;
  }
  return String(value);
}

export function quoteList(values: readonly string[]): string {
  return values.join(', ');
}

function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = above;
    }
  }
  return prev[b.length];
}

/** The closest candidate, when it is close enough to be a likely typo. */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestScore = Infinity;
  for (const c of candidates) {
    const cl = c.toLowerCase();
    let score = editDistance(lower, cl);
    if (cl === lower) score = 0;
    else if (lower.length >= 3 && (cl.startsWith(lower) || cl.endsWith(lower) || lower.startsWith(cl) || lower.includes(cl)))
      score = Math.min(score, 1.5);
    if (score < bestScore) {
      bestScore = score;
      best = c;
    }
  }
  const limit = Math.max(2, Math.floor(word.length / 3));
  return best !== undefined && bestScore <= limit ? best : undefined;
}

export type Obj = Record<string, unknown>;

export function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Set, as the format reads it: an own key whose value is not undefined. */
export function has(obj: Obj, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key) && obj[key] !== undefined;
}

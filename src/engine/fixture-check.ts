// Checks a value against the fixture format. A valid value is accepted by the format's plan
// (fixture-plan.ts) alone; an invalid one gets zod's verdicts on each field, in the wording the
// schemas carry (fixture-schema.ts, loading zod), and the rules' problems. Problems come with their
// path inside the value; fixture-file.ts adds where in the file that is.

import type * as Z from 'zod';
import { acceptsFixture, applyRules, isDeclaredKey } from './fixture-plan.js';
import { fixtureFormat } from './fixture-schema.js';
import { isObj, type Path, type RawProblem } from './fixture-words.js';
import type { ReplyLimits } from './reply-limits.js';

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  input?: unknown;
  errors?: Issue[][];
}

export function checkFixture(value: unknown, limits: ReplyLimits): RawProblem[] {
  return acceptsFixture(value, limits) ? [] : describeProblems(value, limits);
}

/** The problems of a value, from zod and the rules (what checkFixture says without the plan). */
export function describeProblems(value: unknown, limits: ReplyLimits): RawProblem[] {
  const { fixture } = fixtureFormat();
  const problems: RawProblem[] = [];
  const result = (fixture as Z.ZodType).safeParse(value, { reportInput: true });
  if (!result.success) fieldProblems(result.error.issues as unknown as Issue[], [], problems, { value, seen: new Set() });
  applyRules(value, { limits, report: (path, message, atKey) => void problems.push({ path: [...path], message, atKey }) });
  return problems.length > 1 ? inDocumentOrder(problems, value) : problems;
}

/** Field verdicts and rules come in two passes; a reader wants them in the order of the value: a
 * parent before what is inside it, except that an unknown key comes before what its object lacks
 * (the sort is stable). */
function inDocumentOrder(problems: RawProblem[], value: unknown): RawProblem[] {
  const rank = (node: unknown, segment: string | number): number => {
    if (typeof segment === 'number') return segment;
    return isObj(node) ? Object.keys(node).indexOf(segment) : -1;
  };
  const depth = (p: RawProblem): number => (p.atKey ? p.path.length - 1.5 : p.path.length);
  const compare = (x: RawProblem, y: RawProblem): number => {
    const [a, b] = [x.path, y.path];
    let node = value;
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      if (a[i] !== b[i]) return rank(node, a[i]) - rank(node, b[i]);
      node = isObj(node) || Array.isArray(node) ? (node as Record<string | number, unknown>)[a[i]] : undefined;
    }
    return depth(x) - depth(y);
  };
  return [...problems].sort(compare);
}

/** A union's verdict for the branch that looks like the input: the first whose complaint is not
 * that the input has another type altogether. */
function branchFor(errors: Issue[][]): Issue[] | undefined {
  return errors.find((issues) => !issues.some((i) => i.path.length === 0 && i.code === 'invalid_type'));
}

/** One problem per field: zod goes on checking a value that already has the wrong type (a
 * string's length for a list), and its first verdict is the one that says what was expected. */
function fieldProblems(issues: Issue[], base: Path, out: RawProblem[], state: { value: unknown; seen: Set<string> }): void {
  for (const issue of issues) {
    const path = [...base, ...(issue.path as (string | number)[])];
    // Unknown and missing keys are reported by the rules, which know the object's name and keys.
    if (issue.code === 'unrecognized_keys') continue;
    if (issue.input === undefined && isDeclaredKey(state.value, path)) continue;
    if (issue.code === 'invalid_union' && issue.errors) {
      const branch = branchFor(issue.errors);
      if (branch) {
        fieldProblems(branch, path, out, state);
        continue;
      }
    }
    const key = path.join('\u0000');
    if (state.seen.has(key)) continue;
    state.seen.add(key);
    out.push({ path, message: issue.message });
  }
}

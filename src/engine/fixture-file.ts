// Reading and checking fixture files (YAML or JSON) and control-API script bodies.
// Every problem names the file, a JSON-pointer-like path inside it, the line/column when the text
// was parsed here, and a message that says what was expected and what was found.
// schema/fixtures.schema.json describes the same format for editors; this module is the authority.

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { extname } from 'node:path';
import type { Document, LineCounter } from 'yaml';
import type * as YamlModule from 'yaml';
import { JSON_PATH_SEGMENT } from './json-path.js';
import { replyLimits, sizeText, type ReplyLimits } from './reply-limits.js';
import type { FixtureSpec } from './spec.js';

export interface FixtureProblem {
  file: string;
  /** Where in the file, e.g. `/scenarios/0/steps/1/reply/toolCalls/0/name`; `(file)` or `(syntax)` outside it. */
  path: string;
  line?: number;
  column?: number;
  message: string;
}

export type FixtureResult = { ok: true; fixture: FixtureSpec } | { ok: false; problems: FixtureProblem[] };

type Segment = string | number;
type Path = readonly Segment[];

interface RawProblem {
  path: Path;
  message: string;
  /** Point at the key of the last segment rather than its value (unknown keys). */
  atKey?: boolean;
}

interface Position {
  line: number;
  column: number;
}

type Locator = (path: Path, atKey: boolean) => Position | undefined;

// ---------------------------------------------------------------- public API

/** Parses fixture text (JSON when `file` ends in .json, YAML otherwise) and validates it. */
export function parseFixtureText(text: string, file: string, limits?: Partial<ReplyLimits>): FixtureResult {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (extname(file).toLowerCase() === '.json') return parseJsonText(source, file, replyLimits(limits));
  return parseYamlText(source, file, replyLimits(limits));
}

/** Validates an already parsed value (no line/column information). */
export function validateFixture(value: unknown, file: string, limits?: Partial<ReplyLimits>): FixtureResult {
  return validateWithLocator(value, file, undefined, replyLimits(limits));
}

/** The same as validateFixture, for bodies that did not come from a file (e.g. the control API);
 * `source` names where the value came from, e.g. `control:POST /_understudy/sessions/x/scripts`. */
export function validateFixtureValue(value: unknown, source: string, limits?: Partial<ReplyLimits>): FixtureResult {
  return validateWithLocator(value, source, undefined, replyLimits(limits));
}

export async function loadFixtureFile(path: string, limits?: Partial<ReplyLimits>): Promise<FixtureResult> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    const reason =
      err.code === 'ENOENT'
        ? 'no such file'
        : err.code === 'EISDIR'
          ? 'it is a directory'
          : err.code === 'EACCES'
            ? 'permission denied'
            : (err.message ?? String(error));
    return { ok: false, problems: [{ file: path, path: '(file)', message: `expected a readable fixture file; ${reason}` }] };
  }
  return parseFixtureText(text, path, limits);
}

/** One line per problem: `file:line:col  /path  message` (line:col omitted when unknown). */
export function formatProblems(problems: FixtureProblem[]): string {
  return problems
    .map((p) => {
      const where = p.line !== undefined ? `${p.file}:${p.line}:${p.column ?? 1}` : p.file;
      return `${where}  ${p.path}  ${p.message}`;
    })
    .join('\n');
}

// ---------------------------------------------------------------- parsing

// yaml (CommonJS) takes ~15 ms to load, so it is required only when YAML text has to be parsed: a
// YAML file, or a JSON file with problems to locate. Valid JSON files and fixture objects never load it.
let yamlModule: typeof YamlModule | undefined;

function yaml(): typeof YamlModule {
  return (yamlModule ??= createRequire(import.meta.url)('yaml') as typeof YamlModule);
}

function parseYamlText(text: string, file: string, limits: ReplyLimits): FixtureResult {
  const { LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, merge: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const problems = doc.errors.map((e): FixtureProblem => {
      const pos = lineCounter.linePos(e.pos[0]);
      return { file, path: '(syntax)', line: pos.line, column: pos.col, message: `invalid YAML: ${oneLine(e.message)}` };
    });
    return { ok: false, problems };
  }
  if (doc.contents === null) {
    return {
      ok: false,
      problems: [
        {
          file,
          path: '/',
          line: 1,
          column: 1,
          message: 'expected a fixture (an object with keys scenarios, session); found an empty document',
        },
      ],
    };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 1000 });
  } catch (error) {
    return {
      ok: false,
      problems: [{ file, path: '(syntax)', message: `invalid YAML: ${oneLine(String((error as Error).message ?? error))}` }],
    };
  }
  return validateWithLocator(value, file, documentLocator(doc, lineCounter), limits);
}

function parseJsonText(text: string, file: string, limits: ReplyLimits): FixtureResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const found = jsonSyntaxError(text);
    if (found) {
      const pos = positionOf(text, found.offset);
      return {
        ok: false,
        problems: [{ file, path: '(syntax)', line: pos.line, column: pos.column, message: `invalid JSON: ${found.message}` }],
      };
    }
    return { ok: false, problems: [{ file, path: '(syntax)', message: `invalid JSON: ${(error as Error).message}` }] };
  }
  // JSON is YAML: parse it again only to find where nodes are (duplicate keys are fine in JSON), and
  // only when there is a problem to locate.
  let locator: Locator | undefined | null = null;
  const locate: Locator = (path, atKey) => {
    if (locator === null) {
      try {
        const { LineCounter, parseDocument } = yaml();
        const lineCounter = new LineCounter();
        const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
        locator = doc.errors.length === 0 ? documentLocator(doc, lineCounter) : undefined;
      } catch {
        locator = undefined;
      }
    }
    return locator?.(path, atKey);
  };
  return validateWithLocator(value, file, locate, limits);
}

function oneLine(message: string): string {
  return message.split('\n')[0].trim();
}

function positionOf(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Finds where JSON text stops being JSON and says what was expected there. */
function jsonSyntaxError(text: string): { offset: number; message: string } | undefined {
  let i = 0;
  class Stop {
    constructor(
      readonly offset: number,
      readonly message: string,
    ) {}
  }
  const foundHere = (): string => (i >= text.length ? 'end of file' : JSON.stringify(text[i]));
  const fail = (expected: string): never => {
    throw new Stop(i, `expected ${expected}; found ${foundHere()}`);
  };
  const ws = (): void => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const literal = (word: string): void => {
    for (const ch of word) {
      if (text[i] !== ch) fail(`"${word}"`);
      i++;
    }
  };
  const string = (): void => {
    i++; // opening quote
    for (;;) {
      if (i >= text.length) fail('a closing quote (")');
      const ch = text[i];
      if (ch === '"') {
        i++;
        return;
      }
      if (ch === '\\') {
        i++;
        const esc = text[i];
        if (esc === 'u') {
          i++;
          for (let k = 0; k < 4; k++) {
            if (!/[0-9a-fA-F]/.test(text[i] ?? '')) fail('four hex digits after \\u');
            i++;
          }
        } else if (esc !== undefined && '"\\/bfnrt'.includes(esc)) i++;
        else fail('an escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)');
      } else if (ch.charCodeAt(0) < 0x20) fail('no raw control characters in a string (use an escape)');
      else i++;
    }
  };
  const digits = (): void => {
    if (!/[0-9]/.test(text[i] ?? '')) fail('a digit');
    while (/[0-9]/.test(text[i] ?? '')) i++;
  };
  const number = (): void => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else digits();
    if (text[i] === '.') {
      i++;
      digits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits();
    }
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('a property name in double quotes');
        string();
        ws();
        if (text[i] !== ':') fail('":" after the property name');
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail('"," or "}" after a property value');
      }
    } else if (ch === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail('"," or "]" after an array element');
      }
    } else if (ch === '"') string();
    else if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) number();
    else if (ch === 't') literal('true');
    else if (ch === 'f') literal('false');
    else if (ch === 'n') literal('null');
    else fail('a JSON value (object, array, string, number, true, false or null)');
  };
  try {
    value();
    ws();
    if (i < text.length) fail('end of file after the JSON value');
    return undefined;
  } catch (error) {
    if (error instanceof Stop) return { offset: error.offset, message: error.message };
    throw error;
  }
}

function documentLocator(doc: Document, lineCounter: LineCounter): Locator {
  const { isAlias, isMap, isScalar, isSeq } = yaml();
  return (path, atKey) => {
    let node: unknown = doc.contents;
    let best: unknown = node;
    for (let i = 0; i < path.length; i++) {
      if (isAlias(node)) node = node.resolve(doc);
      const segment = path[i];
      const last = i === path.length - 1;
      if (isMap(node)) {
        const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(segment));
        if (!pair) break;
        if ((last && atKey) || pair.value === null || pair.value === undefined) {
          best = pair.key;
          node = pair.value;
          if (last && atKey) break;
          continue;
        }
        node = pair.value;
      } else if (isSeq(node) && typeof segment === 'number') {
        node = node.items[segment];
      } else break;
      if (node === null || node === undefined) break;
      best = node;
    }
    const range = (best as { range?: [number, number, number] } | null)?.range;
    if (!range) return undefined;
    const pos = lineCounter.linePos(range[0]);
    return { line: pos.line, column: pos.col };
  };
}

// ---------------------------------------------------------------- validation

function validateWithLocator(value: unknown, file: string, locate: Locator | undefined, limits: ReplyLimits): FixtureResult {
  const raw: RawProblem[] = [];
  const ctx = new Checker(raw, limits);
  ctx.fixture(value);
  if (raw.length === 0) {
    const fixture = cloneJson(value) as FixtureSpec & { $schema?: string };
    delete fixture.$schema;
    return { ok: true, fixture };
  }
  let problems = raw.map((p): FixtureProblem => {
    const problem: FixtureProblem = { file, path: pointer(p.path), message: p.message };
    const pos = locate?.(p.path, p.atKey ?? false);
    if (pos) {
      problem.line = pos.line;
      problem.column = pos.column;
    }
    return problem;
  });
  // In file order when every problem has a position (the sort is stable).
  if (problems.every((p) => p.line !== undefined)) {
    problems = [...problems].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  }
  return { ok: false, problems };
}

function pointer(path: Path): string {
  if (path.length === 0) return '/';
  return path.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

function cloneJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

type Obj = Record<string, unknown>;

const EXHAUSTION = ['reject', 'repeat_last', 'restart'] as const;
const FALLBACK = ['strict', 'auto'] as const;
const FINISH = ['stop', 'length', 'tool_calls', 'content_filter'] as const;
const ROLES = ['system', 'developer', 'user', 'assistant', 'tool'] as const;
const JSON_PATH_IN = ['latest', 'toolResult'] as const;

const FIXTURE_KEYS = ['scenarios', 'session', '$schema'];
const SESSION_KEYS = ['fallback', 'pacing'];
const SCENARIO_KEYS = ['name', 'exhausted', 'maxReplies', 'steps', 'replies', 'pacing'];
const STEP_KEYS = ['id', 'when', 'reply', 'next'];
const REPLY_KEYS = [
  'text',
  'json',
  'toolCalls',
  'reasoning',
  'chunks',
  'delayMs',
  'error',
  'finishReason',
  'reasoningTokens',
  'pacing',
  'fault',
];
const PACING_KEYS = ['ttftMs', 'chunksPerSecond', 'jitterMs'];
const FAULT_KEYS = ['kind', 'afterChunks', 'afterBytes', 'error'];
const FAULT_KINDS = ['error', 'truncate', 'malformed', 'stall', 'reset', 'close'];
const FAULT_ERROR_KEYS = ['status', 'message', 'code', 'type'];
const ERROR_KEYS = ['status', 'message', 'code', 'type', 'headers', 'inStream'];
const TOOL_CALL_KEYS = ['id', 'name', 'arguments'];
const WHEN_KEYS = [
  'model',
  'latestUser',
  'toolResult',
  'toolArguments',
  'jsonPath',
  'historyExact',
  'historyContains',
  'hasTool',
  'attempt',
];
const TEXT_MATCH_KEYS = ['equals', 'contains', 'matches', 'flags'];
const TOOL_RESULT_KEYS = ['name', 'id', 'content'];
const TOOL_ARGUMENTS_KEYS = ['name', 'id', 'equals'];
const JSON_PATH_KEYS = ['path', 'equals', 'in'];
const MESSAGE_KEYS = ['role', 'content', 'toolCalls', 'toolCallId'];

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** A short description of a value for "found …" (strings quoted, long ones cut). */
function found(value: unknown): string {
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

function quoteList(values: readonly string[]): string {
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
function nearest(word: string, candidates: readonly string[]): string | undefined {
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

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function has(obj: Obj, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key) && obj[key] !== undefined;
}

class Checker {
  constructor(
    private readonly problems: RawProblem[],
    private readonly limits: ReplyLimits,
  ) {}

  private report(path: Path, message: string, atKey = false): void {
    this.problems.push({ path, message, atKey });
  }

  // ------------------------------------------------ primitives

  /** An object with only `known` keys; reports unknown keys with a suggestion. */
  private object(value: unknown, path: Path, what: string, known: readonly string[], required: readonly string[] = []): Obj | undefined {
    if (!isObj(value)) {
      this.report(path, `expected ${what} (an object with keys ${quoteList(known.filter((k) => k !== '$schema'))}); found ${found(value)}`);
      return undefined;
    }
    for (const key of Object.keys(value)) {
      if (known.includes(key)) continue;
      const guess = nearest(key, known);
      const message = guess
        ? `unknown key "${key}"; did you mean "${guess}"?`
        : `unknown key "${key}"; expected one of ${quoteList(known.filter((k) => k !== '$schema'))}`;
      this.report([...path, key], message, true);
    }
    for (const key of required) {
      if (!has(value, key)) this.report(path, `missing required key "${key}" in ${what}`);
    }
    return value;
  }

  private string(value: unknown, path: Path, what = 'a string'): value is string {
    if (typeof value === 'string') return true;
    this.report(path, `expected ${what}; found ${found(value)}`);
    return false;
  }

  private nonEmptyString(value: unknown, path: Path, what: string): value is string {
    if (typeof value === 'string' && value.trim() !== '') return true;
    this.report(path, `expected ${what} (a non-empty string); found ${found(value)}`);
    return false;
  }

  private oneOf<T extends string>(value: unknown, path: Path, options: readonly T[]): value is T {
    if (typeof value === 'string' && (options as readonly string[]).includes(value)) return true;
    const guess = typeof value === 'string' ? nearest(value, options) : undefined;
    this.report(path, `expected one of ${quoteList(options)}; found ${found(value)}${guess ? ` (did you mean "${guess}"?)` : ''}`);
    return false;
  }

  private integer(value: unknown, path: Path, min: number, max: number | undefined, what: string): boolean {
    if (typeof value === 'number' && Number.isInteger(value) && value >= min && (max === undefined || value <= max)) return true;
    this.report(path, `expected ${what}; found ${found(value)}`);
    return false;
  }

  /** Any JSON value: no NaN/Infinity, only plain objects and arrays. */
  private json(value: unknown, path: Path): boolean {
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
    if (typeof value === 'number') {
      if (Number.isFinite(value)) return true;
      this.report(path, `expected a JSON value; found ${String(value)} (not representable in JSON)`);
      return false;
    }
    if (Array.isArray(value)) return value.every((v, i) => this.json(v, [...path, i]));
    if (isObj(value)) return Object.entries(value).every(([k, v]) => this.json(v, [...path, k]));
    this.report(path, `expected a JSON value; found ${typeof value}`);
    return false;
  }

  private list(value: unknown, path: Path, what: string, nonEmpty: boolean): unknown[] | undefined {
    if (!Array.isArray(value)) {
      this.report(path, `expected ${what} (a list); found ${found(value)}`);
      return undefined;
    }
    if (nonEmpty && value.length === 0) {
      this.report(path, `expected ${what} with at least one entry; found an empty list`);
      return undefined;
    }
    return value;
  }

  // ------------------------------------------------ the format

  fixture(value: unknown): void {
    const root = this.object(value, [], 'a fixture', FIXTURE_KEYS, ['scenarios']);
    if (!root) return;
    if (has(root, '$schema')) this.string(root.$schema, ['$schema'], 'a schema reference (string)');
    if (has(root, 'session')) {
      const session = this.object(root.session, ['session'], 'session options', SESSION_KEYS);
      if (session && has(session, 'fallback')) this.oneOf(session.fallback, ['session', 'fallback'], FALLBACK);
      if (session && has(session, 'pacing')) this.pacing(session.pacing, ['session', 'pacing']);
    }
    if (!has(root, 'scenarios')) return;
    const scenarios = this.list(root.scenarios, ['scenarios'], 'a list of scenarios', true);
    if (!scenarios) return;
    const names = new Map<string, number>();
    scenarios.forEach((scenario, i) => {
      const name = this.scenario(scenario, ['scenarios', i]);
      if (name === undefined) return;
      const first = names.get(name);
      if (first !== undefined) {
        this.report(
          ['scenarios', i, 'name'],
          `expected a scenario name unique in the file; found "${name}" again (first at /scenarios/${first}/name)`,
        );
      } else names.set(name, i);
    });
  }

  /** Returns the scenario's name when it has a valid one. */
  private scenario(value: unknown, path: Path): string | undefined {
    const scenario = this.object(value, path, 'a scenario', SCENARIO_KEYS, ['name']);
    if (scenario && has(scenario, 'pacing')) this.pacing(scenario.pacing, [...path, 'pacing']);
    if (!scenario) return undefined;
    let name: string | undefined;
    if (has(scenario, 'name') && this.nonEmptyString(scenario.name, [...path, 'name'], 'a scenario name')) name = scenario.name;
    if (has(scenario, 'exhausted')) this.oneOf(scenario.exhausted, [...path, 'exhausted'], EXHAUSTION);
    if (has(scenario, 'maxReplies')) this.integer(scenario.maxReplies, [...path, 'maxReplies'], 1, undefined, 'a positive integer');
    const hasSteps = has(scenario, 'steps');
    const hasReplies = has(scenario, 'replies');
    if (hasSteps && hasReplies) {
      this.report([...path, 'replies'], 'expected either "steps" or "replies" in a scenario, not both; found both');
    } else if (!hasSteps && !hasReplies) {
      this.report(path, 'expected "steps" (a list of steps) or "replies" (a queue of replies) in the scenario; found neither');
    }
    if (hasSteps) {
      const steps = this.list(scenario.steps, [...path, 'steps'], 'a list of steps', true);
      if (steps) this.steps(steps, [...path, 'steps']);
    }
    if (hasReplies) {
      const replies = this.list(scenario.replies, [...path, 'replies'], 'a list of replies', true);
      if (replies) replies.forEach((reply, i) => this.reply(reply, [...path, 'replies', i]));
    }
    return name;
  }

  private steps(steps: unknown[], path: Path): void {
    // Effective ids: explicit, or "step-N" (1-based), as the engine assigns them.
    const ids: (string | undefined)[] = steps.map((step, i) => {
      if (!isObj(step) || !has(step, 'id')) return `step-${i + 1}`;
      return typeof step.id === 'string' && step.id.trim() !== '' ? step.id : undefined;
    });
    const known = [...new Set(ids.filter((id): id is string => id !== undefined))];
    const seen = new Map<string, number>();
    steps.forEach((step, i) => {
      const stepPath = [...path, i];
      const obj = this.object(step, stepPath, 'a step', STEP_KEYS, ['reply']);
      if (!obj) return;
      if (has(obj, 'id')) {
        if (this.nonEmptyString(obj.id, [...stepPath, 'id'], 'a step id') && obj.id === 'complete') {
          this.report(
            [...stepPath, 'id'],
            'expected a step id other than "complete" (it is reserved for `next: complete`); found "complete"',
          );
        }
      }
      const id = ids[i];
      if (id !== undefined) {
        const first = seen.get(id);
        if (first !== undefined) {
          const explicit = has(obj, 'id');
          const firstExplicit = isObj(steps[first]) && has(steps[first] as Obj, 'id');
          this.report(
            explicit ? [...stepPath, 'id'] : stepPath,
            `expected step ids unique in the scenario; found "${id}" again${explicit ? '' : ' (the default id of this step)'} (first ${firstExplicit ? 'at' : 'the default id of'} ${pointer([...path, first])})`,
          );
        } else seen.set(id, i);
      }
      if (has(obj, 'when')) this.when(obj.when, [...stepPath, 'when']);
      if (has(obj, 'reply')) this.reply(obj.reply, [...stepPath, 'reply']);
      if (has(obj, 'next')) this.next(obj.next, [...stepPath, 'next'], known);
    });
  }

  private next(value: unknown, path: Path, ids: string[]): void {
    const check = (ref: unknown, at: Path): void => {
      if (typeof ref !== 'string') {
        this.report(at, `expected a step id or "complete"; found ${found(ref)}`);
        return;
      }
      if (ref === 'complete' || ids.includes(ref)) return;
      const guess = nearest(ref, [...ids, 'complete']);
      this.report(
        at,
        `expected the id of a step in this scenario (${quoteList(ids)}) or "complete"; found "${ref}"${guess ? ` (did you mean "${guess}"?)` : ''}`,
      );
    };
    if (Array.isArray(value)) {
      if (value.length === 0) {
        this.report(path, 'expected a step id, "complete" or a non-empty list of step ids; found an empty list');
        return;
      }
      value.forEach((ref, i) => check(ref, [...path, i]));
    } else if (typeof value === 'string') check(value, path);
    else this.report(path, `expected a step id, "complete" or a list of step ids; found ${found(value)}`);
  }

  private nonNegative(value: unknown, path: Path, what: string): void {
    if (!(typeof value === 'number' && Number.isFinite(value) && value >= 0))
      this.report(path, `expected ${what} (a number ≥ 0); found ${found(value)}`);
  }

  pacing(value: unknown, path: Path): void {
    const pacing = this.object(value, path, 'pacing', PACING_KEYS);
    if (!pacing) return;
    if (has(pacing, 'ttftMs')) this.nonNegative(pacing.ttftMs, [...path, 'ttftMs'], 'a time to first token in milliseconds');
    if (has(pacing, 'jitterMs')) this.nonNegative(pacing.jitterMs, [...path, 'jitterMs'], 'a jitter in milliseconds');
    if (has(pacing, 'chunksPerSecond')) {
      const c = pacing.chunksPerSecond;
      if (!(typeof c === 'number' && Number.isFinite(c) && c > 0))
        this.report([...path, 'chunksPerSecond'], `expected events per second (a number > 0); found ${found(c)}`);
    }
  }

  private fault(value: unknown, path: Path): void {
    const fault = this.object(value, path, 'a fault', FAULT_KEYS, ['kind']);
    if (!fault) return;
    if (has(fault, 'kind')) this.oneOf(fault.kind, [...path, 'kind'], FAULT_KINDS);
    for (const key of ['afterChunks', 'afterBytes'] as const) {
      if (has(fault, key)) this.integer(fault[key], [...path, key], 0, Number.MAX_SAFE_INTEGER, `a count (an integer ≥ 0)`);
    }
    if (has(fault, 'afterChunks') && has(fault, 'afterBytes')) {
      this.report([...path, 'afterBytes'], 'expected either "afterChunks" or "afterBytes", not both; found both');
    }
    if (has(fault, 'error')) {
      const error = this.object(fault.error, [...path, 'error'], 'the error the event carries', FAULT_ERROR_KEYS);
      if (error && has(error, 'status'))
        this.integer(error.status, [...path, 'error', 'status'], 400, 599, 'an HTTP status (an integer from 400 to 599)');
      for (const key of ['message', 'code', 'type'] as const)
        if (error && has(error, key)) this.string(error[key], [...path, 'error', key], `a ${key} (a string)`);
    }
  }

  private reply(value: unknown, path: Path): void {
    const reply = this.object(value, path, 'a reply', REPLY_KEYS);
    if (!reply) return;
    const set = (key: string): boolean => has(reply, key);
    if (!set('text') && !set('json') && !set('toolCalls') && !set('error')) {
      this.report(
        path,
        `expected a reply with at least one of text, json, toolCalls, error; found ${Object.keys(reply).length ? `only ${quoteList(Object.keys(reply))}` : 'an empty object'}`,
      );
    }
    if (set('error')) {
      for (const key of Object.keys(reply)) {
        if (key !== 'error' && key !== 'delayMs' && REPLY_KEYS.includes(key) && set(key)) {
          this.report([...path, key], `expected nothing but "delayMs" beside "error" (an error reply has no content); found "${key}"`);
        }
      }
      this.error(reply.error, [...path, 'error']);
    }
    if (set('text') && set('json')) {
      this.report([...path, 'json'], 'expected either "text" or "json" in a reply, not both; found both');
    }
    if (set('text')) this.string(reply.text, [...path, 'text'], 'the reply text (a string)');
    const jsonOk = set('json') ? this.json(reply.json, [...path, 'json']) : false;
    if (set('reasoning')) this.string(reply.reasoning, [...path, 'reasoning'], 'reasoning text (a string)');
    if (set('chunks')) {
      const chunks = this.list(reply.chunks, [...path, 'chunks'], 'a list of stream chunks (strings)', false);
      if (chunks) {
        let allStrings = true;
        chunks.forEach((c, i) => {
          if (!this.string(c, [...path, 'chunks', i], 'a chunk (a string)')) allStrings = false;
        });
        if (!set('text') && !set('json')) {
          this.report(
            [...path, 'chunks'],
            'expected "chunks" only together with "text" or "json" (they split that content); found neither',
          );
        } else if (allStrings && !set('error')) {
          const content = set('text') ? reply.text : jsonOk ? JSON.stringify(reply.json) : undefined;
          const joined = (chunks as string[]).join('');
          if (typeof content === 'string' && joined !== content) {
            this.report(
              [...path, 'chunks'],
              `expected chunks that concatenate to the ${set('text') ? 'text' : 'compact JSON'} ${found(content)}; they join to ${found(joined)}`,
            );
          }
        }
      }
    }
    this.replySize(reply, path, jsonOk);
    if (set('delayMs')) {
      const d = reply.delayMs;
      if (!(typeof d === 'number' && Number.isFinite(d) && d >= 0)) {
        this.report([...path, 'delayMs'], `expected a delay in milliseconds (a number ≥ 0); found ${found(d)}`);
      }
    }
    if (set('finishReason')) this.oneOf(reply.finishReason, [...path, 'finishReason'], FINISH);
    if (set('pacing')) this.pacing(reply.pacing, [...path, 'pacing']);
    if (set('fault')) this.fault(reply.fault, [...path, 'fault']);
    if (set('reasoningTokens')) this.integer(reply.reasoningTokens, [...path, 'reasoningTokens'], 0, undefined, 'an integer ≥ 0');
    if (set('toolCalls')) {
      const calls = this.list(reply.toolCalls, [...path, 'toolCalls'], 'a list of tool calls', true);
      if (calls) {
        const ids = new Map<string, number>();
        calls.forEach((call, i) => {
          const callPath = [...path, 'toolCalls', i];
          const id = this.toolCall(call, callPath, true);
          if (id === undefined) return;
          const first = ids.get(id);
          if (first !== undefined) {
            this.report(
              [...callPath, 'id'],
              `expected tool call ids unique in a reply; found "${id}" again (first at ${pointer([...path, 'toolCalls', first, 'id'])})`,
            );
          } else ids.set(id, i);
        });
      }
    }
  }

  /** A reply within the per-reply byte limit, its chunk list within the per-stream one. */
  private replySize(reply: Obj, path: Path, jsonOk: boolean): void {
    const { replyBytes, streamChunks } = this.limits;
    const parts: [string, number][] = [];
    if (typeof reply.text === 'string') parts.push(['text', Buffer.byteLength(reply.text)]);
    else if (jsonOk && reply.json !== undefined) parts.push(['json', Buffer.byteLength(JSON.stringify(reply.json))]);
    if (typeof reply.reasoning === 'string') parts.push(['reasoning', Buffer.byteLength(reply.reasoning)]);
    let args = 0;
    if (Array.isArray(reply.toolCalls)) {
      reply.toolCalls.forEach((call: unknown, i) => {
        if (!isObj(call) || call.arguments === undefined) return;
        const text = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
        if (typeof text !== 'string') return;
        const bytes = Buffer.byteLength(text);
        args += bytes;
        if (bytes > replyBytes) this.report([...path, 'toolCalls', i, 'arguments'], this.overLimit('tool-call arguments', bytes));
      });
    }
    if (args > 0) parts.push(['tool arguments', args]);
    let total = 0;
    for (const [key, bytes] of parts) {
      total += bytes;
      if (bytes > replyBytes && key !== 'tool arguments') this.report([...path, key], this.overLimit(`a reply ${key}`, bytes));
    }
    if (total > replyBytes && parts.every(([, bytes]) => bytes <= replyBytes)) {
      const detail = parts.map(([key, bytes]) => `${key} ${bytes.toLocaleString('en-US')}`).join(', ');
      this.report(path, `${this.overLimit('a reply (text or JSON, reasoning and tool arguments together)', total)}: ${detail}`);
    }
    if (Array.isArray(reply.chunks) && reply.chunks.length > streamChunks) {
      this.report(
        [...path, 'chunks'],
        `expected at most ${streamChunks.toLocaleString('en-US')} stream chunks (the per-stream limit; raise it with the ` +
          `maxStreamChunks option or --max-stream-chunks); found ${reply.chunks.length.toLocaleString('en-US')}`,
      );
    }
  }

  private overLimit(what: string, bytes: number): string {
    return (
      `expected ${what} of at most ${sizeText(this.limits.replyBytes)} of UTF-8 (the per-reply limit; raise it with the ` +
      `maxReplyBytes option or --max-reply-bytes); found ${sizeText(bytes)}`
    );
  }

  /** Returns the call id when one is set and valid. */
  private toolCall(value: unknown, path: Path, scripted: boolean): string | undefined {
    const call = this.object(value, path, 'a tool call', TOOL_CALL_KEYS, ['name']);
    if (!call) return undefined;
    let id: string | undefined;
    if (has(call, 'id')) {
      const v = call.id;
      if (typeof v !== 'string' || v.trim() === '') {
        this.report([...path, 'id'], `expected a tool call id (a non-blank string); found ${found(v)}`);
      } else if (scripted && v.length > 128) {
        this.report([...path, 'id'], `expected a tool call id of at most 128 characters; found ${v.length} characters`);
      } else id = v;
    }
    if (has(call, 'name')) this.nonEmptyString(call.name, [...path, 'name'], 'a tool name');
    if (has(call, 'arguments')) this.json(call.arguments, [...path, 'arguments']);
    return id;
  }

  private error(value: unknown, path: Path): void {
    const error = this.object(value, path, 'an error', ERROR_KEYS, ['status', 'message']);
    if (!error) return;
    if (has(error, 'status')) this.integer(error.status, [...path, 'status'], 400, 599, 'an HTTP status (an integer from 400 to 599)');
    if (has(error, 'message')) this.string(error.message, [...path, 'message'], 'an error message (a string)');
    if (has(error, 'code')) this.string(error.code, [...path, 'code'], 'an error code (a string)');
    if (has(error, 'type')) this.string(error.type, [...path, 'type'], 'an error type (a string)');
    if (has(error, 'inStream') && typeof error.inStream !== 'boolean') {
      this.report([...path, 'inStream'], `expected true or false; found ${found(error.inStream)}`);
    }
    if (has(error, 'headers')) {
      const headers = error.headers;
      if (!isObj(headers)) {
        this.report([...path, 'headers'], `expected response headers (an object of name: string value); found ${found(headers)}`);
        return;
      }
      for (const [name, v] of Object.entries(headers)) {
        if (!HEADER_NAME.test(name)) {
          this.report(
            [...path, 'headers', name],
            `expected an HTTP header name (letters, digits and !#$%&'*+.^_\`|~-); found "${name}"`,
            true,
          );
        }
        if (typeof v !== 'string') {
          this.report([...path, 'headers', name], `expected a header value (a string); found ${found(v)}`);
        } else if (!HEADER_VALUE.test(v)) {
          this.report([...path, 'headers', name], 'expected a header value without line breaks or control characters; found one');
        }
      }
    }
  }

  private when(value: unknown, path: Path): void {
    const when = this.object(value, path, 'match conditions', WHEN_KEYS);
    if (!when) return;
    if (has(when, 'model')) this.textMatch(when.model, [...path, 'model']);
    if (has(when, 'latestUser')) this.textMatch(when.latestUser, [...path, 'latestUser']);
    if (has(when, 'hasTool')) this.nonEmptyString(when.hasTool, [...path, 'hasTool'], 'a tool name');
    if (has(when, 'attempt'))
      this.integer(when.attempt, [...path, 'attempt'], 0, undefined, 'a retry attempt (an integer ≥ 0; 0 is the first try)');
    if (has(when, 'toolResult')) {
      const p = [...path, 'toolResult'];
      const tr = this.object(when.toolResult, p, 'a tool result condition', TOOL_RESULT_KEYS);
      if (tr) {
        if (!has(tr, 'name') && !has(tr, 'id'))
          this.report(
            p,
            `expected at least one of "name", "id" in toolResult; found ${Object.keys(tr).length ? `only ${quoteList(Object.keys(tr))}` : 'neither'}`,
          );
        if (has(tr, 'name')) this.nonEmptyString(tr.name, [...p, 'name'], 'a tool name');
        if (has(tr, 'id')) this.nonEmptyString(tr.id, [...p, 'id'], 'a tool call id');
        if (has(tr, 'content')) this.json(tr.content, [...p, 'content']);
      }
    }
    if (has(when, 'toolArguments')) {
      const p = [...path, 'toolArguments'];
      const ta = this.object(when.toolArguments, p, 'a tool arguments condition', TOOL_ARGUMENTS_KEYS, ['equals']);
      if (ta) {
        if (has(ta, 'name')) this.nonEmptyString(ta.name, [...p, 'name'], 'a tool name');
        if (has(ta, 'id')) this.nonEmptyString(ta.id, [...p, 'id'], 'a tool call id');
        if (has(ta, 'equals')) this.json(ta.equals, [...p, 'equals']);
      }
    }
    if (has(when, 'jsonPath')) {
      const p = [...path, 'jsonPath'];
      const jp = this.object(when.jsonPath, p, 'a JSON path condition', JSON_PATH_KEYS, ['path', 'equals']);
      if (jp) {
        if (has(jp, 'path') && this.string(jp.path, [...p, 'path'], 'a JSON path (a string starting with "$")')) {
          const problem = jsonPathProblem(jp.path);
          if (problem) this.report([...p, 'path'], problem);
        }
        if (has(jp, 'equals')) this.json(jp.equals, [...p, 'equals']);
        if (has(jp, 'in')) this.oneOf(jp.in, [...p, 'in'], JSON_PATH_IN);
      }
    }
    for (const key of ['historyExact', 'historyContains'] as const) {
      if (!has(when, key)) continue;
      const list = this.list(when[key], [...path, key], 'a list of messages', true);
      if (list) list.forEach((m, i) => this.message(m, [...path, key, i]));
    }
  }

  private textMatch(value: unknown, path: Path): void {
    if (typeof value === 'string') return;
    if (!isObj(value)) {
      this.report(path, `expected a string or an object with one of equals, contains, matches; found ${found(value)}`);
      return;
    }
    const match = this.object(value, path, 'a text match', TEXT_MATCH_KEYS);
    if (!match) return;
    const modes = ['equals', 'contains', 'matches'].filter((k) => has(match, k));
    if (modes.length !== 1) {
      this.report(path, `expected exactly one of equals, contains, matches; found ${modes.length ? quoteList(modes) : 'none'}`);
    }
    for (const k of modes) this.string(match[k], [...path, k], k === 'matches' ? 'a regular expression (a string)' : 'a string');
    if (has(match, 'flags')) {
      if (!has(match, 'matches')) this.report([...path, 'flags'], 'expected "flags" only together with "matches"; found no "matches"');
      if (this.string(match.flags, [...path, 'flags'], 'regular expression flags (a string such as "i")') && /[gy]/.test(match.flags)) {
        this.report([...path, 'flags'], `expected flags among d, i, m, s, u, v (g and y make matching stateful); found "${match.flags}"`);
        return;
      }
    }
    if (typeof match.matches === 'string' && (match.flags === undefined || typeof match.flags === 'string')) {
      try {
        new RegExp(match.matches, match.flags as string | undefined);
      } catch (error) {
        const at = match.flags !== undefined && /flags/i.test((error as Error).message) ? 'flags' : 'matches';
        this.report([...path, at], `expected a valid JavaScript regular expression; ${(error as Error).message}`);
      }
    }
  }

  private message(value: unknown, path: Path): void {
    const message = this.object(value, path, 'a message', MESSAGE_KEYS, ['role']);
    if (!message) return;
    const role = has(message, 'role') && this.oneOf(message.role, [...path, 'role'], ROLES) ? message.role : undefined;
    if (has(message, 'content')) this.string(message.content, [...path, 'content'], 'message content (a string)');
    if (has(message, 'toolCallId')) {
      this.nonEmptyString(message.toolCallId, [...path, 'toolCallId'], 'a tool call id');
      if (role !== undefined && role !== 'tool')
        this.report([...path, 'toolCallId'], `expected "toolCallId" only on a message with role tool; found role ${role}`);
    }
    if (has(message, 'toolCalls')) {
      const calls = this.list(message.toolCalls, [...path, 'toolCalls'], 'a list of tool calls', false);
      if (calls) calls.forEach((c, i) => this.toolCall(c, [...path, 'toolCalls', i], false));
      if (role !== undefined && role !== 'assistant')
        this.report([...path, 'toolCalls'], `expected "toolCalls" only on a message with role assistant; found role ${role}`);
    }
  }
}

function jsonPathProblem(path: string): string | undefined {
  if (!path.startsWith('$')) return `expected a JSON path starting with "$" (e.g. "$.city"); found ${found(path)}`;
  let at = 1;
  while (at < path.length) {
    JSON_PATH_SEGMENT.lastIndex = at;
    if (!JSON_PATH_SEGMENT.exec(path)) {
      return `expected a JSON path of .name, [index], ['name'] segments after "$"; found ${found(path.slice(at))} at character ${at + 1} of ${found(path)}`;
    }
    at = JSON_PATH_SEGMENT.lastIndex;
  }
  return undefined;
}

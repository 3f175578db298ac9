// Reading fixture files (YAML or JSON) and control-API script bodies, and checking them against
// the format (fixture-schema.ts, through fixture-check.ts). Every problem names the file, a
// JSON-pointer-like path inside it, the line/column (from the yaml library's source positions)
// when the text was parsed here, and a message that says what was expected and what was found.

import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { Document, LineCounter } from 'yaml';
import { checkFixture } from './fixture-check.js';
import { yamlLibrary } from './yaml-library.js';
import { withImageFiles } from './fixture-image-files.js';
import { jsonSyntaxError } from './fixture-json-syntax.js';
import { fixtureExpectation } from './fixture-plan.js';
import { pointer, type Path } from './fixture-words.js';
import { replyLimits, type ReplyLimits } from './reply-limits.js';
import { withPlainCalls } from './fixture-presets.js';
import type { FixtureInput, FixtureSpec } from './spec.js';

export interface FixtureProblem {
  file: string;
  /** Where in the file, e.g. `/scenarios/0/steps/1/reply/toolCalls/0/name`; `(file)` or `(syntax)` outside it. */
  path: string;
  line?: number;
  column?: number;
  message: string;
}

export type FixtureResult = { ok: true; fixture: FixtureSpec } | { ok: false; problems: FixtureProblem[] };

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
  return withImageFiles(parseFixtureText(text, path, limits), path);
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

// yaml is required only when YAML text has to be parsed: a YAML file, or a JSON file with problems
// to locate. Valid JSON files and fixture objects never load it.
const yaml = yamlLibrary;

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
          message: `${fixtureExpectation()}; found an empty document`,
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
  } catch {
    const found = jsonSyntaxError(text);
    const where = found ? positionOf(text, found.offset) : undefined;
    const problem: FixtureProblem = { file, path: '(syntax)', message: `invalid JSON: ${found?.message ?? 'not JSON'}` };
    if (where) Object.assign(problem, { line: where.line, column: where.column });
    return { ok: false, problems: [problem] };
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
  const { LineCounter } = yaml();
  const lines = new LineCounter();
  lines.addNewLine(0);
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines.addNewLine(at + 1);
  const pos = lines.linePos(offset);
  return { line: pos.line, column: pos.col };
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
  const raw = checkFixture(value, limits);
  if (raw.length === 0) {
    const fixture = cloneJson(value) as FixtureInput & { $schema?: string };
    delete fixture.$schema;
    return { ok: true, fixture: withPlainCalls(fixture) };
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

function cloneJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

// The recorded steps under a directory, for `understudy drift`: every .yaml, .yml and .json file
// below it (subdirectories too; dot-directories and node_modules left out) or the one file named,
// each step of each
// scenario that carries a `recorded` member (decision 0017: what the recorder kept of the request
// and the shape of the answer). Files and steps without one are not recordings and are skipped.

import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnswerShape } from '../dialects/wire-kit/answer-shape.js';
import { yamlLibrary } from '../engine/yaml-library.js';

export interface RecordedRequest {
  /** The --upstream name the request goes to. */
  provider: string;
  operation: string;
  method: string;
  /** Relative to the upstream's base URL, query included. */
  path: string;
  headers: Record<string, string>;
  body?: unknown;
  stream: boolean;
  status: number;
  shape: AnswerShape;
}

export interface RecordedStep {
  file: string;
  scenario: string;
  step: string;
  /** The recording, or why it cannot be re-sent. */
  recorded: RecordedRequest | string;
}

/** A file that could not be read or parsed, and why. */
export interface UnreadableFile {
  file: string;
  reason: string;
}

/** In file order: each file's recorded steps, or the file that could not be read. */
export type Recordings = (RecordedStep | UnreadableFile)[];

const yaml = yamlLibrary;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.') && entry.name !== 'node_modules') out.push(...(await filesUnder(path)));
    } else if (entry.isFile() && /\.(ya?ml|json)$/i.test(entry.name)) out.push(path);
  }
  return out;
}

function shapeOf(value: unknown): AnswerShape | undefined {
  if (!isObject(value) || typeof value.contentType !== 'string' || !isStrings(value.fields) || !isStrings(value.tools)) return undefined;
  if (value.events !== undefined && !isStrings(value.events)) return undefined;
  if (value.finishReason !== null && typeof value.finishReason !== 'string') return undefined;
  return {
    contentType: value.contentType,
    fields: value.fields,
    ...(value.events !== undefined && { events: value.events }),
    finishReason: value.finishReason,
    tools: value.tools,
  };
}

/** A step's `recorded` member checked, or what is wrong with it. */
export function recordedOf(value: unknown): RecordedRequest | string {
  if (!isObject(value)) return 'recorded is not a mapping';
  for (const name of ['provider', 'operation', 'method', 'path'] as const) {
    if (typeof value[name] !== 'string' || value[name] === '') return `recorded.${name} is missing or not a string`;
  }
  if (!(value.path as string).startsWith('/')) return 'recorded.path does not start with /';
  if (typeof value.status !== 'number') return 'recorded.status is missing or not a number';
  const headers = value.headers ?? {};
  if (!isObject(headers) || !Object.values(headers).every((v) => typeof v === 'string'))
    return 'recorded.headers is not a mapping of strings';
  const shape = shapeOf(value.shape);
  if (!shape) return 'recorded.shape is missing or not an answer shape (contentType, fields, finishReason, tools)';
  return {
    provider: value.provider as string,
    operation: value.operation as string,
    method: (value.method as string).toUpperCase(),
    path: value.path as string,
    headers: headers as Record<string, string>,
    ...(value.body !== undefined && { body: value.body }),
    stream: value.stream === true,
    status: value.status,
    shape,
  };
}

function stepsOf(file: string, document: unknown): RecordedStep[] {
  if (!isObject(document) || !Array.isArray(document.scenarios)) return [];
  const out: RecordedStep[] = [];
  document.scenarios.forEach((scenario: unknown, s) => {
    if (!isObject(scenario) || !Array.isArray(scenario.steps)) return;
    const name = typeof scenario.name === 'string' ? scenario.name : `scenario-${s + 1}`;
    scenario.steps.forEach((step: unknown, i) => {
      if (!isObject(step) || step.recorded === undefined) return;
      const id = typeof step.id === 'string' ? step.id : `step-${i + 1}`;
      out.push({ file, scenario: name, step: id, recorded: recordedOf(step.recorded) });
    });
  });
  return out;
}

/** Every recorded step under `path` (a directory, or one file), and every file there that could
 * not be read, files in name order. */
export async function readRecordings(path: string): Promise<Recordings> {
  const recordings: Recordings = [];
  const files = (await stat(path)).isDirectory() ? await filesUnder(path) : [path];
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      recordings.push({ file, reason: `cannot read it: ${(error as Error).message}` });
      continue;
    }
    let value: unknown;
    try {
      const document = yaml().parseDocument(text);
      if (document.errors[0]) throw document.errors[0];
      value = document.toJS();
    } catch (error) {
      const message = String((error as Error).message).split('\n')[0];
      recordings.push({ file, reason: `not YAML or JSON: ${message.replace(/:$/, '')}` });
      continue;
    }
    recordings.push(...stepsOf(file, value));
  }
  return recordings;
}

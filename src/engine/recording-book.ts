// The files a recording writes (decision 0017 item 8): per session, the scenarios its recorded
// steps make — a request that carries on an earlier one's conversation is that scenario's next
// step, any other starts a scenario of its own — written after each step to `DIR/<session>.yaml`
// (layout `session`) or `DIR/<session>/<scenario>.yaml` (layout `scenario`), files that
// `--fixtures DIR` loads as they are.

import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatRequest, JsonValue, Message, Reply } from '../core/model.js';
import { redactText, type Redaction } from './redaction.js';
import { yamlLibrary } from './yaml-library.js';
import type { WhenSpec } from './spec.js';

/** What drift needs to send the request again and to compare the answer (the step's `recorded`). */
export interface RecordedExchange {
  provider: string;
  operation: string;
  method: string;
  /** Relative to the upstream's base URL, query included (credentials left out). */
  path: string;
  headers: Record<string, string>;
  body: JsonValue;
  stream: boolean;
  status: number;
  shape?: JsonValue;
}

export interface RecordedStep {
  when: WhenSpec;
  reply: Reply;
  recorded: RecordedExchange;
}

export interface RecordingFiles {
  dir: string;
  /** `missing` keeps what a session's file held and adds to it; `all` starts the file afresh. */
  mode: 'missing' | 'all';
  layout: 'session' | 'scenario';
  redaction: Redaction;
}

interface OpenScenario {
  name: string;
  /** The messages of the scenario's latest request: a request that starts with them carries it on. */
  last: readonly Message[];
  steps: (RecordedStep & { id: string })[];
}

interface SessionBook {
  kept: unknown[];
  scenarios: OpenScenario[];
}

export class RecordingBook {
  private readonly sessions = new Map<string, SessionBook>();

  constructor(readonly files: RecordingFiles) {}

  /** Adds the step to its session's scenarios and writes the file it belongs to; gives where. */
  add(sessionId: string, request: ChatRequest, step: RecordedStep): { file: string; scenario: string; step: string } {
    const book = this.bookOf(sessionId);
    let scenario = book.scenarios.find((s) => carriesOn(request.messages, s.last));
    if (!scenario) {
      scenario = { name: this.freeName(book, sessionId), last: request.messages, steps: [] };
      book.scenarios.push(scenario);
    }
    scenario.last = request.messages;
    const id = `call-${scenario.steps.length + 1}`;
    scenario.steps.push({ id, ...step });
    const file = this.write(sessionId, book, scenario);
    return { file, scenario: scenario.name, step: id };
  }

  private bookOf(sessionId: string): SessionBook {
    if (!fileSafe(sessionId)) throw new Error(`the session id "${sessionId}" cannot name a file: record sessions with another id`);
    let book = this.sessions.get(sessionId);
    if (!book) {
      book = {
        kept: this.files.mode === 'missing' && this.files.layout === 'session' ? keptScenarios(this.sessionFile(sessionId)) : [],
        scenarios: [],
      };
      this.sessions.set(sessionId, book);
    }
    return book;
  }

  private freeName(book: SessionBook, sessionId: string): string {
    const files = this.files;
    const taken = (name: string): boolean =>
      book.kept.some((s) => (s as { name?: unknown }).name === name) ||
      book.scenarios.some((s) => s.name === name) ||
      (files.layout === 'scenario' && files.mode === 'missing' && existsSync(this.scenarioFile(sessionId, name)));
    if (!taken(sessionId)) return sessionId;
    for (let n = 2; ; n++) if (!taken(`${sessionId}-${n}`)) return `${sessionId}-${n}`;
  }

  private sessionFile(sessionId: string): string {
    return sessionFileOf(this.files.dir, sessionId);
  }

  private scenarioFile(sessionId: string, scenario: string): string {
    return join(sessionFolderOf(this.files.dir, sessionId), `${scenario}.yaml`);
  }

  private write(sessionId: string, book: SessionBook, changed: OpenScenario): string {
    if (this.files.layout === 'scenario') {
      const file = this.scenarioFile(sessionId, changed.name);
      writeAtomically(file, this.text([asScenario(changed)]));
      return file;
    }
    const file = this.sessionFile(sessionId);
    writeAtomically(file, this.text([...book.kept, ...book.scenarios.map(asScenario)]));
    return file;
  }

  private text(scenarios: unknown[]): string {
    const fixture = redactText({ scenarios }, this.files.redaction.patterns);
    return `${HEADER}${yamlLibrary().stringify(fixture, { lineWidth: 0 })}`;
  }
}

const HEADER =
  '# Recorded by `understudy serve --record`: each step is one upstream call, its `recorded` member the\n' +
  '# request and the shape of the answer (`understudy drift` sends it again). Replay: --fixtures.\n';

function asScenario(scenario: OpenScenario): Record<string, unknown> {
  return {
    name: scenario.name,
    steps: scenario.steps.map((s) => ({ id: s.id, when: s.when, reply: s.reply, recorded: s.recorded })),
  };
}

/** Where a session's recordings are: its file (layout `session`) and its folder (layout `scenario`). */
export function sessionFileOf(dir: string, sessionId: string): string {
  return join(dir, `${sessionId}.yaml`);
}

export function sessionFolderOf(dir: string, sessionId: string): string {
  return join(dir, sessionId);
}

/** Session ids are letters, digits, `.`, `_` and `-`: all but `.` and `..` name a file of the directory. */
export function fileSafe(sessionId: string): boolean {
  return sessionId !== '.' && sessionId !== '..';
}

/** Whether `messages` begins with every message of `earlier` and has more. */
function carriesOn(messages: readonly Message[], earlier: readonly Message[]): boolean {
  if (messages.length <= earlier.length) return false;
  for (let i = 0; i < earlier.length; i++) if (JSON.stringify(messages[i]) !== JSON.stringify(earlier[i])) return false;
  return true;
}

/** The scenarios a session's file already holds (recording in `missing` mode adds to them). */
function keptScenarios(file: string): unknown[] {
  if (!existsSync(file)) return [];
  let parsed: unknown;
  try {
    parsed = yamlLibrary().parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: cannot add recordings to a file that is not YAML: ${(error as Error).message}`);
  }
  const scenarios = (parsed as { scenarios?: unknown } | null)?.scenarios;
  if (scenarios === undefined) return [];
  if (!Array.isArray(scenarios)) throw new Error(`${file}: /scenarios: expected a list of scenarios to add recordings to`);
  return scenarios;
}

function writeAtomically(file: string, text: string): void {
  mkdirSync(join(file, '..'), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

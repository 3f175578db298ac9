// What the benchmark sends and what every contender answers: one request body per scenario and one
// ~20-word reply, scripted for Understudy, captured byte for byte for the bare server, and
// registered as a fixture for aimock.

import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FixtureSpec } from '../src/engine/spec.js';

export const CHAT_PATH = '/v1/chat/completions';

/** The scripted reply: 20 words, so the default streaming splits it into 20 content chunks. */
export const REPLY_TEXT =
  'Understudy is answering this benchmark request with a fixed reply of about twenty words so every server sends comparable bytes.';

export const REPLY_WORDS = REPLY_TEXT.split(/\s+/).length;

export type ScenarioId = 'chat-json' | 'chat-stream';

export interface Scenario {
  id: ScenarioId;
  description: string;
  stream: boolean;
  /** The exact request body autocannon sends. */
  body: string;
}

export const SCENARIOS: Scenario[] = [
  {
    id: 'chat-json',
    description: 'non-streaming chat completion from a repeating script (one ~20-word text reply)',
    stream: false,
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello!' }] }),
  },
  {
    id: 'chat-stream',
    description: 'the same request with "stream": true; the reply streams as ~20 word chunks + [DONE]',
    stream: true,
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello!' }], stream: true }),
  },
];

/** Loaded into the Understudy child's default session. */
export const UNDERSTUDY_FIXTURE: FixtureSpec = {
  scenarios: [{ name: 'bench', exhausted: 'repeat_last', steps: [{ id: 'reply', reply: { text: REPLY_TEXT } }] }],
};

export type ServerKind = 'bare' | 'understudy' | 'aimock';

/** The one line a server child prints on stdout once it listens. */
export interface ReadyLine {
  ready: true;
  kind: ServerKind;
  port: number;
  pid: number;
}

export function announce(kind: ServerKind, port: number): void {
  const line: ReadyLine = { ready: true, kind, port, pid: process.pid };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

/** Children exit cleanly on SIGTERM/SIGINT so `--cpu-prof` profiles get written. */
export function exitOnSignal(close: () => Promise<void> | void): void {
  const stop = () => {
    const done = () => process.exit(0);
    Promise.resolve().then(close).then(done, done);
    setTimeout(done, 2000).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/** True when the module at `url` is the script node was started with. */
export function isMain(url: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && fileURLToPath(url) === resolve(entry);
}

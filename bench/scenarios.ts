// What the benchmark sends and what every contender answers: the scenarios of the performance
// issue (B1, B2, B3, B4, B5, B6, B7 and VidaiMock's load profile), their request bodies, the scripts the
// Understudy children load, and the ready line every server child prints.

import { resolve } from 'node:path';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { FixtureSpec, ScenarioSpec } from '../src/engine/spec.js';

export const CHAT_PATH = '/v1/chat/completions';
export const MESSAGES_PATH = '/v1/messages';
/** Bedrock's model id as the AWS client sends it in the path (percent-encoded). */
const BEDROCK_MODEL_PATH = '/model/anthropic.claude-3-haiku-20240307-v1%3A0';

/** Where a request goes and the headers it carries (besides content-length). */
export interface Endpoint {
  path: string;
  headers: Record<string, string>;
}

export const OPENAI_CHAT: Endpoint = { path: CHAT_PATH, headers: { 'content-type': 'application/json' } };
export const ANTHROPIC_MESSAGES: Endpoint = {
  path: MESSAGES_PATH,
  headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'bench-key' },
};

const BEDROCK_HEADERS = { 'content-type': 'application/json', authorization: 'Bearer bench-key' };
export const BEDROCK_CONVERSE: Endpoint = { path: `${BEDROCK_MODEL_PATH}/converse`, headers: BEDROCK_HEADERS };
export const BEDROCK_CONVERSE_STREAM: Endpoint = { path: `${BEDROCK_MODEL_PATH}/converse-stream`, headers: BEDROCK_HEADERS };

/** The scripted reply: 20 words, so the default streaming would split it into 20 content chunks. */
export const REPLY_TEXT =
  'Understudy is answering this benchmark request with a fixed reply of about twenty words so every server sends comparable bytes.';

/** B2's reply: 100 pieces of 5 characters, scripted as 100 `chunks` (aimock slices it alike). */
export const STREAM_CHUNKS = Array.from({ length: 100 }, (_, i) => `t${String(i).padStart(3, '0')} `);
export const STREAM_TEXT = STREAM_CHUNKS.join('');

/** B3's reply, each piece its own content chunk, paced at 20 chunks per second: 100 chunks (~5 s)
 * for 2,000 streams, 300 (~15 s) for 10,000 — longer than opening them takes here (~12 s: the
 * client reading every stream shares the 2 cores), so all of them are open at once. */
const pacedChunks = (n: number) => Array.from({ length: n }, (_, i) => `p${String(i).padStart(3, '0')} `);
export const PACED_CHUNKS_PER_SECOND = 20;

/** What Understudy answers in zero-config mode to a request without tools (src/engine/zero-config.ts). */
export const ZERO_CONFIG_TEXT = 'This is a scripted answer from Understudy.';

/** `understudy-workers`: `understudy serve --workers N` from the built CLI (B1, and B3's capacity rounds); `bare-paced`: B3's reference. */
export type ServerKind = 'bare' | 'bare-paced' | 'understudy' | 'understudy-workers' | 'aimock';

export type ScenarioId =
  | 'B1-32'
  | 'B1-256'
  | 'B2'
  | 'B3'
  | 'B4'
  | 'B5-scripts'
  | 'B5-history'
  | 'B6'
  | 'B7-B1'
  | 'B7-B2'
  | 'B7-bedrock-B1'
  | 'B7-bedrock-B2'
  | 'vidai-1000';

// ------------------------------------------------------------------ request bodies

const HELLO = [{ role: 'user', content: 'Hello!' }];
export const BODY_HELLO = JSON.stringify({ model: 'gpt-4o-mini', messages: HELLO });
export const BODY_HELLO_STREAM = JSON.stringify({ model: 'gpt-4o-mini', messages: HELLO, stream: true });
const ANTHROPIC_HELLO = { model: 'claude-sonnet-4-6', max_tokens: 100, messages: HELLO };
export const BODY_ANTHROPIC = JSON.stringify(ANTHROPIC_HELLO);
export const BODY_ANTHROPIC_STREAM = JSON.stringify({ ...ANTHROPIC_HELLO, stream: true });
/** A Bedrock Converse body: the model is in the path. */
export const BODY_CONVERSE = JSON.stringify({
  messages: [{ role: 'user', content: [{ text: 'Hello!' }] }],
  inferenceConfig: { maxTokens: 100 },
});
/** VidaiMock's k6 load script posts exactly this. */
export const BODY_VIDAI = JSON.stringify({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'Hello!' }] });

/** A conversation of `count` messages (user/assistant alternating, ~100 characters each) ending
 * with the user's "Hello!". Every message differs, as in a real conversation. */
export function historyBody(count: number): string {
  const messages: { role: string; content: string }[] = [];
  for (let i = 0; i < count - 1; i++) {
    const role = i % 2 === 0 ? 'user' : 'assistant';
    messages.push({
      role,
      content: `Message ${i + 1} of the conversation: the ${role} talks about item number ${i * 7 + 3} and what to do next with it.`,
    });
  }
  messages.push({ role: 'user', content: 'Hello!' });
  return JSON.stringify({ model: 'gpt-4o-mini', messages });
}

// ------------------------------------------------------------------ Understudy children

/** How bench/understudy-server.ts sets up its default session (passed to it as a JSON argument). */
export interface UnderstudyChildConfig {
  /** 'bench': a one-step scenario that repeats its reply; 'none': no scripts (zero-config). */
  script: 'bench' | 'none';
  /** Script the reply as these stream chunks (B2) instead of the 20-word text. */
  chunks?: string[];
  /** Scripts placed before the answering one, each with an exact `latestUser` that never matches (B5). */
  decoys?: number;
  /** The answering script requires `latestUser` equal to "Hello!" (B5) instead of no predicate. */
  matchLatestUser?: boolean;
  fallback?: 'strict' | 'auto';
  /** Pace the reply (B3). */
  pacing?: { ttftMs?: number; chunksPerSecond?: number };
  /** Answer `{ "stats": true }` messages on the IPC channel with memory and journal figures (B6). */
  stats?: boolean;
  /** For `understudy-workers`: the --workers count. */
  workers?: number;
  /** false: the server's Prometheus metrics off (`metrics: false`, `serve --no-metrics`). */
  metrics?: boolean;
}

export function understudyFixture(config: UnderstudyChildConfig): FixtureSpec {
  if (config.script === 'none') return { scenarios: [] };
  const scenarios: ScenarioSpec[] = [];
  for (let i = 0; i < (config.decoys ?? 0); i++) {
    scenarios.push({
      name: `decoy-${i}`,
      exhausted: 'repeat_last',
      steps: [{ id: 'reply', when: { latestUser: { equals: `decoy question ${i}` } }, reply: { text: `decoy answer ${i}` } }],
    });
  }
  const reply = {
    ...(config.chunks ? { text: config.chunks.join(''), chunks: config.chunks } : { text: REPLY_TEXT }),
    ...(config.pacing && { pacing: config.pacing }),
  };
  scenarios.push({
    name: 'bench',
    exhausted: 'repeat_last',
    steps: [{ id: 'reply', ...(config.matchLatestUser && { when: { latestUser: { equals: 'Hello!' } } }), reply }],
  });
  return { scenarios };
}

/** How bench/aimock-server.ts answers (passed to it as a JSON argument). */
export interface AimockChildConfig {
  text: string;
  /** aimock streams fixed-size character slices of this length. */
  chunkSize: number;
}

// ------------------------------------------------------------------ scenarios

/** One server child and the request it is driven with, within a throughput scenario. */
export interface Contender {
  label: string;
  kind: ServerKind;
  /** For Understudy children. */
  config?: UnderstudyChildConfig;
  /** For aimock. */
  aimock?: AimockChildConfig;
  /** The exact request body autocannon sends to this contender. */
  body: string;
}

export interface Expected {
  text: string;
  stream: boolean;
  /** Exact number of content chunks in Understudy's stream. */
  chunks?: number;
  /** The answer's wire shape (default openai-chat). */
  dialect?: 'openai-chat' | 'anthropic' | 'bedrock';
}

/** Servers take turns round by round; each is compared with `baseline` in the same round. */
export interface ThroughputScenario {
  type: 'throughput';
  id: ScenarioId;
  title: string;
  description: string;
  connections: number;
  contenders: Contender[];
  /** Label of the contender every ratio is taken against. */
  baseline: string;
  /** Where every contender is sent its requests (default OpenAI chat completions). */
  endpoint?: Endpoint;
  /** Label of the Understudy contender whose captured answer the bare server replays. */
  captureFrom?: string;
  expected: Expected;
  /** Seconds per round, when not the mode's default. */
  durationS?: { quick: number; full: number };
  /** Rounds, when not the mode's default. */
  rounds?: { quick: number; full: number };
}

export interface StartupScenario {
  type: 'startup';
  id: 'B4';
  title: string;
  description: string;
  runs: { quick: number; full: number };
}

export interface SoakScenario {
  type: 'soak';
  id: 'B6';
  title: string;
  description: string;
  /** Total requests, sent in `segments` equal autocannon runs with a sample after each. */
  requests: { quick: number; full: number };
  segments: number;
  connections: number;
  body: string;
}

/** Many concurrent paced streams from one Understudy child, driven by node:http clients (B3). */
export interface PacedScenario {
  type: 'paced';
  id: 'B3';
  title: string;
  description: string;
  /** Concurrent streams (capped below the open-files limit). */
  streams: { quick: number; full: number };
  chunks: { quick: string[]; full: string[] };
  chunksPerSecond: number;
  body: string;
  goals: { pacingP99Ms: number; kbPerStream: number };
  /** Full mode only: rounds of these many streams, for Understudy and the bare reference alike,
   * to find how many this machine holds within the pacing goal. */
  capacity: number[];
}

export type Scenario = ThroughputScenario | StartupScenario | SoakScenario | PacedScenario;

const BENCH: UnderstudyChildConfig = { script: 'bench' };
const aimockFor = (text: string, chunks: number): AimockChildConfig => ({ text, chunkSize: Math.ceil(text.length / chunks) });

/** B1's contenders and checks, the same at every connection count. */
const B1_CONTENDERS: Pick<ThroughputScenario, 'contenders' | 'baseline' | 'captureFrom' | 'expected'> = {
  contenders: [
    { label: 'bare', kind: 'bare', body: BODY_HELLO },
    { label: 'understudy', kind: 'understudy', config: BENCH, body: BODY_HELLO },
    { label: 'understudy --workers 2', kind: 'understudy-workers', config: { ...BENCH, workers: 2 }, body: BODY_HELLO },
    { label: 'aimock', kind: 'aimock', aimock: aimockFor(REPLY_TEXT, 20), body: BODY_HELLO },
  ],
  baseline: 'bare',
  captureFrom: 'understudy',
  expected: { text: REPLY_TEXT, stream: false },
};

export const SCENARIOS: Scenario[] = [
  {
    type: 'throughput',
    id: 'B1-32',
    title: 'B1 non-streamed chat completion, 32 connections',
    description: 'non-streaming chat completion from a repeating script (one ~20-word text reply), 32 connections',
    connections: 32,
    ...B1_CONTENDERS,
  },
  {
    type: 'throughput',
    id: 'B1-256',
    title: 'B1 non-streamed chat completion, 256 connections',
    description: 'the same as B1-32 at 256 concurrent connections',
    connections: 256,
    ...B1_CONTENDERS,
  },
  {
    type: 'throughput',
    id: 'B2',
    title: 'B2 streamed chat completion, 100 chunks',
    description: 'streaming chat completion whose reply is scripted as 100 chunks, no pacing, 32 connections',
    connections: 32,
    contenders: [
      { label: 'bare', kind: 'bare', body: BODY_HELLO_STREAM },
      { label: 'understudy', kind: 'understudy', config: { script: 'bench', chunks: STREAM_CHUNKS }, body: BODY_HELLO_STREAM },
      { label: 'aimock', kind: 'aimock', aimock: aimockFor(STREAM_TEXT, STREAM_CHUNKS.length), body: BODY_HELLO_STREAM },
    ],
    baseline: 'bare',
    captureFrom: 'understudy',
    expected: { text: STREAM_TEXT, stream: true, chunks: STREAM_CHUNKS.length },
  },
  {
    type: 'paced',
    id: 'B3',
    title: 'B3 many concurrent paced streams',
    description:
      'one Understudy child streams a reply paced at 20 chunks per second to every one of N concurrent plain-socket clients in the parent (quick: 2,000 streams of 100 chunks, ~5 s; full: 10,000 of 300 chunks, ~15 s, then rounds of 2,000 to 5,000 streams), all open at once',
    streams: { quick: 2_000, full: 10_000 },
    chunks: { quick: pacedChunks(100), full: pacedChunks(300) },
    chunksPerSecond: PACED_CHUNKS_PER_SECOND,
    body: BODY_HELLO_STREAM,
    goals: { pacingP99Ms: 5, kbPerStream: 20 },
    capacity: [2_000, 3_000, 4_000, 5_000],
  },
  {
    type: 'startup',
    id: 'B4',
    title: 'B4 start-up',
    description:
      'fresh child processes: (a) import dist/ + startUnderstudy() + first answered request, in process; (b) `node dist/cli/main.js serve --port 0` to its listening line and a first answered request',
    runs: { quick: 5, full: 20 },
  },
  {
    type: 'throughput',
    id: 'B5-scripts',
    title: 'B5 10 vs 10,000 scripts',
    description:
      'the answering script is last, behind 9 / 9,999 scripts whose exact latestUser never matches (the worst case: every request tests every script), 32 connections',
    connections: 32,
    contenders: [
      { label: '10 scripts', kind: 'understudy', config: { script: 'bench', decoys: 9, matchLatestUser: true }, body: BODY_HELLO },
      { label: '10,000 scripts', kind: 'understudy', config: { script: 'bench', decoys: 9_999, matchLatestUser: true }, body: BODY_HELLO },
    ],
    baseline: '10 scripts',
    expected: { text: REPLY_TEXT, stream: false },
  },
  {
    type: 'throughput',
    id: 'B5-history',
    title: 'B5 2 vs 100 vs 200 messages of history',
    description:
      'the same repeating script; the request carries 2, 100 or 200 messages (~100 characters, ~27 tokens each), 32 connections; 100 sits between the two so the growth from 100 to 200 can be compared with the growth from 2 to 100',
    connections: 32,
    contenders: [
      { label: '2 messages', kind: 'understudy', config: BENCH, body: historyBody(2) },
      { label: '100 messages', kind: 'understudy', config: BENCH, body: historyBody(100) },
      { label: '200 messages', kind: 'understudy', config: BENCH, body: historyBody(200) },
    ],
    baseline: '2 messages',
    expected: { text: REPLY_TEXT, stream: false },
  },
  {
    type: 'soak',
    id: 'B6',
    title: 'B6 a million requests',
    description: 'one Understudy child answers B1 requests (32 connections) in 10 equal segments; RSS, heap and journal sampled after each',
    requests: { quick: 100_000, full: 1_000_000 },
    segments: 10,
    connections: 32,
    body: BODY_HELLO,
  },
  {
    type: 'throughput',
    id: 'B7-B1',
    title: 'B7 B1 through Anthropic Messages',
    description: "B1's repeating 20-word reply answered as a non-streamed Anthropic Messages response (POST /v1/messages), 32 connections",
    connections: 32,
    endpoint: ANTHROPIC_MESSAGES,
    contenders: [
      { label: 'bare', kind: 'bare', body: BODY_ANTHROPIC },
      { label: 'understudy', kind: 'understudy', config: BENCH, body: BODY_ANTHROPIC },
    ],
    baseline: 'bare',
    captureFrom: 'understudy',
    expected: { text: REPLY_TEXT, stream: false, dialect: 'anthropic' },
  },
  {
    type: 'throughput',
    id: 'B7-B2',
    title: 'B7 B2 through Anthropic Messages, 100 chunks',
    description:
      "B2's reply scripted as 100 chunks, streamed as Anthropic Messages SSE (100 content_block_delta events), no pacing, 32 connections",
    connections: 32,
    endpoint: ANTHROPIC_MESSAGES,
    contenders: [
      { label: 'bare', kind: 'bare', body: BODY_ANTHROPIC_STREAM },
      { label: 'understudy', kind: 'understudy', config: { script: 'bench', chunks: STREAM_CHUNKS }, body: BODY_ANTHROPIC_STREAM },
    ],
    baseline: 'bare',
    captureFrom: 'understudy',
    expected: { text: STREAM_TEXT, stream: true, chunks: STREAM_CHUNKS.length, dialect: 'anthropic' },
  },
  {
    type: 'throughput',
    id: 'B7-bedrock-B1',
    title: 'B7 B1 through Bedrock Converse',
    description:
      "B1's repeating 20-word reply answered as a Bedrock Converse response (POST /model/{id}/converse, HTTP/1.1), 32 connections",
    connections: 32,
    endpoint: BEDROCK_CONVERSE,
    contenders: [
      { label: 'bare', kind: 'bare', body: BODY_CONVERSE },
      { label: 'understudy', kind: 'understudy', config: BENCH, body: BODY_CONVERSE },
    ],
    baseline: 'bare',
    captureFrom: 'understudy',
    expected: { text: REPLY_TEXT, stream: false, dialect: 'bedrock' },
  },
  {
    type: 'throughput',
    id: 'B7-bedrock-B2',
    title: 'B7 B2 through Bedrock ConverseStream, 100 chunks',
    description:
      "B2's reply scripted as 100 chunks, streamed as ConverseStream event-stream frames (100 contentBlockDelta events, HTTP/1.1), no pacing, 32 connections",
    connections: 32,
    endpoint: BEDROCK_CONVERSE_STREAM,
    contenders: [
      { label: 'bare', kind: 'bare', body: BODY_CONVERSE },
      { label: 'understudy', kind: 'understudy', config: { script: 'bench', chunks: STREAM_CHUNKS }, body: BODY_CONVERSE },
    ],
    baseline: 'bare',
    captureFrom: 'understudy',
    expected: { text: STREAM_TEXT, stream: true, chunks: STREAM_CHUNKS.length, dialect: 'bedrock' },
  },
  {
    type: 'throughput',
    id: 'vidai-1000',
    title: "VidaiMock's load profile, 1,000 connections",
    description:
      'VidaiMock k6 body (gpt-3.5-turbo, "Hello!") to Understudy in zero-config mode (fallback auto, no scripts) and to bare, 1,000 connections',
    connections: 1000,
    contenders: [
      { label: 'bare', kind: 'bare', body: BODY_VIDAI },
      { label: 'understudy', kind: 'understudy', config: { script: 'none', fallback: 'auto' }, body: BODY_VIDAI },
    ],
    baseline: 'bare',
    captureFrom: 'understudy',
    expected: { text: ZERO_CONFIG_TEXT, stream: false },
    durationS: { quick: 5, full: 10 },
    rounds: { quick: 2, full: 5 },
  },
];

// ------------------------------------------------------------------ child plumbing

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

/** Understudy's server options that change the bytes on the wire (Keep-Alive: timeout=65). */
export const SERVER_OPTIONS = { keepAliveTimeout: 65_000 };

/** Listens on a free loopback port (with Understudy's accept queue depth, src/transport/http-host.ts),
 * prints the ready line, and closes on SIGTERM/SIGINT. */
export function serveAsChild(server: Server): void {
  server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => {
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('unexpected server address');
    announce('bare', address.port);
  });
  exitOnSignal(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
}

/** True when the module at `url` is the script node was started with. */
export function isMain(url: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && fileURLToPath(url) === resolve(entry);
}

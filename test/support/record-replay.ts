// What the record-and-replay tests share: an upstream (a second Understudy, standing in for the
// real provider, whose session is found by the credential the application sends), the agent loop
// it answers — a tool call, its result, a second tool call, its result, a closing text — and
// reading what a recording wrote.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { startUnderstudy, type Understudy } from '../../src/client/index.js';
import type { RecordOptions } from '../../src/transport/recorder.js';

/** The credential the application sends; it reaches the upstream and must never be written down. */
export const UPSTREAM_KEY = 'sk-upstream-secret-4242';
export const FINAL_TEXT = 'Paris is sunny, 21 °C, and it is noon there.';
/** What the upstream reports for the closing answer: no count Understudy would make itself. */
export const REPORTED_USAGE = { inputTokens: 1234, outputTokens: 56, cachedInputTokens: 1024, reasoningTokens: 0 };
/** A longer answer, for streams whose timing is measured. */
export const STORY = 'Once upon a time a small stand-in learned every line of the play and said each one on cue.';

export interface Upstream {
  mock: Understudy;
  /** Requests the upstream's session received. */
  requests(): Promise<number>;
}

export interface UpstreamOptions {
  /** Slows the upstream's streams. */
  chunksPerSecond?: number;
  /** Whether the upstream's tool calls carry ids (default true); false is Gemini's usual wire, where
   * a call and its functionResponse are tied by name and order alone. */
  callIds?: boolean;
  /** Thinking the upstream shows before each tool call (where the dialect carries it). */
  reasoning?: string;
}

/** An upstream whose scripted agent loop answers the application. */
export async function startUpstream(options: UpstreamOptions = {}): Promise<Upstream> {
  const ids = options.callIds ?? true;
  const call = (name: string, args: Record<string, string>, id: string) => ({
    toolCalls: [{ name, arguments: args, ...(ids && { id }) }],
    ...(options.reasoning !== undefined && { reasoning: options.reasoning }),
  });
  const mock = await startUnderstudy();
  const session = await mock.session('provider', {
    apiKey: UPSTREAM_KEY,
    fallback: 'strict',
    ...(options.chunksPerSecond && { pacing: { chunksPerSecond: options.chunksPerSecond } }),
  });
  session
    .scenario('loop')
    .onExhausted('restart')
    .whenLatestUser({ contains: 'weather' })
    .reply(call('weather', { city: 'Paris' }, 'call_weather_1'))
    .thenWhenToolResult('weather', ids ? 'call_weather_1' : undefined)
    .reply(call('clock', { zone: 'Europe/Paris' }, 'call_clock_2'))
    .thenWhenToolResult('clock', ids ? 'call_clock_2' : undefined)
    .replies(FINAL_TEXT, { usage: REPORTED_USAGE });
  session.scenario('story').onExhausted('repeat_last').whenLatestUser({ contains: 'story' }).replies(STORY);
  return {
    mock,
    requests: async () => (await session.journal()).entries.length,
  };
}

const made: string[] = [];
process.once('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory for a recording, removed when the test process ends. */
export function recordingDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'understudy-recording-'));
  made.push(dir);
  return dir;
}

/** Every file under the directory, with its text. */
export function recordedFiles(dir: string): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...recordedFiles(path));
    else out.push({ path, text: readFileSync(path, 'utf8') });
  }
  return out;
}

/** The tool results the application's tools give. */
export function toolResult(name: string): string {
  return name === 'weather' ? '{"temperature":21,"sky":"sunny"}' : '{"time":"12:00"}';
}

export const WEATHER_TOOL = {
  name: 'weather',
  description: 'The weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
export const CLOCK_TOOL = {
  name: 'clock',
  description: 'The time in a zone',
  parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] },
};

/** A session's base URL for a provider on a started Understudy: the `/s/<session>` path prefix. */
export function sessionUrl(server: Understudy, provider: string, session: string): string {
  return server.url(provider).replace(server.baseUrl, `${server.baseUrl}/s/${encodeURIComponent(session)}`);
}

export interface RecordReplayCase<T> {
  /** The upstream's name (`--upstream NAME=URL`): the operation id's first segment. */
  provider: string;
  /** The provider whose base URL the application's SDK is given (default: `provider`). */
  route?: string;
  /** The session the loop runs in, named in the path; its recording is DIR/<session>.yaml. */
  session: string;
  /** The application, given its SDK's base URL: runs the loop and gives what its SDK returned. */
  loop: (baseUrl: string) => Promise<T>;
  /** Calls the loop makes (each goes upstream once while recording). */
  calls?: number;
  /** `--redact` rules besides the defaults. */
  redact?: string[];
  /** `--record-match`: what a recorded step's `when` holds (default `conversation`). */
  match?: 'conversation' | 'exact';
  /** Texts the application sent that no file may hold (besides the credential). */
  secrets?: string[];
  upstream?: UpstreamOptions;
  /** Record from a canned upstream answering these, in order, instead of an Understudy. */
  canned?: CannedAnswer[];
  /** More of the recorder's options (`aws`: how a SigV4 request is signed again). */
  record?: Partial<RecordOptions>;
}

export interface RecordReplayRun<T> {
  recorded: T;
  replayed: T;
  /** What the recording wrote (the directory itself is removed). */
  files: { path: string; text: string }[];
}

/** Records the loop from an upstream (stopped afterwards), checks the files hold no credential and
 * no secret, then runs the loop again against the recording alone, fallback strict, and checks the
 * SDK saw the very same results and every recorded step was used. */
export async function recordThenReplay<T>(c: RecordReplayCase<T>): Promise<RecordReplayRun<T>> {
  const dir = recordingDir();
  try {
    return await recordAndReplayIn(dir, c);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The case's upstream: an Understudy running the agent loop, or a canned one. */
async function upstreamFor(
  c: RecordReplayCase<unknown>,
  route: string,
): Promise<{ url: string; requests(): Promise<number>; close(): Promise<void> }> {
  if (c.canned) {
    const canned = await startCannedUpstream(c.canned);
    return { url: canned.url, requests: async () => canned.requests.length, close: () => canned.close() };
  }
  const upstream = await startUpstream(c.upstream);
  return { url: upstream.mock.url(route), requests: upstream.requests, close: () => upstream.mock.close() };
}

async function recordAndReplayIn<T>(dir: string, c: RecordReplayCase<T>): Promise<RecordReplayRun<T>> {
  const route = c.route ?? c.provider;
  const upstream = await upstreamFor(c, route);
  let recorded: T;
  try {
    const recorder = await startUnderstudy({
      record: {
        dir,
        upstreams: { [c.provider]: upstream.url },
        ...(c.redact && { redact: c.redact }),
        ...(c.match && { match: c.match }),
        ...c.record,
      },
    });
    try {
      await recorder.session(c.session);
      recorded = await c.loop(sessionUrl(recorder, route, c.session));
    } finally {
      await recorder.close();
    }
    assert.equal(await upstream.requests(), c.calls ?? c.canned?.length ?? 3, 'each call went upstream once');
  } finally {
    await upstream.close();
  }

  const files = recordedFiles(dir);
  assert.deepEqual(
    files.map((f) => f.path.slice(dir.length)),
    [`/${c.session}.yaml`],
  );
  for (const { text } of files) {
    assert.ok(!text.includes(UPSTREAM_KEY), 'the credential is not in the recording');
    for (const secret of c.secrets ?? []) assert.ok(!text.includes(secret), `"${secret}" is redacted`);
    if (c.secrets?.length) assert.ok(text.includes('[redacted]'), 'what was sent is marked redacted');
  }

  const replay = await startUnderstudy({ replay: dir, defaultSession: { fallback: 'strict' } });
  try {
    const session = await replay.session(c.session, { fallback: 'strict' });
    const replayed = await c.loop(sessionUrl(replay, route, c.session));
    assert.deepEqual(replayed, recorded, 'the replay gives the SDK what the upstream gave it');
    await session.verify();
    return { recorded, replayed, files };
  } finally {
    await replay.close();
  }
}

/** Records the loop from an upstream (stopped afterwards) and starts a replay of it, fallback strict. */
export async function replayOfLoop(
  provider: string,
  loop: (baseUrl: string) => Promise<unknown>,
  options: { route?: string; upstream?: UpstreamOptions } = {},
): Promise<Understudy> {
  const route = options.route ?? provider;
  const upstream = await startUpstream(options.upstream);
  const dir = recordingDir();
  try {
    const recorder = await startUnderstudy({ record: { dir, upstreams: { [provider]: upstream.mock.url(route) } } });
    try {
      await loop(recorder.url(route));
    } finally {
      await recorder.close();
    }
  } finally {
    await upstream.mock.close();
  }
  return startUnderstudy({ replay: dir, defaultSession: { fallback: 'strict' } });
}

/** The tools as Chat Completions declares them. */
export const CHAT_TOOLS = [WEATHER_TOOL, CLOCK_TOOL].map((t) => ({ type: 'function' as const, function: t }));

/** A Chat Completions turn as the application's SDK saw it. */
export interface ChatTurn {
  content: string | null;
  toolCalls: { id: string; name: string; arguments: string }[];
  finish: string | null;
  usage: unknown;
}

/** The application on Chat Completions (openai's client, or a host's: AzureOpenAI): runs the loop
 * to its end, sending each call's result back by its id. */
export async function chatCompletionsLoop(client: OpenAI, stream: boolean, extra: Record<string, unknown> = {}): Promise<ChatTurn[]> {
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Paris, and the time?' }];
  const turns: ChatTurn[] = [];
  for (let round = 0; round < 4; round++) {
    const body = { model: 'gpt-4o', messages, tools: CHAT_TOOLS, ...extra };
    const completion = stream
      ? await client.chat.completions.stream({ ...body, stream_options: { include_usage: true } }).finalChatCompletion()
      : await client.chat.completions.create(body);
    const choice = completion.choices[0];
    const calls = (choice.message.tool_calls ?? []).filter((c) => c.type === 'function');
    turns.push({
      content: choice.message.content,
      toolCalls: calls.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })),
      finish: choice.finish_reason,
      usage: completion.usage,
    });
    messages.push({ role: 'assistant', content: choice.message.content, ...(calls.length > 0 && { tool_calls: calls }) });
    if (calls.length === 0) break;
    for (const call of calls) messages.push({ role: 'tool', tool_call_id: call.id, content: toolResult(call.function.name) });
  }
  return turns;
}

/** One answer of a canned upstream, as a provider's server writes it. */
export interface CannedAnswer {
  contentType: string;
  /** Text is sent as UTF-8; bytes (a binary event stream) as they are. */
  body: string | Buffer;
}

export interface CannedUpstream {
  url: string;
  /** The requests it was sent: path and body. */
  requests: { path: string; body: string }[];
  close(): Promise<void>;
}

/** An upstream that is not Understudy: it answers each request with the next canned answer, written
 * the way the provider's own servers write theirs (their event names, pings, line ends, ids and
 * signatures), so what is read back is not Understudy's own encoding. */
export async function startCannedUpstream(answers: CannedAnswer[]): Promise<CannedUpstream> {
  const requests: { path: string; body: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
      const answer = answers[requests.length - 1];
      if (!answer) {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"no canned answer left"}');
        return;
      }
      res.writeHead(200, { 'content-type': answer.contentType }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

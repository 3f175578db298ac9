// Record and replay through the real ollama SDK's /api/chat (issue 22): an agent loop of whole
// tool calls and `tool` messages, recorded from a local upstream, replays with the upstream stopped
// and gives the SDK the same results, JSON and NDJSON-streamed. What Ollama measures on its own
// machine (the durations, created_at) is made afresh by whoever answers and is not compared; the
// counts are. Ollama has no end-user member: the end user named in the system message is kept out
// with a `--redact` pattern.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Ollama, type ChatResponse, type Message, type Tool, type ToolCall } from 'ollama';

import {
  type CannedAnswer,
  CLOCK_TOOL,
  FINAL_TEXT,
  recordThenReplay,
  replayOfLoop,
  toolResult,
  UPSTREAM_KEY,
  WEATHER_TOOL,
} from './support/record-replay.js';

const MODEL = 'llama3.2';
const TOOLS: Tool[] = [WEATHER_TOOL, CLOCK_TOOL].map((t) => ({ type: 'function', function: t }));

interface Turn {
  content: string;
  toolCalls: ToolCall[];
  doneReason: string;
  counts: [number, number];
}

const timedFetch: typeof fetch = (input, init) => {
  const timeout = AbortSignal.timeout(10_000);
  return fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout });
};

function client(host: string): Ollama {
  return new Ollama({ host, headers: { Authorization: `Bearer ${UPSTREAM_KEY}` }, fetch: timedFetch });
}

async function turnOf(ollama: Ollama, messages: Message[], stream: boolean): Promise<Turn> {
  const request = { model: MODEL, messages, tools: TOOLS };
  const turn: Turn = { content: '', toolCalls: [], doneReason: '', counts: [0, 0] };
  const parts: ChatResponse[] = stream ? [] : [await ollama.chat({ ...request, stream: false })];
  if (stream) for await (const part of await ollama.chat({ ...request, stream: true })) parts.push(part);
  for (const part of parts) {
    turn.content += part.message.content;
    turn.toolCalls.push(...(part.message.tool_calls ?? []));
    if (part.done) {
      turn.doneReason = part.done_reason;
      turn.counts = [part.prompt_eval_count, part.eval_count];
    }
  }
  return turn;
}

async function agentLoop(host: string, stream: boolean): Promise<Turn[]> {
  const ollama = client(host);
  const messages: Message[] = [
    { role: 'system', content: 'You answer for end-user-77.' },
    { role: 'user', content: 'What is the weather in Paris, and the time?' },
  ];
  const turns: Turn[] = [];
  for (let round = 0; round < 4; round++) {
    const turn = await turnOf(ollama, messages, stream);
    turns.push(turn);
    messages.push({ role: 'assistant', content: turn.content, ...(turn.toolCalls.length > 0 && { tool_calls: turn.toolCalls }) });
    if (turn.toolCalls.length === 0) break;
    for (const call of turn.toolCalls)
      messages.push({ role: 'tool', tool_name: call.function.name, content: toolResult(call.function.name) });
  }
  return turns;
}

for (const [stream, tag] of [
  [false, '[record.ollama-chat.json +]'],
  [true, '[record.ollama-chat.stream +]'],
] as const) {
  test(`an Ollama agent loop recorded from the upstream replays with the upstream stopped, the SDK seeing the same results (${stream ? 'stream' : 'json'}) ${tag}`, async () => {
    const { recorded } = await recordThenReplay({
      provider: 'ollama',
      session: 'ollama-loop',
      loop: (host) => agentLoop(host, stream),
      redact: ['/end-user-\\d+/'],
      secrets: ['end-user-77'],
    });
    assert.deepEqual(
      recorded.map((t) => t.toolCalls.map((c) => [(c as ToolCall & { id?: string }).id, c.function.name, c.function.arguments])),
      [[['call_weather_1', 'weather', { city: 'Paris' }]], [['call_clock_2', 'clock', { zone: 'Europe/Paris' }]], []],
      'the ids the wire carries (the SDK types none)',
    );
    assert.deepEqual(
      recorded.map((t) => t.doneReason),
      ['stop', 'stop', 'stop'],
    );
    assert.equal(recorded[2].content, FINAL_TEXT);
    assert.deepEqual(recorded[2].counts, [1234, 56], "the upstream's own counts");
  });
}

test('an Ollama request the recording does not hold is refused on replay with a 409 [record.ollama-chat.json -] [record.ollama-chat.stream -]', async () => {
  const replay = await replayOfLoop('ollama', (host) => agentLoop(host, false));
  try {
    const ollama = client(replay.url('ollama'));
    const request = { model: MODEL, messages: [{ role: 'user', content: 'What is the weather in Rome?' }], tools: TOOLS };
    const refused = (error: unknown) => (error as { status_code?: number }).status_code === 409 && /latestUser/.test(String(error));
    await assert.rejects(ollama.chat({ ...request, stream: false }), refused);
    await assert.rejects(async () => {
      for await (const part of await ollama.chat({ ...request, stream: true })) void part;
    }, refused);
  } finally {
    await replay.close();
  }
});

/** Ollama's own server: tool calls with no id (as Ollama wrote them before it gave ids), whole in
 * one line, the thinking beside them, durations in nanoseconds, `done_reason` "stop" after a call;
 * NDJSON lines when streamed, the last one `done: true` with the counts and empty content. */
function ollamaServerAnswers(stream: boolean): CannedAnswer[] {
  const at = '2026-12-02T01:00:00.123456789Z';
  const stats = (prompt: number, evals: number) => ({
    total_duration: 812000000,
    load_duration: 21000000,
    prompt_eval_count: prompt,
    prompt_eval_duration: 90000000,
    eval_count: evals,
    eval_duration: 700000000,
  });
  const callMessage = {
    role: 'assistant',
    content: '',
    thinking: 'The user wants the weather first.',
    tool_calls: [{ function: { name: 'weather', arguments: { city: 'Paris' } } }],
  };
  const done = { done: true, done_reason: 'stop' };
  if (!stream) {
    return [
      { model: MODEL, created_at: at, message: callMessage, ...done, ...stats(120, 22) },
      { model: MODEL, created_at: at, message: { role: 'assistant', content: 'Paris is sunny, 21 °C.' }, ...done, ...stats(160, 9) },
    ].map((body) => ({ contentType: 'application/json; charset=utf-8', body: JSON.stringify(body) }));
  }
  const lines = (...objects: object[]) => objects.map((o) => `${JSON.stringify({ model: MODEL, created_at: at, ...o })}\n`).join('');
  const empty = { role: 'assistant', content: '' };
  return [
    lines({ message: callMessage, done: false }, { message: empty, ...done, ...stats(120, 22) }),
    lines(
      { message: { role: 'assistant', content: 'Paris is sunny' }, done: false },
      { message: { role: 'assistant', content: ', 21 °C.' }, done: false },
      { message: empty, ...done, ...stats(160, 9) },
    ),
  ].map((body) => ({ contentType: 'application/x-ndjson', body }));
}

/** Each call's name and arguments, the server version's `index` aside, and not its id: this server
 * sends none, and Understudy's Ollama answers carry one on replay, as current servers do (a
 * recording's conditions leave the made-up ids out, so the loop still matches). */
function calls(turns: Turn[]): unknown[] {
  return turns.map((t) => ({ ...t, toolCalls: t.toolCalls.map((c) => [c.function.name, c.function.arguments]) }));
}

for (const stream of [false, true]) {
  test(`an answer as Ollama's server writes it (calls with no id, thinking, nanosecond durations) replays with the same calls and counts (${stream ? 'stream' : 'json'})`, async () => {
    const { recorded } = await recordThenReplay({
      provider: 'ollama',
      session: 'ollama-server',
      canned: ollamaServerAnswers(stream),
      loop: async (host) => calls(await agentLoop(host, stream)),
    });
    assert.deepEqual(recorded, [
      {
        content: '',
        toolCalls: [['weather', { city: 'Paris' }]],
        doneReason: 'stop',
        counts: [120, 22],
      },
      { content: 'Paris is sunny, 21 °C.', toolCalls: [], doneReason: 'stop', counts: [160, 9] },
    ]);
  });
}

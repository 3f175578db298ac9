// Record and replay through the real @anthropic-ai/sdk (issue 22): an agent loop of tool_use and
// tool_result blocks, recorded from a local upstream, replays with the upstream stopped and gives
// the SDK the same results through messages.create and messages.stream. The message's own `msg_`
// id is made afresh by whoever answers and is not compared.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import Anthropic from '@anthropic-ai/sdk';

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

const TOOLS: Anthropic.Tool[] = [WEATHER_TOOL, CLOCK_TOOL].map((t) => ({
  name: t.name,
  description: t.description,
  input_schema: t.parameters as Anthropic.Tool.InputSchema,
}));

interface Turn {
  thinking: [string, string][];
  text: string;
  toolCalls: { id: string; name: string; input: unknown }[];
  stopReason: string | null;
  usage: unknown;
}

function client(baseURL: string): Anthropic {
  return new Anthropic({ baseURL, apiKey: UPSTREAM_KEY, maxRetries: 0, timeout: 10_000 });
}

async function agentLoop(baseURL: string, stream: boolean, thinking = false): Promise<Turn[]> {
  const anthropic = client(baseURL);
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'What is the weather in Paris, and the time?' }];
  const turns: Turn[] = [];
  for (let round = 0; round < 4; round++) {
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 2048,
      messages,
      tools: TOOLS,
      metadata: { user_id: 'end-user-77' },
      ...(thinking && { thinking: { type: 'enabled' as const, budget_tokens: 1024 } }),
    };
    const message = stream ? await anthropic.messages.stream(body).finalMessage() : await anthropic.messages.create(body);
    const calls = message.content.filter((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use');
    turns.push({
      thinking: message.content.flatMap((b) => (b.type === 'thinking' ? [[b.thinking, b.signature] as [string, string]] : [])),
      text: message.content.map((b) => (b.type === 'text' ? b.text : '')).join(''),
      toolCalls: calls.map((c) => ({ id: c.id, name: c.name, input: c.input })),
      stopReason: message.stop_reason,
      usage: message.usage,
    });
    messages.push({ role: 'assistant', content: message.content });
    if (calls.length === 0) break;
    messages.push({
      role: 'user',
      content: calls.map((c) => ({ type: 'tool_result' as const, tool_use_id: c.id, content: toolResult(c.name) })),
    });
  }
  return turns;
}

for (const [stream, tag] of [
  [false, '[record.anthropic-messages.json +]'],
  [true, '[record.anthropic-messages.stream +]'],
] as const) {
  const mode = stream ? 'stream' : 'json';
  test(`a Messages agent loop recorded from the upstream replays with the upstream stopped, the SDK seeing the same results (${mode}) ${tag}`, async () => {
    const { recorded } = await recordThenReplay({
      provider: 'anthropic',
      session: 'messages-loop',
      loop: (baseUrl) => agentLoop(baseUrl, stream),
      secrets: ['end-user-77'],
    });
    assert.deepEqual(
      recorded.map((t) => t.toolCalls.map((c) => [c.id, c.name, c.input])),
      [[['call_weather_1', 'weather', { city: 'Paris' }]], [['call_clock_2', 'clock', { zone: 'Europe/Paris' }]], []],
    );
    assert.deepEqual(
      recorded.map((t) => t.stopReason),
      ['tool_use', 'tool_use', 'end_turn'],
    );
    assert.equal(recorded[2].text, FINAL_TEXT);
    const usage = recorded[2].usage as Anthropic.Usage;
    assert.deepEqual(
      [usage.input_tokens, usage.cache_read_input_tokens, usage.output_tokens],
      [1234 - 1024, 1024, 56],
      "the upstream's own counts",
    );
  });
}

test('a Messages request the recording does not hold is refused on replay with a 409 [record.anthropic-messages.json -] [record.anthropic-messages.stream -]', async () => {
  const replay = await replayOfLoop('anthropic', (baseUrl) => agentLoop(baseUrl, false));
  try {
    const anthropic = client(replay.url('anthropic'));
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      tools: TOOLS,
      messages: [{ role: 'user' as const, content: 'What is the weather in Rome?' }],
    };
    await assert.rejects(
      anthropic.messages.create(body),
      (error: unknown) => error instanceof Anthropic.APIError && error.status === 409 && /latestUser/.test(error.message),
    );
    await assert.rejects(
      anthropic.messages.stream(body).finalMessage(),
      (error: unknown) => error instanceof Anthropic.APIError && error.status === 409 && /latestUser/.test(error.message),
    );
  } finally {
    await replay.close();
  }
});

test('a loop with extended thinking replays its thinking blocks, sent back with their signatures [record.anthropic-messages.stream +]', async () => {
  for (const stream of [false, true]) {
    const { recorded } = await recordThenReplay({
      provider: 'anthropic',
      session: `thinking-${stream}`,
      loop: (baseUrl) => agentLoop(baseUrl, stream, true),
      upstream: { reasoning: 'The user wants the weather first.' },
    });
    assert.deepEqual(
      recorded.map((t) => t.thinking.map(([text]) => text)),
      [['The user wants the weather first.'], ['The user wants the weather first.'], []],
    );
    assert.ok(recorded[0].thinking[0][1].length > 0, 'a signature');
  }
});

/** Anthropic's servers: `ping` events, a thinking block closed by its signature_delta, a tool_use
 * whose input arrives as partial JSON (the first piece empty), the usage on message_start and the
 * final counts on message_delta; ids and signatures of their own. */
type ServerMessage = Record<string, unknown> & { usage: Record<string, number>; stop_reason: string };

function anthropicServerAnswers(stream: boolean): CannedAnswer[] {
  const usage = { input_tokens: 472, cache_creation_input_tokens: 0, cache_read_input_tokens: 256, output_tokens: 89 };
  const call = {
    id: 'msg_01UpstreamA',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5-20250929',
    content: [
      { type: 'thinking', thinking: 'The user wants the weather first.', signature: 'EqQBCkYIBxgCKkDupstream==' },
      { type: 'tool_use', id: 'toolu_01Upstream', name: 'weather', input: { city: 'Paris' } },
    ],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage,
  };
  const text = {
    ...call,
    id: 'msg_01UpstreamB',
    content: [{ type: 'text', text: 'Paris is sunny, 21 °C.' }],
    stop_reason: 'end_turn',
    usage: { ...usage, input_tokens: 530, output_tokens: 12 },
  };
  if (!stream) return [call, text].map((body) => ({ contentType: 'application/json', body: JSON.stringify(body) }));
  const event = (data: Record<string, unknown>) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;
  const start = (message: ServerMessage) =>
    event({
      type: 'message_start',
      message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } },
    });
  const end = (message: ServerMessage) =>
    event({ type: 'message_delta', delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: message.usage }) +
    event({ type: 'message_stop' });
  const callEvents = [
    start(call),
    event({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
    event({ type: 'ping' }),
    event({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'The user wants ' } }),
    event({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'the weather first.' } }),
    event({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQBCkYIBxgCKkDupstream==' } }),
    event({ type: 'content_block_stop', index: 0 }),
    event({
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'tool_use', id: 'toolu_01Upstream', name: 'weather', input: {} },
    }),
    event({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '' } }),
    event({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"city": ' } }),
    event({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } }),
    event({ type: 'content_block_stop', index: 1 }),
    end(call),
  ];
  const textEvents = [
    start(text),
    event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    event({ type: 'ping' }),
    event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Paris is sunny' } }),
    event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ', 21 °C.' } }),
    event({ type: 'content_block_stop', index: 0 }),
    end(text),
  ];
  return [callEvents, textEvents].map((events) => ({ contentType: 'text/event-stream; charset=utf-8', body: events.join('') }));
}

/** What the application reads of a turn, the thinking's signature aside: a recording keeps the
 * thinking, and a replay signs it with Understudy's own (the application only sends it back). */
function unsigned(turns: Turn[]): unknown[] {
  return turns.map(({ thinking, usage, ...turn }) => {
    const u = usage as Anthropic.Usage;
    return {
      ...turn,
      thinking: thinking.map(([text]) => text),
      usage: [u.input_tokens, u.cache_read_input_tokens, u.cache_creation_input_tokens, u.output_tokens],
    };
  });
}

for (const [stream, tag] of [
  [false, '[record.anthropic-messages.json +]'],
  [true, '[record.anthropic-messages.stream +]'],
] as const) {
  test(`an answer as Anthropic's servers write it (pings, a signed thinking block, partial JSON) replays with the same thinking, calls, stop reasons and counts (${stream ? 'stream' : 'json'}) ${tag}`, async () => {
    const { recorded } = await recordThenReplay({
      provider: 'anthropic',
      session: 'anthropic-server',
      canned: anthropicServerAnswers(stream),
      loop: async (baseUrl) => unsigned(await agentLoop(baseUrl, stream, true)),
    });
    assert.deepEqual(recorded, [
      {
        thinking: ['The user wants the weather first.'],
        text: '',
        toolCalls: [{ id: 'toolu_01Upstream', name: 'weather', input: { city: 'Paris' } }],
        stopReason: 'tool_use',
        usage: [472, 256, 0, 89],
      },
      { thinking: [], text: 'Paris is sunny, 21 °C.', toolCalls: [], stopReason: 'end_turn', usage: [530, 256, 0, 12] },
    ]);
  });
}

test('recorded with --record-match exact (the whole history in each when), the thinking loop replays the same [record.anthropic-messages.stream +]', async () => {
  for (const stream of [false, true]) {
    const { files } = await recordThenReplay({
      provider: 'anthropic',
      session: `exact-${stream}`,
      match: 'exact',
      loop: (baseUrl) => agentLoop(baseUrl, stream, true),
      upstream: { reasoning: 'The user wants the weather first.' },
    });
    assert.match(files[0].text, /historyExact:/);
  }
});

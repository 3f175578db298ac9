// Record and replay through the real @anthropic-ai/sdk (issue 22): an agent loop of tool_use and
// tool_result blocks, recorded from a local upstream, replays with the upstream stopped and gives
// the SDK the same results through messages.create and messages.stream. The message's own `msg_`
// id is made afresh by whoever answers and is not compared.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import Anthropic from '@anthropic-ai/sdk';

import { CLOCK_TOOL, FINAL_TEXT, recordThenReplay, replayOfLoop, toolResult, UPSTREAM_KEY, WEATHER_TOOL } from './support/record-replay.js';

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

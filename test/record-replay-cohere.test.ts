// Record and replay through the real cohere-ai SDK's CohereClientV2 (issue 22): an agent loop of
// tool calls and `tool` messages, recorded from a local upstream, replays with the upstream stopped
// and gives the SDK the same results through chat and chatStream. The answer's own id is made
// afresh by whoever answers and is not compared. Cohere has no end-user member: the end user named
// in the system message is kept out with a `--redact` pattern.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { CohereClientV2, CohereError, type Cohere } from 'cohere-ai';

import { CLOCK_TOOL, FINAL_TEXT, recordThenReplay, replayOfLoop, toolResult, UPSTREAM_KEY, WEATHER_TOOL } from './support/record-replay.js';

const MODEL = 'command-a-03-2025';
const TOOLS: Cohere.ToolV2[] = [WEATHER_TOOL, CLOCK_TOOL].map((t) => ({ type: 'function', function: t }));

interface Turn {
  text: string;
  plan: string;
  toolCalls: { id?: string; name?: string; arguments: string }[];
  finish: string | undefined;
  usage: unknown;
}

function client(environment: string): CohereClientV2 {
  return new CohereClientV2({ token: UPSTREAM_KEY, environment, maxRetries: 0, timeoutInSeconds: 10 });
}

async function turnOf(co: CohereClientV2, messages: Cohere.ChatMessages, stream: boolean): Promise<Turn> {
  const request = { model: MODEL, messages, tools: TOOLS };
  if (!stream) {
    const answer = await co.chat(request);
    return {
      text: (answer.message.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join(''),
      plan: answer.message.toolPlan ?? '',
      toolCalls: (answer.message.toolCalls ?? []).map((c) => ({
        id: c.id,
        name: c.function?.name,
        arguments: c.function?.arguments ?? '',
      })),
      finish: answer.finishReason,
      usage: answer.usage,
    };
  }
  const turn: Turn = { text: '', plan: '', toolCalls: [], finish: undefined, usage: undefined };
  for await (const event of await co.chatStream(request)) {
    if (event.type === 'content-delta') turn.text += event.delta?.message?.content?.text ?? '';
    if (event.type === 'tool-plan-delta') turn.plan += event.delta?.message?.toolPlan ?? '';
    if (event.type === 'tool-call-start') {
      const call = event.delta?.message?.toolCalls;
      turn.toolCalls.push({ id: call?.id, name: call?.function?.name, arguments: call?.function?.arguments ?? '' });
    }
    if (event.type === 'tool-call-delta')
      turn.toolCalls[turn.toolCalls.length - 1].arguments += event.delta?.message?.toolCalls?.function?.arguments ?? '';
    if (event.type === 'message-end') {
      turn.finish = event.delta?.finishReason;
      turn.usage = event.delta?.usage;
    }
  }
  return turn;
}

async function agentLoop(environment: string, stream: boolean): Promise<Turn[]> {
  const co = client(environment);
  const messages: Cohere.ChatMessages = [
    { role: 'system', content: 'You answer for end-user-77.' },
    { role: 'user', content: 'What is the weather in Paris, and the time?' },
  ];
  const turns: Turn[] = [];
  for (let round = 0; round < 4; round++) {
    const turn = await turnOf(co, messages, stream);
    turns.push(turn);
    if (turn.toolCalls.length === 0) break;
    messages.push({
      role: 'assistant',
      ...(turn.plan !== '' && { toolPlan: turn.plan }),
      toolCalls: turn.toolCalls.map((c) => ({
        id: c.id ?? '',
        type: 'function' as const,
        function: { name: c.name, arguments: c.arguments },
      })),
    });
    for (const call of turn.toolCalls) messages.push({ role: 'tool', toolCallId: call.id ?? '', content: toolResult(call.name ?? '') });
  }
  return turns;
}

for (const [stream, tag] of [
  [false, '[record.cohere-chat.json +]'],
  [true, '[record.cohere-chat.stream +]'],
] as const) {
  test(`a Cohere v2 agent loop recorded from the upstream replays with the upstream stopped, the SDK seeing the same results (${stream ? 'stream' : 'json'}) ${tag}`, async () => {
    const { recorded } = await recordThenReplay({
      provider: 'cohere',
      session: 'cohere-loop',
      loop: (environment) => agentLoop(environment, stream),
      redact: ['/end-user-\\d+/'],
      secrets: ['end-user-77'],
    });
    assert.deepEqual(
      recorded.map((t) => t.toolCalls.map((c) => [c.id, c.name, JSON.parse(c.arguments)])),
      [[['call_weather_1', 'weather', { city: 'Paris' }]], [['call_clock_2', 'clock', { zone: 'Europe/Paris' }]], []],
    );
    assert.deepEqual(
      recorded.map((t) => t.finish),
      ['TOOL_CALL', 'TOOL_CALL', 'COMPLETE'],
    );
    assert.equal(recorded[2].text, FINAL_TEXT);
    const usage = recorded[2].usage as Cohere.Usage;
    assert.deepEqual([usage.tokens?.inputTokens, usage.tokens?.outputTokens], [1234, 56], "the upstream's own counts");
  });
}

test('a Cohere v2 request the recording does not hold is refused on replay with a 409 [record.cohere-chat.json -] [record.cohere-chat.stream -]', async () => {
  const replay = await replayOfLoop('cohere', (environment) => agentLoop(environment, false));
  try {
    const co = client(replay.url('cohere'));
    const request = { model: MODEL, messages: [{ role: 'user' as const, content: 'What is the weather in Rome?' }], tools: TOOLS };
    const refused = (error: unknown) =>
      error instanceof CohereError && error.statusCode === 409 && /latestUser/.test(JSON.stringify(error.body));
    await assert.rejects(co.chat(request), refused);
    await assert.rejects(async () => {
      for await (const event of await co.chatStream(request)) void event;
    }, refused);
  } finally {
    await replay.close();
  }
});

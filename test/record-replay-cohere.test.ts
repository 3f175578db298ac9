// Record and replay through the real cohere-ai SDK's CohereClientV2 (issue 22): an agent loop of
// tool calls and `tool` messages, recorded from a local upstream, replays with the upstream stopped
// and gives the SDK the same results through chat and chatStream. The answer's own id is made
// afresh by whoever answers and is not compared. Cohere has no end-user member: the end user named
// in the system message is kept out with a `--redact` pattern.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { CohereClientV2, CohereError, type Cohere } from 'cohere-ai';

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

/** Cohere's servers: the tool plan, each call's start with empty arguments then argument deltas,
 * content-start/-end around the text, usage in tokens and billed units, ids of their own. */
function cohereServerAnswers(stream: boolean): CannedAnswer[] {
  const usage = (input: number, output: number) => ({
    billed_units: { input_tokens: input - 2, output_tokens: output },
    tokens: { input_tokens: input, output_tokens: output },
    cached_tokens: 32,
  });
  const plan = 'I will look up the weather first.';
  const call = { id: 'weather_9x7upstream', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } };
  const first = {
    id: 'c-upstream-1',
    finish_reason: 'TOOL_CALL',
    message: { role: 'assistant', tool_plan: plan, tool_calls: [call] },
    usage: usage(210, 31),
  };
  const second = {
    id: 'c-upstream-2',
    finish_reason: 'COMPLETE',
    message: { role: 'assistant', content: [{ type: 'text', text: 'Paris is sunny, 21 °C.' }] },
    usage: usage(260, 11),
  };
  if (!stream) return [first, second].map((body) => ({ contentType: 'application/json', body: JSON.stringify(body) }));
  const sse = (events: Record<string, unknown>[]) => events.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join('');
  const start = (id: string) => ({
    type: 'message-start',
    id,
    delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } },
  });
  return [
    sse([
      start('c-upstream-1'),
      { type: 'tool-plan-delta', delta: { message: { tool_plan: 'I will look up ' } } },
      { type: 'tool-plan-delta', delta: { message: { tool_plan: 'the weather first.' } } },
      { type: 'tool-call-start', index: 0, delta: { message: { tool_calls: { ...call, function: { ...call.function, arguments: '' } } } } },
      { type: 'tool-call-delta', index: 0, delta: { message: { tool_calls: { function: { arguments: '{"city":' } } } } },
      { type: 'tool-call-delta', index: 0, delta: { message: { tool_calls: { function: { arguments: '"Paris"}' } } } } },
      { type: 'tool-call-end', index: 0 },
      { type: 'message-end', delta: { finish_reason: 'TOOL_CALL', usage: first.usage } },
    ]),
    sse([
      start('c-upstream-2'),
      { type: 'content-start', index: 0, delta: { message: { content: { type: 'text', text: '' } } } },
      { type: 'content-delta', index: 0, delta: { message: { content: { text: 'Paris is sunny' } } } },
      { type: 'content-delta', index: 0, delta: { message: { content: { text: ', 21 °C.' } } } },
      { type: 'content-end', index: 0 },
      { type: 'message-end', delta: { finish_reason: 'COMPLETE', usage: second.usage } },
    ]),
  ].map((body) => ({ contentType: 'text/event-stream', body }));
}

/** The turn without its billed input count: a recording keeps the tokens read, written and cached,
 * and a replay bills the input as read less cached, which need not be what Cohere billed. */
function withoutBilledInput(turn: Turn): Turn {
  const usage = turn.usage as Cohere.Usage;
  return { ...turn, usage: { ...usage, billedUnits: { outputTokens: usage.billedUnits?.outputTokens } } };
}

for (const [stream, tag] of [
  [false, '[record.cohere-chat.json +]'],
  [true, '[record.cohere-chat.stream +]'],
] as const) {
  test(`an answer as Cohere's servers write it (a tool plan, argument deltas, both counts) replays with the same plan, calls, finish and usage (${stream ? 'stream' : 'json'}) ${tag}`, async () => {
    const { recorded } = await recordThenReplay({
      provider: 'cohere',
      session: 'cohere-server',
      canned: cohereServerAnswers(stream),
      loop: async (environment) => (await agentLoop(environment, stream)).map(withoutBilledInput),
    });
    const usage = (input: number, output: number) => ({
      billedUnits: { outputTokens: output },
      tokens: { inputTokens: input, outputTokens: output },
      cachedTokens: 32,
    });
    assert.deepEqual(recorded, [
      {
        text: '',
        plan: 'I will look up the weather first.',
        toolCalls: [{ id: 'weather_9x7upstream', name: 'weather', arguments: '{"city":"Paris"}' }],
        finish: 'TOOL_CALL',
        usage: usage(210, 31),
      },
      { text: 'Paris is sunny, 21 °C.', plan: '', toolCalls: [], finish: 'COMPLETE', usage: usage(260, 11) },
    ]);
  });
}

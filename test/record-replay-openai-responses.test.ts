// Record and replay through the real openai SDK's Responses API (issue 22): an agent loop whose
// input array carries each function_call item back with its function_call_output, recorded from a
// local upstream, replays with the upstream stopped and gives the SDK the same results, JSON and
// streamed. The items' own ids (`fc_…`, `msg_…`, `resp_…`) are made afresh by whoever answers, so
// the SDK-level result compared is the text, each call's `call_id`, name and arguments, the status
// and the usage.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import OpenAI from 'openai';

import { CLOCK_TOOL, FINAL_TEXT, recordThenReplay, replayOfLoop, toolResult, UPSTREAM_KEY, WEATHER_TOOL } from './support/record-replay.js';

const TOOLS = [WEATHER_TOOL, CLOCK_TOOL].map((t) => ({ type: 'function' as const, strict: false, ...t }));

interface Turn {
  reasoning: string[];
  text: string;
  toolCalls: { callId: string; name: string; arguments: string }[];
  status: string | undefined;
  incomplete: unknown;
  usage: unknown;
}

async function agentLoop(baseURL: string, stream: boolean, reasoning = false): Promise<Turn[]> {
  const client = new OpenAI({ baseURL, apiKey: UPSTREAM_KEY, maxRetries: 0, timeout: 10_000 });
  const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'What is the weather in Paris, and the time?' }];
  const turns: Turn[] = [];
  for (let round = 0; round < 4; round++) {
    const body = {
      model: reasoning ? 'o4-mini' : 'gpt-4o',
      input,
      tools: TOOLS,
      safety_identifier: 'end-user-77',
      ...(reasoning && { reasoning: { effort: 'low' as const, summary: 'auto' as const } }),
    };
    const response = stream ? await client.responses.stream(body).finalResponse() : await client.responses.create(body);
    const output: OpenAI.Responses.ResponseOutputItem[] = response.output;
    const calls = output.filter((item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call');
    turns.push({
      reasoning: output.flatMap((item) => (item.type === 'reasoning' ? item.summary.map((part) => part.text) : [])),
      text: response.output_text,
      toolCalls: calls.map((c) => ({ callId: c.call_id, name: c.name, arguments: c.arguments })),
      status: response.status,
      incomplete: response.incomplete_details,
      usage: response.usage,
    });
    input.push(...(output as OpenAI.Responses.ResponseInputItem[]));
    if (calls.length === 0) break;
    for (const call of calls) input.push({ type: 'function_call_output', call_id: call.call_id, output: toolResult(call.name) });
  }
  return turns;
}

for (const [stream, tag] of [
  [false, '[record.openai-responses.json +]'],
  [true, '[record.openai-responses.stream +]'],
] as const) {
  const mode = stream ? 'stream' : 'json';
  test(`a Responses agent loop recorded from the upstream replays with the upstream stopped, the SDK seeing the same results (${mode}) ${tag}`, async () => {
    const { recorded } = await recordThenReplay({
      provider: 'openai',
      session: 'responses-loop',
      loop: (baseUrl) => agentLoop(baseUrl, stream),
      secrets: ['end-user-77'],
    });
    assert.deepEqual(
      recorded.map((t) => t.toolCalls.map((c) => [c.callId, c.name])),
      [[['call_weather_1', 'weather']], [['call_clock_2', 'clock']], []],
    );
    assert.deepEqual(
      recorded.map((t) => t.status),
      ['completed', 'completed', 'completed'],
    );
    assert.equal(recorded[2].text, FINAL_TEXT);
    assert.deepEqual(
      recorded[2].usage && { ...(recorded[2].usage as OpenAI.Responses.ResponseUsage) },
      {
        input_tokens: 1234,
        input_tokens_details: { cached_tokens: 1024, cache_write_tokens: 0 },
        output_tokens: 56,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 1290,
      },
      "the upstream's own counts",
    );
  });
}

test('a Responses request the recording does not hold is refused on replay with a 409 [record.openai-responses.json -] [record.openai-responses.stream -]', async () => {
  const replay = await replayOfLoop('openai', (baseUrl) => agentLoop(baseUrl, false));
  try {
    const client = new OpenAI({ baseURL: replay.url('openai'), apiKey: UPSTREAM_KEY, maxRetries: 0, timeout: 10_000 });
    for (const stream of [false, true]) {
      await assert.rejects(
        client.responses.create({ model: 'gpt-4o', input: 'What is the weather in Rome?', tools: TOOLS, stream }),
        (error: unknown) => error instanceof OpenAI.APIError && error.status === 409 && /latestUser/.test(error.message),
      );
    }
  } finally {
    await replay.close();
  }
});

test('a loop with reasoning sends each reasoning item back in the input, and replays its summaries [record.openai-responses.stream +]', async () => {
  for (const stream of [false, true]) {
    const { recorded } = await recordThenReplay({
      provider: 'openai',
      session: `reasoning-${stream}`,
      loop: (baseUrl) => agentLoop(baseUrl, stream, true),
      upstream: { reasoning: 'The user wants the weather first.' },
    });
    assert.deepEqual(
      recorded.map((t) => t.reasoning),
      [['The user wants the weather first.'], ['The user wants the weather first.'], []],
    );
  }
});

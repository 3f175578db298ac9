// Record and replay through the real openai SDK's Responses API (issue 22): an agent loop whose
// input array carries each function_call item back with its function_call_output, recorded from a
// local upstream, replays with the upstream stopped and gives the SDK the same results, JSON and
// streamed. The items' own ids (`fc_…`, `msg_…`, `resp_…`) are made afresh by whoever answers, so
// the SDK-level result compared is the text, each call's `call_id`, name and arguments, the status
// and the usage.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import OpenAI from 'openai';

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

/** OpenAI's servers: the response's lifecycle events with sequence numbers, a reasoning item with
 * encrypted content, a function_call item with its own fc_ id, arguments in deltas, and the usage
 * on response.completed; ids of their own throughout. */
function openaiServerAnswers(stream: boolean): CannedAnswer[] {
  const usage = (input: number, output: number, reasoning: number) => ({
    input_tokens: input,
    input_tokens_details: { cached_tokens: 128, cache_write_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: input + output,
  });
  const base = (id: string) => ({
    id,
    object: 'response',
    created_at: 1764640000,
    model: 'o4-mini-2025-04-16',
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    error: null,
    incomplete_details: null,
    metadata: {},
  });
  const reasoning = {
    id: 'rs_68f0upstream',
    type: 'reasoning',
    summary: [{ type: 'summary_text', text: 'The user wants the weather first.' }],
    encrypted_content: 'gAAAAupstream==',
  };
  const call = {
    id: 'fc_68f0upstream',
    type: 'function_call',
    status: 'completed',
    arguments: '{"city":"Paris"}',
    call_id: 'call_Upstream1',
    name: 'weather',
  };
  const message = {
    id: 'msg_68f0upstream',
    type: 'message',
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Paris is sunny, 21 °C.' }],
  };
  const first = { ...base('resp_68f0upstreamA'), status: 'completed', output: [reasoning, call], usage: usage(300, 80, 64) };
  const second = { ...base('resp_68f0upstreamB'), status: 'completed', output: [message], usage: usage(420, 9, 0) };
  if (!stream) return [first, second].map((body) => ({ contentType: 'application/json', body: JSON.stringify(body) }));
  const events = (response: Record<string, unknown>, items: unknown[][]) => {
    let sequence = 0;
    const out: string[] = [];
    const event = (data: Record<string, unknown>) =>
      out.push(`event: ${String(data.type)}\ndata: ${JSON.stringify({ ...data, sequence_number: sequence++ })}\n\n`);
    const pending = { ...response, status: 'in_progress', output: [], usage: null };
    event({ type: 'response.created', response: pending });
    event({ type: 'response.in_progress', response: pending });
    items.forEach(([item, ...deltas], output_index) => {
      const it = item as Record<string, unknown>;
      if (it.type === 'function_call') {
        event({ type: 'response.output_item.added', output_index, item: { ...it, status: 'in_progress', arguments: '' } });
        for (const delta of deltas)
          event({ type: 'response.function_call_arguments.delta', item_id: it.id, output_index, delta, obfuscation: 'x1' });
        event({ type: 'response.function_call_arguments.done', item_id: it.id, output_index, arguments: it.arguments });
      } else if (it.type === 'message') {
        event({ type: 'response.output_item.added', output_index, item: { ...it, status: 'in_progress', content: [] } });
        const part = { type: 'output_text', annotations: [], logprobs: [], text: '' };
        event({ type: 'response.content_part.added', item_id: it.id, output_index, content_index: 0, part });
        for (const delta of deltas)
          event({
            type: 'response.output_text.delta',
            item_id: it.id,
            output_index,
            content_index: 0,
            delta,
            logprobs: [],
            obfuscation: 'x2',
          });
        event({ type: 'response.output_text.done', item_id: it.id, output_index, content_index: 0, text: deltas.join(''), logprobs: [] });
        event({
          type: 'response.content_part.done',
          item_id: it.id,
          output_index,
          content_index: 0,
          part: { ...part, text: deltas.join('') },
        });
      } else {
        event({ type: 'response.output_item.added', output_index, item: { ...it, summary: [] } });
        const text = (it.summary as { text: string }[])[0].text;
        event({
          type: 'response.reasoning_summary_part.added',
          item_id: it.id,
          output_index,
          summary_index: 0,
          part: { type: 'summary_text', text: '' },
        });
        for (const delta of deltas)
          event({
            type: 'response.reasoning_summary_text.delta',
            item_id: it.id,
            output_index,
            summary_index: 0,
            delta,
            obfuscation: 'x3',
          });
        event({ type: 'response.reasoning_summary_text.done', item_id: it.id, output_index, summary_index: 0, text });
        event({
          type: 'response.reasoning_summary_part.done',
          item_id: it.id,
          output_index,
          summary_index: 0,
          part: { type: 'summary_text', text },
        });
      }
      event({ type: 'response.output_item.done', output_index, item });
    });
    event({ type: 'response.completed', response });
    return out.join('');
  };
  return [
    events(first, [
      [reasoning, 'The user wants ', 'the weather first.'],
      [call, '{"city":', '"Paris"}'],
    ]),
    events(second, [[message, 'Paris is sunny', ', 21 °C.']]),
  ].map((body) => ({ contentType: 'text/event-stream; charset=utf-8', body }));
}

for (const [stream, tag] of [
  [false, '[record.openai-responses.json +]'],
  [true, '[record.openai-responses.stream +]'],
] as const) {
  test(`an answer as OpenAI's servers write it (lifecycle events, a reasoning item, fc_ and call_ ids of its own) replays with the same reasoning, calls, status and usage (${stream ? 'stream' : 'json'}) ${tag}`, async () => {
    const { recorded } = await recordThenReplay({
      provider: 'openai',
      session: 'openai-server',
      canned: openaiServerAnswers(stream),
      loop: (baseUrl) => agentLoop(baseUrl, stream, true),
    });
    const usage = (input: number, output: number, reasoning: number) => ({
      input_tokens: input,
      input_tokens_details: { cached_tokens: 128, cache_write_tokens: 0 },
      output_tokens: output,
      output_tokens_details: { reasoning_tokens: reasoning },
      total_tokens: input + output,
    });
    assert.deepEqual(
      recorded.map((t) => ({ ...t, usage: t.usage && { ...(t.usage as object) } })),
      [
        {
          reasoning: ['The user wants the weather first.'],
          text: '',
          toolCalls: [{ callId: 'call_Upstream1', name: 'weather', arguments: '{"city":"Paris"}' }],
          status: 'completed',
          incomplete: null,
          usage: usage(300, 80, 64),
        },
        { reasoning: [], text: 'Paris is sunny, 21 °C.', toolCalls: [], status: 'completed', incomplete: null, usage: usage(420, 9, 0) },
      ],
    );
  });
}

test('recorded with --record-match exact (the whole input in each when), the reasoning loop replays the same, item ids and all [record.openai-responses.stream +]', async () => {
  for (const stream of [false, true]) {
    const { files } = await recordThenReplay({
      provider: 'openai',
      session: `exact-${stream}`,
      match: 'exact',
      loop: (baseUrl) => agentLoop(baseUrl, stream, true),
      upstream: { reasoning: 'The user wants the weather first.' },
    });
    assert.match(files[0].text, /historyExact:/);
  }
});

// Record and replay of Chat Completions from an upstream that writes as OpenAI's servers do, not
// as Understudy does (issue 22): the stream's role chunk, tool-call argument fragments by index,
// `obfuscation` padding, the finish chunk, the usage chunk with no choices, then [DONE]; ids,
// fingerprints and service tier of its own. The openai SDK sees the same content, call ids,
// arguments, finish reasons and usage on replay, JSON and streamed.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import OpenAI from 'openai';

import { type CannedAnswer, chatCompletionsLoop, recordThenReplay, UPSTREAM_KEY } from './support/record-replay.js';

const usage = (prompt: number, completion: number, cached: number) => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
  prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
});

function openaiServerAnswers(stream: boolean): CannedAnswer[] {
  const head = (id: string) => ({
    id,
    created: 1764640000,
    model: 'gpt-4o-2024-08-06',
    service_tier: 'default',
    system_fingerprint: 'fp_upstream',
  });
  const call = { id: 'call_UpstreamW', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } };
  const turns = [
    {
      id: 'chatcmpl-UpstreamA',
      message: { role: 'assistant', content: null, tool_calls: [call], refusal: null, annotations: [] },
      finish: 'tool_calls',
      usage: usage(83, 15, 0),
    },
    {
      id: 'chatcmpl-UpstreamB',
      message: { role: 'assistant', content: 'Paris is sunny, 21 °C.', refusal: null, annotations: [] },
      finish: 'stop',
      usage: usage(120, 9, 64),
    },
  ];
  if (!stream) {
    return turns.map((t) => ({
      contentType: 'application/json',
      body: JSON.stringify({
        ...head(t.id),
        object: 'chat.completion',
        choices: [{ index: 0, message: t.message, logprobs: null, finish_reason: t.finish }],
        usage: t.usage,
      }),
    }));
  }
  const chunk = (id: string, choices: unknown[], extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ ...head(id), object: 'chat.completion.chunk', choices, usage: null, obfuscation: 'pad', ...extra })}\n\n`;
  const delta = (d: Record<string, unknown>, finish: string | null = null) => [
    { index: 0, delta: d, logprobs: null, finish_reason: finish },
  ];
  const end = (t: (typeof turns)[number]) => chunk(t.id, delta({}, t.finish)) + chunk(t.id, [], { usage: t.usage }) + 'data: [DONE]\n\n';
  const [a, b] = turns;
  return [
    chunk(
      a.id,
      delta({
        role: 'assistant',
        content: null,
        tool_calls: [{ index: 0, ...call, function: { ...call.function, arguments: '' } }],
        refusal: null,
      }),
    ) +
      ['{"', 'city', '":"', 'Paris', '"}']
        .map((piece) => chunk(a.id, delta({ tool_calls: [{ index: 0, function: { arguments: piece } }] })))
        .join('') +
      end(a),
    chunk(b.id, delta({ role: 'assistant', content: '', refusal: null })) +
      ['Paris is', ' sunny,', ' 21 °C.'].map((piece) => chunk(b.id, delta({ content: piece }))).join('') +
      end(b),
  ].map((body) => ({ contentType: 'text/event-stream; charset=utf-8', body }));
}

for (const [stream, tag] of [
  [false, '[record.openai-chat.json +]'],
  [true, '[record.openai-chat.stream +]'],
] as const) {
  test(`an answer as OpenAI's servers write it (argument fragments, obfuscation, a usage chunk with no choices) replays with the same calls and usage (${stream ? 'stream' : 'json'}) ${tag}`, async () => {
    const { recorded } = await recordThenReplay({
      provider: 'openai',
      session: 'openai-chat-server',
      canned: openaiServerAnswers(stream),
      loop: async (baseURL) =>
        (await chatCompletionsLoop(new OpenAI({ baseURL, apiKey: UPSTREAM_KEY, maxRetries: 0, timeout: 10_000 }), stream)).map((t) => ({
          ...t,
          usage: t.usage && { ...(t.usage as object) },
        })),
    });
    assert.deepEqual(recorded, [
      {
        content: null,
        toolCalls: [{ id: 'call_UpstreamW', name: 'weather', arguments: '{"city":"Paris"}' }],
        finish: 'tool_calls',
        usage: usage(83, 15, 0),
      },
      { content: 'Paris is sunny, 21 °C.', toolCalls: [], finish: 'stop', usage: usage(120, 9, 64) },
    ]);
  });
}

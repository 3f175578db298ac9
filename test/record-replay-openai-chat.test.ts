// Record and replay through the real openai SDK's Chat Completions (issue 22): an agent loop (a
// tool call, its result, a second tool call, its result, the answer) recorded from a local
// upstream, then replayed with the upstream stopped, gives the SDK the very same results, JSON
// and streamed; a stream is relayed as it arrives, not after the upstream finished; what the
// application sent as credentials or as redacted members never reaches the files.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import OpenAI from 'openai';

import { startUnderstudy } from '../src/client/index.js';
import {
  CHAT_TOOLS,
  chatCompletionsLoop,
  FINAL_TEXT,
  type ChatTurn,
  recordedFiles,
  recordingDir,
  startUpstream,
  STORY,
  UPSTREAM_KEY,
} from './support/record-replay.js';

/** The application: runs the loop to its end, as its SDK saw it. */
function agentLoop(baseURL: string, stream: boolean, extra: Record<string, unknown> = {}): Promise<ChatTurn[]> {
  return chatCompletionsLoop(new OpenAI({ baseURL, apiKey: UPSTREAM_KEY, maxRetries: 0, timeout: 10_000 }), stream, extra);
}

for (const [stream, tag] of [
  [false, '[record.openai-chat.json +]'],
  [true, '[record.openai-chat.stream +]'],
] as const) {
  const mode = stream ? 'stream' : 'json';
  test(`an agent loop recorded from the upstream replays with the upstream stopped, the SDK seeing the same results (${mode}) ${tag}`, async () => {
    const upstream = await startUpstream();
    const dir = recordingDir();
    const recorder = await startUnderstudy({ record: { dir, upstreams: { openai: upstream.mock.url('openai') } } });
    await recorder.session('weather-loop');
    const recorded = await agentLoop(`${recorder.baseUrl}/s/weather-loop/v1`, stream, { user: 'end-user-77' });
    await recorder.close();
    assert.equal(await upstream.requests(), 3, 'each of the three calls went upstream once');
    await upstream.mock.close();

    assert.equal(recorded.length, 3);
    assert.deepEqual(
      recorded.map((t) => t.toolCalls.map((c) => c.name)),
      [['weather'], ['clock'], []],
    );
    assert.equal(recorded[2].content, FINAL_TEXT);
    assert.deepEqual(
      recorded[2].usage && { ...(recorded[2].usage as OpenAI.CompletionUsage) },
      {
        prompt_tokens: 1234,
        completion_tokens: 56,
        total_tokens: 1290,
        prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      },
      "the upstream's own counts",
    );

    const files = recordedFiles(dir);
    assert.deepEqual(
      files.map((f) => f.path.slice(dir.length)),
      ['/weather-loop.yaml'],
    );
    for (const { text } of files) {
      assert.ok(!text.includes(UPSTREAM_KEY), 'the credential is not in the recording');
      assert.ok(!text.includes('end-user-77'), 'the end-user id is redacted');
    }

    const replay = await startUnderstudy({ replay: dir, defaultSession: { fallback: 'strict' } });
    try {
      const session = await replay.session('weather-loop', { fallback: 'strict' });
      const replayed = await agentLoop(`${replay.baseUrl}/s/weather-loop/v1`, stream, { user: 'end-user-77' });
      assert.deepEqual(replayed, recorded);
      await session.verify();
    } finally {
      await replay.close();
    }
  });
}

test('a request the recording does not hold is refused on replay, naming the nearest step [record.openai-chat.json -]', async () => {
  const upstream = await startUpstream();
  const dir = recordingDir();
  const recorder = await startUnderstudy({ record: { dir, upstreams: { openai: upstream.mock.url('openai') } } });
  await agentLoop(recorder.url('openai'), false);
  await recorder.close();
  await upstream.mock.close();

  const replay = await startUnderstudy({ replay: dir, defaultSession: { fallback: 'strict' } });
  try {
    const client = new OpenAI({ baseURL: replay.url('openai'), apiKey: UPSTREAM_KEY, maxRetries: 0, timeout: 10_000 });
    await assert.rejects(
      client.chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'What is the weather in Rome?' }],
        tools: CHAT_TOOLS,
      }),
      (error: unknown) => error instanceof OpenAI.APIError && error.status === 409 && /latestUser/.test(error.message),
    );
  } finally {
    await replay.close();
  }
});

test('a stream is relayed as the upstream writes it: the first chunk reaches the SDK long before the upstream finished [record.openai-chat.stream -]', async () => {
  // Ten chunks a second: the story's words take seconds to arrive.
  const upstream = await startUpstream({ chunksPerSecond: 10 });
  const dir = recordingDir();
  const recorder = await startUnderstudy({ record: { dir, upstreams: { openai: upstream.mock.url('openai') } } });
  try {
    const client = new OpenAI({ baseURL: recorder.url('openai'), apiKey: UPSTREAM_KEY, maxRetries: 0, timeout: 20_000 });
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Tell me a story.' }];
    const started = performance.now();
    let firstAt = -1;
    let text = '';
    const stream = await client.chat.completions.create({ model: 'gpt-4o', messages, tools: CHAT_TOOLS, stream: true });
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta.content;
      if (delta) {
        if (firstAt < 0) firstAt = performance.now() - started;
        text += delta;
      }
    }
    const endAt = performance.now() - started;
    assert.equal(text, STORY);
    assert.ok(firstAt >= 0);
    assert.ok(
      endAt - firstAt > 800,
      `the first text arrived ${Math.round(firstAt)} ms in, the end ${Math.round(endAt)} ms in: relayed, not buffered`,
    );
  } finally {
    await recorder.close();
    await upstream.mock.close();
  }
});

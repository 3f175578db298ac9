// Record and replay of a Responses agent loop that continues each response by its id
// (`previous_response_id`), through the real openai SDK (issue 22): while recording, Understudy
// keeps each relayed response under the upstream's id, so the continuation decodes and its step's
// conditions hold the whole conversation; on replay the SDK continues Understudy's own responses
// and gets the same answers.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import OpenAI from 'openai';

import { startUnderstudy } from '../src/client/index.js';
import { CLOCK_TOOL, FINAL_TEXT, recordingDir, startUpstream, toolResult, UPSTREAM_KEY, WEATHER_TOOL } from './support/record-replay.js';

const TOOLS = [WEATHER_TOOL, CLOCK_TOOL].map((t) => ({ type: 'function' as const, strict: false, ...t }));

async function continuedLoop(baseURL: string): Promise<unknown[]> {
  const sdk = new OpenAI({ baseURL, apiKey: UPSTREAM_KEY, maxRetries: 0, timeout: 10_000 });
  const seen: unknown[] = [];
  let response = await sdk.responses.create({ model: 'gpt-4o', input: 'What is the weather in Paris, and the time?', tools: TOOLS });
  for (let round = 0; round < 4; round++) {
    const calls = response.output.filter((item) => item.type === 'function_call');
    seen.push({
      text: response.output_text,
      calls: calls.map((c) => ({ name: c.name, callId: c.call_id, arguments: c.arguments })),
      status: response.status,
      usage: response.usage,
    });
    if (calls.length === 0) break;
    response = await sdk.responses.create({
      model: 'gpt-4o',
      previous_response_id: response.id,
      input: calls.map((c) => ({ type: 'function_call_output' as const, call_id: c.call_id, output: toolResult(c.name) })),
      tools: TOOLS,
    });
  }
  return seen;
}

test('a loop continued by previous_response_id records from the upstream and replays with it stopped, the SDK seeing the same answers', async () => {
  const upstream = await startUpstream();
  const dir = recordingDir();
  const recorder = await startUnderstudy({ record: { dir, upstreams: { openai: upstream.mock.url('openai') } } });
  const recorded = await continuedLoop(recorder.url('openai'));
  await recorder.close();
  await upstream.mock.close();
  assert.equal(recorded.length, 3);
  assert.equal((recorded[2] as { text: string }).text, FINAL_TEXT);

  const replay = await startUnderstudy({ replay: dir, defaultSession: { fallback: 'strict' } });
  try {
    assert.deepEqual(await continuedLoop(replay.url('openai')), recorded);
    await replay.defaultSession.verify();
  } finally {
    await replay.close();
  }
});

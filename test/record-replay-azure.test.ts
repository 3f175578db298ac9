// Record and replay through openai's AzureOpenAI client (issue 22), an OpenAI-compatible host: the
// deployment route, its dated `api-version` query and the `api-key` header. An agent loop recorded
// from a local upstream replays with the upstream stopped and gives the SDK the same results, JSON
// and streamed; the recorded path keeps the deployment and the version, and no key.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import OpenAI, { AzureOpenAI } from 'openai';
import { parse } from 'yaml';

import { CHAT_TOOLS, chatCompletionsLoop, FINAL_TEXT, recordThenReplay, replayOfLoop, UPSTREAM_KEY } from './support/record-replay.js';

const API_VERSION = '2024-10-21';
const DEPLOYMENT = 'weather-gpt';

function client(endpoint: string): AzureOpenAI {
  return new AzureOpenAI({
    endpoint,
    apiKey: UPSTREAM_KEY,
    apiVersion: API_VERSION,
    deployment: DEPLOYMENT,
    maxRetries: 0,
    timeout: 10_000,
  });
}

for (const [stream, tag] of [
  [false, '[record.azure-chat.json +]'],
  [true, '[record.azure-chat.stream +]'],
] as const) {
  test(`an Azure OpenAI agent loop recorded from the upstream replays with the upstream stopped, the SDK seeing the same results (${stream ? 'stream' : 'json'}) ${tag}`, async () => {
    const { recorded, files } = await recordThenReplay({
      provider: 'azure',
      session: 'azure-loop',
      loop: (endpoint) => chatCompletionsLoop(client(endpoint), stream, { user: 'end-user-77' }),
      secrets: ['end-user-77'],
    });
    assert.deepEqual(
      recorded.map((t) => t.toolCalls.map((c) => [c.id, c.name])),
      [[['call_weather_1', 'weather']], [['call_clock_2', 'clock']], []],
    );
    assert.deepEqual(
      recorded.map((t) => t.finish),
      ['tool_calls', 'tool_calls', 'stop'],
    );
    assert.equal(recorded[2].content, FINAL_TEXT);
    assert.equal((recorded[2].usage as OpenAI.CompletionUsage).prompt_tokens_details?.cached_tokens, 1024, "the upstream's own counts");
    const steps = (parse(files[0].text) as { scenarios: { steps: { recorded: { operation: string; path: string } }[] }[] }).scenarios[0]
      .steps;
    assert.deepEqual(
      [steps[0].recorded.operation, steps[0].recorded.path],
      ['azure.chat.completions', `/openai/deployments/${DEPLOYMENT}/chat/completions?api-version=${API_VERSION}`],
    );
  });
}

test('an Azure OpenAI request the recording does not hold is refused on replay with a 409 [record.azure-chat.json -] [record.azure-chat.stream -]', async () => {
  const replay = await replayOfLoop('azure', (endpoint) => chatCompletionsLoop(client(endpoint), false));
  try {
    const azure = client(replay.url('azure'));
    const body = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'What is the weather in Rome?' }], tools: CHAT_TOOLS };
    const refused = (error: unknown) => error instanceof OpenAI.APIError && error.status === 409 && /latestUser/.test(error.message);
    await assert.rejects(azure.chat.completions.create(body), refused);
    await assert.rejects(azure.chat.completions.stream(body).finalChatCompletion(), refused);
  } finally {
    await replay.close();
  }
});

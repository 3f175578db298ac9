// Record and replay through the real @aws-sdk/client-bedrock-runtime's InvokeModel and
// InvokeModelWithResponseStream (issue 22), each model family's own body (Anthropic Claude, Titan
// Text, Nova), with a Bedrock API key: an answer recorded from a local upstream replays with the
// upstream stopped, the client reading the same model body back (its message id aside, which
// whoever answers makes afresh). Tools are not answered on InvokeModel, so each is one text turn.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { BedrockRuntimeServiceException } from '@aws-sdk/client-bedrock-runtime';

import { bedrockClient, CLAUDE, invoke, invokeStream, NOVA, TITAN } from './support/bedrock-invoke.js';
import { recordThenReplay, replayOfLoop, STORY, UPSTREAM_KEY } from './support/record-replay.js';

const PROMPT = 'Tell me a story.';
const BODIES: Record<string, unknown> = {
  [CLAUDE]: { anthropic_version: 'bedrock-2023-05-31', max_tokens: 512, messages: [{ role: 'user', content: PROMPT }] },
  [TITAN]: { inputText: PROMPT, textGenerationConfig: { maxTokenCount: 512 } },
  [NOVA]: { schemaVersion: 'messages-v1', messages: [{ role: 'user', content: [{ text: PROMPT }] }], inferenceConfig: { maxTokens: 512 } },
};

/** The model body as the application reads it, without what each answer makes afresh. */
function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'id' && key !== 'invocationLatency' && key !== 'firstByteLatency')
      .map(([key, v]) => [key, stable(v)]),
  );
}

/** Every `text` and `outputText` the bodies hold, in order: the answer's text in each family. */
function textOf(value: unknown): string {
  if (Array.isArray(value)) return value.map(textOf).join('');
  if (value === null || typeof value !== 'object') return '';
  return Object.entries(value)
    .map(([key, v]) => ((key === 'text' || key === 'outputText') && typeof v === 'string' ? v : textOf(v)))
    .join('');
}

async function ask(endpoint: string, model: string, stream: boolean): Promise<unknown> {
  const client = bedrockClient(endpoint, UPSTREAM_KEY, 1, 'bearer', 'http1');
  try {
    return stable(stream ? (await invokeStream(client, model, BODIES[model])).events : (await invoke(client, model, BODIES[model])).json);
  } finally {
    client.destroy();
  }
}

for (const [stream, tag] of [
  [false, '[record.bedrock-invoke.json +]'],
  [true, '[record.bedrock-invoke.stream +]'],
] as const) {
  test(`each model family's answer recorded from the upstream replays with the upstream stopped, the client reading the same body (${stream ? 'stream' : 'json'}) ${tag}`, async () => {
    for (const model of [CLAUDE, TITAN, NOVA]) {
      const { recorded } = await recordThenReplay({
        provider: 'bedrock',
        session: 'invoke-story',
        calls: 1,
        loop: (endpoint) => ask(endpoint, model, stream),
      });
      assert.equal(textOf(recorded), STORY, `${model}: the story is the answer`);
    }
  });
}

test('an InvokeModel request the recording does not hold is refused on replay with a 409 [record.bedrock-invoke.json -] [record.bedrock-invoke.stream -]', async () => {
  const replay = await replayOfLoop('bedrock', (endpoint) => ask(endpoint, CLAUDE, false));
  const client = bedrockClient(replay.url('bedrock'), UPSTREAM_KEY, 1, 'bearer', 'http1');
  try {
    const other = { anthropic_version: 'bedrock-2023-05-31', max_tokens: 512, messages: [{ role: 'user', content: 'Tell me a poem.' }] };
    const refused = (error: unknown) => error instanceof BedrockRuntimeServiceException && error.$metadata.httpStatusCode === 409;
    await assert.rejects(invoke(client, CLAUDE, other), refused);
    await assert.rejects(invokeStream(client, CLAUDE, other), refused);
  } finally {
    client.destroy();
    await replay.close();
  }
});

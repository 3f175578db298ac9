// The Bedrock InvokeModel reader of a provider's answer (decision 0017, for record mode): for each
// body family Understudy answers — Anthropic Claude, Titan Text, Nova — told by the answer's own
// shape, the JSON body or InvokeModelWithResponseStream's chunk frames (base64 model events in AWS
// event-stream messages) read back into neutral terms give the reply they were encoded from, usage
// as the family reports it (prompt-cache counts where it has them), for any reply (fast-check,
// through the dialect's own encoders); what is not an answer is refused with a reason.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import type { NeutralError } from '../src/core/errors.js';
import type { FinishReason, Usage } from '../src/core/model.js';
import { bedrockInvoke } from '../src/dialects/bedrock-invoke/index.js';
import { STREAM_OPERATION } from '../src/dialects/bedrock-invoke/decode-request.js';
import { eventFrame } from '../src/dialects/bedrock/event-stream.js';
import { chunkFrame } from '../src/dialects/bedrock-invoke/chunk-frames.js';
import { joined, replies, usages, wireOf } from './support/answer-replies.js';
import { assertReadBack, encodingOf, reasoningInOutput, roundTrips, type Encoding } from './support/read-back.js';

type Family = 'anthropic' | 'titan' | 'nova';

const USER = 'What is the weather?';
const FAMILIES: Record<Family, { model: string; body: object; reply: Parameters<typeof replies>[0]; usage(u: Usage): Usage }> = {
  anthropic: {
    model: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
    body: {
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 1024,
      messages: [{ role: 'user', content: USER }],
    },
    // Understudy answers no tools on InvokeModel (the Messages reader reads tool_use blocks).
    reply: { calls: false, finishes: ['stop', 'length', 'content_filter', 'tool_calls'] },
    usage: (u) => u,
  },
  titan: {
    model: 'amazon.titan-text-express-v1',
    body: { inputText: USER },
    reply: { calls: false, reasoning: false, finishes: ['stop', 'length', 'content_filter'] },
    usage: (u) => ({
      inputTokens: u.inputTokens,
      outputTokens: u.outputTokens + u.reasoningTokens,
      cachedInputTokens: 0,
      reasoningTokens: 0,
    }),
  },
  nova: {
    model: 'us.amazon.nova-lite-v1:0',
    body: { messages: [{ role: 'user', content: [{ text: USER }] }] },
    reply: { calls: false, finishes: ['stop', 'length', 'content_filter', 'tool_calls'] as FinishReason[] },
    usage: reasoningInOutput,
  },
};

function setup(family: Family, stream: boolean): Encoding {
  const { model, body } = FAMILIES[family];
  const wire = wireOf(stream ? STREAM_OPERATION : 'bedrock.invokeModel', { modelId: model });
  return encodingOf(bedrockInvoke, wire, body, { responseId: 'msg_bdrk_abc', model });
}

for (const family of ['anthropic', 'titan', 'nova'] as const) {
  test(`${family}: an InvokeModel answer, JSON or streamed as chunk frames, reads back as the reply`, () => {
    const cases = fc.record({ reply: replies(FAMILIES[family].reply), usage: usages, whole: fc.boolean() });
    roundTrips(
      bedrockInvoke,
      (stream) => setup(family, stream),
      cases,
      (read, resolved, streamed) =>
        assertReadBack(read, resolved, { streamed, chunks: 'streamed', usage: { is: FAMILIES[family].usage(resolved.usage) } }),
    );
  });
}

test('what is not an answer is refused with a reason', () => {
  const reader = bedrockInvoke.readAnswer!;
  assert.match(reader.json({ embedding: [0.1] }) as string, /expected an InvokeModel answer of/);
  assert.match(reader.json({ results: [] }) as string, /with a result/);
  assert.match(reader.stream('') as string, /no chunk/);
  assert.match(reader.stream(chunkFrame('{"outputText":"hi","index":0}')) as string, /without a completionReason/);
  assert.match(reader.stream(chunkFrame('{"messageStart":{"role":"assistant"}}')) as string, /without messageStop/);
  assert.match(reader.stream(chunkFrame('nope')) as string, /not JSON/);
  assert.match(reader.stream(eventFrame('messageStart', '{"role":"assistant"}')) as string, /messageStart event carries no bytes/);
  assert.match(reader.stream(bedrockInvoke.binaryStream!.malformedFrame) as string, /checksum/);
  const error: NeutralError = { kind: 'scripted', status: 500, code: null, message: 'boom' };
  for (const family of ['anthropic', 'titan', 'nova'] as const) {
    const { request, ctx } = setup(family, true);
    assert.match(
      reader.stream(joined(bedrockInvoke.encodeStreamFailure(error, request, ctx).events)) as string,
      /exception: internalServerException/,
    );
  }
});

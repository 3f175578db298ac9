// The Bedrock Converse reader of a provider's answer (decision 0017, for record mode): a Converse
// body, or ConverseStream's AWS event-stream frames (checksums checked), read back into neutral
// terms gives the reply it was encoded from — its text and pieces, its reasoning, its toolUse
// blocks with their ids and input, its stop reason and its usage with the prompt-cache read and
// write counts (reasoning counted in the output, as Converse reports it) — for any reply
// (fast-check, through the dialect's own encoders); what is not an answer is refused.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import { isNeutralError, type NeutralError } from '../src/core/errors.js';
import type { ChatRequest, ResolvedReply } from '../src/core/model.js';
import { eventFrame } from '../src/dialects/bedrock/event-stream.js';
import { bedrockConverse } from '../src/dialects/bedrock-converse/index.js';
import { CONVERSE, CONVERSE_STREAM } from '../src/dialects/bedrock-converse/operations.js';
import type { DialectEncodeContext } from '../src/dialects/dialect.js';
import type { RecordedAnswer } from '../src/dialects/wire-kit/recorded-answer.js';
import { resolveReply } from '../src/engine/resolve.js';
import { callsOf, joined, readCalls, replies, usages, wireOf, withUsage } from './support/answer-replies.js';

const MODEL = 'anthropic.claude-3-5-sonnet-20240620-v1:0';

function setup(stream: boolean): { request: ChatRequest; ctx: DialectEncodeContext } {
  const wire = wireOf(stream ? CONVERSE_STREAM : CONVERSE, { modelId: MODEL });
  const body = {
    messages: [{ role: 'user', content: [{ text: 'What is the weather?' }] }],
    toolConfig: { tools: [{ toolSpec: { name: 'weather', inputSchema: { json: { type: 'object' } } } }] },
  };
  const decoded = bedrockConverse.decode(body, wire);
  assert.ok(!isNeutralError(decoded), JSON.stringify(decoded));
  return { request: decoded, ctx: { wire, responseId: 'converse-abc', created: 1_700_000_000, model: MODEL, requestId: 'req_1' } };
}

const cases = fc.record({
  reply: replies({ finishes: ['stop', 'length', 'content_filter', 'tool_calls'] }),
  usage: usages,
  whole: fc.boolean(),
});

function check(read: RecordedAnswer | string, resolved: ResolvedReply, streamed: boolean): void {
  assert.ok(typeof read !== 'string', read as string);
  assert.equal(read.content, resolved.content);
  assert.deepEqual(read.chunks, streamed ? resolved.chunks.filter((c) => c !== '') : resolved.content === null ? [] : [resolved.content]);
  assert.equal(read.reasoning, resolved.reasoning);
  assert.deepEqual(readCalls(read.toolCalls), callsOf(resolved));
  assert.equal(read.finishReason, resolved.finishReason);
  const { usage } = resolved;
  assert.deepEqual(read.usage, { ...usage, outputTokens: usage.outputTokens + usage.reasoningTokens, reasoningTokens: 0 });
}

test('a Converse answer, JSON or streamed as event-stream frames, reads back as the reply, usage and cache counts too', () => {
  for (const stream of [false, true]) {
    const { request, ctx } = setup(stream);
    fc.assert(
      fc.property(cases, ({ reply, usage, whole }) => {
        const resolved = withUsage(resolveReply(reply, request, { nextId: () => 'x' }, whole), usage);
        if (!stream)
          return check(
            bedrockConverse.readAnswer!.json(JSON.parse(bedrockConverse.encodeResponse(resolved, request, ctx))),
            resolved,
            false,
          );
        check(bedrockConverse.readAnswer!.stream(joined(bedrockConverse.encodeStream(resolved, request, ctx).events)), resolved, true);
      }),
    );
  }
});

test('what is not an answer is refused with a reason: a bad checksum, a cut frame, an exception frame', () => {
  const reader = bedrockConverse.readAnswer!;
  assert.match(reader.json({ message: 'The security token included in the request is invalid.' }) as string, /expected a Converse answer/);
  const { request, ctx } = setup(true);
  const resolved = resolveReply({ text: 'Sunny.' }, request, { nextId: () => 'x' });
  const whole = joined(bedrockConverse.encodeStream(resolved, request, ctx).events);
  assert.ok(typeof reader.stream(whole) !== 'string');
  assert.match(reader.stream(whole.slice(0, -3)) as string, /partial frame|runs past/);
  assert.match(reader.stream(bedrockConverse.binaryStream!.malformedFrame) as string, /message checksum/);
  const prelude = String.fromCharCode(whole.charCodeAt(8) ^ 1);
  assert.match(reader.stream(whole.slice(0, 8) + prelude + whole.slice(9)) as string, /prelude checksum/);
  assert.match(reader.stream(eventFrame('messageStart', '{"role":"assistant"}')) as string, /without messageStop/);
  assert.match(reader.stream(eventFrame('messageStop', '{nope')) as string, /not JSON/);
  const error: NeutralError = { kind: 'scripted', status: 429, code: null, message: 'Too many requests' };
  assert.match(
    reader.stream(joined(bedrockConverse.encodeStreamFailure(error, request, ctx).events)) as string,
    /exception: throttlingException/,
  );
});

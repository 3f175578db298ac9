// The Bedrock Converse reader of a provider's answer (decision 0017, for record mode): a Converse
// body, or ConverseStream's AWS event-stream frames (checksums checked), read back into neutral
// terms gives the reply it was encoded from — its text and pieces, its reasoning, its toolUse
// blocks with their ids and input, its stop reason and its usage with the prompt-cache read and
// write counts (reasoning counted in the output, as Converse reports it) — for any reply
// (fast-check, through the dialect's own encoders); what is not an answer is refused.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import type { NeutralError } from '../src/core/errors.js';
import { eventFrame } from '../src/dialects/bedrock/event-stream.js';
import { bedrockConverse } from '../src/dialects/bedrock-converse/index.js';
import { CONVERSE, CONVERSE_STREAM } from '../src/dialects/bedrock-converse/operations.js';
import { resolveReply } from '../src/engine/resolve.js';
import { joined, replies, usages, wireOf } from './support/answer-replies.js';
import { assertReadBack, encodingOf, reasoningInOutput, roundTrips, type Encoding } from './support/read-back.js';

const MODEL = 'anthropic.claude-3-5-sonnet-20240620-v1:0';

function setup(stream: boolean): Encoding {
  const body = {
    messages: [{ role: 'user', content: [{ text: 'What is the weather?' }] }],
    toolConfig: { tools: [{ toolSpec: { name: 'weather', inputSchema: { json: { type: 'object' } } } }] },
  };
  const wire = wireOf(stream ? CONVERSE_STREAM : CONVERSE, { modelId: MODEL });
  return encodingOf(bedrockConverse, wire, body, { responseId: 'converse-abc', model: MODEL });
}

const cases = fc.record({
  reply: replies({ finishes: ['stop', 'length', 'content_filter', 'tool_calls'] }),
  usage: usages,
  whole: fc.boolean(),
});

test('a Converse answer, JSON or streamed as event-stream frames, reads back as the reply, usage and cache counts too', () => {
  roundTrips(bedrockConverse, setup, cases, (read, resolved, streamed) =>
    assertReadBack(read, resolved, { streamed, usage: { is: reasoningInOutput(resolved.usage) } }),
  );
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

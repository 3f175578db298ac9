// The Cohere v1 Chat reader of a provider's answer (decision 0017, for record mode): a v1 chat
// response, JSON or streamed as NDJSON events, read back into neutral terms gives the reply it was
// encoded from as far as v1 carries it — its text and pieces, its tool plan, its calls (no ids on
// this wire), its finish reason and its usage with the cached count — for any reply (fast-check,
// through the dialect's own encoders); what is not an answer is refused with a reason.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import type { NeutralError } from '../src/core/errors.js';
import type { ResolvedReply } from '../src/core/model.js';
import { toolPlan } from '../src/dialects/cohere/tool-plan.js';
import { cohereV1Chat } from '../src/dialects/cohere-v1/index.js';
import type { RecordedAnswer } from '../src/dialects/wire-kit/recorded-answer.js';
import { callsOf, joined, replies, usages, wireOf } from './support/answer-replies.js';
import { assertReadBack, encodingOf, roundTrips, withoutCacheWrites, type Encoding } from './support/read-back.js';

function setup(stream: boolean): Encoding {
  const body = { model: 'command-r', message: 'What is the weather?', tools: [{ name: 'weather', description: 'The weather.' }], stream };
  return encodingOf(cohereV1Chat, wireOf('cohere.v1.chat'), body, { responseId: 'c1-abc', model: 'command-r' });
}

const cases = fc.record({ reply: replies({ finishes: ['length', 'content_filter'] }), usage: usages, whole: fc.boolean() });

function check(read: RecordedAnswer | string, resolved: ResolvedReply, streamed: boolean): void {
  const calls = resolved.toolCalls.length > 0;
  // A JSON answer's one text, beside calls, is read as their plan; a stream tells the two apart.
  assertReadBack(read, resolved, {
    streamed,
    content: streamed || !calls ? resolved.content : null,
    reasoning: calls ? (streamed ? toolPlan(resolved) : resolved.content || toolPlan(resolved)) : null,
    calls: callsOf(resolved, false),
    usage: { is: withoutCacheWrites(resolved.usage) },
  });
}

test('a v1 chat response, JSON or streamed, reads back as the reply it was encoded from, usage and cache counts too', () => {
  roundTrips(cohereV1Chat, setup, cases, check);
});

test('a stream without tool-calls-generation gives the same calls: the chunks are assembled', () => {
  roundTrips(cohereV1Chat, setup, cases, check, { streams: [true], keepEvent: (e) => !e.includes('"tool-calls-generation"') });
});

test('what is not an answer is refused with a reason', () => {
  const reader = cohereV1Chat.readAnswer!;
  assert.match(reader.json({ message: 'invalid api token' }) as string, /expected a v1 chat response/);
  assert.match(reader.json({ text: '', finish_reason: 'ERROR' }) as string, /ERROR/);
  assert.match(reader.stream('{"is_finished":false,"event_type":"stream-start"}\n') as string, /without stream-end/);
  assert.match(reader.stream('{"is_finished":false,\n') as string, /not JSON/);
  const error: NeutralError = { kind: 'scripted', status: 500, code: null, message: 'boom' };
  const { request, ctx } = setup(true);
  assert.match(reader.stream(joined(cohereV1Chat.encodeStreamFailure(error, request, ctx).events)) as string, /error: boom/);
});

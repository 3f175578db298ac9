// The Cohere v1 Chat reader of a provider's answer (decision 0017, for record mode): a v1 chat
// response, JSON or streamed as NDJSON events, read back into neutral terms gives the reply it was
// encoded from as far as v1 carries it — its text and pieces, its tool plan, its calls (no ids on
// this wire), its finish reason and its usage with the cached count — for any reply (fast-check,
// through the dialect's own encoders); what is not an answer is refused with a reason.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import { isNeutralError, type NeutralError } from '../src/core/errors.js';
import type { ChatRequest, ResolvedReply } from '../src/core/model.js';
import { toolPlan } from '../src/dialects/cohere/tool-plan.js';
import { cohereV1Chat } from '../src/dialects/cohere-v1/index.js';
import type { DialectEncodeContext } from '../src/dialects/dialect.js';
import type { RecordedAnswer } from '../src/dialects/wire-kit/recorded-answer.js';
import { resolveReply } from '../src/engine/resolve.js';
import { callsOf, joined, readCalls, replies, usages, wireOf, withUsage } from './support/answer-replies.js';

const WIRE = wireOf('cohere.v1.chat');
const CTX: DialectEncodeContext = { wire: WIRE, responseId: 'c1-abc', created: 1_700_000_000, model: 'command-r', requestId: 'req_1' };

function requestOf(stream: boolean): ChatRequest {
  const body = { model: 'command-r', message: 'What is the weather?', tools: [{ name: 'weather', description: 'The weather.' }], stream };
  const decoded = cohereV1Chat.decode(body, WIRE);
  assert.ok(!isNeutralError(decoded), JSON.stringify(decoded));
  return decoded;
}

const cases = fc.record({ reply: replies({ finishes: ['length', 'content_filter'] }), usage: usages, whole: fc.boolean() });

function check(read: RecordedAnswer | string, resolved: ResolvedReply, streamed: boolean): void {
  assert.ok(typeof read !== 'string', read as string);
  const calls = resolved.toolCalls.length > 0;
  // A JSON answer's one text, beside calls, is read as their plan; a stream tells the two apart.
  const content = streamed || !calls ? resolved.content : null;
  const plan = calls ? (streamed ? toolPlan(resolved) : resolved.content || toolPlan(resolved)) : null;
  assert.equal(read.content, content);
  assert.deepEqual(read.chunks, streamed ? resolved.chunks.filter((c) => c !== '') : content === null ? [] : [content]);
  assert.equal(read.reasoning, plan);
  assert.deepEqual(readCalls(read.toolCalls), callsOf(resolved, false));
  assert.equal(read.finishReason, resolved.finishReason);
  const { cacheWriteTokens: _written, ...usage } = resolved.usage;
  assert.deepEqual(read.usage, usage);
}

test('a v1 chat response, JSON or streamed, reads back as the reply it was encoded from, usage and cache counts too', () => {
  for (const stream of [false, true]) {
    const request = requestOf(stream);
    fc.assert(
      fc.property(cases, ({ reply, usage, whole }) => {
        const resolved = withUsage(resolveReply(reply, request, { nextId: () => 'x' }, whole), usage);
        if (!stream)
          return check(cohereV1Chat.readAnswer!.json(JSON.parse(cohereV1Chat.encodeResponse(resolved, request, CTX))), resolved, false);
        check(cohereV1Chat.readAnswer!.stream(joined(cohereV1Chat.encodeStream(resolved, request, CTX).events)), resolved, true);
      }),
    );
  }
});

test('a stream without tool-calls-generation gives the same calls: the chunks are assembled', () => {
  const request = requestOf(true);
  fc.assert(
    fc.property(cases, ({ reply, usage, whole }) => {
      const resolved = withUsage(resolveReply(reply, request, { nextId: () => 'x' }, whole), usage);
      const events = cohereV1Chat.encodeStream(resolved, request, CTX).events;
      const lines = Array.from({ length: events.length }, (_, i) => events.at(i)).filter((e) => !e.includes('"tool-calls-generation"'));
      check(cohereV1Chat.readAnswer!.stream(lines.join('')), resolved, true);
    }),
  );
});

test('what is not an answer is refused with a reason', () => {
  const reader = cohereV1Chat.readAnswer!;
  assert.match(reader.json({ message: 'invalid api token' }) as string, /expected a v1 chat response/);
  assert.match(reader.json({ text: '', finish_reason: 'ERROR' }) as string, /ERROR/);
  assert.match(reader.stream('{"is_finished":false,"event_type":"stream-start"}\n') as string, /without stream-end/);
  assert.match(reader.stream('{"is_finished":false,\n') as string, /not JSON/);
  const error: NeutralError = { kind: 'scripted', status: 500, code: null, message: 'boom' };
  assert.match(reader.stream(joined(cohereV1Chat.encodeStreamFailure(error, requestOf(true), CTX).events)) as string, /error: boom/);
});

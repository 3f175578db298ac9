// The Cohere v2 Chat reader of a provider's answer (decision 0017, for record mode): a chat
// response, JSON or streamed as SSE events, read back into neutral terms gives the reply it was
// encoded from — its text and pieces, its reasoning (thinking item or tool plan), its tool calls
// with their ids and arguments, its finish reason and its usage (cached tokens, and the thinking
// as the difference of the two counts) — for any reply (fast-check, through the dialect's own
// encoders); what is not an answer is refused with a reason.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import { isNeutralError, type NeutralError } from '../src/core/errors.js';
import type { ChatRequest, ResolvedReply } from '../src/core/model.js';
import { cohereV2Chat } from '../src/dialects/cohere-v2/index.js';
import { thinkingText, toolPlan } from '../src/dialects/cohere-v2/tool-plan.js';
import type { DialectEncodeContext } from '../src/dialects/dialect.js';
import type { RecordedAnswer } from '../src/dialects/wire-kit/recorded-answer.js';
import { resolveReply } from '../src/engine/resolve.js';
import { callsOf, joined, readCalls, replies, usages, wireOf, withUsage } from './support/answer-replies.js';

const WIRE = wireOf('cohere.chat');
const CTX: DialectEncodeContext = { wire: WIRE, responseId: 'c-abc', created: 1_700_000_000, model: 'command-r-plus', requestId: 'req_1' };

function requestOf(stream: boolean): ChatRequest {
  const body = {
    model: 'command-r-plus',
    messages: [{ role: 'user', content: 'What is the weather?' }],
    tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object' } } }],
    stream,
  };
  const decoded = cohereV2Chat.decode(body, WIRE);
  assert.ok(!isNeutralError(decoded), JSON.stringify(decoded));
  return decoded;
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
  // A turn with calls says its reasoning as the tool plan (a zero-config one names the tools).
  assert.equal(read.reasoning, toolPlan(resolved) ?? thinkingText(resolved));
  assert.deepEqual(readCalls(read.toolCalls), callsOf(resolved));
  assert.equal(read.finishReason, resolved.finishReason);
  const { cacheWriteTokens: _written, ...usage } = resolved.usage;
  assert.deepEqual(read.usage, usage);
}

test('a chat response, JSON or streamed, reads back as the reply it was encoded from, usage and cache counts too', () => {
  for (const stream of [false, true]) {
    const request = requestOf(stream);
    fc.assert(
      fc.property(cases, ({ reply, usage, whole }) => {
        const resolved = withUsage(resolveReply(reply, request, { nextId: () => 'x' }, whole), usage);
        if (!stream)
          return check(cohereV2Chat.readAnswer!.json(JSON.parse(cohereV2Chat.encodeResponse(resolved, request, CTX))), resolved, false);
        check(cohereV2Chat.readAnswer!.stream(joined(cohereV2Chat.encodeStream(resolved, request, CTX).events)), resolved, true);
      }),
    );
  }
});

test('a text holding [DONE] is read through the escape the stream writes it with', () => {
  const request = requestOf(true);
  const resolved = resolveReply({ text: 'say [DONE] twice: [DONE]', chunks: ['say [DONE]', ' twice: [DONE]'] }, request, {
    nextId: () => 'x',
  });
  const read = cohereV2Chat.readAnswer!.stream(joined(cohereV2Chat.encodeStream(resolved, request, CTX).events));
  assert.ok(typeof read !== 'string', read as string);
  assert.deepEqual(read.chunks, ['say [DONE]', ' twice: [DONE]']);
});

test('what is not an answer is refused with a reason', () => {
  const reader = cohereV2Chat.readAnswer!;
  assert.match(reader.json({ message: 'invalid api token' }) as string, /expected a chat response/);
  assert.match(reader.stream('event: message-start\ndata: {"type":"message-start"}\n\ndata: [DONE]\n\n') as string, /without message-end/);
  assert.match(reader.stream('event: message-start\ndata: {nope\n\n') as string, /not JSON/);
  const error: NeutralError = { kind: 'scripted', status: 500, code: null, message: 'boom' };
  assert.match(reader.stream(joined(cohereV2Chat.encodeStreamFailure(error, requestOf(true), CTX).events)) as string, /error: boom/);
});

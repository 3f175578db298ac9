// The Cohere v2 Chat reader of a provider's answer (decision 0017, for record mode): a chat
// response, JSON or streamed as SSE events, read back into neutral terms gives the reply it was
// encoded from — its text and pieces, its reasoning (thinking item or tool plan), its tool calls
// with their ids and arguments, its finish reason and its usage (cached tokens, and the thinking
// as the difference of the two counts) — for any reply (fast-check, through the dialect's own
// encoders); what is not an answer is refused with a reason.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import type { NeutralError } from '../src/core/errors.js';
import { cohereV2Chat } from '../src/dialects/cohere-v2/index.js';
import { thinkingText, toolPlan } from '../src/dialects/cohere-v2/tool-plan.js';
import { resolveReply } from '../src/engine/resolve.js';
import { joined, replies, usages, wireOf } from './support/answer-replies.js';
import { assertReadBack, encodingOf, roundTrips, withoutCacheWrites, type Encoding } from './support/read-back.js';

function setup(stream: boolean): Encoding {
  const body = {
    model: 'command-r-plus',
    messages: [{ role: 'user', content: 'What is the weather?' }],
    tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object' } } }],
    stream,
  };
  return encodingOf(cohereV2Chat, wireOf('cohere.chat'), body, { responseId: 'c-abc', model: 'command-r-plus' });
}

const cases = fc.record({
  reply: replies({ finishes: ['stop', 'length', 'content_filter', 'tool_calls'] }),
  usage: usages,
  whole: fc.boolean(),
});

test('a chat response, JSON or streamed, reads back as the reply it was encoded from, usage and cache counts too', () => {
  roundTrips(cohereV2Chat, setup, cases, (read, resolved, streamed) =>
    assertReadBack(read, resolved, {
      streamed,
      // A turn with calls says its reasoning as the tool plan (a zero-config one names the tools).
      reasoning: toolPlan(resolved) ?? thinkingText(resolved),
      usage: { is: withoutCacheWrites(resolved.usage) },
    }),
  );
});

test('a text holding [DONE] is read through the escape the stream writes it with', () => {
  const { request, ctx } = setup(true);
  const resolved = resolveReply({ text: 'say [DONE] twice: [DONE]', chunks: ['say [DONE]', ' twice: [DONE]'] }, request, {
    nextId: () => 'x',
  });
  const read = cohereV2Chat.readAnswer!.stream(joined(cohereV2Chat.encodeStream(resolved, request, ctx).events));
  assert.ok(typeof read !== 'string', read as string);
  assert.deepEqual(read.chunks, ['say [DONE]', ' twice: [DONE]']);
});

test('what is not an answer is refused with a reason', () => {
  const reader = cohereV2Chat.readAnswer!;
  assert.match(reader.json({ message: 'invalid api token' }) as string, /expected a chat response/);
  assert.match(reader.stream('event: message-start\ndata: {"type":"message-start"}\n\ndata: [DONE]\n\n') as string, /without message-end/);
  assert.match(reader.stream('event: message-start\ndata: {nope\n\n') as string, /not JSON/);
  const error: NeutralError = { kind: 'scripted', status: 500, code: null, message: 'boom' };
  const { request, ctx } = setup(true);
  assert.match(reader.stream(joined(cohereV2Chat.encodeStreamFailure(error, request, ctx).events)) as string, /error: boom/);
});

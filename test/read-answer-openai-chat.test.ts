// The first reader of a provider's answer (decision 0017, for record mode): an OpenAI Chat
// Completions answer, JSON or streamed, read back into neutral terms gives the reply it was encoded
// from — its text and the pieces it arrived in, its tool calls with their ids and argument text,
// its finish reason and its usage — for any reply (fast-check, through the dialect's own encoders);
// what is not an answer is refused with a reason.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import type { Reply, ResolvedReply } from '../src/core/model.js';
import { openaiChat } from '../src/dialects/openai-chat/index.js';
import { readChatAnswer, readChatStream } from '../src/dialects/openai-chat/read-answer.js';
import { args, text, wireOf } from './support/answer-replies.js';
import { assertReadBack, countsOf, encodingOf, roundTrips, UNCHECKED, type Encoding } from './support/read-back.js';

function setup(stream: boolean, streamUsage: boolean): Encoding {
  const body = {
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'What is the weather?' }],
    tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object' } } }],
    stream,
    ...(stream && streamUsage && { stream_options: { include_usage: true } }),
  };
  return encodingOf(openaiChat, wireOf('openai.chat.completions'), body, { responseId: 'chatcmpl-abc', model: 'gpt-4o' });
}

const reply: fc.Arbitrary<Reply> = fc.oneof(
  fc.record({ text }),
  fc.array(text, { minLength: 1, maxLength: 5 }).map((chunks): Reply => ({ text: chunks.join(''), chunks })),
  fc
    .record({ calls: fc.array(args, { minLength: 1, maxLength: 3 }), lead: fc.option(text, { nil: undefined }) })
    .map(({ calls, lead }): Reply => ({
      ...(lead !== undefined && { text: lead }),
      toolCalls: calls.map((a, i) => ({ id: `call_${i}`, name: 'weather', arguments: a })),
    })),
);
const cases = reply.map((r) => ({ reply: r }));

/** The calls as written: the argument text read back to the letter, not only as the same JSON. */
function callsAsWritten(resolved: ResolvedReply): { id: string; name: string; argumentsText: string }[] {
  return resolved.toolCalls.map((c) => ({ id: c.id, name: c.name, argumentsText: c.argumentsText }));
}

test('a JSON answer reads back as the reply it was encoded from, whatever the reply', () => {
  roundTrips(
    openaiChat,
    (stream) => setup(stream, false),
    cases,
    (read, resolved) => {
      assertReadBack(read, resolved, {
        streamed: false,
        chunks: 'unchecked',
        reasoning: UNCHECKED,
        usage: { has: countsOf(resolved.usage, 'cachedInputTokens', 'inputTokens', 'outputTokens', 'reasoningTokens') },
      });
      assert.deepEqual(read.toolCalls, callsAsWritten(resolved));
    },
    { streams: [false] },
  );
});

test('a stream reads back as the reply: its pieces in order, tool calls assembled, usage from the usage chunk', () => {
  for (const streamUsage of [true, false]) {
    roundTrips(
      openaiChat,
      (stream) => setup(stream, streamUsage),
      cases,
      (read, resolved) => {
        assertReadBack(read, resolved, {
          streamed: true,
          content: resolved.content === '' ? null : resolved.content,
          chunks: 'streamed',
          reasoning: UNCHECKED,
          // No usage chunk, no usage.
          usage: streamUsage ? { has: countsOf(resolved.usage, 'outputTokens') } : { is: undefined },
        });
        assert.deepEqual(read.toolCalls, callsAsWritten(resolved));
      },
      { streams: [true] },
    );
  }
});

test('what is not an answer is refused with a reason', () => {
  assert.match(readChatAnswer({ object: 'list' }) as string, /expected a chat\.completion/);
  assert.match(readChatStream('data: {"choices":[]}\n\n') as string, /without data: \[DONE\]/);
  assert.match(readChatStream('data: {nope\n\ndata: [DONE]\n\n') as string, /not JSON/);
});

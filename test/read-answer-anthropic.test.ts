// The Anthropic Messages reader of a provider's answer (decision 0017, for record mode): a message,
// JSON or streamed, read back into neutral terms gives the reply it was encoded from — its text and
// pieces, its thinking, its tool calls with their ids and input, its stop reason and its usage (any
// counts, the cache's and the thinking's included) —
// for any reply (fast-check, through the dialect's own encoders); what is not an answer is refused.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import type { Reply } from '../src/core/model.js';
import { anthropicMessages } from '../src/dialects/anthropic-messages/index.js';
import { readMessageAnswer, readMessageStream } from '../src/dialects/anthropic-messages/read-answer.js';
import { args, text, usages, wireOf } from './support/answer-replies.js';
import { assertReadBack, encodingOf, roundTrips, type Encoding } from './support/read-back.js';

function setup(stream: boolean): Encoding {
  const body = {
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    messages: [{ role: 'user', content: 'What is the weather?' }],
    tools: [{ name: 'weather', input_schema: { type: 'object' } }],
    stream,
  };
  const wire = wireOf('anthropic.messages', {}, '', { 'anthropic-version': '2023-06-01' });
  return encodingOf(anthropicMessages, wire, body, { responseId: 'msg_abc', model: 'claude-sonnet-4-5' });
}

const reply: fc.Arbitrary<Reply> = fc
  .record(
    {
      chunks: fc.array(text, { minLength: 1, maxLength: 4 }),
      reasoning: fc.option(text, { nil: undefined }),
      calls: fc.array(args, { maxLength: 2 }),
    },
    { requiredKeys: ['chunks', 'calls'] },
  )
  .map(({ chunks, reasoning, calls }) => ({
    text: chunks.join(''),
    chunks,
    ...(reasoning !== undefined && { reasoning }),
    ...(calls.length > 0 && { toolCalls: calls.map((a, i) => ({ id: `toolu_${i}`, name: 'weather', arguments: a })) }),
  }));

test('a message, JSON or streamed, reads back as the reply it was encoded from, whatever the reply', () => {
  roundTrips(anthropicMessages, setup, fc.record({ reply, usage: usages }), (read, resolved, streamed) =>
    assertReadBack(read, resolved, { streamed, chunks: 'streamed', usage: { is: resolved.usage } }),
  );
});

test('what is not an answer is refused with a reason', () => {
  assert.match(readMessageAnswer({ type: 'error' }) as string, /expected a message/);
  assert.match(readMessageStream('event: ping\ndata: {"type":"ping"}\n\n') as string, /without message_stop/);
  assert.match(readMessageStream('event: error\ndata: {"type":"error","error":{"type":"overloaded_error"}}\n\n') as string, /error event/);
});

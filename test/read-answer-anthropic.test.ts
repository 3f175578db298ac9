// The Anthropic Messages reader of a provider's answer (decision 0017, for record mode): a message,
// JSON or streamed, read back into neutral terms gives the reply it was encoded from — its text and
// pieces, its thinking, its tool calls with their ids and input, its stop reason and its usage —
// for any reply (fast-check, through the dialect's own encoders); what is not an answer is refused.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import { isNeutralError } from '../src/core/errors.js';
import type { ChatRequest, Reply } from '../src/core/model.js';
import { anthropicMessages } from '../src/dialects/anthropic-messages/index.js';
import { readMessageAnswer, readMessageStream } from '../src/dialects/anthropic-messages/read-answer.js';
import type { DialectEncodeContext, WireContext } from '../src/dialects/dialect.js';
import { resolveReply } from '../src/engine/resolve.js';

const WIRE: WireContext = {
  operation: 'anthropic.messages',
  params: {},
  query: new URLSearchParams(),
  headers: { 'anthropic-version': '2023-06-01' },
  state: { sessionId: 's', store: <T>(_name: string, create: () => T) => create() },
};

function requestOf(stream: boolean): ChatRequest {
  const body = {
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    messages: [{ role: 'user', content: 'What is the weather?' }],
    tools: [{ name: 'weather', input_schema: { type: 'object' } }],
    stream,
  };
  const decoded = anthropicMessages.decode(body, WIRE);
  assert.ok(!isNeutralError(decoded), JSON.stringify(decoded));
  return decoded;
}

const CTX: DialectEncodeContext = {
  wire: WIRE,
  responseId: 'msg_abc',
  created: 1_700_000_000,
  model: 'claude-sonnet-4-5',
  requestId: 'req_1',
};

const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 });
const reply: fc.Arbitrary<Reply> = fc
  .record(
    {
      chunks: fc.array(text, { minLength: 1, maxLength: 4 }),
      reasoning: fc.option(text, { nil: undefined }),
      calls: fc.array(fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.oneof(fc.integer(), fc.string())), { maxLength: 2 }),
    },
    { requiredKeys: ['chunks', 'calls'] },
  )
  .map(({ chunks, reasoning, calls }) => ({
    text: chunks.join(''),
    chunks,
    ...(reasoning !== undefined && { reasoning }),
    ...(calls.length > 0 && { toolCalls: calls.map((a, i) => ({ id: `toolu_${i}`, name: 'weather', arguments: a })) }),
  }));

function check(read: ReturnType<typeof readMessageAnswer>, resolved: ReturnType<typeof resolveReply>, streamed: boolean): void {
  assert.ok(typeof read !== 'string', read as string);
  assert.equal(read.content, resolved.content);
  if (streamed)
    assert.deepEqual(
      read.chunks,
      resolved.chunks.filter((c) => c !== ''),
    );
  assert.equal(read.reasoning, resolved.reasoning);
  assert.deepEqual(
    read.toolCalls.map((c) => [c.id, c.name, JSON.parse(c.argumentsText)]),
    resolved.toolCalls.map((c) => [c.id, c.name, JSON.parse(c.argumentsText)]),
  );
  assert.equal(read.finishReason, resolved.finishReason);
  assert.equal(read.usage?.inputTokens, resolved.usage.inputTokens);
  assert.equal(read.usage?.outputTokens, resolved.usage.outputTokens);
  assert.equal(read.usage?.reasoningTokens, resolved.usage.reasoningTokens);
}

test('a message, JSON or streamed, reads back as the reply it was encoded from, whatever the reply', () => {
  for (const stream of [false, true]) {
    const request = requestOf(stream);
    fc.assert(
      fc.property(reply, (spec) => {
        const resolved = resolveReply(spec, request, { nextId: () => 'toolu_x' });
        if (!stream) return check(readMessageAnswer(JSON.parse(anthropicMessages.encodeResponse(resolved, request, CTX))), resolved, false);
        const events = anthropicMessages.encodeStream(resolved, request, CTX).events;
        let body = '';
        for (let i = 0; i < events.length; i++) body += events.at(i);
        check(readMessageStream(body), resolved, true);
      }),
    );
  }
});

test('what is not an answer is refused with a reason', () => {
  assert.match(readMessageAnswer({ type: 'error' }) as string, /expected a message/);
  assert.match(readMessageStream('event: ping\ndata: {"type":"ping"}\n\n') as string, /without message_stop/);
  assert.match(readMessageStream('event: error\ndata: {"type":"error","error":{"type":"overloaded_error"}}\n\n') as string, /error event/);
});

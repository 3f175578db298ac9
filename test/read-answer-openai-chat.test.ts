// The first reader of a provider's answer (decision 0017, for record mode): an OpenAI Chat
// Completions answer, JSON or streamed, read back into neutral terms gives the reply it was encoded
// from — its text and the pieces it arrived in, its tool calls with their ids and argument text,
// its finish reason and its usage — for any reply (fast-check, through the dialect's own encoders);
// what is not an answer is refused with a reason.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import { isNeutralError } from '../src/core/errors.js';
import type { ChatRequest, Reply } from '../src/core/model.js';
import type { DialectEncodeContext, WireContext } from '../src/dialects/dialect.js';
import { openaiChat } from '../src/dialects/openai-chat/index.js';
import { readChatAnswer, readChatStream } from '../src/dialects/openai-chat/read-answer.js';
import { resolveReply } from '../src/engine/resolve.js';

const WIRE: WireContext = {
  operation: 'openai.chat.completions',
  params: {},
  query: new URLSearchParams(),
  headers: {},
  state: { sessionId: 's', store: <T>(_name: string, create: () => T) => create() },
};

function requestOf(stream: boolean, streamUsage: boolean): ChatRequest {
  const body = {
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'What is the weather?' }],
    tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object' } } }],
    stream,
    ...(stream && streamUsage && { stream_options: { include_usage: true } }),
  };
  const decoded = openaiChat.decode(body, WIRE);
  assert.ok(!isNeutralError(decoded), JSON.stringify(decoded));
  return decoded;
}

const CTX: DialectEncodeContext = { wire: WIRE, responseId: 'chatcmpl-abc', created: 1_700_000_000, model: 'gpt-4o', requestId: 'req_1' };

const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 });
const reply: fc.Arbitrary<Reply> = fc.oneof(
  fc.record({ text }),
  fc.array(text, { minLength: 1, maxLength: 5 }).map((chunks): Reply => ({ text: chunks.join(''), chunks })),
  fc
    .record({
      args: fc.array(fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.oneof(fc.integer(), fc.string())), {
        minLength: 1,
        maxLength: 3,
      }),
      lead: fc.option(text, { nil: undefined }),
    })
    .map(({ args, lead }): Reply => ({
      ...(lead !== undefined && { text: lead }),
      toolCalls: args.map((a, i) => ({ id: `call_${i}`, name: 'weather', arguments: a })),
    })),
);

test('a JSON answer reads back as the reply it was encoded from, whatever the reply', () => {
  const request = requestOf(false, false);
  fc.assert(
    fc.property(reply, (spec) => {
      const resolved = resolveReply(spec, request, { nextId: () => 'call_x' });
      const read = readChatAnswer(JSON.parse(openaiChat.encodeResponse(resolved, request, CTX)));
      assert.ok(typeof read !== 'string', read as string);
      assert.equal(read.content, resolved.content);
      assert.deepEqual(
        read.toolCalls,
        resolved.toolCalls.map((c) => ({ id: c.id, name: c.name, argumentsText: c.argumentsText })),
      );
      assert.equal(read.finishReason, resolved.finishReason);
      assert.equal(read.usage?.cachedInputTokens, resolved.usage.cachedInputTokens);
      assert.equal(read.usage?.inputTokens, resolved.usage.inputTokens);
      assert.equal(read.usage?.outputTokens, resolved.usage.outputTokens);
      assert.equal(read.usage?.reasoningTokens, resolved.usage.reasoningTokens);
    }),
  );
});

test('a stream reads back as the reply: its pieces in order, tool calls assembled, usage from the usage chunk', () => {
  for (const streamUsage of [true, false]) {
    const request = requestOf(true, streamUsage);
    fc.assert(
      fc.property(reply, (spec) => {
        const resolved = resolveReply(spec, request, { nextId: () => 'call_x' });
        const events = openaiChat.encodeStream(resolved, request, CTX).events;
        let body = '';
        for (let i = 0; i < events.length; i++) body += events.at(i);
        const read = readChatStream(body);
        assert.ok(typeof read !== 'string', read as string);
        assert.equal(read.content, resolved.content === '' ? null : resolved.content);
        assert.deepEqual(
          read.chunks,
          resolved.chunks.filter((c) => c !== ''),
        );
        assert.deepEqual(
          read.toolCalls,
          resolved.toolCalls.map((c) => ({ id: c.id, name: c.name, argumentsText: c.argumentsText })),
        );
        assert.equal(read.finishReason, resolved.finishReason);
        if (streamUsage) assert.equal(read.usage?.outputTokens, resolved.usage.outputTokens);
        else assert.equal(read.usage, undefined, 'no usage chunk, no usage');
      }),
    );
  }
});

test('what is not an answer is refused with a reason', () => {
  assert.match(readChatAnswer({ object: 'list' }) as string, /expected a chat\.completion/);
  assert.match(readChatStream('data: {"choices":[]}\n\n') as string, /without data: \[DONE\]/);
  assert.match(readChatStream('data: {nope\n\ndata: [DONE]\n\n') as string, /not JSON/);
});

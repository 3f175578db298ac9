// The Ollama reader of a provider's answer (decision 0017, for record mode): an /api/chat or
// /api/generate answer, one object or NDJSON lines, read back into neutral terms gives the reply it
// was encoded from — its text and pieces, its thinking, its tool calls with their ids and
// arguments, its done_reason and its counts (thinking counted in eval_count, as Ollama reports
// it) — for any reply (fast-check, through the dialect's own encoders); what is not an answer is
// refused with a reason.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import type { NeutralError } from '../src/core/errors.js';
import { ollama } from '../src/dialects/ollama/index.js';
import { joined, replies, usages, wireOf } from './support/answer-replies.js';
import { assertReadBack, encodingOf, roundTrips, type Encoding } from './support/read-back.js';

type Route = 'chat' | 'generate';

function setup(route: Route, stream: boolean): Encoding {
  const body =
    route === 'chat'
      ? {
          model: 'llama3.2',
          messages: [{ role: 'user', content: 'What is the weather?' }],
          tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object' } } }],
          think: true,
          stream,
        }
      : { model: 'llama3.2', prompt: 'What is the weather?', think: true, stream };
  return encodingOf(ollama, wireOf(`ollama.${route}`), body, { responseId: 'r1', model: 'llama3.2' });
}

for (const route of ['chat', 'generate'] as const) {
  test(`/api/${route}, one object or NDJSON lines, reads back as the reply it was encoded from`, () => {
    const cases = fc.record({ reply: replies({ calls: route === 'chat', finishes: ['length'] }), usage: usages });
    roundTrips(
      ollama,
      (stream) => setup(route, stream),
      cases,
      (read, resolved, streamed) =>
        assertReadBack(read, resolved, {
          streamed,
          usage: {
            is: {
              inputTokens: resolved.usage.inputTokens,
              outputTokens: resolved.usage.outputTokens + resolved.usage.reasoningTokens,
              cachedInputTokens: 0,
              reasoningTokens: 0,
            },
          },
        }),
    );
  });
}

test('a tool call without an id reads with id "", and a cached prompt without prompt_eval_count reads 0', () => {
  const read = ollama.readAnswer!.json({
    model: 'llama3.2',
    created_at: '2025-01-01T00:00:00Z',
    message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'weather', arguments: { city: 'Paris' } } }] },
    done: true,
    done_reason: 'stop',
    eval_count: 12,
  });
  assert.ok(typeof read !== 'string', read as string);
  assert.equal(read.content, null);
  assert.deepEqual(read.toolCalls, [{ id: '', name: 'weather', argumentsText: '{"city":"Paris"}' }]);
  assert.equal(read.finishReason, 'tool_calls');
  assert.deepEqual(read.usage, { inputTokens: 0, outputTokens: 12, cachedInputTokens: 0, reasoningTokens: 0 });
});

test('what is not an answer is refused with a reason', () => {
  const reader = ollama.readAnswer!;
  assert.match(reader.json({ models: [] }) as string, /expected an Ollama/);
  assert.match(reader.json({ error: 'model "nope" not found, try pulling it first' }) as string, /is an error/);
  assert.match(reader.json({ model: 'm', response: 'hi', done: false }) as string, /not done/);
  assert.match(reader.stream('{"model":"m","response":"hi","done":false}\n') as string, /without its done line/);
  assert.match(reader.stream('{"model":"m",\n') as string, /not JSON/);
  const error: NeutralError = { kind: 'scripted', status: 500, code: null, message: 'boom' };
  const { request, ctx } = setup('chat', true);
  assert.match(reader.stream(joined(ollama.encodeStreamFailure(error, request, ctx).events)) as string, /is an error/);
});

// The Gemini reader of a provider's answer (decision 0017, for record mode): a
// GenerateContentResponse, or streamGenerateContent's chunks framed as SSE (`?alt=sse`) or as one
// JSON array, read back into neutral terms gives the reply it was encoded from — its text and
// pieces, its thought, its function calls (id '' where the wire carries none), its finish reason
// and its usage with the cached and thought counts — for any reply (fast-check, through the
// dialect's own encoders, on the Gemini API and Vertex AI); what is not an answer is refused.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import type { NeutralError } from '../src/core/errors.js';
import type { ResolvedReply } from '../src/core/model.js';
import type { WireContext } from '../src/dialects/dialect.js';
import { gemini } from '../src/dialects/gemini/index.js';
import type { RecordedAnswer } from '../src/dialects/wire-kit/recorded-answer.js';
import { resolveReply } from '../src/engine/resolve.js';
import { joined, replies, usages, wireOf } from './support/answer-replies.js';
import { assertReadBack, encodingOf, roundTrips, withoutCacheWrites, type Encoding } from './support/read-back.js';

const MODEL = 'gemini-2.5-flash';
const VERTEX = { model: MODEL, version: 'v1', project: 'p', location: 'us-central1' };

function wire(api: 'gemini' | 'vertex', method: string, query = ''): WireContext {
  return wireOf(`${api}.${method}`, api === 'vertex' ? VERTEX : { model: MODEL }, query);
}

function setup(w: WireContext): Encoding {
  const body = {
    contents: [{ role: 'user', parts: [{ text: 'What is the weather?' }] }],
    tools: [{ functionDeclarations: [{ name: 'weather', parameters: { type: 'object' } }] }],
  };
  return encodingOf(gemini, w, body, { responseId: 'resp-abc', model: MODEL });
}

const cases = fc.record({
  reply: fc.oneof(replies({ finishes: ['length', 'content_filter'] }), replies({ ids: false, finishes: ['length', 'content_filter'] })),
  usage: usages,
});

function check(read: RecordedAnswer | string, resolved: ResolvedReply, streamed: boolean): void {
  assertReadBack(read, resolved, {
    streamed,
    calls: resolved.toolCalls.map((c) => [c.generatedId ? '' : c.id, c.name, JSON.parse(c.argumentsText)]),
    // Gemini reports no prompt-cache writes.
    usage: { is: withoutCacheWrites(resolved.usage) },
  });
}

for (const api of ['gemini', 'vertex'] as const) {
  test(`${api}: generateContent reads back as the reply it was encoded from, usage and cache counts too`, () => {
    const w = wire(api, 'generateContent');
    roundTrips(gemini, () => setup(w), cases, check, { streams: [false] });
  });

  for (const query of ['alt=sse', '']) {
    test(`${api}: streamGenerateContent ${query === '' ? 'as a JSON array' : 'as SSE'} reads back as the reply, piece by piece`, () => {
      const w = wire(api, 'streamGenerateContent', query);
      roundTrips(gemini, () => setup(w), cases, check, { streams: [true] });
    });
  }
}

test('a function call without an id on the wire is read with id ""', () => {
  const { request, ctx } = setup(wire('gemini', 'streamGenerateContent', 'alt=sse'));
  const resolved = resolveReply({ toolCalls: [{ name: 'weather', arguments: { city: 'Paris' } }] }, request, { nextId: () => 'x' });
  const body = joined(gemini.encodeStream(resolved, request, ctx).events);
  assert.doesNotMatch(body, /"id"/);
  const read = gemini.readAnswer!.stream(body);
  assert.ok(typeof read !== 'string', read as string);
  assert.deepEqual(read.toolCalls, [{ id: '', name: 'weather', argumentsText: '{"city":"Paris"}' }]);
  assert.equal(read.finishReason, 'tool_calls');
});

test('a prompt blocked before any candidate reads as content_filter with no content', () => {
  const read = gemini.readAnswer!.json({
    promptFeedback: { blockReason: 'SAFETY' },
    usageMetadata: { promptTokenCount: 7, totalTokenCount: 7 },
  });
  assert.ok(typeof read !== 'string', read as string);
  assert.equal(read.content, null);
  assert.equal(read.finishReason, 'content_filter');
  assert.equal(read.usage?.inputTokens, 7);
});

test("Gemini's safety and policy stops read as content_filter, its other stops as none", () => {
  const answer = (finishReason: string) => {
    const read = gemini.readAnswer!.json({ candidates: [{ content: { role: 'model', parts: [] }, finishReason }] });
    assert.ok(typeof read !== 'string', read as string);
    return read.finishReason;
  };
  for (const reason of ['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT']) {
    assert.equal(answer(reason), 'content_filter', reason);
  }
  for (const reason of ['MALFORMED_FUNCTION_CALL', 'OTHER', 'FINISH_REASON_UNSPECIFIED']) assert.equal(answer(reason), null, reason);
});

test('what is not an answer is refused with a reason', () => {
  const reader = gemini.readAnswer!;
  assert.match(reader.json({ models: [] }) as string, /expected a GenerateContentResponse/);
  assert.match(reader.json({ error: { code: 400, message: 'bad', status: 'INVALID_ARGUMENT' } }) as string, /is an error/);
  assert.match(reader.stream('[{"candidates":[{"content":{"parts":[{"text":"hi"}]}}]') as string, /not a whole JSON array/);
  assert.match(reader.stream('data: {"candidates":[{"content":{"parts":[{"text":"hi"}]}}]}\r\n\r\n') as string, /without a finishReason/);
  assert.match(reader.stream('data: {nope\r\n\r\n') as string, /not JSON/);
  assert.match(reader.stream('') as string, /no response/);
  const error: NeutralError = { kind: 'scripted', status: 500, code: null, message: 'boom' };
  for (const query of ['alt=sse', '']) {
    const { request, ctx } = setup(wire('gemini', 'streamGenerateContent', query));
    assert.match(reader.stream(joined(gemini.encodeStreamFailure(error, request, ctx).events)) as string, /is an error/);
  }
});

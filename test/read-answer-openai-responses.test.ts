// The OpenAI Responses reader of a provider's answer (decision 0017, for record mode): a response,
// JSON or streamed as named events, read back into neutral terms gives the reply it was encoded
// from — its text and the deltas it arrived in, its reasoning summary, its function calls with
// their call_id and arguments, its status as the finish reason and its usage with the prompt-cache
// counts — for any reply (fast-check, through the dialect's own encoders); what is not an answer is
// refused with a reason.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import type { NeutralError } from '../src/core/errors.js';
import type { ResolvedReply } from '../src/core/model.js';
import { openaiResponses } from '../src/dialects/openai-responses/index.js';
import type { RecordedAnswer } from '../src/dialects/wire-kit/recorded-answer.js';
import { resolveReply } from '../src/engine/resolve.js';
import { joined, replies, usages, wireOf } from './support/answer-replies.js';
import { assertReadBack, encodingOf, roundTrips, type Encoding } from './support/read-back.js';

function setup(stream: boolean): Encoding {
  const body = {
    model: 'gpt-4o',
    input: 'What is the weather?',
    tools: [{ type: 'function', name: 'weather', parameters: { type: 'object' } }],
    stream,
  };
  return encodingOf(openaiResponses, wireOf('openai.responses'), body, { responseId: 'resp_abc', model: 'gpt-4o' });
}

const cases = fc.record({
  reply: replies({ finishes: ['length', 'content_filter'] }),
  usage: usages,
  whole: fc.boolean(),
});

function check(read: RecordedAnswer | string, resolved: ResolvedReply, streamed: boolean): void {
  assertReadBack(read, resolved, { streamed, usage: { is: resolved.usage } });
}

test('a response, JSON or streamed, reads back as the reply it was encoded from, usage and cache counts too', () => {
  roundTrips(openaiResponses, setup, cases, check);
});

test('a stream read without its done events gives the same answer: the deltas are assembled', () => {
  roundTrips(openaiResponses, setup, cases, check, { streams: [true], keepEvent: (e) => !/^event: [a-z_.]+\.done\n/.test(e) });
});

test('a function call is read with its call_id, not its item id', () => {
  const { request, ctx } = setup(true);
  const resolved = resolveReply({ toolCalls: [{ id: 'call_weather', name: 'weather', arguments: { city: 'Paris' } }] }, request, {
    nextId: () => 'x',
  });
  const read = openaiResponses.readAnswer!.stream(joined(openaiResponses.encodeStream(resolved, request, ctx).events));
  assert.ok(typeof read !== 'string', read as string);
  assert.deepEqual(read.toolCalls, [{ id: 'call_weather', name: 'weather', argumentsText: '{"city":"Paris"}' }]);
  assert.equal(read.finishReason, 'tool_calls');
});

test('what is not an answer is refused with a reason', () => {
  const reader = openaiResponses.readAnswer!;
  assert.match(reader.json({ object: 'list', data: [] }) as string, /expected a response/);
  assert.match(reader.json({ object: 'response', status: 'failed', output: [], error: { code: 'server_error' } }) as string, /failed/);
  assert.match(
    reader.stream('event: response.created\ndata: {"type":"response.created","response":{}}\n\n') as string,
    /without response\.completed/,
  );
  assert.match(reader.stream('event: error\ndata: {"type":"error","code":"server_error","message":"boom"}\n\n') as string, /error event/);
  assert.match(reader.stream('event: response.created\ndata: {nope\n\n') as string, /not JSON/);
  const { request, ctx } = setup(true);
  const failure = openaiResponses.encodeStreamFailure(
    { kind: 'scripted', status: 500, code: null, message: 'boom' } satisfies NeutralError,
    request,
    ctx,
  );
  assert.match(reader.stream(joined(failure.events)) as string, /failed/);
});

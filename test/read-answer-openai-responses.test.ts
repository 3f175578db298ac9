// The OpenAI Responses reader of a provider's answer (decision 0017, for record mode): a response,
// JSON or streamed as named events, read back into neutral terms gives the reply it was encoded
// from — its text and the deltas it arrived in, its reasoning summary, its function calls with
// their call_id and arguments, its status as the finish reason and its usage with the prompt-cache
// counts — for any reply (fast-check, through the dialect's own encoders); what is not an answer is
// refused with a reason.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import { isNeutralError, type NeutralError } from '../src/core/errors.js';
import type { ChatRequest, ResolvedReply } from '../src/core/model.js';
import type { DialectEncodeContext } from '../src/dialects/dialect.js';
import { openaiResponses } from '../src/dialects/openai-responses/index.js';
import type { RecordedAnswer } from '../src/dialects/wire-kit/recorded-answer.js';
import { resolveReply } from '../src/engine/resolve.js';
import { callsOf, joined, readCalls, replies, usages, wireOf, withUsage } from './support/answer-replies.js';

const WIRE = wireOf('openai.responses');

function requestOf(stream: boolean): ChatRequest {
  const body = {
    model: 'gpt-4o',
    input: 'What is the weather?',
    tools: [{ type: 'function', name: 'weather', parameters: { type: 'object' } }],
    stream,
  };
  const decoded = openaiResponses.decode(body, WIRE);
  assert.ok(!isNeutralError(decoded), JSON.stringify(decoded));
  return decoded;
}

const CTX: DialectEncodeContext = { wire: WIRE, responseId: 'resp_abc', created: 1_700_000_000, model: 'gpt-4o', requestId: 'req_1' };

const cases = fc.record({
  reply: replies({ finishes: ['length', 'content_filter'] }),
  usage: usages,
  whole: fc.boolean(),
});

function check(read: RecordedAnswer | string, resolved: ResolvedReply, streamed: boolean): void {
  assert.ok(typeof read !== 'string', read as string);
  assert.equal(read.content, resolved.content);
  assert.deepEqual(read.chunks, streamed ? resolved.chunks.filter((c) => c !== '') : resolved.content === null ? [] : [resolved.content]);
  assert.equal(read.reasoning, resolved.reasoning);
  assert.deepEqual(readCalls(read.toolCalls), callsOf(resolved));
  assert.equal(read.finishReason, resolved.finishReason);
  assert.deepEqual(read.usage, resolved.usage);
}

test('a response, JSON or streamed, reads back as the reply it was encoded from, usage and cache counts too', () => {
  for (const stream of [false, true]) {
    const request = requestOf(stream);
    fc.assert(
      fc.property(cases, ({ reply, usage, whole }) => {
        const resolved = withUsage(resolveReply(reply, request, { nextId: () => 'x' }, whole), usage);
        if (!stream)
          return check(
            openaiResponses.readAnswer!.json(JSON.parse(openaiResponses.encodeResponse(resolved, request, CTX))),
            resolved,
            false,
          );
        check(openaiResponses.readAnswer!.stream(joined(openaiResponses.encodeStream(resolved, request, CTX).events)), resolved, true);
      }),
    );
  }
});

test('a stream read without its done events gives the same answer: the deltas are assembled', () => {
  const request = requestOf(true);
  fc.assert(
    fc.property(cases, ({ reply, usage, whole }) => {
      const resolved = withUsage(resolveReply(reply, request, { nextId: () => 'x' }, whole), usage);
      const events = openaiResponses.encodeStream(resolved, request, CTX).events;
      const deltasOnly = Array.from({ length: events.length }, (_, i) => events.at(i)).filter((e) => !/^event: [a-z_.]+\.done\n/.test(e));
      check(openaiResponses.readAnswer!.stream(deltasOnly.join('')), resolved, true);
    }),
  );
});

test('a function call is read with its call_id, not its item id', () => {
  const request = requestOf(true);
  const resolved = resolveReply({ toolCalls: [{ id: 'call_weather', name: 'weather', arguments: { city: 'Paris' } }] }, request, {
    nextId: () => 'x',
  });
  const read = openaiResponses.readAnswer!.stream(joined(openaiResponses.encodeStream(resolved, request, CTX).events));
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
  const failure = openaiResponses.encodeStreamFailure(
    { kind: 'scripted', status: 500, code: null, message: 'boom' } satisfies NeutralError,
    requestOf(true),
    CTX,
  );
  assert.match(reader.stream(joined(failure.events)) as string, /failed/);
});

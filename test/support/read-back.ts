// The round trip the answer-reader tests (test/read-answer-*.test.ts) run, and the one assertion
// they make of it: a reply resolved for a request, encoded by a dialect as a JSON answer or a
// stream, read back by the dialect's reader, and compared with the reply part by part. Each
// dialect says what its wire gives back where that differs from the reply (its usage always).

import assert from 'node:assert/strict';

import fc from 'fast-check';

import { isNeutralError } from '../../src/core/errors.js';
import type { ChatRequest, Reply, ResolvedReply, Usage } from '../../src/core/model.js';
import type { ChatDialect, DialectEncodeContext, WireContext } from '../../src/dialects/dialect.js';
import type { RecordedAnswer } from '../../src/dialects/wire-kit/recorded-answer.js';
import { resolveReply } from '../../src/engine/resolve.js';
import { callsOf, joined, readCalls, withUsage } from './answer-replies.js';

/** A request decoded by a dialect, and the context its encoders are given. */
export interface Encoding {
  request: ChatRequest;
  ctx: DialectEncodeContext;
}

/** `body` decoded by `dialect` on `wire` (it must decode), and an encode context for it. */
export function encodingOf(dialect: ChatDialect, wire: WireContext, body: object, ids: { responseId: string; model: string }): Encoding {
  const request = dialect.decode(body, wire);
  assert.ok(!isNeutralError(request), JSON.stringify(request));
  return { request, ctx: { wire, responseId: ids.responseId, created: 1_700_000_000, model: ids.model, requestId: 'req_1' } };
}

/** A round trip's input: the reply, maybe the usage to put on it, maybe `whole` tool calls. */
export interface ReplyCase {
  reply: Reply;
  usage?: Usage;
  whole?: boolean;
}

/** A part left uncompared, where a reader's test has never asserted on it. */
export const UNCHECKED = Symbol('unchecked');

/** How the usage read back is compared: all of it (`is`), or the counts named (`has`). */
export type UsageExpectation = { is: Usage | undefined } | { has: Partial<Usage> };

export interface ReadBackExpectations {
  streamed: boolean;
  /** The content read back; the reply's unless said. */
  content?: string | null;
  /** The pieces read back: `each`, a stream's non-empty pieces and a JSON answer's one content
   * (none without content); `streamed`, a stream's only; `unchecked`, neither. */
  chunks?: 'each' | 'streamed' | 'unchecked';
  /** The reasoning read back; the reply's unless said. */
  reasoning?: string | null | typeof UNCHECKED;
  /** The calls read back as [id, name, parsed arguments]; the reply's unless said. */
  calls?: [string, string, unknown][];
  usage: UsageExpectation;
}

/** Asserts that `read` is an answer and that it gives back `resolved` as `expect` says. */
export function assertReadBack(
  read: RecordedAnswer | string,
  resolved: ResolvedReply,
  expect: ReadBackExpectations,
): asserts read is RecordedAnswer {
  assert.ok(typeof read !== 'string', read as string);
  const content = 'content' in expect ? expect.content : resolved.content;
  assert.equal(read.content, content);
  const chunks = expect.chunks ?? 'each';
  if (expect.streamed && chunks !== 'unchecked')
    assert.deepEqual(
      read.chunks,
      resolved.chunks.filter((c) => c !== ''),
    );
  if (!expect.streamed && chunks === 'each') assert.deepEqual(read.chunks, content === null || content === undefined ? [] : [content]);
  const reasoning = 'reasoning' in expect ? expect.reasoning : resolved.reasoning;
  if (reasoning !== UNCHECKED) assert.equal(read.reasoning, reasoning);
  assert.deepEqual(readCalls(read.toolCalls), expect.calls ?? callsOf(resolved));
  assert.equal(read.finishReason, resolved.finishReason);
  if ('is' in expect.usage) assert.deepEqual(read.usage, expect.usage.is);
  else for (const [count, value] of Object.entries(expect.usage.has)) assert.equal(read.usage?.[count as keyof Usage], value, count);
}

/** The named counts of a usage, for a `has` expectation. */
export function countsOf(usage: Usage, ...counts: (keyof Usage)[]): Partial<Usage> {
  return Object.fromEntries(counts.map((count) => [count, usage[count]]));
}

/** A usage as a wire gives it back that counts reasoning within the output tokens. */
export function reasoningInOutput(usage: Usage): Usage {
  return { ...usage, outputTokens: usage.outputTokens + usage.reasoningTokens, reasoningTokens: 0 };
}

/** A usage as a wire gives it back that reports no prompt-cache writes. */
export function withoutCacheWrites(usage: Usage): Usage {
  const { cacheWriteTokens: _written, ...rest } = usage;
  return rest;
}

export interface RoundTripOptions {
  /** Which encodings to run: the JSON answer (false), the stream (true); both unless said. */
  streams?: readonly boolean[];
  /** The stream events the reader is given (all unless said), e.g. without the ones a reader
   * should not need. */
  keepEvent?: (event: string) => boolean;
}

/** For every case (fast-check), and for the JSON answer and the stream: the case's reply resolved
 * for `setup(stream)`'s request (with the case's usage and `whole`), encoded by `dialect`, read
 * back by its reader and handed to `check`. */
export function roundTrips<C extends ReplyCase>(
  dialect: ChatDialect,
  setup: (stream: boolean) => Encoding,
  cases: fc.Arbitrary<C>,
  check: (read: RecordedAnswer | string, resolved: ResolvedReply, streamed: boolean, input: C) => void,
  options: RoundTripOptions = {},
): void {
  const reader = dialect.readAnswer;
  assert.ok(reader, `${dialect.id} has no reader of its answers`);
  for (const stream of options.streams ?? [false, true]) {
    const { request, ctx } = setup(stream);
    fc.assert(
      fc.property(cases, (input) => {
        const resolvedReply = resolveReply(input.reply, request, { nextId: () => 'x' }, input.whole);
        const resolved = input.usage === undefined ? resolvedReply : withUsage(resolvedReply, input.usage);
        const read = stream
          ? reader.stream(streamText(dialect.encodeStream(resolved, request, ctx).events, options.keepEvent))
          : reader.json(JSON.parse(dialect.encodeResponse(resolved, request, ctx)));
        check(read, resolved, stream, input);
      }),
    );
  }
}

function streamText(events: Parameters<typeof joined>[0], keep: ((event: string) => boolean) | undefined): string {
  if (keep === undefined) return joined(events);
  return Array.from({ length: events.length }, (_, i) => events.at(i) ?? '')
    .filter(keep)
    .join('');
}

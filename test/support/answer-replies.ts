// What the round-trip tests of the answer readers share (test/read-answer-*.test.ts): replies of
// any text, pieces, reasoning and tool calls (fast-check), usage of any counts (prompt cache read
// and written included) put on the resolved reply, a dialect's wire context, and a stream's events
// joined into the text the reader is given.

import fc from 'fast-check';
import type { FinishReason, ResolvedReply, Reply, Usage } from '../../src/core/model.js';
import type { EventSource, WireContext } from '../../src/dialects/dialect.js';

export function wireOf(
  operation: string,
  params: Record<string, string> = {},
  query = '',
  headers: Record<string, string> = {},
): WireContext {
  return {
    operation,
    params,
    query: new URLSearchParams(query),
    headers,
    state: { sessionId: 's', store: <T>(_name: string, create: () => T) => create() },
  };
}

export const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 });

/** A tool call's arguments: any small object. */
export const args = fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.oneof(fc.integer(), fc.string()));

/** A reply with text in pieces (or none, beside tool calls), maybe reasoning, maybe tool calls
 * (none with `calls: false`) with ids (or without, `ids: false`), and maybe one of `finishes`. */
export function replies(
  options: { reasoning?: boolean; calls?: boolean; ids?: boolean; finishes?: FinishReason[] } = {},
): fc.Arbitrary<Reply> {
  return fc
    .record({
      chunks: fc.array(text, { minLength: 0, maxLength: 4 }),
      reasoning: options.reasoning === false ? fc.constant(undefined) : fc.option(text, { nil: undefined }),
      calls: fc.array(args, { maxLength: options.calls === false ? 0 : 3 }),
      finish: fc.option(fc.constantFrom(...(options.finishes ?? [])), { nil: undefined }),
    })
    .filter(({ chunks, calls }) => chunks.length > 0 || calls.length > 0)
    .map(({ chunks, reasoning, calls, finish }) => ({
      ...(chunks.length > 0 && { text: chunks.join(''), chunks }),
      ...(reasoning !== undefined && { reasoning }),
      ...(calls.length > 0 && {
        toolCalls: calls.map((a, i) => ({ ...(options.ids !== false && { id: `call_${i}` }), name: 'weather', arguments: a })),
      }),
      ...(finish !== undefined && options.finishes?.length && { finishReason: finish }),
    }));
}

/** Usage of any counts: the cached and the written parts within the prompt. */
export const usages: fc.Arbitrary<Usage> = fc
  .record({
    uncached: fc.nat({ max: 100_000 }),
    cached: fc.nat({ max: 100_000 }),
    written: fc.nat({ max: 100_000 }),
    outputTokens: fc.nat({ max: 100_000 }),
    reasoningTokens: fc.nat({ max: 100_000 }),
  })
  .map(({ uncached, cached, written, outputTokens, reasoningTokens }) => ({
    inputTokens: uncached + cached + written,
    outputTokens,
    cachedInputTokens: cached,
    reasoningTokens,
    ...(written > 0 && { cacheWriteTokens: written }),
  }));

export function withUsage(reply: ResolvedReply, usage: Usage): ResolvedReply {
  return { ...reply, usage };
}

/** A stream's events as the one text a reader is given. */
export function joined(events: EventSource | readonly string[]): string {
  let body = '';
  for (let i = 0; i < events.length; i++) body += events.at(i) ?? '';
  return body;
}

/** The calls of a resolved reply as a reader gives them back, arguments parsed. */
export function callsOf(reply: ResolvedReply, ids = true): [string, string, unknown][] {
  return reply.toolCalls.map((c) => [ids ? c.id : '', c.name, JSON.parse(c.argumentsText)]);
}

export function readCalls(calls: { id: string; name: string; argumentsText: string }[]): [string, string, unknown][] {
  return calls.map((c) => [c.id, c.name, JSON.parse(c.argumentsText)]);
}

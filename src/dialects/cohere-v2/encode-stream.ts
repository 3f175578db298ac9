// Cohere v2 Chat SSE. Each event has an `event:` line equal to the `type` in its data (the SDK reads
// the data's `type`): message-start; a tool plan as tool-plan-delta events, then per tool call
// tool-call-start, tool-call-delta (argument fragments), tool-call-end; per content item
// (thinking, then text) content-start, content-delta, the text's citations as citation-start and
// citation-end, content-end; message-end with the finish reason and usage; then `data: [DONE]`.
// A failing stream ends with a message-end whose finish reason is ERROR and whose `error` says
// why (Cohere's in-stream error).

import type { NeutralError } from '../../core/errors.js';
import type { ChatRequest, EncodeContext, ResolvedReply } from '../../core/model.js';
import { fixedPieces, wordPieces } from '../../core/stream-pieces.js';
import { countInputTokens } from '../../core/tokens.js';
import type { EventSource, StreamEncoding } from '../dialect.js';
import { citationJson } from './citations.js';
import { cohereUsageJson } from './cohere-usage.js';
import { toolCallJson } from './encode-response.js';
import { mapFinishReason } from './map-finish-reason.js';
import { thinkingText, toolPlan } from './tool-plan.js';

const CONTENT_TYPE = 'text/event-stream';
const ARGUMENT_FRAGMENT = 24;
const DONE = 'data: [DONE]\n\n';

/** A string as JSON for an event's data line. cohere-ai's stream reader stops at any data line
 * holding `[DONE]`, even inside a string (wire-formats §9); written `\u005bDONE]` the text reads
 * the same to every JSON reader and the stream goes on. */
export function eventString(text: string): string {
  const json = JSON.stringify(text);
  return json.includes('[DONE]') ? json.replaceAll('[DONE]', '\\u005bDONE]') : json;
}

function event(type: string, rest: string): string {
  return `event: ${type}\ndata: {"type":"${type}"${rest}}\n\n`;
}

function contentItem(
  events: string[],
  index: number,
  type: 'text' | 'thinking',
  pieces: readonly string[],
  citations: string[] = [],
): void {
  events.push(event('content-start', `,"index":${index},"delta":{"message":{"content":{"type":"${type}","${type}":""}}}`));
  for (const piece of pieces) {
    if (piece.length > 0)
      events.push(event('content-delta', `,"index":${index},"delta":{"message":{"content":{"${type}":${eventString(piece)}}}}`));
  }
  citations.forEach((citation, i) => {
    // Outside a string, JSON has no `[DONE]`: the escape applies to the whole object.
    const json = citation.includes('[DONE]') ? citation.replaceAll('[DONE]', '\\u005bDONE]') : citation;
    events.push(event('citation-start', `,"index":${i},"delta":{"message":{"citations":${json}}}`));
    events.push(event('citation-end', `,"index":${i}`));
  });
  events.push(event('content-end', `,"index":${index}`));
}

// The events between message-start and message-end depend only on the reply's static parts.
const bodyCache = new WeakMap<object, string[]>();

function encodeBody(reply: ResolvedReply, request: ChatRequest): string[] {
  const events: string[] = [];
  const plan = toolPlan(reply);
  if (plan !== null) {
    for (const piece of wordPieces(plan)) events.push(event('tool-plan-delta', `,"delta":{"message":{"tool_plan":${eventString(piece)}}}`));
  }
  reply.toolCalls.forEach((call, index) => {
    events.push(event('tool-call-start', `,"index":${index},"delta":{"message":{"tool_calls":${toolCallJson(call, '', eventString)}}}`));
    const fragments = reply.wholeToolCalls ? [call.argumentsText] : fixedPieces(call.argumentsText, ARGUMENT_FRAGMENT);
    for (const fragment of fragments) {
      events.push(
        event(
          'tool-call-delta',
          `,"index":${index},"delta":{"message":{"tool_calls":{"function":{"arguments":${eventString(fragment)}}}}}`,
        ),
      );
    }
    events.push(event('tool-call-end', `,"index":${index}`));
  });
  let index = 0;
  const thinking = thinkingText(reply);
  if (thinking !== null) contentItem(events, index++, 'thinking', wordPieces(thinking));
  const citations = reply.citations?.map((c) => citationJson(c, index, request));
  if (reply.content) contentItem(events, index, 'text', reply.chunks, citations);
  return events;
}

function messageStart(ctx: EncodeContext): string {
  return event(
    'message-start',
    `,"id":${JSON.stringify(ctx.responseId)},"delta":{"message":{"role":"assistant","content":[],"tool_plan":"","tool_calls":[],"citations":[]}}`,
  );
}

function messageEnd(reply: ResolvedReply): string {
  return event(
    'message-end',
    `,"delta":{"finish_reason":${JSON.stringify(mapFinishReason(reply.finishReason))},"usage":${cohereUsageJson(reply.usage)}}`,
  );
}

function bodyOf(reply: ResolvedReply, request: ChatRequest): string[] {
  // Citations name the request's documents: a reply with them is encoded for each request.
  const cacheable = reply.shape !== undefined && reply.citations === undefined;
  let body = cacheable ? bodyCache.get(reply.shape!) : undefined;
  if (body === undefined) {
    body = encodeBody(reply, request);
    if (cacheable) bodyCache.set(reply.shape!, body);
  }
  return body;
}

export function encodeCohereStreamEvents(
  reply: ResolvedReply,
  request: ChatRequest,
  ctx: EncodeContext,
): { contentType: string; events: EventSource } {
  const body = bodyOf(reply, request);
  const start = messageStart(ctx);
  const end = messageEnd(reply);
  const n = body.length;
  return {
    contentType: CONTENT_TYPE,
    events: { length: n + 3, at: (i) => (i === 0 ? start : i <= n ? body[i - 1] : i === n + 1 ? end : DONE) },
  };
}

/** The in-stream error alone: a message-end that says ERROR and why. */
export function encodeCohereStreamErrorEvent(error: NeutralError): string {
  return event(
    'message-end',
    `,"delta":{"error":${eventString(error.message)},"finish_reason":"ERROR","usage":${cohereUsageJson({ inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 })}}`,
  );
}

/** A stream that fails before its content: message-start, then the failing message-end. */
export function encodeCohereStreamFailure(error: NeutralError, request: ChatRequest, ctx: EncodeContext): StreamEncoding {
  const usage = cohereUsageJson({ inputTokens: countInputTokens(request), outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 });
  const end = event('message-end', `,"delta":{"error":${eventString(error.message)},"finish_reason":"ERROR","usage":${usage}}`);
  return { contentType: CONTENT_TYPE, events: [messageStart(ctx), end, DONE] };
}

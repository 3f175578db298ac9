// Cohere v1 Chat streams: newline-delimited JSON (`application/stream+json`), one event a line,
// each with `event_type` and `is_finished`: stream-start with the generation id; the text as
// text-generation events (one per entry of the reply's chunks); for a turn that calls tools, its
// plan as tool-calls-chunk events with `tool_call_delta.text`, then per call a tool-calls-chunk
// naming it (`index`, `name`) and tool-calls-chunk events with fragments of its parameters, then
// tool-calls-generation with the whole calls; stream-end with the finish reason and the whole
// response. A failing stream ends with a stream-end whose finish reason is ERROR and whose `error`
// says why.

import type { NeutralError } from '../../core/errors.js';
import type { ChatRequest, EncodeContext, ResolvedReply, Usage } from '../../core/model.js';
import { fixedPieces, wordPieces } from '../../core/stream-pieces.js';
import { countInputTokens } from '../../core/tokens.js';
import { toolPlan } from '../cohere/tool-plan.js';
import type { EventSource, StreamEncoding } from '../dialect.js';
import { generationId, membersOf, parametersJson, responseJson, toolCallJson } from './encode-response.js';
import { mapFinishReason } from './map-finish-reason.js';

const CONTENT_TYPE = 'application/stream+json';
const PARAMETER_FRAGMENT = 24;
const NO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 };

function event(type: string, rest: string, finished = false): string {
  return `{"is_finished":${finished},"event_type":"${type}"${rest}}\n`;
}

function chunk(delta: string): string {
  return event('tool-calls-chunk', `,"tool_call_delta":{${delta}}`);
}

// The events between stream-start and stream-end depend only on the reply's static parts.
const bodyCache = new WeakMap<object, string[]>();

function encodeBody(reply: ResolvedReply): string[] {
  const events: string[] = [];
  if (reply.content) {
    for (const piece of reply.chunks) if (piece.length > 0) events.push(event('text-generation', `,"text":${JSON.stringify(piece)}`));
  }
  if (reply.toolCalls.length === 0) return events;
  const plan = toolPlan(reply);
  if (plan !== null) for (const piece of wordPieces(plan)) events.push(chunk(`"text":${JSON.stringify(piece)}`));
  reply.toolCalls.forEach((call, index) => {
    events.push(chunk(`"index":${index},"name":${JSON.stringify(call.name)}`));
    const parameters = parametersJson(call);
    const fragments = reply.wholeToolCalls ? [parameters] : fixedPieces(parameters, PARAMETER_FRAGMENT);
    for (const fragment of fragments) events.push(chunk(`"index":${index},"parameters":${JSON.stringify(fragment)}`));
  });
  const text = plan !== null ? `,"text":${JSON.stringify(plan)}` : '';
  events.push(event('tool-calls-generation', `${text},"tool_calls":[${reply.toolCalls.map(toolCallJson).join(',')}]`));
  return events;
}

function bodyOf(reply: ResolvedReply): string[] {
  if (reply.shape === undefined) return encodeBody(reply);
  let body = bodyCache.get(reply.shape);
  if (body === undefined) {
    body = encodeBody(reply);
    bodyCache.set(reply.shape, body);
  }
  return body;
}

function streamStart(ctx: EncodeContext): string {
  return event('stream-start', `,"generation_id":${JSON.stringify(generationId(ctx))}`);
}

export function encodeCohereV1StreamEvents(
  reply: ResolvedReply,
  _request: ChatRequest,
  ctx: EncodeContext,
): { contentType: string; events: EventSource } {
  const body = bodyOf(reply);
  const start = streamStart(ctx);
  const finishReason = JSON.stringify(mapFinishReason(reply.finishReason));
  const end = event('stream-end', `,"finish_reason":${finishReason},"response":${responseJson(membersOf(reply), reply.usage, ctx)}`, true);
  const n = body.length;
  return { contentType: CONTENT_TYPE, events: { length: n + 2, at: (i) => (i === 0 ? start : i <= n ? body[i - 1] : end) } };
}

function failingEnd(error: NeutralError, usage: Usage, ctx: EncodeContext): string {
  const response = responseJson('"text":"","finish_reason":"ERROR"', usage, ctx);
  return event('stream-end', `,"finish_reason":"ERROR","error":${JSON.stringify(error.message)},"response":${response}`, true);
}

/** The in-stream error alone: a stream-end that says ERROR and why. */
export function encodeCohereV1StreamErrorEvent(error: NeutralError, ctx: EncodeContext): string {
  return failingEnd(error, NO_USAGE, ctx);
}

/** A stream that fails before its content: stream-start, then the failing stream-end. */
export function encodeCohereV1StreamFailure(error: NeutralError, request: ChatRequest, ctx: EncodeContext): StreamEncoding {
  const usage = { ...NO_USAGE, inputTokens: countInputTokens(request) };
  return { contentType: CONTENT_TYPE, events: [streamStart(ctx), failingEnd(error, usage, ctx)] };
}

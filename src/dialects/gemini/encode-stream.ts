// streamGenerateContent answers a sequence of GenerateContentResponse chunks, each holding only the
// new parts: the thought (when scripted), one chunk per text piece, the images (inlineData parts)
// in one chunk, then the function calls, each whole, in one chunk. The last chunk carries `finishReason` and the full `usageMetadata`.
//
// Two framings, chosen by the query: `?alt=sse` sends `data: <chunk>` events with no `event:` line
// (the genai SDK drops events that have one) and no terminator; without it the body is one JSON
// array of the chunks, as Google's REST front end sends it.

import type { NeutralError } from '../../core/errors.js';
import type { ChatRequest, ResolvedReply } from '../../core/model.js';
import type { DialectEncodeContext, EventSource, StreamEncoding } from '../dialect.js';
import { encodeGeminiError } from './errors.js';
import { contentJson, functionCallParts, isVertex, responseTail, textPart, thoughtPart, usageJson } from './encode-response.js';
import { imageParts } from './image-parts.js';
import { mapGeminiFinishReason } from './map-finish-reason.js';

const SSE_TYPE = 'text/event-stream';
const JSON_TYPE = 'application/json; charset=UTF-8';

function isSse(ctx: DialectEncodeContext): boolean {
  return ctx.wire.query.get('alt') === 'sse';
}

function frame(chunks: string[], sse: boolean): StreamEncoding {
  if (sse) return { contentType: SSE_TYPE, events: chunks.map((chunk) => `data: ${chunk}\r\n\r\n`) };
  const events = chunks.map((chunk, i) => (i === 0 ? `[${chunk}` : `,\r\n${chunk}`));
  events.push(']');
  return { contentType: JSON_TYPE, events };
}

// A scripted reply's non-empty text pieces, found once per reply shape (not per request).
const piecesCache = new WeakMap<object, string[]>();

function textPieces(reply: ResolvedReply): string[] {
  let pieces = reply.shape ? piecesCache.get(reply.shape) : undefined;
  if (pieces === undefined) {
    pieces = reply.chunks.filter((piece) => piece.length > 0);
    if (reply.shape) piecesCache.set(reply.shape, pieces);
  }
  return pieces;
}

/** The stream's chunks, each made when it is asked for: the thought (when scripted), one chunk
 * per text piece, then the function calls together; or one chunk of the whole content. */
function chunkSource(reply: ResolvedReply, request: ChatRequest, ctx: DialectEncodeContext): { length: number; at(index: number): string } {
  const vertex = isVertex(ctx);
  const pieces = textPieces(reply);
  const calls = functionCallParts(reply);
  const images = reply.images ? 1 : 0;
  const thought = reply.reasoning ? 1 : 0;
  const groups = thought + pieces.length + images + (calls.length > 0 ? 1 : 0);
  const length = groups === 0 ? 1 : groups;
  const partsAt = (i: number): string[] => {
    if (groups === 0) return reply.content === null ? [] : [textPart(reply.content)];
    if (i < thought) return [thoughtPart(reply.reasoning as string)];
    if (i - thought < pieces.length) return [textPart(pieces[i - thought] as string)];
    if (images === 1 && i - thought === pieces.length) return imageParts(reply, request);
    return calls;
  };
  const tail = responseTail(ctx);
  const running = usageJson(reply.usage, false, vertex);
  const last = length - 1;
  return {
    length,
    at(i) {
      const finish = i === last ? `"finishReason":"${mapGeminiFinishReason(reply.finishReason)}",` : '';
      const usage = i === last ? usageJson(reply.usage, true, vertex) : running;
      return `{"candidates":[{"content":${contentJson(partsAt(i))},${finish}"index":0}],"usageMetadata":${usage}${tail}`;
    },
  };
}

/** The stream's events, made one at a time as they are sent (large and paced streams). */
export function encodeGeminiStreamEvents(
  reply: ResolvedReply,
  request: ChatRequest,
  ctx: DialectEncodeContext,
): { contentType: string; events: EventSource } {
  const chunks = chunkSource(reply, request, ctx);
  const n = chunks.length;
  if (isSse(ctx)) return { contentType: SSE_TYPE, events: { length: n, at: (i) => `data: ${chunks.at(i)}\r\n\r\n` } };
  return {
    contentType: JSON_TYPE,
    events: { length: n + 1, at: (i) => (i === n ? ']' : i === 0 ? `[${chunks.at(i)}` : `,\r\n${chunks.at(i)}`) },
  };
}

export function encodeGeminiStream(reply: ResolvedReply, request: ChatRequest, ctx: DialectEncodeContext): StreamEncoding {
  const { contentType, events } = encodeGeminiStreamEvents(reply, request, ctx);
  return { contentType, events: Array.from({ length: events.length }, (_, i) => events.at(i)) };
}

/** A stream that fails after it started: the error object as the stream's chunk, which the genai
 * SDK throws as an ApiError. */
export function encodeGeminiStreamFailure(error: NeutralError, _request: ChatRequest, ctx: DialectEncodeContext): StreamEncoding {
  return frame([encodeGeminiError(error).body], isSse(ctx));
}

/** The error chunk alone, for a scripted fault part-way through a stream: an SSE event, or the
 * array's last element and its closing bracket (the array was opened by the first chunk). */
export function encodeGeminiStreamErrorEvent(error: NeutralError, ctx: DialectEncodeContext): string {
  const body = encodeGeminiError(error).body;
  return isSse(ctx) ? `data: ${body}\r\n\r\n` : `,\r\n${body}]`;
}

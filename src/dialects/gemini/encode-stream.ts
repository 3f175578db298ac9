// streamGenerateContent answers a sequence of GenerateContentResponse chunks, each holding only the
// new parts: the thought (when scripted), one chunk per text piece, then the function calls, each
// whole, in one chunk. The last chunk carries `finishReason` and the full `usageMetadata`.
//
// Two framings, chosen by the query: `?alt=sse` sends `data: <chunk>` events with no `event:` line
// (the genai SDK drops events that have one) and no terminator; without it the body is one JSON
// array of the chunks, as Google's REST front end sends it.

import type { NeutralError } from '../../core/errors.js';
import type { ChatRequest, ResolvedReply } from '../../core/model.js';
import type { DialectEncodeContext, StreamEncoding } from '../dialect.js';
import { encodeGeminiError } from './errors.js';
import { contentJson, functionCallParts, isVertex, responseTail, textPart, thoughtPart, usageJson } from './encode-response.js';
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

export function encodeGeminiStream(reply: ResolvedReply, _request: ChatRequest, ctx: DialectEncodeContext): StreamEncoding {
  const vertex = isVertex(ctx);
  const groups: string[][] = [];
  if (reply.reasoning) groups.push([thoughtPart(reply.reasoning)]);
  for (const piece of reply.chunks) if (piece.length > 0) groups.push([textPart(piece)]);
  const calls = functionCallParts(reply);
  if (calls.length > 0) groups.push(calls);
  if (groups.length === 0) groups.push(reply.content === null ? [] : [textPart(reply.content)]);

  const tail = responseTail(ctx);
  const running = usageJson(reply.usage, false, vertex);
  const last = groups.length - 1;
  const chunks = groups.map((parts, i) => {
    const finish = i === last ? `"finishReason":"${mapGeminiFinishReason(reply.finishReason)}",` : '';
    const usage = i === last ? usageJson(reply.usage, true, vertex) : running;
    return `{"candidates":[{"content":${contentJson(parts)},${finish}"index":0}],"usageMetadata":${usage}${tail}`;
  });
  return frame(chunks, isSse(ctx));
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

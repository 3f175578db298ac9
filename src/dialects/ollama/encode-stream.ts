// Ollama streams newline-delimited JSON (`application/x-ndjson`): one object per line, each with
// `"done":false` — the thinking (when scripted), one line per text piece, then the tool calls
// together and whole in one line — and a last line with empty content, `"done":true`, the
// `done_reason` and the statistics. A stream that fails sends `{"error":"…"}` as its line.

import type { NeutralError } from '../../core/errors.js';
import type { ChatRequest, ResolvedReply } from '../../core/model.js';
import type { DialectEncodeContext, EventSource, StreamEncoding } from '../dialect.js';
import { doneTail, isGenerate, objectHead, thinkingMember, toolCallsMember } from './encode-response.js';
import { requestInfo } from './decode-request.js';
import { ollamaErrorJson } from './errors.js';

export const NDJSON = 'application/x-ndjson';

function chatBody(content: string, extra: string): string {
  return `"message":{"role":"assistant","content":${JSON.stringify(content)}${extra}},`;
}

function generateBody(content: string, extra: string): string {
  return `"response":${JSON.stringify(content)}${extra},`;
}

/** The middle of each `done:false` line; everything in it depends on the reply alone (and on the
 * route and whether thinking is on), so a scripted reply's are made once. */
function lineBodies(reply: ResolvedReply, request: ChatRequest, generate: boolean): string[] {
  const body = generate ? generateBody : chatBody;
  const lines: string[] = [];
  const thinking = thinkingMember(reply.reasoning, request);
  if (thinking) lines.push(body('', thinking));
  const pieces = reply.chunks.filter((piece) => piece.length > 0);
  if (pieces.length === 0 && reply.content) pieces.push(reply.content);
  for (const piece of pieces) lines.push(body(piece, ''));
  if (!generate && reply.toolCalls.length > 0) lines.push(body('', toolCallsMember(reply)));
  return lines;
}

const bodiesCache = new WeakMap<object, Map<string, string[]>>();

function bodiesOf(reply: ResolvedReply, request: ChatRequest, generate: boolean): string[] {
  if (!reply.shape) return lineBodies(reply, request, generate);
  const variant = `${generate ? 'g' : 'c'}${requestInfo(request).thinking ? 't' : ''}`;
  let byVariant = bodiesCache.get(reply.shape);
  if (!byVariant) bodiesCache.set(reply.shape, (byVariant = new Map()));
  let bodies = byVariant.get(variant);
  if (!bodies) byVariant.set(variant, (bodies = lineBodies(reply, request, generate)));
  return bodies;
}

/** The stream's lines, each made when it is taken (large and paced streams keep no copies). */
export function encodeOllamaStreamEvents(
  reply: ResolvedReply,
  request: ChatRequest,
  ctx: DialectEncodeContext,
): { contentType: string; events: EventSource } {
  const generate = isGenerate(ctx);
  const bodies = bodiesOf(reply, request, generate);
  const head = objectHead(ctx);
  const last = `${head}${generate ? generateBody('', '') : chatBody('', '')}${doneTail(reply, ctx, bodies.length + 1)}\n`;
  return {
    contentType: NDJSON,
    events: { length: bodies.length + 1, at: (i) => (i === bodies.length ? last : `${head}${bodies[i]}"done":false}\n`) },
  };
}

/** A stream that fails before its content: the error line alone (Ollama sends nothing before it). */
export function encodeOllamaStreamFailure(error: NeutralError): StreamEncoding {
  return { contentType: NDJSON, events: [`${ollamaErrorJson(error)}\n`] };
}

/** The error line, for a scripted fault part-way through a stream. */
export function encodeOllamaStreamErrorEvent(error: NeutralError): string {
  return `${ollamaErrorJson(error)}\n`;
}

// An Ollama answer as one JSON object: /api/chat's `message` (content, thinking, whole tool calls
// with object arguments), or /api/generate's `response` text, then `done: true`, `done_reason` and
// the statistics (ollama-metrics.ts). Members are in the order the server writes them.

import type { ChatRequest, ResolvedReply, ResolvedToolCall } from '../../core/model.js';
import type { DialectEncodeContext } from '../dialect.js';
import { requestInfo } from './decode-request.js';
import { mapDoneReason } from './map-done-reason.js';
import { createdAt, metricsJson } from './ollama-metrics.js';

export function isGenerate(ctx: DialectEncodeContext): boolean {
  return ctx.wire.operation === 'ollama.generate';
}

/** A tool call as Ollama writes it: its id, then `function` with its index, name and arguments object. */
function toolCallJson(call: ResolvedToolCall, index: number): string {
  let args: unknown;
  try {
    args = JSON.parse(call.argumentsText);
  } catch {
    args = {};
  }
  return `{"id":${JSON.stringify(call.id)},"function":{"index":${index},"name":${JSON.stringify(call.name)},"arguments":${JSON.stringify(args)}}}`;
}

/** The `tool_calls` member (with its leading comma), or nothing. */
export function toolCallsMember(reply: ResolvedReply): string {
  return reply.toolCalls.length === 0 ? '' : `,"tool_calls":[${reply.toolCalls.map(toolCallJson).join(',')}]`;
}

/** The `thinking` member (with its leading comma) when the reply has reasoning the request did not turn off. */
export function thinkingMember(text: string | null, request: ChatRequest): string {
  return text && requestInfo(request).thinking ? `,"thinking":${JSON.stringify(text)}` : '';
}

/** What opens every object of an answer: `{"model":…,"created_at":…,`. */
export function objectHead(ctx: DialectEncodeContext): string {
  return `{"model":${JSON.stringify(ctx.model)},"created_at":${createdAt(ctx.created)},`;
}

/** What closes the last object: `"done":true,"done_reason":…` and the statistics (`lines`: how
 * many lines the answer is written in). */
export function doneTail(reply: ResolvedReply, ctx: DialectEncodeContext, lines: number): string {
  return `"done":true,"done_reason":"${mapDoneReason(reply.finishReason)}"${metricsJson(reply.usage, ctx.pacing, lines)}}`;
}

export function encodeOllamaResponse(reply: ResolvedReply, request: ChatRequest, ctx: DialectEncodeContext): string {
  const content = JSON.stringify(reply.content ?? '');
  const thinking = thinkingMember(reply.reasoning, request);
  const body = isGenerate(ctx)
    ? `"response":${content}${thinking},`
    : `"message":{"role":"assistant","content":${content}${thinking}${toolCallsMember(reply)}},`;
  return `${objectHead(ctx)}${body}${doneTail(reply, ctx, 1)}`;
}

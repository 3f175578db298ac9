// A Cohere v1 Chat response (NonStreamedChatResponse): `text`, the ids, `tool_calls` as
// `{name, parameters}` (parameters an object: v1 calls carry no id), `finish_reason` and `meta`
// with the API version and the token counts. The same object closes a stream (stream-end's
// `response`).

import type { EncodeContext, ResolvedReply, ResolvedToolCall, Usage } from '../../core/model.js';
import { billedUnitsJson, tokensJson } from '../cohere/usage.js';
import { mapFinishReason } from './map-finish-reason.js';
import { toolPlan } from '../cohere/tool-plan.js';

/** A call's arguments as v1's `parameters` object; arguments that are no JSON object (a script may
 * say anything) are sent as the string they are. */
export function parametersJson(call: ResolvedToolCall): string {
  try {
    const parsed: unknown = JSON.parse(call.argumentsText);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return call.argumentsText;
  } catch {
    // not JSON: sent as a string below
  }
  return JSON.stringify(call.argumentsText);
}

export function toolCallJson(call: ResolvedToolCall): string {
  return `{"name":${JSON.stringify(call.name)},"parameters":${parametersJson(call)}}`;
}

/** The reply's text; a turn that calls tools and says nothing else says its plan. */
export function replyText(reply: ResolvedReply): string {
  return reply.content ? reply.content : (toolPlan(reply) ?? '');
}

export function metaJson(usage: Usage): string {
  return (
    `{"api_version":{"version":"1"},"billed_units":${billedUnitsJson(usage)},"tokens":${tokensJson(usage)},` +
    `"cached_tokens":${usage.cachedInputTokens}}`
  );
}

// Everything but the ids and the counts depends only on the reply's static parts.
const bodyCache = new WeakMap<object, string>();

function staticMembers(reply: ResolvedReply, finishReason: string): string {
  const calls = reply.toolCalls.length > 0 ? `,"tool_calls":[${reply.toolCalls.map(toolCallJson).join(',')}]` : '';
  return `"text":${JSON.stringify(replyText(reply))}${calls},"finish_reason":${JSON.stringify(finishReason)}`;
}

export function membersOf(reply: ResolvedReply): string {
  if (reply.shape === undefined) return staticMembers(reply, mapFinishReason(reply.finishReason));
  let members = bodyCache.get(reply.shape);
  if (members === undefined) {
    members = staticMembers(reply, mapFinishReason(reply.finishReason));
    bodyCache.set(reply.shape, members);
  }
  return members;
}

/** The generation id: the response id with its own prefix, so both stay deterministic. */
export function generationId(ctx: EncodeContext): string {
  return `gen-${ctx.responseId}`;
}

export function responseJson(members: string, usage: Usage, ctx: EncodeContext): string {
  return (
    `{"response_id":${JSON.stringify(ctx.responseId)},${members},"generation_id":${JSON.stringify(generationId(ctx))},` +
    `"meta":${metaJson(usage)}}`
  );
}

export function encodeCohereV1ChatResponse(reply: ResolvedReply, _request: unknown, ctx: EncodeContext): string {
  return responseJson(membersOf(reply), reply.usage, ctx);
}

// A Cohere v2 Chat response: the assistant message (its tool plan and tool calls, then its content
// items: thinking, text, and the text's citations), the finish reason and usage.

import type { ChatRequest, EncodeContext, ResolvedReply, ResolvedToolCall } from '../../core/model.js';
import { citationJson } from './citations.js';
import { cohereUsageJson } from './cohere-usage.js';
import { mapFinishReason } from './map-finish-reason.js';
import { thinkingText, toolPlan } from './tool-plan.js';

export function toolCallJson(call: ResolvedToolCall, argumentsText: string, string: (text: string) => string = JSON.stringify): string {
  return `{"id":${string(call.id)},"type":"function","function":{"name":${string(call.name)},"arguments":${string(argumentsText)}}}`;
}

// The message and finish reason depend only on the reply's static parts: encode them once per shape.
const messageCache = new WeakMap<object, string>();

function encodeMessage(reply: ResolvedReply, request: ChatRequest): string {
  const members = ['"role":"assistant"'];
  const plan = toolPlan(reply);
  if (plan !== null) members.push(`"tool_plan":${JSON.stringify(plan)}`);
  if (reply.toolCalls.length > 0) members.push(`"tool_calls":[${reply.toolCalls.map((c) => toolCallJson(c, c.argumentsText)).join(',')}]`);
  const content: string[] = [];
  const thinking = thinkingText(reply);
  if (thinking !== null) content.push(`{"type":"thinking","thinking":${JSON.stringify(thinking)}}`);
  if (reply.content) content.push(`{"type":"text","text":${JSON.stringify(reply.content)}}`);
  if (content.length > 0 || reply.toolCalls.length === 0) members.push(`"content":[${content.join(',')}]`);
  if (reply.citations) {
    const textIndex = content.length - 1;
    members.push(`"citations":[${reply.citations.map((c) => citationJson(c, textIndex, request)).join(',')}]`);
  }
  return `"finish_reason":${JSON.stringify(mapFinishReason(reply.finishReason))},"message":{${members.join(',')}}`;
}

export function encodeCohereChatResponse(reply: ResolvedReply, request: ChatRequest, ctx: EncodeContext): string {
  // Citations name the request's documents: a reply with them is encoded for each request.
  const cacheable = reply.shape !== undefined && reply.citations === undefined;
  let message = cacheable ? messageCache.get(reply.shape!) : undefined;
  if (message === undefined) {
    message = encodeMessage(reply, request);
    if (cacheable) messageCache.set(reply.shape!, message);
  }
  return `{"id":${JSON.stringify(ctx.responseId)},${message},"usage":${cohereUsageJson(reply.usage)}}`;
}

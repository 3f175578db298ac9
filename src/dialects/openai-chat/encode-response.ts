import type { ChatRequest, EncodeContext, ResolvedReply } from '../../core/model.js';
import { openaiChatUsageJson } from './openai-chat-usage.js';

// The choices fragment depends only on the reply's static parts: encode it once per shape.
const choicesCache = new WeakMap<object, string>();

function encodeChoices(reply: ResolvedReply): string {
  let toolCalls = '';
  if (reply.toolCalls.length > 0) {
    toolCalls = `,"tool_calls":${JSON.stringify(
      reply.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.argumentsText } })),
    )}`;
  }
  const content = reply.content === null ? 'null' : JSON.stringify(reply.content);
  return (
    `"choices":[{"index":0,"message":{"role":"assistant","content":${content},"refusal":null,"annotations":[]${toolCalls}},` +
    `"logprobs":null,"finish_reason":${JSON.stringify(reply.finishReason)}}]`
  );
}

export function encodeChatResponse(reply: ResolvedReply, _request: ChatRequest, ctx: EncodeContext): string {
  let choices = reply.shape ? choicesCache.get(reply.shape) : undefined;
  if (choices === undefined) {
    choices = encodeChoices(reply);
    if (reply.shape) choicesCache.set(reply.shape, choices);
  }
  return [
    `{"id":${JSON.stringify(ctx.responseId)},"object":"chat.completion","created":${ctx.created},"model":${JSON.stringify(ctx.model)},`,
    choices,
    `,"usage":${openaiChatUsageJson(reply.usage)},"service_tier":"default","system_fingerprint":"fp_understudy"}`,
  ].join('');
}

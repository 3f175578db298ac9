import type { ChatRequest, EncodeContext, ResolvedReply } from '../../core/model.js';
import { openaiChatUsage } from './openai-chat-usage.js';

export function encodeChatResponse(reply: ResolvedReply, _request: ChatRequest, ctx: EncodeContext): string {
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: reply.content,
    refusal: null,
    annotations: [],
  };
  if (reply.toolCalls.length > 0) {
    message.tool_calls = reply.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.argumentsText },
    }));
  }
  return JSON.stringify({
    id: ctx.responseId,
    object: 'chat.completion',
    created: ctx.created,
    model: ctx.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: reply.finishReason }],
    usage: openaiChatUsage(reply.usage),
    service_tier: 'default',
    system_fingerprint: 'fp_understudy',
  });
}

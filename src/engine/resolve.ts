// Turns a scripted Reply into what a dialect encodes: ids assigned, content and chunks decided,
// usage counted.

import type { ChatRequest, FinishReason, Reply, ResolvedReply } from '../core/model.js';
import { countInputTokens, countOutputTokens } from '../core/tokens.js';

/** Splits text into word-sized pieces that keep their whitespace, for default streaming. */
export function defaultChunks(text: string): string[] {
  return text.match(/\s*\S+\s*|\s+/g) ?? [];
}

export function replyContent(reply: Reply): string | null {
  if (reply.text !== undefined) return reply.text;
  if (reply.json !== undefined) return JSON.stringify(reply.json);
  return null;
}

export function resolveReply(reply: Reply, request: ChatRequest, nextId: () => string, wholeToolCalls = false): ResolvedReply {
  const content = replyContent(reply);
  const toolCalls = (reply.toolCalls ?? []).map((call) => ({
    id: call.id ?? `call_${nextId()}`,
    name: call.name,
    argumentsText: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
  }));
  const finishReason: FinishReason = reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop');
  const resolved: ResolvedReply = {
    content,
    chunks: reply.chunks ?? (content === null || !request.stream ? [] : defaultChunks(content)),
    toolCalls,
    reasoning: reply.reasoning ?? null,
    finishReason,
    wholeToolCalls,
    usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: reply.reasoningTokens ?? 0 },
  };
  resolved.usage.inputTokens = countInputTokens(request);
  resolved.usage.outputTokens = countOutputTokens(resolved);
  return resolved;
}

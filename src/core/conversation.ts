// Read-only views of a ChatRequest's history that predicates and zero-config mode share.

import type { ChatRequest, Message, ToolCallPart, ToolResultPart } from './model.js';

export function messageText(message: Message): string {
  let text = '';
  for (const part of message.parts) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'tool_result') text += part.content;
  }
  return text;
}

export function latestUserIndex(request: ChatRequest): number {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    if (request.messages[i].role === 'user') return i;
  }
  return -1;
}

// Selection asks the same request these questions once per script: answer once per request.
const latestUserCache = new WeakMap<ChatRequest, string | undefined>();
const toolResultsCache = new WeakMap<ChatRequest, ToolResultPart[]>();

export function latestUserText(request: ChatRequest): string | undefined {
  if (latestUserCache.has(request)) return latestUserCache.get(request);
  const i = latestUserIndex(request);
  const text = i < 0 ? undefined : messageText(request.messages[i]);
  latestUserCache.set(request, text);
  return text;
}

/** Tool results in the messages after the latest user message. */
export function recentToolResults(request: ChatRequest): ToolResultPart[] {
  const cached = toolResultsCache.get(request);
  if (cached) return cached;
  const results: ToolResultPart[] = [];
  for (let i = latestUserIndex(request) + 1; i < request.messages.length; i++) {
    for (const part of request.messages[i].parts) if (part.type === 'tool_result') results.push(part);
  }
  toolResultsCache.set(request, results);
  return results;
}

export function allToolCalls(request: ChatRequest): ToolCallPart[] {
  const calls: ToolCallPart[] = [];
  for (const message of request.messages) {
    for (const part of message.parts) if (part.type === 'tool_call') calls.push(part);
  }
  return calls;
}

export function toolCallsOf(message: Message): ToolCallPart[] {
  const calls: ToolCallPart[] = [];
  for (const part of message.parts) if (part.type === 'tool_call') calls.push(part);
  return calls;
}

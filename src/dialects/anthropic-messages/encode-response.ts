// A Messages API response: thinking block (when the reply has reasoning), text block, tool_use
// blocks in that order, the stop reason and usage.

import { fnv1a, FNV_PRIME } from '../../core/fnv.js';
import type { ChatRequest, EncodeContext, ResolvedReply, ResolvedToolCall } from '../../core/model.js';
import { anthropicUsageJson } from './anthropic-usage.js';
import { mapStopReason } from './map-stop-reason.js';

/** A deterministic, opaque signature for a thinking block (clients only pass it back). */
export function thinkingSignature(thinking: string): string {
  // The second half: the same walk with another basis and multiplier, for 64 bits in all.
  let h2 = FNV_PRIME;
  for (let i = 0; i < thinking.length; i++) h2 = Math.imul(h2 ^ thinking.charCodeAt(i), 0x5bd1e995);
  const hex = fnv1a(thinking).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
  return Buffer.from(`understudy-thinking:${hex}:${thinking.length}`).toString('base64');
}

/** A tool call's arguments as the JSON object Anthropic's `input` is. The contract has already
 * checked that scripted arguments are JSON matching an object schema; anything else becomes {}. */
export function toolInputJson(call: ResolvedToolCall): string {
  const text = call.argumentsText.trim();
  if (text.startsWith('{')) {
    try {
      const value: unknown = JSON.parse(text);
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) return JSON.stringify(value);
    } catch {
      // fall through
    }
  }
  return '{}';
}

export function toolUseBlockJson(call: ResolvedToolCall, input: string): string {
  return `{"type":"tool_use","id":${JSON.stringify(call.id)},"name":${JSON.stringify(call.name)},"input":${input},"caller":{"type":"direct"}}`;
}

// The content array and stop reason depend only on the reply's static parts: encode them once per shape.
const contentCache = new WeakMap<object, string>();

function encodeContent(reply: ResolvedReply): string {
  const blocks: string[] = [];
  if (reply.reasoning !== null) {
    blocks.push(
      `{"type":"thinking","thinking":${JSON.stringify(reply.reasoning)},"signature":${JSON.stringify(thinkingSignature(reply.reasoning))}}`,
    );
  }
  if (reply.content) blocks.push(`{"type":"text","text":${JSON.stringify(reply.content)}}`);
  for (const call of reply.toolCalls) blocks.push(toolUseBlockJson(call, toolInputJson(call)));
  return `"content":[${blocks.join(',')}],"stop_reason":${JSON.stringify(mapStopReason(reply.finishReason))},"stop_sequence":null`;
}

export function encodeMessageResponse(reply: ResolvedReply, _request: ChatRequest, ctx: EncodeContext): string {
  let content = reply.shape ? contentCache.get(reply.shape) : undefined;
  if (content === undefined) {
    content = encodeContent(reply);
    if (reply.shape) contentCache.set(reply.shape, content);
  }
  return (
    `{"id":${JSON.stringify(ctx.responseId)},"type":"message","role":"assistant","model":${JSON.stringify(ctx.model)},` +
    `${content},"usage":${anthropicUsageJson(reply.usage)}}`
  );
}

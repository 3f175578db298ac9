// A Converse response: the assistant message (reasoning, text, then toolUse blocks), the stop
// reason, usage and metrics. The response carries no id of its own; the request id travels in the
// `x-amzn-requestid` header.

import { fnv1a } from '../../core/fnv.js';
import type { ChatRequest, ResolvedReply, ResolvedToolCall } from '../../core/model.js';
import type { DialectEncodeContext } from '../dialect.js';
import { converseMetricsJson, converseUsageJson } from './converse-usage.js';
import { mapStopReason } from './map-stop-reason.js';

/** A deterministic, opaque signature for a reasoning block (clients only send it back). */
export function reasoningSignature(text: string): string {
  const hex = fnv1a(text).toString(16).padStart(8, '0') + fnv1a(text, 0x9747b28c).toString(16).padStart(8, '0');
  return Buffer.from(`understudy-reasoning:${hex}:${text.length}`).toString('base64');
}

/** A tool call's arguments as the JSON object `input` is. The contract has already checked that
 * scripted arguments are JSON matching the tool's object schema; anything else becomes {}. */
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

// The message and stop reason depend only on the reply's static parts: encode them once per shape.
const outputCache = new WeakMap<object, string>();

function encodeOutput(reply: ResolvedReply): string {
  const blocks: string[] = [];
  if (reply.reasoning !== null) {
    blocks.push(
      `{"reasoningContent":{"reasoningText":{"text":${JSON.stringify(reply.reasoning)},"signature":${JSON.stringify(reasoningSignature(reply.reasoning))}}}}`,
    );
  }
  if (reply.content) blocks.push(`{"text":${JSON.stringify(reply.content)}}`);
  for (const call of reply.toolCalls) {
    blocks.push(`{"toolUse":{"toolUseId":${JSON.stringify(call.id)},"name":${JSON.stringify(call.name)},"input":${toolInputJson(call)}}}`);
  }
  return `"output":{"message":{"role":"assistant","content":[${blocks.join(',')}]}},"stopReason":${JSON.stringify(mapStopReason(reply.finishReason))}`;
}

export function encodeConverseResponse(reply: ResolvedReply, _request: ChatRequest, ctx: DialectEncodeContext): string {
  let output = reply.shape ? outputCache.get(reply.shape) : undefined;
  if (output === undefined) {
    output = encodeOutput(reply);
    if (reply.shape) outputCache.set(reply.shape, output);
  }
  return `{${output},"usage":${converseUsageJson(reply.usage)},"metrics":${converseMetricsJson(ctx.pacing, 1)}}`;
}

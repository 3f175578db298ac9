// A GenerateContentResponse: one candidate whose parts are the reply's thought (when scripted),
// its text, its images (inlineData), then its function calls; `usageMetadata`; the model version; the response id
// (Vertex AI adds `createTime`). Zero-valued counts are left out, as proto3 JSON leaves them out.

import type { ChatRequest, ResolvedReply, ResolvedToolCall, Usage } from '../../core/model.js';
import type { DialectEncodeContext } from '../dialect.js';
import { imageParts } from './image-parts.js';
import { mapGeminiFinishReason } from './map-finish-reason.js';

export function isVertex(ctx: DialectEncodeContext): boolean {
  return ctx.wire.operation.startsWith('vertex.');
}

export function textPart(text: string): string {
  return `{"text":${JSON.stringify(text)}}`;
}

export function thoughtPart(text: string): string {
  return `{"text":${JSON.stringify(text)},"thought":true}`;
}

/** A functionCall part. The id goes on the wire only when the script gave one: Gemini usually
 * sends none, and Understudy does not invent one. */
export function functionCallPart(call: ResolvedToolCall): string {
  let args: unknown;
  try {
    args = JSON.parse(call.argumentsText);
  } catch {
    args = {};
  }
  const id = call.generatedId ? '' : `"id":${JSON.stringify(call.id)},`;
  return `{"functionCall":{${id}"name":${JSON.stringify(call.name)},"args":${JSON.stringify(args)}}}`;
}

// The parts depend only on the reply's static parts: encode them once per shape.
const callsCache = new WeakMap<object, string[]>();

export function functionCallParts(reply: ResolvedReply): string[] {
  if (reply.toolCalls.length === 0) return [];
  let parts = reply.shape ? callsCache.get(reply.shape) : undefined;
  if (parts === undefined) {
    parts = reply.toolCalls.map(functionCallPart);
    if (reply.shape) callsCache.set(reply.shape, parts);
  }
  return parts;
}

export function contentJson(parts: string[]): string {
  return parts.length > 0 ? `{"parts":[${parts.join(',')}],"role":"model"}` : '{"role":"model"}';
}

/** `usageMetadata`. While a stream runs, chunks carry the prompt count only; the last one has it all. */
export function usageJson(usage: Usage, final: boolean, vertex: boolean): string {
  const prompt = usage.inputTokens;
  const promptDetails = `"promptTokensDetails":[{"modality":"TEXT","tokenCount":${prompt}}]`;
  const traffic = vertex ? ',"trafficType":"ON_DEMAND"' : '';
  if (!final) return `{"promptTokenCount":${prompt},"totalTokenCount":${prompt},${promptDetails}${traffic}}`;
  const output = usage.outputTokens;
  const thoughts = usage.reasoningTokens;
  const cached = usage.cachedInputTokens;
  let json = `{"promptTokenCount":${prompt}`;
  if (output > 0) json += `,"candidatesTokenCount":${output}`;
  json += `,"totalTokenCount":${prompt + output + thoughts}`;
  if (cached > 0) json += `,"cachedContentTokenCount":${cached}`;
  json += `,${promptDetails}`;
  if (cached > 0) json += `,"cacheTokensDetails":[{"modality":"TEXT","tokenCount":${cached}}]`;
  if (vertex && output > 0) json += `,"candidatesTokensDetails":[{"modality":"TEXT","tokenCount":${output}}]`;
  if (thoughts > 0) json += `,"thoughtsTokenCount":${thoughts}`;
  return `${json}${traffic}}`;
}

/** The fields after `usageMetadata`, shared by every chunk of a response. */
export function responseTail(ctx: DialectEncodeContext): string {
  const createTime = isVertex(ctx) ? `,"createTime":${JSON.stringify(new Date(ctx.created * 1000).toISOString())}` : '';
  return `,"modelVersion":${JSON.stringify(ctx.model)}${createTime},"responseId":${JSON.stringify(ctx.responseId)}}`;
}

export function encodeGeminiResponse(reply: ResolvedReply, request: ChatRequest, ctx: DialectEncodeContext): string {
  const parts: string[] = [];
  if (reply.reasoning) parts.push(thoughtPart(reply.reasoning));
  if (reply.content !== null) parts.push(textPart(reply.content));
  if (reply.images) parts.push(...imageParts(reply, request));
  parts.push(...functionCallParts(reply));
  return (
    `{"candidates":[{"content":${contentJson(parts)},"finishReason":"${mapGeminiFinishReason(reply.finishReason)}","index":0}],` +
    `"usageMetadata":${usageJson(reply.usage, true, isVertex(ctx))}${responseTail(ctx)}`
  );
}

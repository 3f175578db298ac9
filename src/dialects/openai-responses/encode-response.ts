// The Responses API's response object: reasoning, message and function_call output items (item
// ids derived from the response id; a function call's item `id` is not its `call_id`), usage, and
// the request fields the API echoes. The stream encoder builds its events from the same pieces.

import type { ChatRequest, EncodeContext, FinishReason, ResolvedReply, Usage } from '../../core/model.js';
import { infoOf } from './request-info.js';

export interface ItemIds {
  message: string;
  reasoning: string;
  call(index: number): string;
}

/** Item ids of one response: `msg_…`, `rs_…`, `fc_…_N`, sharing the response id's unique part. */
export function itemIds(responseId: string): ItemIds {
  const base = responseId.startsWith('resp_') ? responseId.slice(5) : responseId;
  return {
    message: `msg_${base}`,
    reasoning: `rs_${base}`,
    call: (index) => `fc_${base}_${index + 1}`,
  };
}

export type ResponseStatus = 'completed' | 'incomplete' | 'in_progress' | 'failed';

export function statusOf(finish: FinishReason): { status: ResponseStatus; incomplete: { reason: string } | null } {
  if (finish === 'length') return { status: 'incomplete', incomplete: { reason: 'max_output_tokens' } };
  if (finish === 'content_filter') return { status: 'incomplete', incomplete: { reason: 'content_filter' } };
  return { status: 'completed', incomplete: null };
}

export function usageObject(usage: Usage) {
  const output = usage.outputTokens + usage.reasoningTokens;
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens, cache_write_tokens: usage.cacheWriteTokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    total_tokens: usage.inputTokens + output,
  };
}

export function textPart(text: string) {
  return { type: 'output_text', text, annotations: [], logprobs: [] };
}

export function messageItem(id: string, status: string, text: string | null) {
  return { type: 'message', id, status, role: 'assistant', content: text === null ? [] : [textPart(text)] };
}

export function reasoningItem(id: string, text: string | null) {
  return { type: 'reasoning', id, summary: text === null ? [] : [{ type: 'summary_text', text }], encrypted_content: null };
}

export function functionCallItem(id: string, call: { id: string; name: string }, args: string, status: string) {
  return { type: 'function_call', id, call_id: call.id, name: call.name, arguments: args, status };
}

/** The finished output items, in the order the API sends them: reasoning, message, calls. */
export function outputItems(reply: ResolvedReply, ids: ItemIds): unknown[] {
  const items: unknown[] = [];
  const itemStatus = statusOf(reply.finishReason).status === 'incomplete' ? 'incomplete' : 'completed';
  if (reply.reasoning !== null) items.push(reasoningItem(ids.reasoning, reply.reasoning));
  if (reply.content !== null) items.push(messageItem(ids.message, itemStatus, reply.content));
  reply.toolCalls.forEach((call, i) => items.push(functionCallItem(ids.call(i), call, call.argumentsText, 'completed')));
  return items;
}

export interface ResponseState {
  status: ResponseStatus;
  output: unknown[];
  usage: ReturnType<typeof usageObject> | null;
  error?: { code: string; message: string } | null;
  incomplete?: { reason: string } | null;
}

/** The whole response object, with the request's echoed fields, in the API's key order. */
export function responseObject(request: ChatRequest, ctx: EncodeContext, state: ResponseState) {
  const echo = infoOf(request).echo;
  return {
    id: ctx.responseId,
    object: 'response',
    created_at: ctx.created,
    status: state.status,
    background: false,
    error: state.error ?? null,
    incomplete_details: state.incomplete ?? null,
    instructions: echo.instructions,
    max_output_tokens: echo.max_output_tokens,
    model: ctx.model,
    output: state.output,
    parallel_tool_calls: echo.parallel_tool_calls,
    previous_response_id: echo.previous_response_id,
    reasoning: echo.reasoning,
    service_tier: echo.service_tier,
    store: echo.store,
    temperature: echo.temperature,
    text: echo.text,
    tool_choice: echo.tool_choice,
    tools: echo.tools,
    top_p: echo.top_p,
    truncation: echo.truncation,
    usage: state.usage,
    user: echo.user,
    metadata: echo.metadata,
  };
}

export function encodeResponsesResponse(reply: ResolvedReply, request: ChatRequest, ctx: EncodeContext): string {
  const { status, incomplete } = statusOf(reply.finishReason);
  return JSON.stringify(
    responseObject(request, ctx, {
      status,
      incomplete,
      output: outputItems(reply, itemIds(ctx.responseId)),
      usage: usageObject(reply.usage),
    }),
  );
}

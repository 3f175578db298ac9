// Chat Completions SSE: role first, content deltas, tool-call deltas keyed by index (id, type and
// name first, argument fragments after), a finish_reason chunk, the usage chunk when asked, [DONE].

import type { ChatRequest, EncodeContext, ResolvedReply } from '../../core/model.js';
import type { NeutralError } from '../../core/errors.js';
import type { StreamEncoding } from '../dialect.js';
import { encodeOpenAIError } from './errors.js';
import { openaiChatUsage } from './openai-chat-usage.js';

const ARGUMENT_FRAGMENT = 24;

export function splitArguments(text: string): string[] {
  if (text.length <= ARGUMENT_FRAGMENT) return [text];
  const parts: string[] = [];
  for (let at = 0; at < text.length; at += ARGUMENT_FRAGMENT) parts.push(text.slice(at, at + ARGUMENT_FRAGMENT));
  return parts;
}

/** The `choices` array of each chunk, in order: everything that depends on the reply alone. */
function choiceFragments(reply: ResolvedReply): string[] {
  const fragments: string[] = [];
  const chunk = (delta: unknown, finish: string | null = null) =>
    fragments.push(
      `[{"index":0,"delta":${JSON.stringify(delta)},"logprobs":null,"finish_reason":${finish === null ? 'null' : JSON.stringify(finish)}}]`,
    );
  chunk({ role: 'assistant', content: reply.content === null ? null : '', refusal: null });
  for (const piece of reply.chunks) if (piece.length > 0) chunk({ content: piece });
  reply.toolCalls.forEach((call, index) => {
    if (reply.wholeToolCalls) {
      chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: call.argumentsText } }] });
      return;
    }
    chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] });
    for (const fragment of splitArguments(call.argumentsText)) {
      if (fragment.length > 0) chunk({ tool_calls: [{ index, function: { arguments: fragment } }] });
    }
  });
  chunk({}, reply.finishReason);
  return fragments;
}

// Scripted replies resolve to the same parts every time (ResolvedReply.shape): their fragments
// are encoded once; each request only adds its id, clock, model and usage.
const fragmentCache = new WeakMap<object, string[]>();

export function encodeChatStream(reply: ResolvedReply, request: ChatRequest, ctx: EncodeContext): StreamEncoding {
  let fragments = reply.shape ? fragmentCache.get(reply.shape) : undefined;
  if (!fragments) {
    fragments = choiceFragments(reply);
    if (reply.shape) fragmentCache.set(reply.shape, fragments);
  }
  const head = `data: {"id":${JSON.stringify(ctx.responseId)},"object":"chat.completion.chunk","created":${ctx.created},"model":${JSON.stringify(ctx.model)},"service_tier":"default","system_fingerprint":"fp_understudy","choices":`;
  const tail = request.streamUsage ? ',"usage":null}\n\n' : '}\n\n';
  const events: string[] = new Array(fragments.length);
  for (let i = 0; i < fragments.length; i++) events[i] = head + fragments[i] + tail;
  if (request.streamUsage) events.push(`${head}[],"usage":${JSON.stringify(openaiChatUsage(reply.usage))}}\n\n`);
  events.push('data: [DONE]\n\n');
  return { contentType: 'text/event-stream; charset=utf-8', events };
}

/** A stream that fails: the role chunk, then the error chunk the SDK throws on. */
export function encodeChatStreamFailure(error: NeutralError, _request: ChatRequest, ctx: EncodeContext): StreamEncoding {
  const head = `{"id":${JSON.stringify(ctx.responseId)},"object":"chat.completion.chunk","created":${ctx.created},"model":${JSON.stringify(ctx.model)},"choices":`;
  const body = JSON.parse(encodeOpenAIError(error).body) as unknown;
  return {
    contentType: 'text/event-stream; charset=utf-8',
    events: [
      `data: ${head}[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}]}\n\n`,
      `data: ${JSON.stringify(body)}\n\n`,
    ],
  };
}

/** The error chunk alone, for a fault part-way through a stream. */
export function encodeChatStreamErrorEvent(error: NeutralError): string {
  return `data: ${encodeOpenAIError(error).body}\n\n`;
}

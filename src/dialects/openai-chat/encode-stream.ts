// Chat Completions SSE: role first, content deltas, tool-call deltas keyed by index (id, type and
// name first, argument fragments after), a finish_reason chunk, the usage chunk when asked, [DONE].

import type { ChatRequest, EncodeContext, ResolvedReply } from '../../core/model.js';
import type { NeutralError } from '../../core/errors.js';
import type { EventBytes, EventSource, StreamEncoding } from '../dialect.js';
import { encodeOpenAIError } from '../openai/encode-error.js';
import { splitArguments } from '../openai/split-arguments.js';
import { openaiChatUsage } from './openai-chat-usage.js';

const STREAM_CONTENT_TYPE = 'text/event-stream; charset=utf-8';

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

function fragmentsOf(reply: ResolvedReply): string[] {
  let fragments = reply.shape ? fragmentCache.get(reply.shape) : undefined;
  if (!fragments) {
    fragments = choiceFragments(reply);
    if (reply.shape) fragmentCache.set(reply.shape, fragments);
  }
  return fragments;
}

function chunkHead(id: string, ctx: EncodeContext): string {
  return `data: {"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${ctx.created},"model":${JSON.stringify(ctx.model)},"service_tier":"default","system_fingerprint":"fp_understudy","choices":`;
}

/** The usage chunk (when asked for) and [DONE]: the events after the reply's own chunks. */
function closingEvents(reply: ResolvedReply, request: ChatRequest, head: string): string[] {
  const done = 'data: [DONE]\n\n';
  return request.streamUsage ? [`${head}[],"usage":${JSON.stringify(openaiChatUsage(reply.usage))}}\n\n`, done] : [done];
}

export function encodeChatStream(reply: ResolvedReply, request: ChatRequest, ctx: EncodeContext): StreamEncoding {
  const fragments = fragmentsOf(reply);
  const head = chunkHead(ctx.responseId, ctx);
  const tail = request.streamUsage ? ',"usage":null}\n\n' : '}\n\n';
  const events: string[] = new Array(fragments.length);
  for (let i = 0; i < fragments.length; i++) events[i] = head + fragments[i] + tail;
  events.push(...closingEvents(reply, request, head));
  return { contentType: STREAM_CONTENT_TYPE, events };
}

/** encodeChatStream's events, each made when it is sent (paced delivery). */
export function encodeChatStreamEvents(
  reply: ResolvedReply,
  request: ChatRequest,
  ctx: EncodeContext,
): { contentType: string; events: EventSource } {
  const fragments = fragmentsOf(reply);
  const head = chunkHead(ctx.responseId, ctx);
  const tail = request.streamUsage ? ',"usage":null}\n\n' : '}\n\n';
  const closing = closingEvents(reply, request, head);
  const n = fragments.length;
  // The bytes of an event: this stream's head, the reply's fragment and the tail, each encoded once.
  const parts = fragmentBytesOf(reply, fragments);
  // Its own small allocation, not a slice of node's shared 8 KB pool: a slice held for the whole
  // stream would keep its pool (and every short-lived frame cut from it) alive.
  const headBytes = Buffer.allocUnsafeSlow(Buffer.byteLength(head));
  headBytes.write(head);
  const tailBytes = request.streamUsage ? TAIL_BEFORE_USAGE : TAIL;
  const bytes: EventBytes = {
    sizeAt: (i) => (i < n ? headBytes.length + parts[i].length + tailBytes.length : Buffer.byteLength(closing[i - n])),
    copyAt(i, target, offset) {
      if (i >= n) {
        target.write(closing[i - n], offset);
        return;
      }
      target.set(headBytes, offset);
      target.set(parts[i], offset + headBytes.length);
      target.set(tailBytes, offset + headBytes.length + parts[i].length);
    },
  };
  return {
    contentType: STREAM_CONTENT_TYPE,
    events: { length: n + closing.length, at: (i) => (i < n ? head + fragments[i] + tail : closing[i - n]), bytes },
  };
}

const TAIL = Buffer.from('}\n\n');
const TAIL_BEFORE_USAGE = Buffer.from(',"usage":null}\n\n');
const fragmentBytesCache = new WeakMap<object, Buffer[]>();

/** A reply's fragments as UTF-8, encoded once per scripted reply shape. */
function fragmentBytesOf(reply: ResolvedReply, fragments: string[]): Buffer[] {
  let parts = reply.shape ? fragmentBytesCache.get(reply.shape) : undefined;
  if (!parts) {
    parts = fragments.map((fragment) => Buffer.from(fragment));
    if (reply.shape) fragmentBytesCache.set(reply.shape, parts);
  }
  return parts;
}

/** A stream that fails: the role chunk, then the error chunk the SDK throws on. */
export function encodeChatStreamFailure(error: NeutralError, _request: ChatRequest, ctx: EncodeContext): StreamEncoding {
  const head = `{"id":${JSON.stringify(ctx.responseId)},"object":"chat.completion.chunk","created":${ctx.created},"model":${JSON.stringify(ctx.model)},"choices":`;
  const body = JSON.parse(encodeOpenAIError(error).body) as unknown;
  return {
    contentType: STREAM_CONTENT_TYPE,
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

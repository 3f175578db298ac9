// Messages API SSE. Every event carries an `event:` line equal to its `type` (the SDKs drop events
// without one): message_start, then per block content_block_start / deltas / content_block_stop
// (thinking, text, tool_use in that order; a ping after the first block starts), message_delta
// with the stop reason and cumulative usage, message_stop. A failing stream ends with `error`.

import type { NeutralError } from '../../core/errors.js';
import type { ChatRequest, EncodeContext, ResolvedReply } from '../../core/model.js';
import { fixedPieces, wordPieces } from '../../core/stream-pieces.js';
import { countInputTokens } from '../../core/tokens.js';
import type { EventSource, StreamEncoding } from '../dialect.js';
import { anthropicDeltaUsageJson, anthropicOutputTokens, anthropicUsageJson } from './anthropic-usage.js';
import { thinkingSignature, toolInputJson, toolUseBlockJson } from './encode-response.js';
import { anthropicErrorObject } from './errors.js';
import { mapStopReason } from './map-stop-reason.js';

const CONTENT_TYPE = 'text/event-stream; charset=utf-8';
const ARGUMENT_FRAGMENT = 24;
const PING = 'event: ping\ndata: {"type":"ping"}\n\n';
const MESSAGE_STOP = 'event: message_stop\ndata: {"type":"message_stop"}\n\n';

function event(name: string, data: string): string {
  return `event: ${name}\ndata: ${data}\n\n`;
}

/** Fixed-size fragments of a tool call's input JSON, as `input_json_delta` carries them. */
export function splitInputJson(text: string): string[] {
  return fixedPieces(text, ARGUMENT_FRAGMENT);
}

function blockStart(index: number, block: string): string {
  return event('content_block_start', `{"type":"content_block_start","index":${index},"content_block":${block}}`);
}

function blockDelta(index: number, delta: string): string {
  return event('content_block_delta', `{"type":"content_block_delta","index":${index},"delta":${delta}}`);
}

function blockStop(index: number): string {
  return event('content_block_stop', `{"type":"content_block_stop","index":${index}}`);
}

// The block events depend only on the reply's static parts: build them once per shape.
const blockCache = new WeakMap<object, string[]>();

function encodeBlocks(reply: ResolvedReply): string[] {
  const events: string[] = [];
  let index = 0;
  const started = () => {
    if (index === 0) events.push(PING);
  };

  if (reply.reasoning !== null) {
    events.push(blockStart(index, '{"type":"thinking","thinking":"","signature":""}'));
    started();
    for (const piece of wordPieces(reply.reasoning)) {
      events.push(blockDelta(index, `{"type":"thinking_delta","thinking":${JSON.stringify(piece)}}`));
    }
    events.push(blockDelta(index, `{"type":"signature_delta","signature":${JSON.stringify(thinkingSignature(reply.reasoning))}}`));
    events.push(blockStop(index));
    index++;
  }

  if (reply.content) {
    events.push(blockStart(index, '{"type":"text","text":""}'));
    started();
    for (const piece of reply.chunks) {
      if (piece.length > 0) events.push(blockDelta(index, `{"type":"text_delta","text":${JSON.stringify(piece)}}`));
    }
    events.push(blockStop(index));
    index++;
  }

  for (const call of reply.toolCalls) {
    events.push(blockStart(index, toolUseBlockJson(call, '{}')));
    started();
    const input = toolInputJson(call);
    for (const fragment of reply.wholeToolCalls ? [input] : splitInputJson(input)) {
      events.push(blockDelta(index, `{"type":"input_json_delta","partial_json":${JSON.stringify(fragment)}}`));
    }
    events.push(blockStop(index));
    index++;
  }

  if (index === 0) events.push(PING);
  return events;
}

function messageStart(ctx: EncodeContext, usage: string): string {
  return event(
    'message_start',
    `{"type":"message_start","message":{"id":${JSON.stringify(ctx.responseId)},"type":"message","role":"assistant",` +
      `"model":${JSON.stringify(ctx.model)},"content":[],"stop_reason":null,"stop_sequence":null,"usage":${usage}}}`,
  );
}

/** The events around the reply's blocks: message_start before, message_delta and message_stop after. */
function framing(reply: ResolvedReply, ctx: EncodeContext): { blocks: string[]; start: string; end: string[] } {
  let blocks = reply.shape ? blockCache.get(reply.shape) : undefined;
  if (blocks === undefined) {
    blocks = encodeBlocks(reply);
    if (reply.shape) blockCache.set(reply.shape, blocks);
  }
  // As on the API, message_start reports the prompt and a first output token; message_delta the totals.
  const startUsage = anthropicUsageJson(reply.usage, Math.min(1, anthropicOutputTokens(reply.usage)));
  const delta = event(
    'message_delta',
    `{"type":"message_delta","delta":{"stop_reason":${JSON.stringify(mapStopReason(reply.finishReason))},"stop_sequence":null},` +
      `"usage":${anthropicDeltaUsageJson(reply.usage)}}`,
  );
  return { blocks, start: messageStart(ctx, startUsage), end: [delta, MESSAGE_STOP] };
}

export function encodeMessageStream(reply: ResolvedReply, _request: ChatRequest, ctx: EncodeContext): StreamEncoding {
  const { blocks, start, end } = framing(reply, ctx);
  return { contentType: CONTENT_TYPE, events: [start, ...blocks, ...end] };
}

/** encodeMessageStream's events without a per-stream copy of the (shared) block events. */
export function encodeMessageStreamEvents(
  reply: ResolvedReply,
  _request: ChatRequest,
  ctx: EncodeContext,
): { contentType: string; events: EventSource } {
  const { blocks, start, end } = framing(reply, ctx);
  const n = blocks.length;
  return {
    contentType: CONTENT_TYPE,
    events: { length: n + 3, at: (i) => (i === 0 ? start : i <= n ? blocks[i - 1] : end[i - n - 1]) },
  };
}

/** The `error` event alone, framed: what a stream interrupted by a fault ends with. */
export function encodeMessageStreamErrorEvent(error: NeutralError): string {
  return event('error', `{"type":"error","error":${anthropicErrorObject(error)}}`);
}

/** A stream that fails after it started: message_start, a ping, then the `error` event the SDKs throw on. */
export function encodeMessageStreamFailure(error: NeutralError, request: ChatRequest, ctx: EncodeContext): StreamEncoding {
  const usage = anthropicUsageJson({ inputTokens: countInputTokens(request), outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 });
  return {
    contentType: CONTENT_TYPE,
    events: [messageStart(ctx, usage), PING, encodeMessageStreamErrorEvent(error)],
  };
}

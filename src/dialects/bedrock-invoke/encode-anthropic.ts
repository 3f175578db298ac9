// Anthropic Claude's answers on InvokeModel are the Messages API's: the JSON body as the Anthropic
// dialect encodes it, and, streamed, the data of each of its SSE events (without the `ping`s, which
// Bedrock does not forward) as one chunk, `message_stop` closing with the invocation metrics.

import type { NeutralError } from '../../core/errors.js';
import type { ChatRequest, EncodeContext, Pacing, ResolvedReply } from '../../core/model.js';
import type { EventSource } from '../dialect.js';
import { encodeMessageResponse } from '../anthropic-messages/encode-response.js';
import { encodeMessageStreamEvents, encodeMessageStreamFailure } from '../anthropic-messages/encode-stream.js';
import { chunkFrame, shapeFrames } from './chunk-frames.js';
import { invocationMetricsMember, latencyOf } from './invocation-metrics.js';

export const encodeAnthropicJson = encodeMessageResponse;

/** The JSON of one SSE event (`event: …\ndata: {…}\n\n`). */
function dataOf(event: string): string {
  return event.slice(event.indexOf('\ndata: ') + 7, -2);
}

const isPing = (event: string) => event.startsWith('event: ping\n');

const blockFrames = new WeakMap<object, string[]>();

export function encodeAnthropicStream(reply: ResolvedReply, request: ChatRequest, ctx: EncodeContext, pacing?: Pacing): EventSource {
  const sse = encodeMessageStreamEvents(reply, request, ctx).events;
  // The Messages stream has one ping, right after the first block starts (or alone when there is
  // no block): reading the events is free, they are made once per reply shape.
  let ping = -1;
  for (let i = 1; i < Math.min(3, sse.length); i++) if (isPing(sse.at(i))) ping = i;
  const eventAt = (index: number) => dataOf(sse.at(ping >= 0 && index >= ping ? index + 1 : index));
  const length = ping < 0 ? sse.length : sse.length - 1;
  const last = length - 1;
  // message_start (the response id) and message_delta (the usage) vary; the blocks between do not.
  const blocks = length - 3;
  const fixed = shapeFrames(blockFrames, reply, blocks, (i) => eventAt(i + 1));
  const metrics = invocationMetricsMember(reply.usage, latencyOf(pacing, length));
  return {
    length,
    at(index) {
      if (index === last) return chunkFrame(`{"type":"message_stop"${metrics}}`);
      if (fixed && index >= 1 && index <= blocks) return fixed[index - 1];
      return chunkFrame(eventAt(index));
    },
  };
}

/** A stream that fails after it started: `message_start`, then the exception frame. */
export function anthropicStreamStart(error: NeutralError, request: ChatRequest, ctx: EncodeContext): string {
  return chunkFrame(dataOf(encodeMessageStreamFailure(error, request, ctx).events[0]));
}

// Nova's answers: `{"output":{"message":{"role","content":[…]}},"stopReason","usage":{…}}` as JSON,
// a reasoning block (`reasoningContent.reasoningText`) before the text when the reply has one;
// streamed, one chunk per event: `messageStart`, each block's `contentBlockDelta`s and its
// `contentBlockStop`, `messageStop` with the stop reason, and `metadata` with the usage, which
// closes with the invocation metrics.

import type { Pacing, ResolvedReply, Usage } from '../../core/model.js';
import { wordPieces } from '../../core/stream-pieces.js';
import type { EventSource } from '../dialect.js';
import { chunkFrame } from './chunk-frames.js';
import { invocationMetricsMember, latencyOf, outputTokenCount, uncachedInput } from './invocation-metrics.js';
import { mapNovaStopReason } from './map-nova-stop-reason.js';

function usageJson(usage: Usage): string {
  const input = uncachedInput(usage);
  const output = outputTokenCount(usage);
  const write = usage.cacheWriteTokens ?? 0;
  return (
    `{"inputTokens":${input},"outputTokens":${output},"totalTokens":${input + output + usage.cachedInputTokens + write},` +
    `"cacheReadInputTokenCount":${usage.cachedInputTokens},"cacheWriteInputTokenCount":${write}}`
  );
}

export function encodeNovaJson(reply: ResolvedReply): string {
  const blocks: string[] = [];
  if (reply.reasoning !== null) blocks.push(`{"reasoningContent":{"reasoningText":{"text":${JSON.stringify(reply.reasoning)}}}}`);
  if (reply.content) blocks.push(`{"text":${JSON.stringify(reply.content)}}`);
  return (
    `{"output":{"message":{"role":"assistant","content":[${blocks.join(',')}]}},` +
    `"stopReason":${JSON.stringify(mapNovaStopReason(reply.finishReason))},"usage":${usageJson(reply.usage)}}`
  );
}

/** The events between messageStart and messageStop: each block's deltas, then its stop. */
function blockEvents(reply: ResolvedReply): string[] {
  const events: string[] = [];
  let index = 0;
  if (reply.reasoning !== null) {
    for (const piece of wordPieces(reply.reasoning)) {
      events.push(`{"contentBlockDelta":{"delta":{"reasoningContent":{"text":${JSON.stringify(piece)}}},"contentBlockIndex":${index}}}`);
    }
    events.push(`{"contentBlockStop":{"contentBlockIndex":${index}}}`);
    index++;
  }
  if (reply.content) {
    for (const piece of reply.chunks) {
      if (piece.length > 0) events.push(`{"contentBlockDelta":{"delta":{"text":${JSON.stringify(piece)}},"contentBlockIndex":${index}}}`);
    }
    events.push(`{"contentBlockStop":{"contentBlockIndex":${index}}}`);
  }
  return events;
}

export const NOVA_MESSAGE_START = '{"messageStart":{"role":"assistant"}}';
const MESSAGE_START_FRAME = chunkFrame(NOVA_MESSAGE_START);
const fixedFrames = new WeakMap<object, string[]>();

/** The frames of the blocks and of messageStop, which depend on the reply's shape alone: kept per
 * shape, so that a repeated answer frames only its metadata. A reply without a shape, or a large
 * one, gets the events' JSON instead, framed as they are sent. */
function fixedOf(reply: ResolvedReply, keep: boolean): string[] {
  let frames = keep ? fixedFrames.get(reply.shape as object) : undefined;
  if (frames === undefined) {
    const stop = `{"messageStop":{"stopReason":${JSON.stringify(mapNovaStopReason(reply.finishReason))}}}`;
    const events = [...blockEvents(reply), stop];
    if (!keep) return events;
    frames = events.map(chunkFrame);
    fixedFrames.set(reply.shape as object, frames);
  }
  return frames;
}

export function encodeNovaStream(reply: ResolvedReply, pacing?: Pacing): EventSource {
  const keep = reply.shape !== undefined && !reply.large;
  const fixed = fixedOf(reply, keep);
  const length = fixed.length + 2;
  const metrics = invocationMetricsMember(reply.usage, latencyOf(pacing, length));
  return {
    length,
    at(index) {
      if (index === 0) return MESSAGE_START_FRAME;
      if (index === length - 1) return chunkFrame(`{"metadata":{"usage":${usageJson(reply.usage)}}${metrics}}`);
      return keep ? fixed[index - 1] : chunkFrame(fixed[index - 1]);
    },
  };
}

// Nova's answers: `{"output":{"message":{"role","content":[…]}},"stopReason","usage":{…}}` as JSON,
// a reasoning block (`reasoningContent.reasoningText`) before the text when the reply has one;
// streamed, one chunk per event: `messageStart`, each block's `contentBlockDelta`s and its
// `contentBlockStop`, `messageStop` with the stop reason, and `metadata` with the usage, which
// closes with the invocation metrics.

import type { Pacing, ResolvedReply, Usage } from '../../core/model.js';
import { wordPieces } from '../../core/stream-pieces.js';
import type { EventSource } from '../dialect.js';
import { chunkSource } from './chunk-frames.js';
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

export function encodeNovaStream(reply: ResolvedReply, pacing?: Pacing): EventSource {
  const blocks = blockEvents(reply);
  const length = blocks.length + 3;
  const metrics = invocationMetricsMember(reply.usage, latencyOf(pacing, length));
  return chunkSource(length, (index) => {
    if (index === 0) return NOVA_MESSAGE_START;
    if (index <= blocks.length) return blocks[index - 1];
    if (index === blocks.length + 1) return `{"messageStop":{"stopReason":${JSON.stringify(mapNovaStopReason(reply.finishReason))}}}`;
    return `{"metadata":{"usage":${usageJson(reply.usage)}}${metrics}}`;
  });
}

// InvokeModelWithResponseStream's framing of a model's own stream: each of the model's events (one
// JSON object) base64-encoded into the payload `{"bytes":"…"}` of an event-stream message of type
// `chunk`. Frames are made as the writer takes them, so a long stream keeps no copy of them.

import type { ResolvedReply, Usage } from '../../core/model.js';
import { eventFrame } from '../bedrock/event-stream.js';
import type { Latency } from './invocation-metrics.js';

export const EVENT_STREAM = 'application/vnd.amazon.eventstream';

/** One model event (JSON text) as a chunk frame, latin1 text. */
export function chunkFrame(json: string): string {
  return eventFrame('chunk', `{"bytes":"${Buffer.from(json, 'utf8').toString('base64')}"}`);
}

/** The frames of a reply's events that depend on its shape alone (not on the request's ids or
 * counts), made once per shape and kept as long as the shape: a repeated answer then frames only
 * its few varying events. Undefined for a reply without a shape, or too large to keep a copy of. */
export function shapeFrames(
  kept: WeakMap<object, string[]>,
  reply: ResolvedReply,
  count: number,
  eventAt: (index: number) => string,
): string[] | undefined {
  const shape = reply.shape;
  if (shape === undefined || reply.large) return undefined;
  let frames = kept.get(shape);
  if (frames === undefined || frames.length !== count) {
    frames = Array.from({ length: count }, (_, i) => chunkFrame(eventAt(i)));
    kept.set(shape, frames);
  }
  return frames;
}

/** The frames a reply's counted events (usage, latencies) were last given, and what they were
 * counted from. */
export interface CountedFrames {
  key: string;
  frames: string[];
}

/** The frames of the events that carry an answer's counts: the ones its shape was last answered
 * with when `key` (the counts they are made from) is the same, else made and kept instead. A
 * repeated request counts the same, so its answer frames none of them again. */
export function countedFrames(kept: WeakMap<object, CountedFrames>, reply: ResolvedReply, key: string, make: () => string[]): string[] {
  const shape = reply.shape;
  if (shape === undefined || reply.large) return make();
  const last = kept.get(shape);
  if (last !== undefined && last.key === key) return last.frames;
  const frames = make();
  kept.set(shape, { key, frames });
  return frames;
}

/** What an answer's counted events are made from: its usage and its latencies. */
export function countsKey(usage: Usage, latency: Latency): string {
  return `${usage.inputTokens},${usage.cachedInputTokens},${usage.cacheWriteTokens ?? 0},${usage.outputTokens},${usage.reasoningTokens},${latency.firstByte},${latency.invocation}`;
}

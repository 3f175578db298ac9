// InvokeModelWithResponseStream's framing of a model's own stream: each of the model's events (one
// JSON object) base64-encoded into the payload `{"bytes":"…"}` of an event-stream message of type
// `chunk`. Frames are made as the writer takes them, so a long stream keeps no copy of them.

import type { ResolvedReply } from '../../core/model.js';
import { eventFrame } from '../bedrock/event-stream.js';

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

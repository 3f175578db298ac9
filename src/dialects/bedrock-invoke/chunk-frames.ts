// InvokeModelWithResponseStream's framing of a model's own stream: each of the model's events (one
// JSON object) base64-encoded into the payload `{"bytes":"…"}` of an event-stream message of type
// `chunk`. Frames are made as the writer takes them, so a long stream keeps no copy of them.

import type { EventSource } from '../dialect.js';
import { eventFrame } from '../bedrock/event-stream.js';

export const EVENT_STREAM = 'application/vnd.amazon.eventstream';

/** One model event (JSON text) as a chunk frame, latin1 text. */
export function chunkFrame(json: string): string {
  return eventFrame('chunk', `{"bytes":"${Buffer.from(json, 'utf8').toString('base64')}"}`);
}

/** `length` model events, event `i` made by `eventAt(i)`, as chunk frames. */
export function chunkSource(length: number, eventAt: (index: number) => string): EventSource {
  return { length, at: (index) => chunkFrame(eventAt(index)) };
}

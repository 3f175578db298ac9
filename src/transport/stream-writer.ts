// Writes a large unpaced stream as fast as its client reads it: events are made a batch at a time
// and the next batch waits for 'drain', so a client that does not read holds one batch and the
// socket's buffer in the server, not the whole stream, and a client that leaves takes nothing
// with it but the events already made. Small streams never come here (they go out as one string).

import type { ServerResponse } from 'node:http';
import type { EventSource } from '../dialects/dialect.js';
import { DEFAULT_STALLED_READER_MS, whenDrained } from './stalled-reader.js';

/** Characters of events joined into one write (docs/performance.md, "Large streams"). */
export const STREAM_BATCH = 64 * 1024;

/** Resolves with whether every byte was handed to the kernel before the response closed: false
 * when the client left first (nothing is then consumed). */
export function writeStreamed(
  res: ServerResponse,
  events: EventSource,
  stalledReaderMs = DEFAULT_STALLED_READER_MS,
  encoding: BufferEncoding = 'utf8',
): Promise<boolean> {
  return new Promise((resolve) => {
    let index = 0;
    /** What of the current batch is still to write. */
    let pending = '';
    let settled = false;
    const finish = (delivered: boolean) => {
      if (settled) return;
      settled = true;
      pending = '';
      resolve(delivered);
    };
    res.once('close', () => finish(res.writableFinished));
    function pump(): void {
      for (;;) {
        if (res.destroyed) return finish(false);
        if (pending.length === 0) {
          if (index >= events.length) {
            res.end();
            return;
          }
          pending = events.at(index++);
          while (index < events.length && pending.length < STREAM_BATCH) pending += events.at(index++);
        }
        let piece = pending;
        // An event far bigger than a batch (one unbroken word, a final event that repeats the
        // whole text) goes out in batch-sized slices, each waiting its turn like the rest.
        if (pending.length > 2 * STREAM_BATCH) {
          const cut = encoding === 'utf8' && isHighSurrogate(pending.charCodeAt(STREAM_BATCH - 1)) ? STREAM_BATCH - 1 : STREAM_BATCH;
          piece = pending.slice(0, cut);
          pending = pending.slice(cut);
        } else pending = '';
        if (!res.write(piece, encoding)) {
          whenDrained(res, res, stalledReaderMs, pump);
          return;
        }
      }
    }
    pump();
  });
}

/** A slice must not end between the two halves of a surrogate pair (it would be written as U+FFFD). */
function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

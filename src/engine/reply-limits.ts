// How big one scripted reply may be, checked when a script is loaded (fixture files, the control
// API, the builder), so that nothing a script holds can exceed what a stream or a JSON body can
// carry (V8 strings, memory) at request time. docs/fixtures.md "Limits" says why these numbers.

import { STREAM_PIECES } from '../core/stream-pieces.js';

export interface ReplyLimits {
  /** UTF-8 bytes of one reply's text (or compact JSON), reasoning and tool-call arguments together. */
  replyBytes: number;
  /** Entries of one reply's scripted `chunks` list. */
  streamChunks: number;
}

export const DEFAULT_REPLY_LIMITS: Readonly<ReplyLimits> = Object.freeze({
  replyBytes: 16 * 1024 * 1024,
  streamChunks: STREAM_PIECES,
});

/** The most a user may raise the limits to: past these, one event or one JSON body of a reply
 * could exceed V8's longest string once JSON escapes multiply its text (up to six times). */
export const MAX_REPLY_LIMITS: Readonly<ReplyLimits> = Object.freeze({
  replyBytes: 64 * 1024 * 1024,
  streamChunks: 1_000_000,
});

/** The limits in force: the defaults, with what the user set instead. Throws on a value that is
 * not a positive integer or is above MAX_REPLY_LIMITS. */
export function replyLimits(set: Partial<ReplyLimits> | undefined): ReplyLimits {
  if (set === undefined) return DEFAULT_REPLY_LIMITS;
  const limits = { ...DEFAULT_REPLY_LIMITS };
  for (const key of ['replyBytes', 'streamChunks'] as const) {
    const value = set[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1 || value > MAX_REPLY_LIMITS[key]) {
      const name = key === 'replyBytes' ? 'maxReplyBytes' : 'maxStreamChunks';
      throw new RangeError(`${name} must be an integer from 1 to ${MAX_REPLY_LIMITS[key]}; got ${String(value)}`);
    }
    limits[key] = value;
  }
  return limits;
}

/** A byte count as people read it: "16 MiB (16,777,216 bytes)". */
export function sizeText(bytes: number): string {
  const exact = `${bytes.toLocaleString('en-US')} bytes`;
  const mib = bytes / (1024 * 1024);
  if (mib >= 1) return `${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB (${exact})`;
  return bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KiB (${exact})` : exact;
}

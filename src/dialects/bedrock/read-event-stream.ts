// The AWS event-stream framing read back (the inverse of event-stream.ts, for record mode): each
// message's prelude (total and headers lengths, checked by its CRC-32), its headers and its
// payload (checked, with all before it, by the message CRC-32). The text is latin1, one character
// per byte, as a binary stream is kept.

import { crc32 } from 'node:zlib';
import { isObject } from '../wire-kit/values.js';

const PRELUDE = 12;
const CHECKSUM = 4;

export interface EventMessage {
  /** String-valued headers (`:event-type`, `:message-type`, `:exception-type`…); other header
   * types are skipped. */
  headers: Record<string, string>;
  /** The payload, decoded as UTF-8. */
  payload: string;
}

/** Bytes of a header value of each type after its type byte (-1: a 16-bit length comes first). */
const VALUE_BYTES: Record<number, number> = { 0: 0, 1: 0, 2: 1, 3: 2, 4: 4, 5: 8, 6: -1, 7: -1, 8: 8, 9: 16 };

function readHeaders(bytes: Buffer): Record<string, string> | string {
  const headers: Record<string, string> = {};
  let at = 0;
  while (at < bytes.length) {
    const nameLength = bytes[at] as number;
    const name = bytes.toString('utf8', at + 1, at + 1 + nameLength);
    at += 1 + nameLength;
    const type = bytes[at++];
    const size = type === undefined ? undefined : VALUE_BYTES[type];
    if (size === undefined) return `a header of unknown type ${String(type)}`;
    if (size >= 0) {
      at += size;
      continue;
    }
    if (at + 2 > bytes.length) return 'a header runs past its block';
    const length = bytes.readUInt16BE(at);
    if (type === 7) headers[name] = bytes.toString('utf8', at + 2, at + 2 + length);
    at += 2 + length;
  }
  return at === bytes.length ? headers : 'a header runs past its block';
}

/** Every message of an event stream, in order; a string saying what is wrong (a short or
 * trailing frame, a checksum that does not match). */
export function readEventStream(text: string): EventMessage[] | string {
  const bytes = Buffer.from(text, 'latin1');
  const messages: EventMessage[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (bytes.length - at < PRELUDE + CHECKSUM) return `the stream ends in a partial frame at byte ${at}`;
    const total = bytes.readUInt32BE(at);
    const headersLength = bytes.readUInt32BE(at + 4);
    if (crc32(bytes.subarray(at, at + 8)) !== bytes.readUInt32BE(at + 8))
      return `the prelude checksum of the frame at byte ${at} does not match`;
    if (total < PRELUDE + headersLength + CHECKSUM || at + total > bytes.length) return `the frame at byte ${at} runs past the stream`;
    const end = at + total - CHECKSUM;
    if (crc32(bytes.subarray(at, end)) !== bytes.readUInt32BE(end)) return `the message checksum of the frame at byte ${at} does not match`;
    const headers = readHeaders(bytes.subarray(at + PRELUDE, at + PRELUDE + headersLength));
    if (typeof headers === 'string') return `${headers} (frame at byte ${at})`;
    messages.push({ headers, payload: bytes.toString('utf8', at + PRELUDE + headersLength, end) });
    at += total;
  }
  return messages;
}

export interface EventPayload {
  /** The message's `:event-type` (messageStart, chunk…). */
  type: string;
  value: Record<string, unknown>;
}

/** The event messages of a stream with their JSON payloads; a string when the framing is wrong,
 * a payload is no JSON object, or the stream carries an exception (the service's in-stream error). */
export function readEventPayloads(text: string): EventPayload[] | string {
  const messages = readEventStream(text);
  if (typeof messages === 'string') return messages;
  const events: EventPayload[] = [];
  for (const { headers, payload } of messages) {
    if (headers[':message-type'] === 'exception' || headers[':message-type'] === 'error') {
      return `the stream carried an exception: ${headers[':exception-type'] ?? headers[':error-code'] ?? ''} ${payload.slice(0, 120)}`;
    }
    let value: unknown;
    try {
      value = JSON.parse(payload);
    } catch {
      return `an event's payload is not JSON: ${payload.slice(0, 80)}`;
    }
    if (!isObject(value)) return 'an event is not an object';
    events.push({ type: headers[':event-type'] ?? '', value });
  }
  return events;
}

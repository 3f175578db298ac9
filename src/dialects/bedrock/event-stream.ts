// The AWS event-stream framing Bedrock's streaming operations answer in
// (`application/vnd.amazon.eventstream`): each message is a prelude (total length, headers length,
// the prelude's CRC-32), headers, a payload and the CRC-32 of everything before it, integers
// big-endian. The checksums come from node's zlib.crc32 (IEEE CRC-32, what the AWS decoders check).
// A frame is returned as a latin1 string, one character per byte, which is how the server writes a
// dialect's binary stream events (ChatDialect.binaryStream).

import { crc32 } from 'node:zlib';

const PRELUDE = 12;
const CHECKSUM = 4;
/** Header value type 7: a UTF-8 string with a 16-bit length. */
const STRING_TYPE = 7;

/** One header's bytes: name length, name, value type, value length, value. */
function headerBytes(name: string, value: string): Buffer {
  const nameBytes = Buffer.from(name, 'utf8');
  const valueBytes = Buffer.from(value, 'utf8');
  const out = Buffer.allocUnsafe(1 + nameBytes.length + 1 + 2 + valueBytes.length);
  out[0] = nameBytes.length;
  nameBytes.copy(out, 1);
  let at = 1 + nameBytes.length;
  out[at++] = STRING_TYPE;
  out.writeUInt16BE(valueBytes.length, at);
  valueBytes.copy(out, at + 2);
  return out;
}

/** The headers of one kind of message, encoded once: a stream repeats a handful of kinds. */
const HEADER_BLOCKS = new Map<string, Buffer>();

function headerBlock(messageType: 'event' | 'exception', typeHeader: ':event-type' | ':exception-type', type: string): Buffer {
  const key = `${messageType}\n${type}`;
  let block = HEADER_BLOCKS.get(key);
  if (!block) {
    block = Buffer.concat([
      headerBytes(typeHeader, type),
      headerBytes(':content-type', 'application/json'),
      headerBytes(':message-type', messageType),
    ]);
    HEADER_BLOCKS.set(key, block);
  }
  return block;
}

/** One whole message, its payload JSON text, as latin1 text. */
function frame(headers: Buffer, payload: string): string {
  const payloadLength = Buffer.byteLength(payload, 'utf8');
  const total = PRELUDE + headers.length + payloadLength + CHECKSUM;
  const out = Buffer.allocUnsafe(total);
  out.writeUInt32BE(total, 0);
  out.writeUInt32BE(headers.length, 4);
  out.writeUInt32BE(crc32(out.subarray(0, 8)), 8);
  headers.copy(out, PRELUDE);
  out.write(payload, PRELUDE + headers.length, 'utf8');
  out.writeUInt32BE(crc32(out.subarray(0, total - CHECKSUM)), total - CHECKSUM);
  return out.toString('latin1');
}

/** An event message (`:message-type: event`) of type `eventType` carrying `payload` (JSON text). */
export function eventFrame(eventType: string, payload: string): string {
  return frame(headerBlock('event', ':event-type', eventType), payload);
}

/** An exception message (`:message-type: exception`): the AWS client throws the exception named
 * by `exceptionType` (the operation's camelCase member, e.g. `throttlingException`) with the
 * payload's `message`. */
export function exceptionFrame(exceptionType: string, message: string): string {
  return frame(headerBlock('exception', ':exception-type', exceptionType), JSON.stringify({ message }));
}

/** A frame whose message checksum does not match its bytes: what the `malformed` fault writes to a
 * binary stream, which the AWS decoders refuse. */
export function corruptFrame(): string {
  const whole = eventFrame('contentBlockDelta', '{"contentBlockIndex":0,"delta":{"text":"trunc"}}');
  const last = whole.charCodeAt(whole.length - 1);
  return whole.slice(0, -1) + String.fromCharCode(last ^ 0xff);
}

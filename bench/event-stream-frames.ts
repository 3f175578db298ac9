// Reads an AWS event-stream body (Bedrock's ConverseStream) into its frames, checking both
// checksums, so the bench can tell a correct stream from bytes that merely look busy.

import { crc32 } from 'node:zlib';

export interface EventFrame {
  headers: Record<string, string>;
  payload: string;
}

export function eventFrames(body: Buffer): EventFrame[] {
  const frames: EventFrame[] = [];
  for (let at = 0; at < body.length;) {
    if (body.length - at < 16) throw new Error(`a frame cut short at byte ${at}`);
    const total = body.readUInt32BE(at);
    const headersLength = body.readUInt32BE(at + 4);
    if (crc32(body.subarray(at, at + 8)) !== body.readUInt32BE(at + 8)) throw new Error(`prelude checksum wrong at byte ${at}`);
    if (crc32(body.subarray(at, at + total - 4)) !== body.readUInt32BE(at + total - 4))
      throw new Error(`message checksum wrong at byte ${at}`);
    const headers: Record<string, string> = {};
    for (let h = at + 12; h < at + 12 + headersLength;) {
      const nameLength = body[h];
      const name = body.toString('utf8', h + 1, h + 1 + nameLength);
      const type = body[h + 1 + nameLength];
      if (type !== 7) throw new Error(`header ${name} has value type ${type}, not a string`);
      const valueLength = body.readUInt16BE(h + 2 + nameLength);
      headers[name] = body.toString('utf8', h + 4 + nameLength, h + 4 + nameLength + valueLength);
      h += 4 + nameLength + valueLength;
    }
    frames.push({ headers, payload: body.toString('utf8', at + 12 + headersLength, at + total - 4) });
    at += total;
  }
  return frames;
}

// Silence as FLAC: the `fLaC` marker, one STREAMINFO block, then frames of one CONSTANT subframe
// (the value zero) each, with the header's CRC-8 and the frame's CRC-16. The MD5 of the samples is
// left zero, which the format defines as "not computed".

import { BitWriter } from './bit-writer.js';

const BLOCK = 4096;
const BITS = 16;
// The frame header's sample-rate codes; any other rate is read from STREAMINFO (code 0).
const RATE_CODES: Record<number, number> = { 8000: 4, 16000: 5, 22050: 6, 24000: 7, 32000: 8, 44100: 9, 48000: 10, 96000: 11 };

function crc8(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let i = 0; i < 8; i++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x8005) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** A frame number as FLAC codes it: UTF-8's scheme, extended to 31 bits. */
function codedNumber(n: number): number[] {
  if (n < 0x80) return [n];
  let count = 2;
  while (n >= 2 ** (7 - count + 6 * (count - 1))) count++;
  const tail: number[] = [];
  let rest = n;
  for (let i = 1; i < count; i++) {
    tail.unshift(0x80 | (rest & 0x3f));
    rest = Math.floor(rest / 64);
  }
  return [((0xff << (8 - count)) & 0xff) | rest, ...tail];
}

function streamInfo(samples: number, rate: number): Uint8Array {
  return new BitWriter()
    .write(1, 1) // last metadata block
    .write(0, 7) // STREAMINFO
    .write(34, 24)
    .write(Math.min(BLOCK, samples), 16)
    .write(Math.min(BLOCK, samples), 16)
    .write(0, 24) // min frame size unknown
    .write(0, 24) // max frame size unknown
    .write(rate, 20)
    .write(0, 3) // one channel
    .write(BITS - 1, 5)
    .write(samples, 36)
    .write(0, 64)
    .write(0, 64) // MD5 not computed
    .done();
}

function frame(index: number, size: number, rate: number): Uint8Array {
  const rateCode = RATE_CODES[rate] ?? 0;
  const header = [0xff, 0xf8, (0x7 << 4) | rateCode, 0x08, ...codedNumber(index), (size - 1) >> 8, (size - 1) & 0xff];
  header.push(crc8(Uint8Array.from(header)));
  // The subframe: zero pad bit, type CONSTANT, no wasted bits; then the 16-bit value 0.
  const body = Uint8Array.from([...header, 0x00, 0x00, 0x00]);
  const crc = crc16(body);
  const out = new Uint8Array(body.length + 2);
  out.set(body);
  out[body.length] = crc >> 8;
  out[body.length + 1] = crc & 0xff;
  return out;
}

/** A FLAC stream of `samples` silent 16-bit mono samples at `rate` Hz. */
export function flacSilence(samples: number, rate: number): Uint8Array {
  const parts: Uint8Array[] = [new TextEncoder().encode('fLaC'), streamInfo(samples, rate)];
  for (let start = 0, index = 0; start < samples; start += BLOCK, index++) {
    parts.push(frame(index, Math.min(BLOCK, samples - start), rate));
  }
  return concat(parts);
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

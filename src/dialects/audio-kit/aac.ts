// Silence as AAC-LC in ADTS frames (`aac`): each frame one single-channel element with no scale
// factor bands (max_sfb 0, so no spectral data: the frame decodes to zeros) and the end element.

import { BitWriter } from './bit-writer.js';

/** Samples per AAC frame. */
export const AAC_FRAME_SAMPLES = 1024;
const RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

// SCE (id 0, tag 0), global_gain 100, ics_info all zero (long window, max_sfb 0, no predictor),
// no pulse / TNS / gain-control data, then END (id 7): 32 bits.
const SILENT_ELEMENT = new BitWriter().write(0, 3).write(0, 4).write(100, 8).write(0, 11).write(0, 3).write(7, 3).done();

function adtsHeader(frameLength: number, rateIndex: number): Uint8Array {
  return new BitWriter()
    .write(0xfff, 12) // sync
    .write(0, 1) // MPEG-4
    .write(0, 2) // layer
    .write(1, 1) // no CRC
    .write(1, 2) // profile: AAC LC (object type 2, minus one)
    .write(rateIndex, 4)
    .write(0, 1) // private
    .write(1, 3) // one channel
    .write(0, 4) // original, home, copyright bits
    .write(frameLength, 13)
    .write(0x7ff, 11) // variable bitrate buffer fullness
    .write(0, 2) // one raw data block
    .done();
}

/** Silent ADTS frames covering at least `samples` samples at `rate` Hz (a rate ADTS can name). */
export function aacSilence(samples: number, rate: number): Uint8Array {
  const rateIndex = RATES.indexOf(rate);
  if (rateIndex < 0) throw new Error(`ADTS has no sampling frequency index for ${rate} Hz`);
  const frame = new Uint8Array(7 + SILENT_ELEMENT.length);
  frame.set(adtsHeader(frame.length, rateIndex));
  frame.set(SILENT_ELEMENT, 7);
  const frames = Math.max(1, Math.ceil(samples / AAC_FRAME_SAMPLES));
  const out = new Uint8Array(frames * frame.length);
  for (let i = 0; i < frames; i++) out.set(frame, i * frame.length);
  return out;
}

// Silence as MPEG-2 Layer III (the "LSF" variant, for 24 kHz): repeated constant-bitrate frames
// whose side information is all zeros — no main data, so every granule decodes to zero samples.
// A frame is 576 samples; at 32 kbps and 24 kHz it is exactly 96 bytes, so no padding slots.

/** Samples per MPEG-2 Layer III frame. */
export const MP3_FRAME_SAMPLES = 576;
const FRAME_BYTES = 96;
// Sync, MPEG-2, Layer III, no CRC; 32 kbps, 24 kHz, no padding; mono, original.
const HEADER = [0xff, 0xf3, 0x44, 0xc4];

/** Silent frames covering at least `samples` samples at 24 kHz. */
export function mp3Silence(samples: number): Uint8Array {
  const frames = Math.max(1, Math.ceil(samples / MP3_FRAME_SAMPLES));
  const out = new Uint8Array(frames * FRAME_BYTES);
  for (let i = 0; i < frames; i++) out.set(HEADER, i * FRAME_BYTES);
  return out;
}

export const MP3_RATE = 24_000;

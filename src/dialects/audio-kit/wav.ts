// Silence as 16-bit signed little-endian mono samples: raw (`pcm`, what OpenAI sends without a
// header) and in a RIFF/WAVE container (`wav`).

/** `samples` zero samples, 16-bit little-endian. */
export function pcmSilence(samples: number): Uint8Array {
  return new Uint8Array(samples * 2);
}

/** A WAVE file of `samples` silent 16-bit mono samples at `rate` Hz. */
export function wavSilence(samples: number, rate: number): Uint8Array {
  const dataBytes = samples * 2;
  const out = Buffer.alloc(44 + dataBytes);
  out.write('RIFF', 0, 'latin1');
  out.writeUInt32LE(36 + dataBytes, 4);
  out.write('WAVE', 8, 'latin1');
  out.write('fmt ', 12, 'latin1');
  out.writeUInt32LE(16, 16); // fmt chunk size
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(1, 22); // mono
  out.writeUInt32LE(rate, 24);
  out.writeUInt32LE(rate * 2, 28); // bytes per second
  out.writeUInt16LE(2, 32); // block align
  out.writeUInt16LE(16, 34); // bits per sample
  out.write('data', 36, 'latin1');
  out.writeUInt32LE(dataBytes, 40);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

// A float32 vector in the quantized forms providers offer beside floats (Cohere's embedding types,
// on its own API and on Bedrock): how each is made from the float vector is Understudy's choice,
// stated in docs/embeddings.md — scaled and rounded for int8 and uint8, one sign bit per
// dimension for binary and ubinary.

import { float32Base64, floatList } from '../../core/embedding-vectors.js';

export const EMBEDDING_TYPES = ['float', 'int8', 'uint8', 'binary', 'ubinary', 'base64'] as const;
export type EmbeddingType = (typeof EMBEDDING_TYPES)[number];

/** Signs packed eight to a byte, the first value in the high bit (a last partial byte padded with 0). */
function packedSigns(vector: Float32Array): number[] {
  const bytes = new Array<number>(Math.ceil(vector.length / 8)).fill(0);
  for (let i = 0; i < vector.length; i++) if (vector[i] > 0) bytes[i >> 3] |= 0x80 >> (i & 7);
  return bytes;
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

export const QUANTIZED: Record<EmbeddingType, (vector: Float32Array) => unknown> = {
  float: floatList,
  int8: (v) => Array.from(v, (x) => clamp(Math.round(x * 127), -128, 127)),
  uint8: (v) => Array.from(v, (x) => clamp(Math.round(((x + 1) / 2) * 255), 0, 255)),
  binary: (v) => packedSigns(v).map((b) => b - 128),
  ubinary: packedSigns,
  base64: float32Base64,
};

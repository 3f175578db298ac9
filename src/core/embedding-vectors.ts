// Embedding vectors derived from text: a feature-hashing embedding. Each word (function words left
// out, inflections stripped) and each character trigram of it (and, lightly, the exact text) is
// hashed with the model's name into a signed bucket of the vector; the sums are normalised to unit
// length. Texts that share words and
// spellings share buckets, so cosine similarity ranks a near-duplicate above an unrelated text,
// while the same text and model always give the same vector (no randomness, no clock). Values are
// float32 (as every provider sends them), so float and base64 answers are the same float32s.

import { fnv1a } from './fnv.js';

/** Dimensions of a model's vectors when the request names none, by model family. */
const FAMILY_DIMENSIONS: readonly (readonly [RegExp, number])[] = [
  [/text-embedding-3-large/, 3072],
  [/gemini-embedding/, 3072],
  [/text-embedding-004|text-embedding-005|embedding-001|nomic-embed/, 768],
  [/all-minilm|embed-english-light-v3|embed-multilingual-light-v3/, 384],
  [/mxbai-embed|embed-english-v3|embed-multilingual-v3|titan-embed-text-v2/, 1024],
];

export const DEFAULT_DIMENSIONS = 1536;
/** The largest vector Understudy makes, requested or scripted: bounds an answer's memory. */
export const MAX_DIMENSIONS = 8192;

export function defaultDimensions(model: string): number {
  for (const [family, dimensions] of FAMILY_DIMENSIONS) if (family.test(model)) return dimensions;
  return DEFAULT_DIMENSIONS;
}

const WORD = /[\p{L}\p{N}]+/gu;
const WORD_WEIGHT = 1;
const TRIGRAM_WEIGHT = 0.5;
// Small: the exact text only separates texts whose words agree (case, punctuation, spacing). Not
// a multiple of the other weights, so no sum is ever all zeros.
const EXACT_WEIGHT = 0.2;

/** The vector of `text` for `model`, `dimensions` long (an integer from 1 to MAX_DIMENSIONS). */
export function derivedVector(text: string, model: string, dimensions: number = defaultDimensions(model)): Float32Array {
  const sums = new Float64Array(dimensions);
  const basis = fnv1a(model);
  const add = (feature: string, weight: number) => {
    const hash = fnv1a(feature, basis);
    // The low bits choose the bucket; the top bit, independent of them, the sign.
    sums[hash % dimensions] += hash & 0x80000000 ? -weight : weight;
  };
  add('\u0000' + text, EXACT_WEIGHT);
  for (const match of text.toLowerCase().matchAll(WORD)) {
    if (FUNCTION_WORDS.has(match[0])) continue;
    const word = stemOf(match[0]);
    add('w:' + word, WORD_WEIGHT);
    const padded = `^${word}$`;
    for (let i = 0; i + 3 <= padded.length; i++) add('t:' + padded.slice(i, i + 3), TRIGRAM_WEIGHT);
  }
  return unitFloat32(sums);
}

// English words that say little of what a text is about: left out of the features, so that two
// texts are near for the words they share that matter ("refund", "password"), not for "the".
const FUNCTION_WORDS = new Set(
  (
    'a an the and or but if then so of to in on at by for from with about into over under as is are was were be been being ' +
    'am do does did done have has had i me my mine we us our you your he him his she her it its they them their this that ' +
    'these those there here what which who whom whose when where why how can could will would shall should may might must ' +
    'not no yes all any some each every very just also than too only own same such up down out off again once'
  ).split(' '),
);

/** A word without its common English inflection (plural, -ed, -ing), so that "refunds" and
 * "refund", "shipping" and "ship" share their features. Deliberately crude: a few rules, no
 * dictionary. */
function stemOf(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return word.slice(0, -3) + 'y';
  let stem = word;
  if (stem.length > 5 && stem.endsWith('ing')) stem = stem.slice(0, -3);
  else if (stem.length > 4 && stem.endsWith('ed')) stem = stem.slice(0, -2);
  else if (stem.length > 4 && /(?:ss|x|ch|sh)es$/.test(stem)) stem = stem.slice(0, -2);
  else if (stem.length > 3 && stem.endsWith('s') && !stem.endsWith('ss')) return stem.slice(0, -1);
  else return stem;
  // "shipp" (from shipping) → "ship"; "stopp" → "stop".
  return /([b-df-hj-np-tv-z])\1$/.test(stem) && !/(?:ll|ss|zz)$/.test(stem) ? stem.slice(0, -1) : stem;
}

/** `sums` scaled to unit length, as float32. The sum is never all zeros: the exact text's weight
 * is no multiple of the others', so its bucket cannot cancel out. */
function unitFloat32(sums: Float64Array): Float32Array {
  let square = 0;
  for (const x of sums) square += x * x;
  const out = new Float32Array(sums.length);
  const scale = 1 / Math.sqrt(square);
  for (let i = 0; i < sums.length; i++) out[i] = sums[i] * scale;
  return out;
}

export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  return aa === 0 || bb === 0 ? 0 : dot / Math.sqrt(aa * bb);
}

/** A vector as the providers' base64 encoding: its float32 values, little-endian, in base64. */
export function float32Base64(vector: Float32Array): string {
  const bytes = Buffer.alloc(vector.length * 4);
  for (let i = 0; i < vector.length; i++) bytes.writeFloatLE(vector[i], i * 4);
  return bytes.toString('base64');
}

/** A vector as a JSON number list, each value the shortest decimal that reads back as the same
 * float32 (as providers print float32 values): a scripted 0.1 is sent as 0.1. */
export function floatList(vector: Float32Array): number[] {
  const out = new Array<number>(vector.length);
  for (let i = 0; i < vector.length; i++) out[i] = shortestFloat32(vector[i]);
  return out;
}

// Nine significant digits always read back as the same float32; fewer do down to some count and
// no further (a finer decimal grid holds the coarser one), so the search stops at the first that
// fails. Derived values that are not zero need eight or nine, so it usually takes one or two tries.
function shortestFloat32(x: number): number {
  // Most buckets of a short text's vector are empty.
  if (x === 0) return 0;
  let shortest = Number(x.toPrecision(9));
  for (let digits = 8; digits >= 1; digits--) {
    const candidate = Number(x.toPrecision(digits));
    if (Math.fround(candidate) !== x) break;
    shortest = candidate;
  }
  return shortest;
}

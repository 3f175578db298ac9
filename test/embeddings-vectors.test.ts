// The derived embedding vectors (src/core/embedding-vectors.ts), for generated texts: unit length,
// the same vector for the same text and model (and a different one for another model), the length
// asked for, and a near-duplicate nearer than an unrelated text.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import { cosineSimilarity, defaultDimensions, derivedVector, float32Base64, floatList } from '../src/core/embedding-vectors.js';

const word = fc.stringMatching(/^[a-z]{3,9}$/);
const sentence = fc.array(word, { minLength: 4, maxLength: 12 });

function length(vector: Float32Array): number {
  return Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
}

test('every vector has unit length, whatever the text and dimensions', () => {
  fc.assert(
    fc.property(fc.string(), fc.integer({ min: 1, max: 4096 }), (text, dimensions) => {
      const vector = derivedVector(text, 'text-embedding-3-small', dimensions);
      assert.equal(vector.length, dimensions);
      assert.ok(Math.abs(length(vector) - 1) < 1e-5, `length ${length(vector)} for ${JSON.stringify(text)}`);
    }),
  );
});

test('the same text and model give the same vector; another model or text another one', () => {
  fc.assert(
    fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (text, other) => {
      assert.deepEqual(derivedVector(text, 'm'), derivedVector(text, 'm'));
      assert.notDeepEqual(derivedVector(text, 'model-a'), derivedVector(text, 'model-b'));
      if (other !== text) assert.notDeepEqual(derivedVector(text, 'm'), derivedVector(other, 'm'));
    }),
  );
});

test('a vector is the same in every process and run: its bytes are pinned', () => {
  // A change to the features, hashing or weights changes vectors users may have recorded: it must
  // be deliberate (and said in docs/embeddings.md).
  assert.equal(float32Base64(derivedVector('The quick brown fox', 'text-embedding-3-small', 4)), 'AAAAAN7R4b3AtFM/KyMNvw==');
});

test('the default dimensions follow the model family', () => {
  assert.equal(derivedVector('a', 'text-embedding-3-small').length, 1536);
  assert.equal(derivedVector('a', 'text-embedding-3-large').length, 3072);
  assert.equal(defaultDimensions('nomic-embed-text'), 768);
  assert.equal(defaultDimensions('some-unknown-model'), 1536);
});

test('a near-duplicate (one word changed) is nearer than an unrelated text', () => {
  fc.assert(
    fc.property(sentence, sentence, word, fc.nat(), (words, unrelated, swap, at) => {
      fc.pre(unrelated.every((w) => !words.includes(w)));
      const near = [...words];
      near[at % near.length] = swap;
      const base = derivedVector(words.join(' '), 'text-embedding-3-small');
      const similar = cosineSimilarity(base, derivedVector(near.join(' '), 'text-embedding-3-small'));
      const apart = cosineSimilarity(base, derivedVector(unrelated.join(' '), 'text-embedding-3-small'));
      assert.ok(similar > apart, `near ${similar} <= unrelated ${apart}: ${words.join(' ')} / ${near.join(' ')} / ${unrelated.join(' ')}`);
    }),
    { numRuns: 200 },
  );
});

test('a float list holds the same float32s, each as its shortest decimal', () => {
  fc.assert(
    fc.property(fc.array(fc.float({ noNaN: true, noDefaultInfinity: true }), { minLength: 1, maxLength: 64 }), (values) => {
      // JSON has no negative zero: it is sent as 0.
      const vector = Float32Array.from(values, (v) => (v === 0 ? 0 : v));
      const listed = floatList(vector);
      assert.deepEqual(Float32Array.from(listed), vector);
      listed.forEach((x, i) => {
        // Its significant digits, and no decimal one digit shorter reads back as the same float32.
        const digits = x.toExponential().replace(/^-?|e.*$|\./g, '').length;
        assert.ok(digits <= 9, `${x} has ${digits} digits`);
        if (digits > 1) assert.notEqual(Math.fround(Number(x.toPrecision(digits - 1))), vector[i], `${x} could be shorter`);
      });
    }),
  );
  assert.deepEqual(floatList(Float32Array.from([0.1, -0.25, 1e-7, 0.6])), [0.1, -0.25, 1e-7, 0.6]);
});

test('a question ranks the document about its subject first, not one that shares only its function words or inflections', () => {
  const model = 'text-embedding-3-small';
  const docs = [
    'The cat sat on the mat.',
    'Refunds are processed within 5 business days.',
    'To reset your password, open Settings and choose Security.',
    'I do my laundry on Sundays.',
    'Our shipping partners deliver in two days.',
  ];
  for (const [question, expected] of [
    ['What is the refund policy for returns?', 1],
    ['How do I reset my password?', 2],
    ['When will my order ship?', 4],
  ] as const) {
    const q = derivedVector(question, model);
    const scores = docs.map((d) => cosineSimilarity(q, derivedVector(d, model)));
    const best = scores.indexOf(Math.max(...scores));
    assert.equal(best, expected, `${question}: ${scores.map((s) => s.toFixed(3)).join(', ')}`);
  }
});

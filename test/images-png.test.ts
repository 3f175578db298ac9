// The hand-made PNG encoder (src/dialects/images-kit/png.ts) judged by an independent decoder,
// pngjs: for any size and colours, the bytes decode to that size, the background and the centred
// square in their colours, a transparent background fully transparent — and the same picture is
// the same bytes.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import { defaultPicture } from '../src/dialects/images-kit/default-picture.js';
import { encodePng, isPng, type Rgb } from '../src/dialects/images-kit/png.js';
import { decodePng } from './support/png-facts.js';

const channel = fc.integer({ min: 0, max: 255 });
const rgb = fc.tuple(channel, channel, channel) as fc.Arbitrary<Rgb>;

test('any picture decodes to its size and colours (property)', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 300 }),
      fc.integer({ min: 1, max: 300 }),
      rgb,
      rgb,
      fc.boolean(),
      (width, height, background, square, transparent) => {
        const bytes = encodePng({ width, height, background, square, transparent });
        assert.ok(isPng(bytes));
        const png = decodePng(bytes);
        assert.deepEqual([png.width, png.height], [width, height]);
        const side = Math.max(1, Math.floor(Math.min(width, height) / 2));
        const left = Math.floor((width - side) / 2);
        const top = Math.floor((height - side) / 2);
        assert.deepEqual(png.pixel(left, top), [...square, 255], 'the square');
        assert.deepEqual(png.pixel(left + side - 1, top + side - 1), [...square, 255], "the square's far corner");
        if (width > side) assert.deepEqual(png.pixel(width - 1, height - 1), [...background, transparent ? 0 : 255], 'the background');
        assert.deepEqual(encodePng({ width, height, background, square, transparent }), bytes, 'the same bytes again');
      },
    ),
    { numRuns: 150, seed: 4 },
  );
});

test('the default picture: the same seed the same bytes, other seeds and other images of an answer other colours', () => {
  const ask = { seed: 'gpt-image-1\ngenerate\na fox', index: 0, width: 64, height: 48, transparent: false };
  assert.deepEqual(defaultPicture(ask), defaultPicture({ ...ask }));
  const one = decodePng(defaultPicture(ask));
  const other = decodePng(defaultPicture({ ...ask, seed: 'gpt-image-1\ngenerate\na whale' }));
  const second = decodePng(defaultPicture({ ...ask, index: 1 }));
  assert.notDeepEqual(one.pixel(0, 0), other.pixel(0, 0));
  assert.notDeepEqual(one.pixel(0, 0), second.pixel(0, 0));
  const partial = decodePng(defaultPicture({ ...ask, partial: true }));
  assert.deepEqual(partial.pixel(32, 24), partial.pixel(0, 0), 'a partial image has no square yet');
  assert.deepEqual(partial.pixel(0, 0), one.pixel(0, 0));
});

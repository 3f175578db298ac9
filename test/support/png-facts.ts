// What a test reads of a PNG the image routes answered: decoded by pngjs (an independent decoder),
// its size and the colour of a pixel.
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';

export interface DecodedPng {
  width: number;
  height: number;
  /** RGBA of the pixel at (x, y). */
  pixel(x: number, y: number): [number, number, number, number];
}

export function decodePng(bytes: Uint8Array | string): DecodedPng {
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes, 'base64') : Buffer.from(bytes);
  const png = PNG.sync.read(buffer);
  return {
    width: png.width,
    height: png.height,
    pixel(x, y) {
      const at = (y * png.width + x) * 4;
      return [png.data[at], png.data[at + 1], png.data[at + 2], png.data[at + 3]];
    },
  };
}

export function assertPngSize(bytes: Uint8Array | string | undefined, width: number, height: number): DecodedPng {
  assert.ok(bytes !== undefined && bytes.length > 0, 'expected image bytes');
  const png = decodePng(bytes);
  assert.deepEqual([png.width, png.height], [width, height]);
  return png;
}

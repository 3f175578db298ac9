// A PNG of a simple picture — a background colour with a centred square of a second colour — made
// with node:zlib alone: deflate for the image data, zlib.crc32 for each chunk's checksum
// (docs/decisions/0014-hand-made-png.md). The picture is stored as a two-colour palette image
// (one bit per pixel), so its image data depends on the size alone: it is deflated once per size
// and kept, and a picture of other colours only writes a new palette.

import { crc32, deflateSync } from 'node:zlib';

/** An sRGB colour, each channel 0 to 255. */
export type Rgb = readonly [number, number, number];

export interface PngPicture {
  width: number;
  height: number;
  background: Rgb;
  square: Rgb;
  /** The background is fully transparent (the square stays opaque). */
  transparent: boolean;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Deflated image data kept, by size. */
const KEPT_SIZES = 32;
const deflatedBySize = new Map<string, Buffer>();

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** The IDAT chunk of a size: rows of palette indices, 0 for the background and 1 inside the
 * square (half the shorter edge, centred). */
function imageData(width: number, height: number): Buffer {
  const key = `${width}x${height}`;
  const kept = deflatedBySize.get(key);
  if (kept) {
    deflatedBySize.delete(key);
    deflatedBySize.set(key, kept);
    return kept;
  }
  const side = Math.max(1, Math.floor(Math.min(width, height) / 2));
  const left = Math.floor((width - side) / 2);
  const top = Math.floor((height - side) / 2);
  const stride = 1 + Math.ceil(width / 8); // a filter byte (0: none), then one bit per pixel
  const plain = Buffer.alloc(stride);
  const squared = Buffer.alloc(stride);
  for (let x = left; x < left + side; x++) squared[1 + (x >> 3)] |= 0x80 >> (x & 7);
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) (y >= top && y < top + side ? squared : plain).copy(raw, y * stride);
  const data = chunk('IDAT', deflateSync(raw));
  deflatedBySize.set(key, data);
  if (deflatedBySize.size > KEPT_SIZES) deflatedBySize.delete(deflatedBySize.keys().next().value as string);
  return data;
}

/** The PNG's bytes. Width and height must be positive integers. */
export function encodePng(picture: PngPicture): Buffer {
  const { width, height, background, square, transparent } = picture;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bits per palette index
  header[9] = 3; // colour type: palette
  // compression, filter and interlace methods: 0
  const parts = [SIGNATURE, chunk('IHDR', header), chunk('PLTE', Buffer.from([...background, ...square]))];
  if (transparent) parts.push(chunk('tRNS', Buffer.from([0, 255])));
  parts.push(imageData(width, height), chunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(parts);
}

/** Whether bytes start as a PNG does. */
export function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && SIGNATURE.every((b, i) => bytes[i] === b);
}

// The bytes a video job answers when its script gave none: an MP4 container whose header says the
// job's duration and size, a one-colour WebP thumbnail and a one-colour JPEG spritesheet of the
// job's size. Each is a valid file of its type that a parser reads (the MP4's tracks hold no
// samples: there is nothing to play). Hand-written with node: built-ins, as decision 0016 explains.

/** An ISO-BMFF box: 32-bit size, four-character type, payload. */
function box(type: string, ...payload: Uint8Array[]): Buffer {
  const size = 8 + payload.reduce((n, p) => n + p.length, 0);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(size, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, ...payload]);
}

/** A full box: version and flags before the payload. */
function fullBox(type: string, version: number, flags: number, ...payload: Uint8Array[]): Buffer {
  const vf = Buffer.alloc(4);
  vf.writeUInt32BE(((version & 0xff) << 24) | (flags & 0xffffff), 0);
  return box(type, vf, ...payload);
}

function u32(...values: number[]): Buffer {
  const out = Buffer.alloc(4 * values.length);
  values.forEach((v, i) => out.writeUInt32BE(v >>> 0, 4 * i));
  return out;
}

function u16(...values: number[]): Buffer {
  const out = Buffer.alloc(2 * values.length);
  values.forEach((v, i) => out.writeUInt16BE(v & 0xffff, 2 * i));
  return out;
}

/** The unity transformation matrix of mvhd and tkhd. */
const MATRIX = u32(0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000);
const TIMESCALE = 1000;

/** A sample table with no samples (and `entries`, the sample descriptions). */
function emptySampleTable(...entries: Buffer[]): Buffer {
  return box(
    'stbl',
    fullBox('stsd', 0, 0, u32(entries.length), ...entries),
    fullBox('stts', 0, 0, u32(0)),
    fullBox('stsc', 0, 0, u32(0)),
    fullBox('stsz', 0, 0, u32(0, 0)),
    fullBox('stco', 0, 0, u32(0)),
  );
}

function track(id: number, duration: number, timescale: number, handler: string, name: string, media: Buffer, stbl: Buffer, size: Buffer) {
  const tkhd = fullBox(
    'tkhd',
    0,
    3,
    u32(0, 0, id, 0, Math.round((duration * TIMESCALE) / timescale), 0, 0),
    u16(0, 0, handler === 'soun' ? 0x0100 : 0, 0),
    MATRIX,
    size,
  );
  // Language "und", packed as three 5-bit letters.
  const mdhd = fullBox('mdhd', 0, 0, u32(0, 0, timescale, duration), u16(0x55c4, 0));
  const hdlr = fullBox('hdlr', 0, 0, u32(0), Buffer.from(handler, 'latin1'), u32(0, 0, 0), Buffer.from(`${name}\0`, 'latin1'));
  const dinf = box('dinf', fullBox('dref', 0, 0, u32(1), fullBox('url ', 0, 1)));
  return box('trak', tkhd, box('mdia', mdhd, hdlr, box('minf', media, dinf, stbl)));
}

const AUDIO_RATE = 48000;

/** An MP4: ftyp; moov with a video track of `width`×`height` and a stereo AAC audio track, both
 * lasting `seconds` and holding no samples; an empty mdat. */
export function defaultMp4(seconds: number, width: number, height: number): Buffer {
  const ftyp = box('ftyp', Buffer.from('isom', 'latin1'), u32(0x200), Buffer.from('isomiso2mp41', 'latin1'));
  const mvhd = fullBox(
    'mvhd',
    0,
    0,
    u32(0, 0, TIMESCALE, Math.round(seconds * TIMESCALE), 0x00010000),
    u16(0x0100, 0),
    u32(0, 0),
    MATRIX,
    u32(0, 0, 0, 0, 0, 0),
    u32(3),
  );
  const video = track(
    1,
    Math.round(seconds * TIMESCALE),
    TIMESCALE,
    'vide',
    'VideoHandler',
    fullBox('vmhd', 0, 1, u16(0, 0, 0, 0)),
    emptySampleTable(),
    u32(width * 0x10000, height * 0x10000),
  );
  // An AudioSampleEntry: reserved, data reference 1, two channels of 16 bits at 48 kHz.
  const mp4a = box('mp4a', Buffer.alloc(6), u16(1), u32(0, 0), u16(2, 16, 0, 0), u32(AUDIO_RATE * 0x10000));
  const audio = track(
    2,
    Math.round(seconds * AUDIO_RATE),
    AUDIO_RATE,
    'soun',
    'SoundHandler',
    fullBox('smhd', 0, 0, u16(0, 0)),
    emptySampleTable(mp4a),
    u32(0, 0),
  );
  return Buffer.concat([ftyp, box('moov', mvhd, video, audio), box('mdat')]);
}

/** Bits written least significant first, as WebP's lossless stream reads them. */
class LsbBits {
  private readonly bytes: number[] = [];
  private bit = 0;
  write(value: number, count: number): void {
    for (let i = 0; i < count; i++) {
      if (this.bit === 0) this.bytes.push(0);
      if ((value >> i) & 1) this.bytes[this.bytes.length - 1] |= 1 << this.bit;
      this.bit = (this.bit + 1) % 8;
    }
  }
  done(): Buffer {
    return Buffer.from(this.bytes);
  }
}

/** A lossless WebP of one colour: every prefix code has a single symbol, so no pixel costs a bit. */
export function defaultWebp(width: number, height: number, rgb: readonly [number, number, number] = [128, 128, 128]): Buffer {
  const bits = new LsbBits();
  bits.write(0x2f, 8);
  bits.write(width - 1, 14);
  bits.write(height - 1, 14);
  bits.write(0, 1); // no alpha used
  bits.write(0, 3); // version 0
  bits.write(0, 1); // no transform
  bits.write(0, 1); // no colour cache
  bits.write(0, 1); // no meta prefix codes
  // Green, red, blue, alpha, distance: each a simple code of one 8-bit symbol.
  for (const symbol of [rgb[1], rgb[0], rgb[2], 255, 0]) {
    bits.write(1, 1); // simple code
    bits.write(0, 1); // one symbol
    bits.write(1, 1); // of 8 bits
    bits.write(symbol, 8);
  }
  let vp8l = bits.done();
  if (vp8l.length % 2 === 1) vp8l = Buffer.concat([vp8l, Buffer.alloc(1)]);
  const chunk = Buffer.concat([Buffer.from('VP8L', 'latin1'), u32le(bits.done().length), vp8l]);
  return Buffer.concat([Buffer.from('RIFF', 'latin1'), u32le(4 + chunk.length), Buffer.from('WEBP', 'latin1'), chunk]);
}

function u32le(value: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32LE(value, 0);
  return out;
}

function segment(marker: number, payload: Uint8Array): Buffer {
  return Buffer.concat([u16(0xff00 | marker, payload.length + 2), payload]);
}

/** A baseline greyscale JPEG, mid-grey throughout: every 8×8 block is a zero DC difference and an
 * end of block, one bit each, under one-symbol Huffman tables. */
export function defaultJpeg(width: number, height: number): Buffer {
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const dataBits = 2 * blocks;
  const data = Buffer.alloc(Math.ceil(dataBits / 8), 0);
  const spare = data.length * 8 - dataBits;
  // The last byte's unused bits are padded with ones (its used bits are zeros, so it is never 0xff).
  if (spare > 0) data[data.length - 1] |= (1 << spare) - 1;
  const huffman = (tableClass: number, symbol: number) =>
    Buffer.concat([Buffer.from([(tableClass << 4) | 0]), Buffer.from([1, ...new Array(15).fill(0)]), Buffer.from([symbol])]);
  return Buffer.concat([
    u16(0xffd8),
    segment(0xdb, Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 1)])),
    segment(0xc0, Buffer.concat([Buffer.from([8]), u16(height, width), Buffer.from([1, 1, 0x11, 0])])),
    segment(0xc4, huffman(0, 0)),
    segment(0xc4, huffman(1, 0)),
    segment(0xda, Buffer.from([1, 1, 0x00, 0, 63, 0])),
    data,
    u16(0xffd9),
  ]);
}

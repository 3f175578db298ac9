// Silence as Ogg Opus (`opus`): the OpusHead and OpusTags header pages, then pages of the
// 20 ms CELT packet that decodes to silence, with granule positions at 48 kHz as RFC 7845 asks
// and each page's Ogg CRC (polynomial 0x04c11db7, unreflected — not zlib's CRC-32).

import { concat } from './flac.js';

const PACKET = Uint8Array.from([0xf8, 0xff, 0xfe]);
/** Samples (at 48 kHz) per packet. */
const PACKET_SAMPLES = 960;
const PRE_SKIP = 312;
const PACKETS_PER_PAGE = 50;
const SERIAL = 0x55535459;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let j = 0; j < 8; j++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

function oggCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]) >>> 0;
  return crc;
}

/** One page holding whole packets of under 255 bytes each. */
function page(packets: readonly Uint8Array[], flags: number, granule: number, sequence: number): Uint8Array {
  const header = Buffer.alloc(27 + packets.length);
  header.write('OggS', 0, 'latin1');
  header[4] = 0; // version
  header[5] = flags;
  header.writeBigUInt64LE(BigInt(granule), 6);
  header.writeUInt32LE(SERIAL, 14);
  header.writeUInt32LE(sequence, 18);
  header[26] = packets.length;
  packets.forEach((packet, i) => (header[27 + i] = packet.length));
  const out = concat([header, ...packets]);
  Buffer.from(out.buffer, out.byteOffset, out.byteLength).writeUInt32LE(oggCrc(out), 22);
  return out;
}

function opusHead(inputRate: number): Uint8Array {
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head[8] = 1; // version
  head[9] = 1; // one channel
  head.writeUInt16LE(PRE_SKIP, 10);
  head.writeUInt32LE(inputRate, 12);
  head.writeInt16LE(0, 16); // output gain
  head[18] = 0; // mapping family
  return head;
}

function opusTags(): Uint8Array {
  const vendor = Buffer.from('understudy', 'latin1');
  const tags = Buffer.alloc(8 + 4 + vendor.length + 4);
  tags.write('OpusTags', 0, 'latin1');
  tags.writeUInt32LE(vendor.length, 8);
  vendor.copy(tags, 12);
  tags.writeUInt32LE(0, 12 + vendor.length); // no comments
  return tags;
}

/** An Ogg Opus stream of at least `seconds` of mono silence; `inputRate` is the rate OpusHead
 * names as the source's (playback is always at 48 kHz). */
export function oggOpusSilence(seconds: number, inputRate: number): Uint8Array {
  const packets = Math.max(1, Math.ceil((seconds * 48_000) / PACKET_SAMPLES));
  const pages = [page([opusHead(inputRate)], 0x02, 0, 0), page([opusTags()], 0, 0, 1)];
  for (let done = 0, sequence = 2; done < packets; sequence++) {
    const count = Math.min(PACKETS_PER_PAGE, packets - done);
    done += count;
    const last = done === packets;
    pages.push(page(Array(count).fill(PACKET), last ? 0x04 : 0, PRE_SKIP + done * PACKET_SAMPLES, sequence));
  }
  return concat(pages);
}

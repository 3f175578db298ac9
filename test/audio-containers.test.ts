// The silent audio Understudy answers, checked below what music-metadata checks: every Ogg page's
// CRC and granule position, every FLAC frame's CRC-8 and CRC-16, every ADTS and MPEG header's
// fields — with CRCs written here from their definitions and held to the published check values,
// not taken from the encoders; and the subtitles made from any text parse back to it. Durations
// and texts are open-ended, so fast-check picks them.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import { aacSilence } from '../src/dialects/audio-kit/aac.js';
import { flacSilence } from '../src/dialects/audio-kit/flac.js';
import { mp3Silence } from '../src/dialects/audio-kit/mp3.js';
import { oggOpusSilence } from '../src/dialects/audio-kit/ogg-opus.js';
import { readingSeconds } from '../src/dialects/audio-kit/speech-audio.js';
import { derivedSegments, srtOf, vttOf, wordsOf } from '../src/dialects/audio-kit/transcript.js';
import { wavSilence } from '../src/dialects/audio-kit/wav.js';
import { audioFormat, parseSrt, parseVtt } from './support/audio-checks.js';

/** A CRC without reflection or final xor, bit by bit. */
function crc(bytes: Uint8Array, width: number, poly: number): number {
  const top = 2 ** (width - 1);
  let r = 0;
  for (const byte of bytes) {
    for (let bit = 7; bit >= 0; bit--) {
      const fed = ((r >= top ? 1 : 0) ^ ((byte >> bit) & 1)) === 1;
      r = (r * 2) % 2 ** width;
      if (fed) r = (r ^ poly) >>> 0;
    }
  }
  return r;
}
const CHECK = new TextEncoder().encode('123456789');

test('the CRCs written here give the published check values', () => {
  assert.equal(crc(CHECK, 8, 0x07), 0xf4, 'CRC-8 (FLAC frame header)');
  assert.equal(crc(CHECK, 16, 0x8005), 0xfee8, 'CRC-16/UMTS (FLAC frame)');
  // Ogg's CRC is CRC-32/CKSUM without its final xor.
  assert.equal((crc(CHECK, 32, 0x04c11db7) ^ 0xffffffff) >>> 0, 0x765e7680);
});

const seconds = fc.double({ min: 0.5, max: 30, noNaN: true });
// Long enough for FLAC frame numbers of two and three bytes.
const longSeconds = fc.double({ min: 0.5, max: 600, noNaN: true });

test('Ogg Opus: OpusHead, OpusTags, then pages whose CRCs hold and whose granules count 48 kHz samples', () => {
  fc.assert(
    fc.property(seconds, (s) => {
      const bytes = Buffer.from(oggOpusSilence(s, 24_000));
      let at = 0;
      const pages: { flags: number; granule: bigint; sequence: number; body: Buffer }[] = [];
      while (at < bytes.length) {
        assert.equal(bytes.toString('latin1', at, at + 4), 'OggS');
        const segments = bytes[at + 26];
        const lacing = bytes.subarray(at + 27, at + 27 + segments);
        const size = 27 + segments + lacing.reduce((a, b) => a + b, 0);
        const page = Buffer.from(bytes.subarray(at, at + size));
        const stored = page.readUInt32LE(22);
        page.writeUInt32LE(0, 22);
        assert.equal(crc(page, 32, 0x04c11db7), stored, `page ${pages.length} CRC`);
        pages.push({
          flags: page[5],
          granule: page.readBigUInt64LE(6),
          sequence: page.readUInt32LE(18),
          body: page.subarray(27 + segments),
        });
        at += size;
      }
      assert.equal(pages[0].flags, 0x02, 'the first page begins the stream');
      assert.equal(pages[0].body.toString('latin1', 0, 8), 'OpusHead');
      assert.equal(pages[0].body[9], 1, 'one channel');
      assert.equal(pages[0].body.readUInt32LE(12), 24_000);
      assert.equal(pages[1].body.toString('latin1', 0, 8), 'OpusTags');
      assert.equal(pages[pages.length - 1].flags, 0x04, 'the last page ends the stream');
      assert.deepEqual(
        pages.map((p) => p.sequence),
        pages.map((_, i) => i),
      );
      const preSkip = BigInt(pages[0].body.readUInt16LE(10));
      const samples = Number(pages[pages.length - 1].granule - preSkip);
      assert.ok(samples >= s * 48_000 && samples < s * 48_000 + 960, `${samples} samples for ${s} s`);
    }),
    { numRuns: 40 },
  );
});

test('FLAC: STREAMINFO names the samples, and every frame header and frame CRC holds', () => {
  fc.assert(
    fc.property(longSeconds, fc.constantFrom(16_000, 24_000, 44_100, 48_000, 96_000), (s, rate) => {
      const samples = Math.round(s * rate);
      const bytes = Buffer.from(flacSilence(samples, rate));
      assert.equal(bytes.toString('latin1', 0, 4), 'fLaC');
      assert.equal(bytes[4], 0x80, 'one metadata block, the last, STREAMINFO');
      const info = bytes.subarray(8, 42);
      assert.equal((info[10] << 12) | (info[11] << 4) | (info[12] >> 4), rate);
      assert.equal((info[13] & 0x0f) * 2 ** 32 + info.readUInt32BE(14), samples);
      let at = 42;
      let counted = 0;
      let frames = 0;
      while (at < bytes.length) {
        assert.equal(bytes.readUInt16BE(at), 0xfff8, 'frame sync, fixed block size');
        // The frame number, coded as UTF-8 codes a character: the lead byte's high ones count the bytes.
        const lead = bytes[at + 4];
        let numberBytes = 1;
        while (numberBytes < 7 && lead & (0x80 >> (numberBytes - 1))) numberBytes++;
        if (numberBytes > 1) numberBytes--;
        let number = numberBytes === 1 ? lead : lead & (0xff >> (numberBytes + 1));
        for (let i = 1; i < numberBytes; i++) number = number * 64 + (bytes[at + 4 + i] & 0x3f);
        assert.equal(number, frames, 'frames are numbered in order');
        if (frames < 0x80) assert.equal(numberBytes, 1, 'a frame number under 128 takes one byte');
        const sizeAt = at + 4 + numberBytes;
        const blockSize = bytes.readUInt16BE(sizeAt) + 1;
        const header = bytes.subarray(at, sizeAt + 2);
        assert.equal(crc(header, 8, 0x07), bytes[sizeAt + 2], 'frame header CRC-8');
        const frameLength = header.length + 1 + 3 + 2;
        const frame = bytes.subarray(at, at + frameLength - 2);
        assert.equal(crc(frame, 16, 0x8005), bytes.readUInt16BE(at + frameLength - 2), 'frame CRC-16');
        counted += blockSize;
        frames++;
        at += frameLength;
      }
      assert.equal(counted, samples);
    }),
    { numRuns: 40 },
  );
});

test('ADTS and MPEG headers: AAC LC at 24 kHz mono, frame lengths as written; MPEG-2 Layer III at 32 kbps', () => {
  const aac = Buffer.from(aacSilence(24_000, 24_000));
  for (let at = 0; at < aac.length;) {
    assert.equal(aac.readUInt16BE(at) & 0xfff6, 0xfff0, 'ADTS sync, MPEG-4, layer 0');
    assert.equal(aac[at + 1] & 1, 1, 'no CRC');
    assert.equal(aac[at + 2] >> 6, 1, 'profile AAC LC');
    assert.equal((aac[at + 2] >> 2) & 0x0f, 6, '24 kHz');
    assert.equal(((aac[at + 2] & 1) << 2) | (aac[at + 3] >> 6), 1, 'one channel');
    const length = ((aac[at + 3] & 3) << 11) | (aac[at + 4] << 3) | (aac[at + 5] >> 5);
    assert.equal(aac[at + 7] >> 5, 0, 'a single channel element');
    assert.equal(aac[at + length - 1] & 0x07, 0x07, 'the end element closes the frame');
    at += length;
  }
  const mp3 = Buffer.from(mp3Silence(24_000));
  assert.equal(mp3.length % 96, 0);
  for (let at = 0; at < mp3.length; at += 96) {
    assert.equal(mp3.readUInt16BE(at), 0xfff3, 'sync, MPEG-2, Layer III, no CRC');
    assert.equal(mp3[at + 2], 0x44, '32 kbps, 24 kHz, no padding');
    assert.equal(mp3[at + 3] >> 6, 3, 'mono');
    assert.ok(
      mp3.subarray(at + 4, at + 96).every((b) => b === 0),
      'zero side information and no main data',
    );
  }
});

test('the reading time is bounded: five minutes at most, whatever the input and speed', () => {
  assert.equal(readingSeconds('a '.repeat(2048), 0.25), 300);
  assert.equal(readingSeconds(''), 0.5);
});

test('WAV duration follows the reading time, whatever the text', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.stringMatching(/^[a-z]{1,8}$/), { minLength: 1, maxLength: 60 }),
      fc.double({ min: 0.25, max: 4, noNaN: true }),
      async (words, speed) => {
        const s = readingSeconds(words.join(' '), speed);
        const format = await audioFormat(wavSilence(Math.round(s * 24_000), 24_000), 'audio/wav');
        assert.ok(Math.abs((format.duration ?? 0) - Math.min(300, Math.max(0.5, words.length / 2.5 / speed))) < 1e-4);
      },
    ),
    { numRuns: 30 },
  );
});

test('derived segments of any text make SubRip and WebVTT that parse back to the sentences, in order, ending at the duration', () => {
  const sentence = fc
    .array(fc.stringMatching(/^[A-Za-z0-9',]{1,10}$/), { minLength: 1, maxLength: 12 })
    .chain((words) => fc.constantFrom('.', '!', '?').map((end) => `${words.join(' ')}${end}`));
  fc.assert(
    fc.property(
      fc.array(sentence, { minLength: 1, maxLength: 8 }),
      fc.double({ min: 0.5, max: 7200, noNaN: true }),
      (sentences, duration) => {
        const segments = derivedSegments(sentences.join(' '), duration);
        const srt = parseSrt(srtOf(segments));
        const vtt = parseVtt(vttOf(segments));
        assert.deepEqual(
          srt.map((cue) => cue.text),
          sentences,
        );
        assert.deepEqual(
          vtt.map((cue) => cue.text),
          sentences,
        );
        assert.deepEqual(
          srt.map((cue) => cue.index),
          sentences.map((_, i) => i + 1),
        );
        for (const cues of [srt, vtt]) {
          assert.equal(cues[0].start, 0);
          cues.forEach((cue, i) => {
            assert.ok(cue.start <= cue.end, `cue ${i} ends after it starts`);
            if (i > 0) assert.equal(cue.start, cues[i - 1].end, 'cues follow on');
          });
          assert.ok(Math.abs(cues[cues.length - 1].end - duration) <= 0.0011, 'the last cue ends at the duration');
        }
        const words = wordsOf(segments);
        assert.equal(words.length, sentences.join(' ').split(' ').length);
      },
    ),
    { numRuns: 100 },
  );
});

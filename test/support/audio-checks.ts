// What the audio tests share: reading an answered container with music-metadata (the oracle for
// "valid headers"), and parsing the SSE events a raw speech stream carries.

import assert from 'node:assert/strict';
import { parseBuffer } from 'music-metadata';

export const SPEECH_MIME: Record<string, string> = {
  mp3: 'audio/mpeg',
  opus: 'audio/opus',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};

/** The container and duration music-metadata reads from the bytes (counting frames, not trusting headers). */
export async function audioFormat(bytes: Uint8Array, mimeType: string) {
  const { format } = await parseBuffer(bytes, { mimeType }, { duration: true });
  return format;
}

/** The duration music-metadata reads, within `tolerance` seconds of `expected`. */
export async function assertDuration(bytes: Uint8Array, mimeType: string, expected: number, tolerance: number): Promise<void> {
  const format = await audioFormat(bytes, mimeType);
  assert.ok(format.duration !== undefined, `${mimeType}: music-metadata read no duration`);
  assert.ok(
    Math.abs(format.duration - expected) <= tolerance,
    `${mimeType}: duration ${format.duration}, expected ${expected} ± ${tolerance}`,
  );
}

/** The JSON data of each event in an SSE body. */
export function sseData(text: string): Record<string, unknown>[] {
  return text
    .split('\n\n')
    .map((block) => block.split('\n').find((line) => line.startsWith('data: ')))
    .filter((line): line is string => line !== undefined)
    .map((line) => JSON.parse(line.slice('data: '.length)) as Record<string, unknown>);
}

/** SubRip cues: index, start and end in seconds, text — failing on any malformed cue. */
export function parseSrt(text: string): { index: number; start: number; end: number; text: string }[] {
  assert.ok(text.endsWith('\n\n'), 'an SRT body ends with a blank line');
  return text
    .trimEnd()
    .split('\n\n')
    .map((cue) => {
      const [index, times, ...lines] = cue.split('\n');
      const match = /^(\d{2}):(\d{2}):(\d{2}),(\d{3}) --> (\d{2}):(\d{2}):(\d{2}),(\d{3})$/.exec(times ?? '');
      assert.ok(match, `an SRT time line: ${JSON.stringify(times)}`);
      assert.match(index, /^\d+$/);
      const at = (h: string, m: string, s: string, ms: string) => Number(h) * 3600 + Number(m) * 60 + Number(s) + Number(ms) / 1000;
      return {
        index: Number(index),
        start: at(match[1], match[2], match[3], match[4]),
        end: at(match[5], match[6], match[7], match[8]),
        text: lines.join('\n'),
      };
    });
}

/** WebVTT cues after the `WEBVTT` header. */
export function parseVtt(text: string): { start: number; end: number; text: string }[] {
  assert.ok(text.startsWith('WEBVTT\n\n'), 'a VTT body starts with the WEBVTT header and a blank line');
  return text
    .slice('WEBVTT\n\n'.length)
    .trimEnd()
    .split('\n\n')
    .map((cue) => {
      const [times, ...lines] = cue.split('\n');
      const match = /^(\d{2}):(\d{2}):(\d{2})\.(\d{3}) --> (\d{2}):(\d{2}):(\d{2})\.(\d{3})$/.exec(times ?? '');
      assert.ok(match, `a VTT time line: ${JSON.stringify(times)}`);
      const at = (h: string, m: string, s: string, ms: string) => Number(h) * 3600 + Number(m) * 60 + Number(s) + Number(ms) / 1000;
      return { start: at(match[1], match[2], match[3], match[4]), end: at(match[5], match[6], match[7], match[8]), text: lines.join('\n') };
    });
}

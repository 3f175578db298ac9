// The audio a speech route answers when the fixture scripts none: silence in the requested
// format, as long as the input text would take to read — a fixed reading rate, divided by the
// requested speed — so a test can assert on a duration that follows from its input.

import { aacSilence } from './aac.js';
import { flacSilence } from './flac.js';
import { mp3Silence } from './mp3.js';
import { oggOpusSilence } from './ogg-opus.js';
import { pcmSilence, wavSilence } from './wav.js';

/** Words read per second at speed 1 (150 words a minute). */
export const WORDS_PER_SECOND = 2.5;
/** The shortest answer, for an input of one short word. */
const MIN_SECONDS = 0.5;
/** The longest: bounds the bytes one answer holds (a WAV at 48 kHz is under 29 MB). */
export const MAX_SECONDS = 300;
/** The rate OpenAI's speech audio is sampled at. */
export const SPEECH_RATE = 24_000;

export type SpeechFormat = 'mp3' | 'opus' | 'aac' | 'flac' | 'wav' | 'pcm';

interface FormatSpec {
  contentType: string;
  silence(seconds: number, rate: number): Uint8Array;
}

const samplesOf = (seconds: number, rate: number) => Math.round(seconds * rate);

export const SPEECH_FORMATS: Readonly<Record<SpeechFormat, FormatSpec>> = {
  mp3: { contentType: 'audio/mpeg', silence: (s) => mp3Silence(samplesOf(s, 24_000)) },
  opus: { contentType: 'audio/opus', silence: (s, rate) => oggOpusSilence(s, rate) },
  aac: { contentType: 'audio/aac', silence: (s, rate) => aacSilence(samplesOf(s, rate), rate) },
  flac: { contentType: 'audio/flac', silence: (s, rate) => flacSilence(samplesOf(s, rate), rate) },
  wav: { contentType: 'audio/wav', silence: (s, rate) => wavSilence(samplesOf(s, rate), rate) },
  pcm: { contentType: 'audio/pcm', silence: (s, rate) => pcmSilence(samplesOf(s, rate)) },
};

/** Words in a text: runs of non-space characters. */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => word !== '').length;
}

/** Seconds the text takes to read at `speed` (1 = normal), from half a second to five minutes. */
export function readingSeconds(text: string, speed = 1): number {
  return Math.min(MAX_SECONDS, Math.max(MIN_SECONDS, wordCount(text) / WORDS_PER_SECOND / speed));
}

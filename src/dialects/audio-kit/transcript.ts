// A transcript's text, timed: the segments a fixture scripts, or the text cut into sentences and
// timed by a fixed reading rate; the words within each segment spread evenly over it; and the
// subtitle formats (SubRip and WebVTT) built from the segments.

import type { TranscriptSegment } from '../../core/scripted-audio.js';
import { readingSeconds, wordCount } from './speech-audio.js';

export interface TimedWord {
  word: string;
  start: number;
  end: number;
}

/** Times rounded to milliseconds, as subtitle formats hold them. */
const ms = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** The sentences of a text: cut after `.`, `!` or `?` followed by white space (so a file name's
 * dot stays inside its sentence). */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** The text's sentences over `duration` seconds, each as long as its share of the words. */
export function derivedSegments(text: string, duration: number): TranscriptSegment[] {
  const sentences = sentencesOf(text);
  const total = sentences.reduce((sum, s) => sum + Math.max(1, wordCount(s)), 0);
  const segments: TranscriptSegment[] = [];
  let words = 0;
  for (const sentence of sentences) {
    const start = (words / total) * duration;
    words += Math.max(1, wordCount(sentence));
    segments.push({ start: ms(start), end: ms((words / total) * duration), text: sentence });
  }
  return segments;
}

/** The seconds of audio a transcript reports: scripted, the last segment's end, or the reading time. */
export function transcriptDuration(text: string, segments: readonly TranscriptSegment[] | undefined, scripted?: number): number {
  if (scripted !== undefined) return scripted;
  if (segments && segments.length > 0) return segments[segments.length - 1].end;
  return ms(readingSeconds(text));
}

export function wordsOf(segments: readonly TranscriptSegment[]): TimedWord[] {
  const out: TimedWord[] = [];
  for (const segment of segments) {
    const words = segment.text.split(/\s+/).filter((w) => w !== '');
    const step = (segment.end - segment.start) / Math.max(1, words.length);
    words.forEach((word, i) => out.push({ word, start: ms(segment.start + i * step), end: ms(segment.start + (i + 1) * step) }));
  }
  return out;
}

function clock(seconds: number, separator: ',' | '.'): string {
  const total = Math.round(seconds * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const h = Math.floor(total / 3_600_000);
  const m = Math.floor(total / 60_000) % 60;
  const s = Math.floor(total / 1000) % 60;
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(total % 1000, 3)}`;
}

/** SubRip: numbered cues, `HH:MM:SS,mmm --> HH:MM:SS,mmm`, a blank line after each. */
export function srtOf(segments: readonly TranscriptSegment[]): string {
  return segments.map((s, i) => `${i + 1}\n${clock(s.start, ',')} --> ${clock(s.end, ',')}\n${s.text.trim()}\n\n`).join('');
}

/** WebVTT: the `WEBVTT` header, then cues with `HH:MM:SS.mmm` times. */
export function vttOf(segments: readonly TranscriptSegment[]): string {
  return `WEBVTT\n\n${segments.map((s) => `${clock(s.start, '.')} --> ${clock(s.end, '.')}\n${s.text.trim()}\n\n`).join('')}`;
}

// The rules of the fixture's audio lists (fixture-schema-audio.ts attaches them): what an entry
// may hold together.

import { has, type Obj, type Path, type RuleContext } from './fixture-words.js';

/** A speech entry answers scripted audio, the derived silence, or an error — not audio and an error. */
export function scriptedSpeechRule(entry: Obj, path: Path, ctx: RuleContext): void {
  if (has(entry, 'audio') && has(entry, 'error'))
    ctx.report([...path, 'error'], 'expected either "audio" or "error" in a scripted speech entry, not both; found both');
  if (typeof entry.audio === 'string' && entry.audio.length % 4 !== 0)
    ctx.report([...path, 'audio'], 'expected base64 audio bytes (a length that is a multiple of 4); found a string that is not');
}

/** A transcription entry answers a transcript or an error: exactly one. */
export function scriptedTranscriptRule(entry: Obj, path: Path, ctx: RuleContext): void {
  const answers = ['text', 'segments'].some((key) => has(entry, key));
  if (answers && has(entry, 'error'))
    ctx.report(
      [...path, 'error'],
      'expected either a transcript ("text", "segments") or "error" in a scripted transcription, not both; found both',
    );
  else if (!answers && !has(entry, 'error'))
    ctx.report(path, 'expected "text" (the transcript), "segments" or "error" in a scripted transcription; found none of them');
  if (Array.isArray(entry.segments)) segmentTimesRule(entry.segments, [...path, 'segments'], ctx);
}

/** Segments in order of time, each ending no earlier than it starts (SubRip and WebVTT cues, and
 * verbose_json's segments, are made from them as they stand). */
function segmentTimesRule(segments: unknown[], path: Path, ctx: RuleContext): void {
  let previousEnd = 0;
  segments.forEach((segment, i) => {
    if (segment === null || typeof segment !== 'object') return;
    const { start, end } = segment as { start?: unknown; end?: unknown };
    if (typeof start !== 'number' || typeof end !== 'number') return;
    if (end < start) ctx.report([...path, i, 'end'], `expected an end no earlier than the segment's start (${start}); found ${end}`);
    else if (start < previousEnd)
      ctx.report([...path, i, 'start'], `expected segments in order of time, this one starting at or after ${previousEnd}; found ${start}`);
    previousEnd = Math.max(previousEnd, end);
  });
}

/** The top-level lists that make a file without scenarios worth loading. */
export const AUDIO_LISTS = ['speech', 'transcriptions'] as const;

export const AUDIO_RULES = { scriptedSpeechRule, scriptedTranscriptRule };

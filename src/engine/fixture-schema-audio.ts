// The fixture's audio lists, `speech` and `transcriptions`: what speech and transcription
// requests get for chosen inputs. Composed into the fixture's description (fixture-schema.ts);
// each entry's rule (one answer, or an error) is here too.

import type * as Z from 'zod';
import { fixtureKit, rule } from './fixture-kit.js';
import { scriptedSpeechRule, scriptedTranscriptRule } from './fixture-rules-audio.js';
import { found } from './fixture-words.js';

const SHA256 = /^[0-9a-f]{64}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function describeAudioParts<E extends Z.ZodType, F extends Z.ZodType, T extends Z.ZodType>(
  z: typeof Z,
  parts: { error: E; fault: F; textMatchOrString: T },
) {
  const { text, nonNegative, object, list } = fixtureKit(z);
  const described = <T extends Z.ZodType>(schema: T, description: string): T => schema.meta({ description });
  const delayMs = described(nonNegative('a delay in milliseconds (a number ≥ 0)'), 'Milliseconds to wait before answering.').optional();
  const fault = described(parts.fault, 'A failure part-way through the answer (afterBytes counts bytes of the body).').optional();
  const error = described(
    parts.error,
    "Instead of an answer: the provider error the request gets (in the route's error shape).",
  ).optional();

  const scriptedSpeech = rule(
    object(
      'a scripted speech entry',
      {
        input: described(parts.textMatchOrString, 'The input text this entry answers: an exact string, or a text match.').optional(),
        voice: described(text('a voice (a string)'), 'Only for requests with this voice (a custom voice by its id).').optional(),
        model: described(text('a model name (a string)'), 'Only for requests naming this model.').optional(),
        audio: described(
          z
            .string({ error: (i) => `expected base64 audio bytes (a string); found ${found(i.input)}` })
            .regex(BASE64, { error: () => 'expected base64 audio bytes; found characters base64 does not use' }),
          'The audio answered, base64: sent as it is, with the content type of the requested format. Without it, silence of the derived length in the requested format.',
        ).optional(),
        delayMs,
        fault,
        error,
      },
      {
        id: 'scriptedSpeech',
        description:
          'What a speech request gets when its input (and voice, model) match: scripted audio, the derived silence (with a delay or fault), or an error.',
      },
    ),
    scriptedSpeechRule,
  );

  const segment = object(
    'a transcript segment',
    {
      start: described(nonNegative('a start in seconds (a number ≥ 0)'), 'Start of the segment in seconds.'),
      end: described(nonNegative('an end in seconds (a number ≥ 0)'), 'End of the segment in seconds.'),
      text: described(text('the segment text (a string)'), "The segment's text."),
    },
    { description: 'One timed segment of a transcript.' },
  );

  const scriptedTranscript = rule(
    object(
      'a scripted transcription',
      {
        sha256: described(
          z
            .string({ error: (i) => `expected a sha256 (64 lowercase hex digits); found ${found(i.input)}` })
            .regex(SHA256, { error: (i) => `expected a sha256 (64 lowercase hex digits); found ${found(i.input)}` }),
          'Only for an uploaded file whose bytes have this SHA-256 (lowercase hex).',
        ).optional(),
        fileName: described(text('a file name (a string)'), 'Only for an uploaded file of this name.').optional(),
        model: described(text('a model name (a string)'), 'Only for requests naming this model.').optional(),
        text: described(
          text('a transcript (a string)'),
          'The transcript (or translation) answered. Without it, the segments joined.',
        ).optional(),
        segments: described(
          list('a list of segments', segment, true),
          'Timed segments (verbose_json, srt, vtt); without them, the text split into sentences timed by reading rate.',
        ).optional(),
        language: described(text('a language (a string)'), 'The language verbose_json reports (default "english").').optional(),
        duration: described(
          nonNegative('a duration in seconds (a number ≥ 0)'),
          'Seconds of audio reported (verbose_json, usage); default: the text read at 2.5 words a second.',
        ).optional(),
        delayMs,
        fault,
        error,
      },
      {
        id: 'scriptedTranscript',
        description: 'What a transcription or translation request gets when its file (and model) match: a transcript or an error.',
      },
    ),
    scriptedTranscriptRule,
  );

  const lists = {
    speech: described(
      list('a list of scripted speech entries', scriptedSpeech, false),
      'What speech requests get, the first entry whose input, voice and model (each when given) match winning; any other request gets silence of the derived length in its format (docs/audio.md). Loading a fixture with `speech` replaces the list for the requests after.',
    ).optional(),
    transcriptions: described(
      list('a list of scripted transcriptions', scriptedTranscript, false),
      'What transcription and translation requests get, the first entry whose sha256, fileName and model (each when given) match winning; any other file gets the default transcript (docs/audio.md). Loading a fixture with `transcriptions` replaces the list for the requests after.',
    ).optional(),
  };
  return { scriptedSpeech, scriptedTranscript, lists };
}

// Groq's audio on its OpenAI-compatible base (`/groq/openai/v1/audio/...`, what groq-sdk calls):
// speech with its own formats (flac, mp3, ogg, wav; `wav` by default) and `sample_rate`, any voice
// name; transcriptions and translations with the Whisper models, answering json, text and
// verbose_json (no subtitles, no usage) with the `x_groq` request id. Errors are OpenAI's.

import { invalidRequest } from '../../core/errors.js';
import type { SpeechFormat } from '../audio-kit/speech-audio.js';
import { expectEnum, expectNumber, expectString, fail } from '../openai/checks.js';
import type { InfoAsk } from '../dialect.js';
import { bodyObject, inputOf, modelOf, type SpeechRequest } from './speech-request.js';
import type { TranscriptStyle } from './transcription-answer.js';
import type { TranscriptionRules } from './transcription-request.js';

const FORMATS = ['flac', 'mp3', 'mulaw', 'ogg', 'wav'] as const;
const RATES = ['8000', '16000', '22050', '24000', '32000', '44100', '48000'];
const SPEED = { min: 0.5, max: 5 };
const ENCODED: Record<Exclude<(typeof FORMATS)[number], 'mulaw'>, { format: SpeechFormat; contentType: string }> = {
  flac: { format: 'flac', contentType: 'audio/flac' },
  mp3: { format: 'mp3', contentType: 'audio/mpeg' },
  ogg: { format: 'opus', contentType: 'audio/ogg' },
  wav: { format: 'wav', contentType: 'audio/wav' },
};

export function decodeGroqSpeech(body: unknown): SpeechRequest {
  const o = bodyObject(body);
  const model = modelOf(o);
  const input = inputOf(o);
  if (o.voice === undefined) fail("Missing required parameter: 'voice'.", 'voice', 'missing_required_parameter');
  const voice = expectString(o.voice, 'voice');
  const format = o.response_format === undefined ? 'wav' : expectEnum(o.response_format, FORMATS, 'response_format');
  if (format === 'mulaw') {
    fail(
      "Understudy does not answer response_format 'mulaw' (its mu-law bytes are not built here); ask for wav, mp3, flac or ogg.",
      'response_format',
      'unsupported_value',
    );
  }
  const rate = o.sample_rate === undefined ? 48_000 : Number(expectEnum(String(o.sample_rate), RATES, 'sample_rate'));
  const speed = o.speed === undefined ? 1 : expectNumber(o.speed, 'speed', SPEED);
  return { model, input, voice, ...ENCODED[format], rate, speed, instructions: undefined, stream: 'audio' };
}

const GROQ_FORMATS = ['json', 'text', 'verbose_json'] as const;

export const GROQ_TRANSCRIPTION_RULES: TranscriptionRules = {
  formatsOf: () => ({
    formats: GROQ_FORMATS,
    refuse: (format) =>
      invalidRequest(
        `response_format '${format}' is not supported. Supported values are: 'json', 'text', and 'verbose_json'.`,
        'response_format',
        'invalid_value',
      ),
  }),
  streams: () => false,
  fields: ['url'],
};

export const GROQ_STYLE: TranscriptStyle = {
  usage: false,
  // Groq's ids are `req_` and a suffix; the request id already has the prefix.
  extra: (ask: InfoAsk) => ({ x_groq: { id: ask.requestId?.startsWith('req_') ? ask.requestId : `req_${ask.requestId ?? 'understudy'}` } }),
};

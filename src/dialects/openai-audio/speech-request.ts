// OpenAI's speech request (`POST /v1/audio/speech`, JSON), checked as its OpenAPI description
// states it: `model`, `input` (at most 4096 characters) and `voice` required; `voice` a built-in
// name or a custom voice `{ id }`; `response_format` one of six; `speed` from 0.25 to 4;
// `instructions` at most 4096 characters; `stream_format` sse or audio, and sse refused for the
// tts-1 models. Groq's speech (groq.ts) reads its own members with the same checks.

import { invalidRequest } from '../../core/errors.js';
import { SPEECH_RATE, type SpeechFormat } from '../audio-kit/speech-audio.js';
import { expectEnum, expectLength, expectNumber, expectObject, expectString, fail } from '../openai/checks.js';
import { typeName } from '../openai/wording.js';
import { isObject } from '../wire-kit/values.js';
import { reject } from '../wire-kit/wire-error.js';

export interface SpeechRequest {
  model: string;
  input: string;
  /** A built-in voice's name, or a custom voice's id. */
  voice: string;
  format: SpeechFormat;
  /** The content type answered, when the host names the format otherwise (Groq's `ogg`). */
  contentType?: string;
  /** Samples per second of the answered audio (mp3 is always 24 kHz). */
  rate: number;
  speed: number;
  instructions: string | undefined;
  stream: 'sse' | 'audio';
}

export const OPENAI_VOICES = [
  'alloy',
  'ash',
  'ballad',
  'coral',
  'echo',
  'fable',
  'onyx',
  'nova',
  'sage',
  'shimmer',
  'verse',
  'marin',
  'cedar',
] as const;
const FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;
const STREAM_FORMATS = ['sse', 'audio'] as const;
const MEMBERS = new Set(['model', 'input', 'voice', 'response_format', 'speed', 'instructions', 'stream_format']);
const TEXT_LIMIT = { max: 4096 };
const SPEED = { min: 0.25, max: 4 };

/** The body as an object, or OpenAI's 400 for a body that is not one. */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined) fail('We could not parse the JSON body of your request.', null);
  if (!isObject(body))
    reject(invalidRequest(`Invalid type for body: expected an object, but got ${typeName(body)} instead.`, null, 'invalid_type'));
  return body;
}

/** `model`, present and a non-empty string. */
export function modelOf(o: Record<string, unknown>): string {
  if (o.model === undefined || o.model === null || o.model === '')
    fail("Missing required parameter: 'model'.", 'model', 'missing_required_parameter');
  return expectString(o.model, 'model');
}

/** `input`, present and within OpenAI's limit. */
export function inputOf(o: Record<string, unknown>): string {
  if (o.input === undefined) fail("Missing required parameter: 'input'.", 'input', 'missing_required_parameter');
  return expectLength(expectString(o.input, 'input'), 'input', TEXT_LIMIT);
}

function voiceOf(value: unknown): string {
  if (value === undefined) fail("Missing required parameter: 'voice'.", 'voice', 'missing_required_parameter');
  if (typeof value === 'string') return expectEnum(value, OPENAI_VOICES, 'voice');
  const custom = expectObject(value, 'voice', 'a voice name or an object with an id');
  if (custom.id === undefined) fail("Missing required parameter: 'voice.id'.", 'voice.id', 'missing_required_parameter');
  return expectString(custom.id, 'voice.id');
}

const isTts1 = (model: string) => model === 'tts-1' || model.startsWith('tts-1-');

export function decodeSpeechRequest(body: unknown): SpeechRequest {
  const o = bodyObject(body);
  const model = modelOf(o);
  const input = inputOf(o);
  const voice = voiceOf(o.voice);
  const format = o.response_format === undefined ? 'mp3' : expectEnum(o.response_format, FORMATS, 'response_format');
  const speed = o.speed === undefined ? 1 : expectNumber(o.speed, 'speed', SPEED);
  const instructions =
    o.instructions === undefined ? undefined : expectLength(expectString(o.instructions, 'instructions'), 'instructions', TEXT_LIMIT);
  const stream = o.stream_format === undefined ? 'audio' : expectEnum(o.stream_format, STREAM_FORMATS, 'stream_format');
  if (stream === 'sse' && isTts1(model)) {
    fail(`stream_format 'sse' is not supported for model '${model}'. Use 'audio' instead.`, 'stream_format', 'unsupported_value');
  }
  for (const key in o) if (!MEMBERS.has(key)) fail(`Unrecognized request argument supplied: ${key}`, null);
  return { model, input, voice, format, rate: SPEECH_RATE, speed, instructions, stream };
}

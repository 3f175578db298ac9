// OpenAI's transcription and translation requests (`POST /v1/audio/transcriptions`,
// `/v1/audio/translations`): multipart forms, read with the platform's FormData
// (wire-kit/multipart.ts) and checked as OpenAI checks them — `file` (a file of a format it
// accepts, by its name's extension) and `model` required, `response_format` one of the formats the
// model answers, `temperature` from 0 to 1, `timestamp_granularities[]` only with verbose_json,
// `stream` (the gpt-4o models; whisper-1 ignores it).

import { createHash } from 'node:crypto';
import { invalidRequest, type NeutralError } from '../../core/errors.js';
import { OPENAI_WORDING } from '../openai/wording.js';
import { formFiles, formText, readForm, type FormFields } from '../wire-kit/multipart.js';
import { wireChecks } from '../wire-kit/checks.js';
import { reject } from '../wire-kit/wire-error.js';

// Form fields are text: numbers and booleans arrive as their spelling.
const { expectEnum, expectNumber } = wireChecks(OPENAI_WORDING, { numericStrings: true });

export type TranscriptFormat = 'json' | 'text' | 'srt' | 'verbose_json' | 'vtt';
export type Granularity = 'word' | 'segment';

export interface TranscriptionRequest {
  task: 'transcribe' | 'translate';
  model: string;
  file: { name: string; type: string; bytes: Uint8Array; sha256: string };
  format: TranscriptFormat;
  language: string | undefined;
  prompt: string | undefined;
  temperature: number;
  granularities: readonly Granularity[];
  stream: boolean;
}

/** What a host's transcription routes accept beside OpenAI's defaults (Groq's models and formats). */
export interface TranscriptionRules {
  /** The response formats `model` answers, for the task; the wording when a format is not one. */
  formatsOf(
    model: string,
    task: TranscriptionRequest['task'],
  ): { formats: readonly TranscriptFormat[]; refuse(format: string): NeutralError };
  /** Whether `model` streams a transcript when asked (`stream=true`). */
  streams(model: string): boolean;
  /** Form fields the host reads beyond OpenAI's (Groq's `url`). */
  fields?: readonly string[];
}

const ALL_FORMATS = ['json', 'text', 'srt', 'verbose_json', 'vtt'] as const;
const GRANULARITIES = ['word', 'segment'] as const;
const EXTENSIONS = ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm'];
const TEMPERATURE = { min: 0, max: 1 };
const TRANSCRIPTION_FIELDS = new Set([
  'file',
  'model',
  'language',
  'languages[]',
  'keywords[]',
  'prompt',
  'response_format',
  'temperature',
  'timestamp_granularities[]',
  'timestamp_granularities',
  'stream',
  'include[]',
  'include',
  'chunking_strategy',
  'known_speaker_names[]',
  'known_speaker_references[]',
]);
const TRANSLATION_FIELDS = new Set(['file', 'model', 'prompt', 'response_format', 'temperature']);

/** The gpt-4o transcription models (and gpt-transcribe): token-billed, json or text, streaming. */
export const isTokenModel = (model: string) => /^gpt-(4o-(mini-)?transcribe|transcribe)/.test(model);

export const OPENAI_TRANSCRIPTION_RULES: TranscriptionRules = {
  formatsOf(model) {
    if (!isTokenModel(model)) return { formats: ALL_FORMATS, refuse: () => invalidRequest('unreachable') };
    return {
      formats: ['json', 'text'],
      refuse: (format) =>
        invalidRequest(
          `response_format '${format}' is not compatible with model '${model}'. Use 'json' or 'text' instead.`,
          'response_format',
          'unsupported_value',
        ),
    };
  },
  streams: isTokenModel,
};

function fail(message: string, param: string | null, code: string | null = null): never {
  reject(invalidRequest(message, param, code));
}

function text(fields: FormFields, name: string): string | undefined {
  const value = fields.get(name)?.[0];
  if (value?.kind === 'file') fail(`Invalid type for '${name}': expected a string, but got a file instead.`, name, 'invalid_type');
  return value?.value;
}

function fileOf(fields: FormFields): TranscriptionRequest['file'] {
  const [file] = formFiles(fields, 'file');
  if (!file && fields.has('url')) {
    fail(
      'Understudy answers uploaded files only: a `url` would have to be fetched, and nothing leaves the machine. Send the audio as `file`.',
      'url',
    );
  }
  if (!file) {
    if (fields.has('file')) fail("Invalid type for 'file': expected a file, but got a string instead.", 'file', 'invalid_type');
    fail("Missing required parameter: 'file'.", 'file', 'missing_required_parameter');
  }
  const extension = /\.([A-Za-z0-9]+)$/.exec(file.name)?.[1]?.toLowerCase();
  if (extension === undefined || !EXTENSIONS.includes(extension)) {
    fail(
      `Invalid file format. Supported formats: ${JSON.stringify(EXTENSIONS).replace(/"/g, "'").replace(/,/g, ', ')}`,
      'file',
      'invalid_value',
    );
  }
  return { name: file.name, type: file.type, bytes: file.bytes, sha256: createHash('sha256').update(file.bytes).digest('hex') };
}

function booleanOf(value: string | undefined, name: string): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  fail(`Invalid type for '${name}': expected a boolean, but got a string instead.`, name, 'invalid_type');
}

/** The form's request, or the 400 OpenAI answers (as a thrown refusal). */
export async function decodeTranscriptionForm(
  bytes: Uint8Array | undefined,
  contentType: string | undefined,
  task: TranscriptionRequest['task'],
  rules: TranscriptionRules,
  /** The route's model (Azure's deployment), which stands in for the form's. */
  routeModel?: string,
): Promise<TranscriptionRequest> {
  const fields = await readForm(bytes ?? new Uint8Array(), contentType);
  if (typeof fields === 'string') {
    if (contentType !== undefined && /^multipart\/form-data\s*;/i.test(contentType))
      fail(`Could not parse the multipart form: ${fields}.`, null);
    if (contentType !== undefined && /^multipart\/form-data\b/i.test(contentType))
      fail(
        `Invalid Content-Type header (${contentType}): a multipart/form-data body needs its boundary (multipart/form-data; boundary=…).`,
        null,
      );
    fail(`Invalid Content-Type header (${contentType ?? 'none'}), expected multipart/form-data: ${fields}.`, null);
  }
  const known = task === 'translate' ? TRANSLATION_FIELDS : TRANSCRIPTION_FIELDS;
  for (const name of fields.keys())
    if (!known.has(name) && !rules.fields?.includes(name)) fail(`Unrecognized request argument supplied: ${name}`, null);
  const file = fileOf(fields);
  const model = routeModel ?? text(fields, 'model');
  if (model === undefined || model === '') fail("Missing required parameter: 'model'.", 'model', 'missing_required_parameter');
  const given = text(fields, 'response_format');
  const format = given === undefined ? 'json' : expectEnum(given, ALL_FORMATS, 'response_format');
  const allowed = rules.formatsOf(model, task);
  if (!allowed.formats.includes(format)) reject(allowed.refuse(format));
  const temperature = text(fields, 'temperature');
  const granularities = [...(fields.get('timestamp_granularities[]') ?? []), ...(fields.get('timestamp_granularities') ?? [])].map(
    (field) => expectEnum(field.kind === 'text' ? field.value : undefined, GRANULARITIES, 'timestamp_granularities'),
  );
  if (granularities.length > 0 && format !== 'verbose_json') {
    fail('timestamp_granularities is only supported with response_format verbose_json.', 'timestamp_granularities', 'unsupported_value');
  }
  return {
    task,
    model,
    file,
    format,
    language: text(fields, 'language'),
    prompt: text(fields, 'prompt'),
    temperature: temperature === undefined ? 0 : expectNumber(temperature, 'temperature', TEMPERATURE),
    granularities: granularities.length > 0 ? [...new Set(granularities)] : ['segment'],
    stream: booleanOf(formText(fields, 'stream'), 'stream') && rules.streams(model),
  };
}

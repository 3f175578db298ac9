// `generationConfig`: sampling numbers with their proto types and documented ranges, the output
// format (JSON mode, a response schema), thinking, and what a stand-in answers with (one text
// candidate).

import type { ImageOutput, JsonSchema, OutputFormat } from '../../core/model.js';
import { isObject } from '../wire-kit/values.js';
import type { Bounds } from '../wire-kit/wording.js';
import { checkCompiles } from './decode-tools.js';
import { imageOutputOf } from './image-output.js';
import { normalizeOpenApiSchema } from './normalize-schema.js';
import { ENUM, field, onlyKnownFields, snake, unset } from './proto-fields.js';
import { checkMessage, IMAGE_CONFIG, SPEECH_CONFIG } from './proto-members.js';
import {
  expectArray,
  expectBoolean,
  expectEnum,
  expectInteger,
  expectNumber,
  expectObject,
  expectString,
  fieldRule,
  invalidValue,
  requestRule,
  unsupported,
} from './wording.js';

const GENERATION_FIELDS = new Set([
  'temperature',
  'topP',
  'topK',
  'candidateCount',
  'maxOutputTokens',
  'stopSequences',
  'responseLogprobs',
  'logprobs',
  'presencePenalty',
  'frequencyPenalty',
  'seed',
  'responseMimeType',
  'responseSchema',
  'responseJsonSchema',
  'responseModalities',
  'mediaResolution',
  'speechConfig',
  'thinkingConfig',
  'audioTranscriptionConfig',
  'imageConfig',
  'enableEnhancedCivicAnswers',
  // Vertex AI only, accepted on both.
  'routingConfig',
  'modelConfig',
  'audioTimestamp',
  'enableAffectiveDialog',
  'responseFormat',
  'translationConfig',
]);
const THINKING_FIELDS = new Set(['thinkingBudget', 'includeThoughts', 'thinkingLevel']);
const THINKING_LEVELS = ['THINKING_LEVEL_UNSPECIFIED', 'MINIMAL', 'LOW', 'MEDIUM', 'HIGH'] as const;
const MEDIA_RESOLUTIONS = [
  'MEDIA_RESOLUTION_UNSPECIFIED',
  'MEDIA_RESOLUTION_LOW',
  'MEDIA_RESOLUTION_MEDIUM',
  'MEDIA_RESOLUTION_HIGH',
] as const;

/** generationConfig's numbers: their proto type and documented range (an absent bound is open). */
const GENERATION_NUMBERS: Readonly<Record<string, readonly ['TYPE_FLOAT' | 'TYPE_INT32', Bounds]>> = {
  temperature: ['TYPE_FLOAT', { min: 0, max: 2 }],
  topP: ['TYPE_FLOAT', { min: 0, max: 1 }],
  presencePenalty: ['TYPE_FLOAT', { min: -2, max: 2 }],
  frequencyPenalty: ['TYPE_FLOAT', { min: -2, max: 2 }],
  topK: ['TYPE_INT32', { min: 1 }],
  seed: ['TYPE_INT32', {}],
  logprobs: ['TYPE_INT32', { min: 0, max: 20 }],
  maxOutputTokens: ['TYPE_INT32', { min: 0 }],
};
const GENERATION_BOOLEANS = ['responseLogprobs', 'enableEnhancedCivicAnswers', 'audioTimestamp', 'enableAffectiveDialog'] as const;
/** Members that are proto messages a text-only stand-in does not use: type-checked only. */
const GENERATION_MESSAGES = ['audioTranscriptionConfig', 'routingConfig', 'modelConfig', 'translationConfig'] as const;
/** The API documents up to 5 stop sequences. */
const MAX_STOP_SEQUENCES = 5;
/** -1 asks for a dynamic budget; otherwise a budget is a count of tokens. */
const THINKING_BUDGET = { min: -1 };
const MIME_TYPES = ['text/plain', 'application/json', 'text/x.enum', 'application/xml', 'application/yaml'];
const MODALITIES = ['MODALITY_UNSPECIFIED', 'TEXT', 'IMAGE', 'AUDIO'] as const;

/** An int32 field: a JSON integer (or a string of digits) within 32 bits, then within `range`. */
function expectInt32(value: unknown, at: string, range?: Bounds): number {
  const n = expectInteger(value, at, undefined, 'TYPE_INT32');
  if (n > 2147483647 || n < -2147483648) invalidValue(at, 'TYPE_INT32', value);
  return range === undefined ? n : expectInteger(n, at, range);
}

/** `vertex`: the request came in on a Vertex AI route, which words some limits its own way. */
export function decodeGenerationConfig(
  raw: unknown,
  vertex: boolean,
): { output: OutputFormat; maxOutputTokens?: number; imageOutput?: ImageOutput } {
  if (unset(raw)) return { output: { type: 'text' } };
  const at = 'generation_config';
  const config = expectObject(raw, at);
  onlyKnownFields(config, GENERATION_FIELDS, at);
  const get = (name: string) => field(config, name);
  const path = (name: string) => `${at}.${snake(name)}`;

  for (const name in GENERATION_NUMBERS) {
    const value = get(name);
    if (unset(value)) continue;
    const [proto, range] = GENERATION_NUMBERS[name];
    if (proto === 'TYPE_INT32') expectInt32(value, path(name), range);
    else expectNumber(value, path(name), range, proto);
  }
  if (!unset(get('mediaResolution'))) {
    expectEnum(get('mediaResolution'), MEDIA_RESOLUTIONS, path('mediaResolution'), `${ENUM}MediaResolution`);
  }
  for (const name of GENERATION_BOOLEANS) if (!unset(get(name))) expectBoolean(get(name), path(name));
  for (const name of GENERATION_MESSAGES) if (!unset(get(name))) expectObject(get(name), path(name));
  if (!unset(get('speechConfig'))) checkMessage(get('speechConfig'), path('speechConfig'), SPEECH_CONFIG);
  if (!unset(get('imageConfig'))) checkMessage(get('imageConfig'), path('imageConfig'), IMAGE_CONFIG);
  if (!unset(get('candidateCount'))) {
    const n = expectInteger(get('candidateCount'), path('candidateCount'), undefined, 'TYPE_INT32');
    if (n !== 1) unsupported(path('candidateCount'), `Understudy answers with exactly one candidate; candidateCount must be 1 (got ${n}).`);
  }
  let maxOutputTokens: number | undefined;
  if (!unset(get('maxOutputTokens'))) {
    const n = Number(get('maxOutputTokens'));
    if (n > 0) maxOutputTokens = n;
  }
  if (!unset(get('stopSequences'))) {
    const p = path('stopSequences');
    const sequences = expectArray(get('stopSequences'), p);
    sequences.forEach((s, k) => expectString(s, `${p}[${k}]`));
    if (sequences.length > MAX_STOP_SEQUENCES) {
      if (vertex) {
        requestRule(
          `Unable to submit request because it has a stopSequences value of ${sequences.length} but the supported range is from 1 (inclusive) to ${MAX_STOP_SEQUENCES + 1} (exclusive). Update the value and try again.`,
        );
      }
      fieldRule(p, `the number of stop_sequences must not exceed ${MAX_STOP_SEQUENCES}`);
    }
  }
  const modalities: string[] = [];
  if (!unset(get('responseModalities'))) {
    const p = path('responseModalities');
    expectArray(get('responseModalities'), p).forEach((m, k) => {
      const modality = expectEnum(
        m,
        MODALITIES,
        `${p}[${k}]`,
        'type.googleapis.com/google.ai.generativelanguage.v1beta.GenerationConfig.Modality',
      );
      if (modality === 'AUDIO') {
        unsupported(`${p}[${k}]`, `Understudy answers with text and images only; responseModalities ${modality} is not supported.`);
      }
      modalities.push(modality);
    });
  }
  const imageOutput = imageOutputOf(modalities, get('imageConfig'), at);
  if (!unset(get('thinkingConfig'))) {
    const p = path('thinkingConfig');
    const thinking = expectObject(get('thinkingConfig'), p);
    onlyKnownFields(thinking, THINKING_FIELDS, p);
    if (!unset(field(thinking, 'thinkingBudget'))) {
      expectInt32(field(thinking, 'thinkingBudget'), `${p}.thinking_budget`, THINKING_BUDGET);
    }
    if (!unset(field(thinking, 'includeThoughts'))) expectBoolean(field(thinking, 'includeThoughts'), `${p}.include_thoughts`);
    if (!unset(field(thinking, 'thinkingLevel'))) {
      expectEnum(field(thinking, 'thinkingLevel'), THINKING_LEVELS, `${p}.thinking_level`, `${ENUM}ThinkingConfig.ThinkingLevel`);
    }
  }

  let mimeType = 'text/plain';
  if (!unset(get('responseMimeType'))) {
    mimeType = expectString(get('responseMimeType'), path('responseMimeType'));
    if (!MIME_TYPES.includes(mimeType)) {
      fieldRule(path('responseMimeType'), `unsupported mime type ${JSON.stringify(mimeType)}; allowed: ${MIME_TYPES.join(', ')}`);
    }
  }
  const openApi = get('responseSchema');
  const jsonSchema = get('responseJsonSchema');
  if (!unset(openApi) && !unset(jsonSchema)) {
    fieldRule(path('responseJsonSchema'), 'response_schema and response_json_schema are mutually exclusive; set only one');
  }
  let schema: JsonSchema | undefined;
  if (!unset(openApi)) {
    if (mimeType !== 'application/json' && mimeType !== 'text/x.enum') {
      fieldRule(
        path('responseSchema'),
        `response_mime_type must be application/json or text/x.enum when response_schema is set (it is ${mimeType})`,
      );
    }
    schema = normalizeOpenApiSchema(openApi, path('responseSchema'));
    checkCompiles(schema, path('responseSchema'));
  } else if (!unset(jsonSchema)) {
    if (mimeType !== 'application/json') {
      fieldRule(
        path('responseJsonSchema'),
        `response_mime_type must be application/json when response_json_schema is set (it is ${mimeType})`,
      );
    }
    if (!isObject(jsonSchema) && typeof jsonSchema !== 'boolean') fieldRule(path('responseJsonSchema'), 'must be a JSON Schema');
    schema = jsonSchema as JsonSchema;
    checkCompiles(schema, path('responseJsonSchema'));
  }
  // JSON mode without a schema asks for any JSON value; text/x.enum answers are plain text.
  const output: OutputFormat = mimeType === 'application/json' ? { type: 'json_schema', schema: schema ?? {} } : { type: 'text' };
  return { output, ...(maxOutputTokens !== undefined && { maxOutputTokens }), ...(imageOutput && { imageOutput }) };
}

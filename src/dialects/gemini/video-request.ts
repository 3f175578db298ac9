// The Gemini API's Veo request, `models/{model}:predictLongRunning`, as @google/genai sends it:
// `{instances: [{prompt, image?, lastFrame?, video?, referenceImages?}], parameters: {sampleCount?,
// durationSeconds?, aspectRatio?, resolution?, personGeneration?, negativePrompt?, enhancePrompt?}}`,
// checked in Google's words (unknown fields, proto types, the enums and ranges Veo takes); and
// Vertex AI's, which takes a few fields more (storageUri, fps, seed, generateAudio…).

import { invalidRequest } from '../../core/errors.js';
import { reject } from '../wire-kit/wire-error.js';
import { field, join, onlyKnownFields, unset } from './proto-fields.js';
import { expectArray, expectBoolean, expectInteger, expectObject, expectString, INVALID_ARGUMENT, requestRule } from './wording.js';

const BODY_FIELDS = new Set(['instances', 'parameters']);
const INSTANCE_FIELDS = new Set(['prompt', 'image', 'lastFrame', 'video', 'referenceImages']);
const PARAMETER_FIELDS = new Set([
  'sampleCount',
  'durationSeconds',
  'aspectRatio',
  'resolution',
  'personGeneration',
  'negativePrompt',
  'enhancePrompt',
  'webhookConfig',
]);
const ASPECT_RATIOS = ['16:9', '9:16'];
const RESOLUTIONS = ['720p', '1080p'];
const PERSON_GENERATION = ['allow_all', 'allow_adult', 'dont_allow'];
// What Vertex AI's Veo takes besides (@google/genai sends these only there).
const VERTEX_BODY_FIELDS = new Set([...BODY_FIELDS, 'labels']);
const VERTEX_INSTANCE_FIELDS = new Set([...INSTANCE_FIELDS, 'mask']);
const VERTEX_PARAMETER_FIELDS = new Set([
  ...PARAMETER_FIELDS,
  'storageUri',
  'fps',
  'seed',
  'generateAudio',
  'compressionQuality',
  'resizeMode',
  'pubsubTopic',
]);

export interface VeoRequest {
  prompt: string;
  samples: number;
  seconds: number;
  width: number;
  height: number;
  /** Bytes of the images and video the instance carries inline. */
  referenceBytes: number;
  /** Vertex AI: the Cloud Storage prefix the videos are to be written under. */
  storageUri?: string;
}

function oneOf(value: unknown, allowed: readonly string[], at: string): string {
  const text = expectString(value, at);
  if (!allowed.includes(text)) {
    reject(invalidRequest(`${at} must be one of ${allowed.map((a) => `'${a}'`).join(', ')}; got '${text}'.`, at, INVALID_ARGUMENT));
  }
  return text;
}

/** Inline bytes of an image or video (`bytesBase64Encoded`), 0 for one named by URI. */
function inlineBytes(value: unknown, at: string): number {
  if (unset(value)) return 0;
  const o = expectObject(value, at);
  const b64 = field(o, 'bytesBase64Encoded') ?? field(o, 'encodedVideo');
  return typeof b64 === 'string' ? Buffer.byteLength(b64, 'base64') : 0;
}

/** The request, on the Gemini API or (`vertex`) on Vertex AI, which takes a few fields more. */
export function decodeVeoRequest(body: unknown, vertex = false): VeoRequest {
  const o = expectObject(body, '');
  onlyKnownFields(o, vertex ? VERTEX_BODY_FIELDS : BODY_FIELDS, '');
  const rawInstances = field(o, 'instances');
  if (unset(rawInstances)) requestRule('instances is required.', 'instances');
  const instances = expectArray(rawInstances, 'instances');
  if (instances.length !== 1) requestRule(`Exactly one instance is supported; got ${instances.length}.`, 'instances');
  const instance = expectObject(instances[0], 'instances[0]');
  onlyKnownFields(instance, vertex ? VERTEX_INSTANCE_FIELDS : INSTANCE_FIELDS, 'instances[0]');
  const rawPrompt = field(instance, 'prompt');
  const prompt = unset(rawPrompt) ? '' : expectString(rawPrompt, 'instances[0].prompt');
  const image = field(instance, 'image');
  if (prompt === '' && unset(image)) requestRule('A prompt or an image is required.', 'instances[0].prompt');
  let referenceBytes = inlineBytes(image, 'instances[0].image') + inlineBytes(field(instance, 'lastFrame'), 'instances[0].last_frame');
  referenceBytes += inlineBytes(field(instance, 'video'), 'instances[0].video');
  const references = field(instance, 'referenceImages');
  if (!unset(references)) {
    expectArray(references, 'instances[0].reference_images').forEach((ref, i) => {
      const at = `instances[0].reference_images[${i}]`;
      referenceBytes += inlineBytes(field(expectObject(ref, at), 'image'), join(at, 'image'));
    });
  }

  const rawParameters = field(o, 'parameters');
  const parameters = unset(rawParameters) ? {} : expectObject(rawParameters, 'parameters');
  onlyKnownFields(parameters, vertex ? VERTEX_PARAMETER_FIELDS : PARAMETER_FIELDS, 'parameters');
  const get = (name: string) => field(parameters, name);
  const samples = unset(get('sampleCount')) ? 1 : expectInteger(get('sampleCount'), 'parameters.sample_count', { min: 1, max: 4 });
  const seconds = unset(get('durationSeconds'))
    ? 8
    : expectInteger(get('durationSeconds'), 'parameters.duration_seconds', { min: 4, max: 8 });
  const aspect = unset(get('aspectRatio')) ? '16:9' : oneOf(get('aspectRatio'), ASPECT_RATIOS, 'parameters.aspect_ratio');
  const resolution = unset(get('resolution')) ? '720p' : oneOf(get('resolution'), RESOLUTIONS, 'parameters.resolution');
  if (!unset(get('personGeneration'))) oneOf(get('personGeneration'), PERSON_GENERATION, 'parameters.person_generation');
  if (!unset(get('negativePrompt'))) expectString(get('negativePrompt'), 'parameters.negative_prompt');
  if (!unset(get('enhancePrompt'))) expectBoolean(get('enhancePrompt'), 'parameters.enhance_prompt');
  const storageUri = unset(get('storageUri')) ? undefined : expectString(get('storageUri'), 'parameters.storage_uri');
  const long = resolution === '1080p' ? 1920 : 1280;
  const short = resolution === '1080p' ? 1080 : 720;
  return {
    prompt,
    samples,
    seconds,
    width: aspect === '16:9' ? long : short,
    height: aspect === '16:9' ? short : long,
    referenceBytes,
    ...(storageUri !== undefined && { storageUri }),
  };
}

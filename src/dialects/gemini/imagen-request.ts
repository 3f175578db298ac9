// Imagen's `:predict` request, on the Gemini API and on Vertex AI: `{ instances: [{ prompt }],
// parameters: { sampleCount, aspectRatio, sampleImageSize, outputOptions: { mimeType,
// compressionQuality }, … } }` (what @google/genai's generateImages and @ai-sdk/google's Imagen
// model send), checked in Google's words: unknown fields, wrong proto types, sampleCount 1 to 4,
// the aspect ratios and sizes Imagen makes, the PNG and JPEG output types.

import { isObject } from '../wire-kit/values.js';
import { field, join, onlyKnownFields, unset } from './proto-fields.js';
import { expectArray, expectBoolean, expectEnum, expectInteger, expectNumber, expectObject, expectString, requestRule } from './wording.js';

export interface ImagenRequest {
  model: string;
  prompt: string;
  sampleCount: number;
  width: number;
  height: number;
  mimeType: 'image/png' | 'image/jpeg';
}

const ROOT_FIELDS = new Set(['instances', 'parameters', 'labels']);
const INSTANCE_FIELDS = new Set(['prompt']);
const PARAMETER_FIELDS = new Set([
  'sampleCount',
  'aspectRatio',
  'sampleImageSize',
  'outputOptions',
  'negativePrompt',
  'guidanceScale',
  'seed',
  'safetySetting',
  'personGeneration',
  'includeSafetyAttributes',
  'includeRaiReason',
  'language',
  'addWatermark',
  'enhancePrompt',
  'storageUri',
]);
const OUTPUT_FIELDS = new Set(['mimeType', 'compressionQuality']);

export const ASPECT_RATIOS = ['1:1', '3:4', '4:3', '9:16', '16:9'] as const;
type AspectRatio = (typeof ASPECT_RATIOS)[number];
const IMAGE_SIZES = ['1K', '2K'] as const;
export const MAX_SAMPLES = 4;

/** The pixel size of each aspect ratio at 1K and 2K, as Google documents Imagen's outputs. */
const DIMENSIONS: Record<AspectRatio, Record<(typeof IMAGE_SIZES)[number], [number, number]>> = {
  '1:1': { '1K': [1024, 1024], '2K': [2048, 2048] },
  '3:4': { '1K': [896, 1280], '2K': [1792, 2560] },
  '4:3': { '1K': [1280, 896], '2K': [2560, 1792] },
  '9:16': { '1K': [768, 1408], '2K': [1536, 2816] },
  '16:9': { '1K': [1408, 768], '2K': [2816, 1536] },
};

const PERSON_GENERATION = ['DONT_ALLOW', 'ALLOW_ADULT', 'ALLOW_ALL'] as const;
const SAFETY_SETTINGS = ['BLOCK_LOW_AND_ABOVE', 'BLOCK_MEDIUM_AND_ABOVE', 'BLOCK_ONLY_HIGH', 'BLOCK_NONE'] as const;
const MIME_TYPES = ['image/png', 'image/jpeg'] as const;

/** Imagen models by name: what Vertex's `:predict` answers as images rather than embeddings. */
export function isImagenModel(model: string): boolean {
  return model.startsWith('imagen-');
}

function optionalString(o: Record<string, unknown>, name: string, at: string): void {
  const value = field(o, name);
  if (!unset(value)) expectString(value, join(at, name));
}

function optionalBoolean(o: Record<string, unknown>, name: string, at: string): void {
  const value = field(o, name);
  if (!unset(value)) expectBoolean(value, join(at, name));
}

function parametersOf(raw: unknown) {
  const p = unset(raw) ? {} : expectObject(raw, 'parameters');
  onlyKnownFields(p, PARAMETER_FIELDS, 'parameters');
  const count = field(p, 'sampleCount');
  const sampleCount = unset(count) ? 1 : expectInteger(count, 'parameters.sampleCount', { min: 1, max: MAX_SAMPLES }, 'TYPE_INT32');
  const rawRatio = field(p, 'aspectRatio');
  let aspectRatio: AspectRatio = '1:1';
  if (!unset(rawRatio)) {
    const ratio = expectString(rawRatio, 'parameters.aspectRatio');
    if (!(ASPECT_RATIOS as readonly string[]).includes(ratio)) {
      requestRule(
        `aspectRatio ${JSON.stringify(ratio)} is not supported: use one of ${ASPECT_RATIOS.join(', ')}.`,
        'parameters.aspectRatio',
      );
    }
    aspectRatio = ratio as AspectRatio;
  }
  const rawSize = field(p, 'sampleImageSize');
  let imageSize: (typeof IMAGE_SIZES)[number] = '1K';
  if (!unset(rawSize)) {
    const size = expectString(rawSize, 'parameters.sampleImageSize');
    if (!(IMAGE_SIZES as readonly string[]).includes(size)) {
      requestRule(`sampleImageSize ${JSON.stringify(size)} is not supported: use 1K or 2K.`, 'parameters.sampleImageSize');
    }
    imageSize = size as (typeof IMAGE_SIZES)[number];
  }
  let mimeType: ImagenRequest['mimeType'] = 'image/png';
  const rawOutput = field(p, 'outputOptions');
  if (!unset(rawOutput)) {
    const output = expectObject(rawOutput, 'parameters.outputOptions');
    onlyKnownFields(output, OUTPUT_FIELDS, 'parameters.outputOptions');
    const rawMime = field(output, 'mimeType');
    if (!unset(rawMime)) {
      const mime = expectString(rawMime, 'parameters.outputOptions.mimeType');
      if (!(MIME_TYPES as readonly string[]).includes(mime)) {
        requestRule(
          `Output mime type ${JSON.stringify(mime)} is not supported: use image/png or image/jpeg.`,
          'parameters.outputOptions.mimeType',
        );
      }
      mimeType = mime as ImagenRequest['mimeType'];
    }
    const quality = field(output, 'compressionQuality');
    if (!unset(quality)) expectInteger(quality, 'parameters.outputOptions.compressionQuality', { min: 0, max: 100 }, 'TYPE_INT32');
  }
  const guidance = field(p, 'guidanceScale');
  if (!unset(guidance)) expectNumber(guidance, 'parameters.guidanceScale', undefined, 'TYPE_FLOAT');
  const seed = field(p, 'seed');
  if (!unset(seed)) expectInteger(seed, 'parameters.seed', { min: 0, max: 2 ** 32 - 1 }, 'TYPE_UINT32');
  const person = field(p, 'personGeneration');
  if (!unset(person)) expectEnum(person, PERSON_GENERATION, 'parameters.personGeneration');
  const safety = field(p, 'safetySetting');
  if (!unset(safety)) expectEnum(safety, SAFETY_SETTINGS, 'parameters.safetySetting');
  for (const name of ['negativePrompt', 'language', 'storageUri']) optionalString(p, name, 'parameters');
  for (const name of ['includeSafetyAttributes', 'includeRaiReason', 'addWatermark', 'enhancePrompt'])
    optionalBoolean(p, name, 'parameters');
  const [width, height] = DIMENSIONS[aspectRatio][imageSize];
  return { sampleCount, width, height, mimeType };
}

export function decodeImagenPredict(body: unknown, model: string): ImagenRequest {
  if (!isObject(body)) requestRule('Invalid JSON payload received. Root element must be a message.');
  onlyKnownFields(body, ROOT_FIELDS, '');
  const raw = field(body, 'instances');
  const instances = unset(raw) ? [] : expectArray(raw, 'instances');
  if (instances.length !== 1) requestRule('Imagen takes exactly one instance: instances must hold one prompt.', 'instances');
  const instance = expectObject(instances[0], 'instances[0]');
  onlyKnownFields(instance, INSTANCE_FIELDS, 'instances[0]');
  const rawPrompt = field(instance, 'prompt');
  if (unset(rawPrompt)) requestRule('instances[0].prompt is required.', 'instances[0].prompt');
  const prompt = expectString(rawPrompt, 'instances[0].prompt');
  if (prompt.trim() === '') requestRule('instances[0].prompt must not be empty.', 'instances[0].prompt');
  const labels = field(body, 'labels');
  if (!unset(labels)) expectObject(labels, 'labels');
  return { model, prompt, ...parametersOf(field(body, 'parameters')) };
}

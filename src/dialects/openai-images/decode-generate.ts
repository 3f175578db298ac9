// OpenAI's image generation request (`POST /v1/images/generations`, JSON), checked as OpenAI
// checks it: `prompt` required; the other members by the model family's rules (image-options.ts);
// a member OpenAI does not know is refused by name.

import { invalidRequest } from '../../core/errors.js';
import { fail } from '../openai/checks.js';
import { typeName } from '../openai/wording.js';
import { isObject } from '../wire-kit/values.js';
import { reject } from '../wire-kit/wire-error.js';
import type { ImageFamily } from './models.js';
import { familyOrRefuse, JSON_READER, modelOf, promptOf, readImageOptions, refuseUnknown, type ImageRequest } from './image-options.js';

const GENERATE_MEMBERS = new Set([
  'prompt',
  'model',
  'n',
  'quality',
  'response_format',
  'output_format',
  'output_compression',
  'stream',
  'partial_images',
  'size',
  'moderation',
  'background',
  'style',
  'user',
  // openai 7's members for newer models: taken, not acted on.
  'safety_identifier',
  'complexity',
  'frame_count',
  'frame_duration_ms',
  'svg',
]);

/** `routeModel`: the model an Azure deployment route names; `fallback`: the family of a model no
 * family has (a deployment's own name). */
export function decodeImageGeneration(body: unknown, routeModel?: string, fallback?: ImageFamily): ImageRequest {
  if (body === undefined) fail('We could not parse the JSON body of your request.', null);
  if (!isObject(body)) {
    reject(invalidRequest(`Invalid type for body: expected an object, but got ${typeName(body)} instead.`, null, 'invalid_type'));
  }
  refuseUnknown(body, GENERATE_MEMBERS);
  const prompt = promptOf(body);
  const model = modelOf(body, 'generate', routeModel);
  const family = familyOrRefuse(model, body, fallback);
  return readImageOptions(body, { operation: 'generate', model, family, prompt, inputImages: 0 }, JSON_READER);
}

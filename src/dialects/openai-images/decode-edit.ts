// OpenAI's image edit request (`POST /v1/images/edits`) in both of its forms: multipart (the
// SDKs' `images.edit`: `image` or `image[]` files, an optional `mask` file, the other members as
// text) and JSON (`images` and `mask` as references by `image_url` or `file_id`; GPT image models
// only). Files are checked by their first bytes: PNG, JPEG or WebP; for dall-e-2 one square PNG.

import { imageKindOf } from '../../core/scripted-image.js';
import { expectArray, expectObject, expectString, fail } from '../openai/checks.js';
import { typeName } from '../openai/wording.js';
import { formFiles, readForm, type FormFields } from '../wire-kit/multipart.js';
import { isObject } from '../wire-kit/values.js';
import type { ImageFamily } from './models.js';
import {
  familyOrRefuse,
  FORM_READER,
  JSON_READER,
  modelOf,
  promptOf,
  readImageOptions,
  refuseUnknown,
  type ImageRequest,
} from './image-options.js';

type FormFile = ReturnType<typeof formFiles>[number];

const EDIT_MEMBERS = [
  'prompt',
  'model',
  'n',
  'size',
  'quality',
  'response_format',
  'output_format',
  'output_compression',
  'background',
  'moderation',
  'input_fidelity',
  'stream',
  'partial_images',
  'user',
  // openai 7's and the AI SDK's members for newer models: taken, not acted on.
  'safety_identifier',
  'complexity',
  'markup',
];
const FORM_MEMBERS = new Set([...EDIT_MEMBERS, 'image', 'image[]', 'mask', 'svg[model]', 'svg[reasoning][effort]']);
const JSON_MEMBERS = new Set([...EDIT_MEMBERS, 'images', 'mask', 'svg']);
const MAX_IMAGES = 16;

/** A PNG's width and height, from its header. */
function pngSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  if (bytes.length < 24) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

function checkFiles(images: FormFile[], mask: FormFile[], family: ImageFamily): void {
  if (images.length > MAX_IMAGES)
    fail(
      `Invalid 'image': array too long. Expected an array with maximum length ${MAX_IMAGES}, but got an array with length ${images.length} instead.`,
      'image',
      'array_above_max_length',
    );
  images.forEach((file, i) => {
    const kind = imageKindOf(file.bytes);
    if (!kind)
      fail(
        `Invalid image file for image ${i + 1} ('${file.name}'): expected a PNG, JPEG or WebP image; its bytes are none of those.`,
        'image',
        'invalid_image_format',
      );
    if (family !== 'dall-e-2') return;
    const size = kind === 'png' ? pngSize(file.bytes) : undefined;
    if (!size) fail(`Invalid image file for image ${i + 1}: dall-e-2 edits take a PNG image.`, 'image', 'invalid_image_format');
    if (size.width !== size.height)
      fail(
        `Invalid image for image ${i + 1}: dall-e-2 edits take a square image; found ${size.width}x${size.height}.`,
        'image',
        'invalid_image_format',
      );
  });
  if (family === 'dall-e-2' && images.length > 1) fail('dall-e-2 edits take exactly one image.', 'image', 'invalid_value');
  if (mask.length > 1) fail("Invalid 'mask': expected one file.", 'mask', 'invalid_value');
  if (mask.length === 1 && imageKindOf(mask[0].bytes) !== 'png')
    fail("Invalid 'mask': the mask must be a PNG image.", 'mask', 'invalid_image_format');
}

/** The text members of a form as an object (a file under a text member's name is refused). */
function textMembers(fields: FormFields): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const [name, values] of fields) {
    if (name === 'image' || name === 'image[]' || name === 'mask') {
      if (values.some((v) => v.kind === 'text'))
        fail(`Invalid type for '${name}': expected a file, but got a string instead.`, name, 'invalid_type');
      continue;
    }
    const first = values[0];
    if (first.kind === 'file') fail(`Invalid type for '${name}': expected a string, but got a file instead.`, name, 'invalid_type');
    o[name] = first.value;
  }
  return o;
}

async function decodeForm(
  bytes: Uint8Array,
  contentType: string | undefined,
  routeModel: string | undefined,
  fallback: ImageFamily | undefined,
): Promise<ImageRequest> {
  const fields = await readForm(bytes, contentType);
  if (typeof fields === 'string') fail(`Invalid request body: ${fields}.`, null, 'invalid_request_body');
  const o = textMembers(fields);
  refuseUnknown(Object.fromEntries([...fields.keys()].map((k) => [k, true])), FORM_MEMBERS);
  const images = formFiles(fields, 'image', 'image[]');
  const prompt = promptOf(o);
  if (images.length === 0) fail("Missing required parameter: 'image'.", 'image', 'missing_required_parameter');
  const model = modelOf(o, 'edit', routeModel);
  const family = familyOrRefuse(model, o, fallback);
  if (family === 'dall-e-3') fail("Invalid value: 'dall-e-3'. Image edits take dall-e-2 or a GPT image model.", 'model', 'invalid_value');
  checkFiles(images, formFiles(fields, 'mask'), family);
  return readImageOptions(o, { operation: 'edit', model, family, prompt, inputImages: images.length }, FORM_READER);
}

function checkReference(value: unknown, path: string): void {
  const o = expectObject(value, path);
  const keys = Object.keys(o);
  if (keys.length !== 1 || (keys[0] !== 'image_url' && keys[0] !== 'file_id'))
    fail(`Invalid '${path}': expected an object with exactly one of 'image_url' and 'file_id'.`, path, 'invalid_value');
  expectString(o[keys[0]], `${path}.${keys[0]}`);
}

function decodeJson(text: string, routeModel: string | undefined, fallback: ImageFamily | undefined): ImageRequest {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    fail('We could not parse the JSON body of your request.', null);
  }
  if (!isObject(body)) fail(`Invalid type for body: expected an object, but got ${typeName(body)} instead.`, null, 'invalid_type');
  refuseUnknown(body, JSON_MEMBERS);
  const prompt = promptOf(body);
  if (body.images === undefined) fail("Missing required parameter: 'images'.", 'images', 'missing_required_parameter');
  const images = expectArray(body.images, 'images');
  if (images.length === 0 || images.length > MAX_IMAGES)
    fail(
      `Invalid 'images': expected an array of 1 to ${MAX_IMAGES} image references, but got an array with length ${images.length} instead.`,
      'images',
      images.length === 0 ? 'empty_array' : 'array_above_max_length',
    );
  images.forEach((image, i) => checkReference(image, `images[${i}]`));
  if (body.mask !== undefined && body.mask !== null) checkReference(body.mask, 'mask');
  const model = modelOf(body, 'edit', routeModel);
  const family = familyOrRefuse(model, body, fallback);
  if (family !== 'gpt-image')
    fail(`Invalid value: '${model}'. JSON image edits take a GPT image model; send dall-e-2 edits as multipart.`, 'model', 'invalid_value');
  return readImageOptions(body, { operation: 'edit', model, family, prompt, inputImages: images.length }, JSON_READER);
}

/** The edit request of a body of either form, by its content type. */
export async function decodeImageEdit(
  bytes: Uint8Array,
  contentType: string | undefined,
  routeModel?: string,
  fallback?: ImageFamily,
): Promise<ImageRequest> {
  if (contentType && /^application\/json\b/i.test(contentType))
    return decodeJson(Buffer.from(bytes).toString('utf8'), routeModel, fallback);
  return decodeForm(bytes, contentType, routeModel, fallback);
}

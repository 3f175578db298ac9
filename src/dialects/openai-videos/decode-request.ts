// What OpenAI's video routes read, checked as its published description says: a create's prompt,
// model, seconds, size and input reference (multipart, as the SDK sends it, or JSON), a remix's
// prompt, a list's order, limit and cursor. Refusals are OpenAI's 400s.

import { invalidRequest, type NeutralError } from '../../core/errors.js';
import { expectEnum, expectInteger, expectLength, expectObject, expectString, fail } from '../openai/checks.js';
import { refusalOr } from '../wire-kit/wire-error.js';
import { formText, readForm, type FormFields } from '../wire-kit/multipart.js';

export const VIDEO_MODELS = ['sora-2', 'sora-2-pro', 'sora-2-2025-10-06', 'sora-2-pro-2025-10-06', 'sora-2-2025-12-08'] as const;
export const VIDEO_SECONDS = ['4', '8', '12'] as const;
export const VIDEO_SIZES = ['720x1280', '1280x720', '1024x1792', '1792x1024'] as const;
const PROMPT_MAX = 32000;

export interface VideoCreate {
  prompt: string;
  model: string;
  seconds: number;
  width: number;
  height: number;
  /** Bytes of the input reference as sent (an upload's bytes, a URL's or file id's characters). */
  referenceBytes: number;
}

function sizeOf(size: string): { width: number; height: number } {
  const [width, height] = size.split('x').map(Number);
  return { width, height };
}

function checked(fields: { prompt: unknown; model: unknown; seconds: unknown; size: unknown }, referenceBytes: number): VideoCreate {
  if (fields.prompt === undefined) fail("Missing required parameter: 'prompt'.", 'prompt', 'missing_required_parameter');
  const prompt = expectLength(expectString(fields.prompt, 'prompt'), 'prompt', { min: 1, max: PROMPT_MAX });
  const model = fields.model === undefined ? 'sora-2' : expectEnum(fields.model, VIDEO_MODELS, 'model');
  const seconds = fields.seconds === undefined ? '4' : expectEnum(fields.seconds, VIDEO_SECONDS, 'seconds');
  const size = fields.size === undefined ? '720x1280' : expectEnum(fields.size, VIDEO_SIZES, 'size');
  return { prompt, model, seconds: Number(seconds), ...sizeOf(size), referenceBytes };
}

/** An input reference object: exactly one of image_url and file_id; its characters count. */
function referenceObject(value: unknown, path: string): number {
  const o = expectObject(value, path);
  for (const key of Object.keys(o)) {
    if (key !== 'image_url' && key !== 'file_id') fail(`Unknown parameter: '${path}.${key}'.`, `${path}.${key}`, 'unknown_parameter');
  }
  const url = o.image_url === undefined ? undefined : expectString(o.image_url, `${path}.image_url`);
  const file = o.file_id === undefined ? undefined : expectString(o.file_id, `${path}.file_id`);
  if ((url === undefined) === (file === undefined)) {
    fail(`Invalid '${path}': provide exactly one of 'image_url' or 'file_id'.`, path, 'invalid_value');
  }
  return Buffer.byteLength(url ?? file ?? '');
}

const CREATE_FIELDS = new Set(['prompt', 'model', 'seconds', 'size', 'input_reference']);

function fromForm(fields: FormFields): VideoCreate {
  const text = (name: string) => {
    const field = fields.get(name)?.[0];
    if (field?.kind === 'file') fail(`Invalid type for '${name}': expected a string, but got a file instead.`, name, 'invalid_type');
    return formText(fields, name);
  };
  let referenceBytes = 0;
  const reference = fields.get('input_reference')?.[0];
  const url = formText(fields, 'input_reference[image_url]');
  const file = formText(fields, 'input_reference[file_id]');
  if (reference?.kind === 'file') referenceBytes = reference.bytes.length;
  else if (reference?.kind === 'text') referenceBytes = referenceObject(parseJson(reference.value), 'input_reference');
  else if (url !== undefined || file !== undefined) {
    referenceBytes = referenceObject(
      { ...(url !== undefined && { image_url: url }), ...(file !== undefined && { file_id: file }) },
      'input_reference',
    );
  }
  for (const name of fields.keys()) {
    if (!CREATE_FIELDS.has(name) && !name.startsWith('input_reference[')) fail(`Unknown parameter: '${name}'.`, name, 'unknown_parameter');
  }
  return checked({ prompt: text('prompt'), model: text('model'), seconds: text('seconds'), size: text('size') }, referenceBytes);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function fromJson(body: unknown): VideoCreate {
  const o = expectObject(body, 'body', 'a JSON object');
  for (const key of Object.keys(o)) if (!CREATE_FIELDS.has(key)) fail(`Unknown parameter: '${key}'.`, key, 'unknown_parameter');
  const referenceBytes = o.input_reference === undefined ? 0 : referenceObject(o.input_reference, 'input_reference');
  return checked({ prompt: o.prompt, model: o.model, seconds: o.seconds, size: o.size }, referenceBytes);
}

/** A create, from its body: multipart (the SDK's way) or JSON. */
export async function decodeVideoCreate(bytes: Buffer, contentType: string | undefined): Promise<VideoCreate | NeutralError> {
  if (contentType && /^application\/json\b/i.test(contentType)) {
    let body: unknown;
    try {
      body = JSON.parse(bytes.toString('utf8'));
    } catch (e) {
      return invalidRequest(
        `We could not parse the JSON body of your request: ${(e as Error).message}. The API expects a JSON payload.`,
        null,
        'invalid_json',
      );
    }
    return refusalOr(() => fromJson(body));
  }
  const fields = await readForm(bytes, contentType);
  if (typeof fields === 'string') return invalidRequest(`Invalid request: ${fields}.`, null, 'invalid_request');
  return refusalOr(() => fromForm(fields));
}

/** A remix's prompt (JSON, as the SDK sends it without a file). */
export function decodeVideoRemix(body: unknown): string | NeutralError {
  return refusalOr(() => {
    const o = expectObject(body, 'body', 'a JSON object');
    for (const key of Object.keys(o)) if (key !== 'prompt') fail(`Unknown parameter: '${key}'.`, key, 'unknown_parameter');
    if (o.prompt === undefined) fail("Missing required parameter: 'prompt'.", 'prompt', 'missing_required_parameter');
    return expectLength(expectString(o.prompt, 'prompt'), 'prompt', { min: 1, max: PROMPT_MAX });
  });
}

export interface VideoListQuery {
  order: 'asc' | 'desc';
  limit: number;
  after: string | undefined;
}

/** A list's query: order (default desc), limit 0 to 100 (default 20), after. */
export function decodeVideoList(query: URLSearchParams): VideoListQuery | NeutralError {
  return refusalOr(() => {
    const order = query.get('order');
    const limit = query.get('limit');
    let n = 20;
    if (limit !== null) {
      if (!/^-?\d+$/.test(limit)) fail(`Invalid 'limit': expected an integer, but got '${limit}' instead.`, 'limit', 'invalid_type');
      n = expectInteger(Number(limit), 'limit', { min: 0, max: 100 });
    }
    return {
      order: order === null ? 'desc' : expectEnum(order, ['asc', 'desc'] as const, 'order'),
      limit: n,
      after: query.get('after') ?? undefined,
    };
  });
}

export const VARIANTS = ['video', 'thumbnail', 'spritesheet'] as const;
export type VideoVariant = (typeof VARIANTS)[number];

export function decodeVariant(query: URLSearchParams): VideoVariant | NeutralError {
  const variant = query.get('variant');
  return variant === null ? 'video' : refusalOr(() => expectEnum(variant, VARIANTS, 'variant'));
}

// The members an OpenAI image request shares between generations and edits, checked as OpenAI
// checks them (its published API description): `prompt`, `model`, `n`, `size`, `quality`,
// `response_format`, and the GPT image models' own `output_format`, `output_compression`,
// `background`, `moderation`, `stream`, `partial_images` — each against the model family's rules.
// A multipart edit's values arrive as strings: its reader takes "2" for 2 and "true" for true.

import { invalidRequest } from '../../core/errors.js';
import { expectEnum, expectString, fail, required } from '../openai/checks.js';
import { listValues, OPENAI_WORDING } from '../openai/wording.js';
import { wireChecks } from '../wire-kit/checks.js';
import { reject } from '../wire-kit/wire-error.js';
import { familyOf, freeSizeProblem, GPT_IMAGE_MEMBERS, rulesOf, type FamilyRules, type ImageFamily } from './models.js';

export type OutputFormat = 'png' | 'jpeg' | 'webp';

export interface ImageRequest {
  operation: 'generate' | 'edit';
  model: string;
  family: ImageFamily;
  prompt: string;
  n: number;
  width: number;
  height: number;
  /** The size as the answer names it (`auto` resolved). */
  size: string;
  /** The quality as the answer names it (`auto` resolved). */
  quality: string;
  responseFormat: 'url' | 'b64_json';
  outputFormat: OutputFormat;
  transparent: boolean;
  stream: boolean;
  partialImages: number;
  /** The input images of an edit (none for a generation). */
  inputImages: number;
}

const strict = wireChecks(OPENAI_WORDING);
const lenient = wireChecks(OPENAI_WORDING, { numericStrings: true });

/** How a member of the body reads: JSON values as they are, or a form's strings. */
export interface MemberReader {
  integer(value: unknown, path: string, range: { min: number; max: number }): number;
  boolean(value: unknown, path: string): boolean;
}

export const JSON_READER: MemberReader = {
  integer: (value, path, range) => strict.expectInteger(value, path, range),
  boolean: (value, path) => strict.expectBoolean(value, path),
};

export const FORM_READER: MemberReader = {
  integer: (value, path, range) => lenient.expectInteger(value, path, range),
  boolean(value, path) {
    if (value === 'true' || value === true) return true;
    if (value === 'false' || value === false) return false;
    return strict.expectBoolean(value, path);
  },
};

function unknownParameter(name: string): never {
  reject(invalidRequest(`Unknown parameter: '${name}'.`, name, 'unknown_parameter'));
}

/** Refuses a member the request may not carry (not in `known`). */
export function refuseUnknown(o: Record<string, unknown>, known: ReadonlySet<string>): void {
  for (const name in o) if (!known.has(name)) unknownParameter(name);
}

const given = (value: unknown) => value !== undefined && value !== null;
/** A GPT image member the request sets (`stream: false` sets nothing). */
const setsMember = (o: Record<string, unknown>, name: string) =>
  name === 'stream' ? o.stream === true || o.stream === 'true' : given(o[name]);

/** The model a request names (on Azure's deployment routes, the deployment), or the default
 * OpenAI documents: for a generation `dall-e-2` unless a GPT image member is set (then
 * `gpt-image-1.5`), for an edit `gpt-image-1.5`. */
export function modelOf(o: Record<string, unknown>, operation: 'generate' | 'edit', routeModel?: string): string {
  if (given(o.model)) expectString(o.model, 'model');
  if (routeModel !== undefined) return routeModel;
  if (typeof o.model === 'string') return o.model;
  if (operation === 'edit') return 'gpt-image-1.5';
  return GPT_IMAGE_MEMBERS.some((name) => setsMember(o, name)) ? 'gpt-image-1.5' : 'dall-e-2';
}

/** A model no family has: refused as OpenAI refuses an image model it does not offer — unless
 * the route names the model (an Azure deployment, named as its owner chose): then the family of
 * the body's model, or `fallback`. */
export function familyOrRefuse(model: string, o: Record<string, unknown>, fallback: ImageFamily | undefined): ImageFamily {
  const family = familyOf(model) ?? (fallback && typeof o.model === 'string' ? familyOf(o.model) : undefined) ?? fallback;
  if (family) return family;
  return fail(
    `Invalid value: '${model}'. Supported values are: ${listValues(['gpt-image-1', 'gpt-image-1-mini', 'gpt-image-1.5', 'gpt-image-2', 'dall-e-2', 'dall-e-3'])}.`,
    'model',
    'invalid_value',
  );
}

function sizeOf(value: unknown, rules: FamilyRules, family: ImageFamily): { width: number; height: number; size: string } {
  if (!given(value)) return { width: 1024, height: 1024, size: '1024x1024' };
  const text = expectString(value, 'size');
  if (rules.sizes) expectEnum(text, rules.sizes, 'size');
  if (text === 'auto') return { width: 1024, height: 1024, size: '1024x1024' };
  const match = /^(\d{1,5})x(\d{1,5})$/.exec(text);
  if (!match)
    fail(`Invalid value: '${text}'. Supported values are: 'auto', or a size WIDTHxHEIGHT such as '1536x864'.`, 'size', 'invalid_value');
  const width = Number(match[1]);
  const height = Number(match[2]);
  const problem = family === 'gpt-image' && !rules.sizes ? freeSizeProblem(width, height) : undefined;
  if (problem || width === 0 || height === 0)
    fail(`Invalid size '${text}': ${problem ?? 'width and height must be positive'}.`, 'size', 'invalid_value');
  return { width, height, size: text };
}

/** The members both operations share, after `prompt` and `model`. */
export function readImageOptions(
  o: Record<string, unknown>,
  request: { operation: 'generate' | 'edit'; model: string; family: ImageFamily; prompt: string; inputImages: number },
  read: MemberReader,
): ImageRequest {
  const rules = rulesOf(request.family, request.model, request.operation);
  const { family } = request;
  if (request.prompt.length > rules.maxPrompt) strict.expectLength(request.prompt, 'prompt', { min: 1, max: rules.maxPrompt });
  if (!rules.gptMembers) for (const name of GPT_IMAGE_MEMBERS) if (setsMember(o, name)) unknownParameter(name);
  // A GPT image model under a name of no family (an Azure deployment) takes `b64_json`: the AI
  // SDK asks for it for every model whose name does not say it is a GPT image model.
  const namedFreely = familyOf(request.model) === undefined && o.response_format === 'b64_json';
  if (!rules.responseFormat && given(o.response_format) && !namedFreely) unknownParameter('response_format');
  if (given(o.style) && family !== 'dall-e-3') unknownParameter('style');
  const n = given(o.n) ? read.integer(o.n, 'n', { min: 1, max: rules.maxImages }) : 1;
  const { width, height, size } = sizeOf(o.size, rules, family);
  const asked = given(o.quality) ? expectEnum(o.quality, rules.qualities, 'quality') : 'auto';
  const quality =
    family === 'gpt-image' ? (asked === 'auto' || asked === 'standard' ? 'medium' : asked) : asked === 'hd' ? 'hd' : 'standard';
  const responseFormat = given(o.response_format)
    ? expectEnum(o.response_format, ['url', 'b64_json'] as const, 'response_format')
    : family === 'gpt-image'
      ? 'b64_json'
      : 'url';
  const outputFormat = given(o.output_format) ? expectEnum(o.output_format, ['png', 'jpeg', 'webp'] as const, 'output_format') : 'png';
  if (given(o.output_compression)) read.integer(o.output_compression, 'output_compression', { min: 0, max: 100 });
  const background = given(o.background) ? expectEnum(o.background, ['transparent', 'opaque', 'auto'] as const, 'background') : 'auto';
  if (background === 'transparent' && outputFormat === 'jpeg')
    fail(
      "Invalid value: 'transparent'. A transparent background needs an output_format that keeps transparency: 'png' or 'webp'.",
      'background',
      'invalid_value',
    );
  if (given(o.moderation)) expectEnum(o.moderation, ['low', 'auto'], 'moderation');
  if (given(o.style)) expectEnum(o.style, ['vivid', 'natural'], 'style');
  const stream = given(o.stream) ? read.boolean(o.stream, 'stream') : false;
  const partialImages = given(o.partial_images) ? read.integer(o.partial_images, 'partial_images', { min: 0, max: 3 }) : 0;
  if (o.user !== undefined) expectString(o.user, 'user');
  return {
    ...request,
    n,
    width,
    height,
    size,
    quality,
    responseFormat,
    outputFormat,
    transparent: background === 'transparent',
    stream,
    partialImages,
  };
}

/** `prompt`, required and non-empty. */
export function promptOf(o: Record<string, unknown>): string {
  required(o.prompt, 'prompt');
  const prompt = expectString(o.prompt, 'prompt');
  return strict.expectLength(prompt, 'prompt', { min: 1 });
}

// OpenAI's embeddings request (`POST /v1/embeddings`), checked as OpenAI checks it: `model` and
// `input` required; `input` a non-empty string, a list of at most 2048 non-empty strings, a list of
// token ids, or a list of such lists; `dimensions` a positive integer; `encoding_format` float or
// base64 (default float on the wire; the openai SDK sends base64 unless told otherwise).

import { invalidRequest } from '../../core/errors.js';
import { MAX_DIMENSIONS } from '../../core/embedding-vectors.js';
import type { EmbeddingInput } from '../embeddings-kit/vectors-for.js';
import { expectEnum, expectInteger, expectString, fail } from '../openai/checks.js';
import { typeName } from '../openai/wording.js';
import { isObject } from '../wire-kit/values.js';
import { reject } from '../wire-kit/wire-error.js';

export interface OpenAIEmbeddingRequest {
  model: string;
  inputs: EmbeddingInput[];
  dimensions: number | undefined;
  encoding: 'float' | 'base64';
}

const ENCODINGS = ['float', 'base64'] as const;
/** The most inputs one request may hold. */
export const MAX_INPUTS = 2048;
const DIMENSIONS = { min: 1, max: MAX_DIMENSIONS };
const INPUT_KINDS = 'a string, an array of strings, an array of integers, or an array of arrays containing integers';

/** OpenAI's refusal of an input whose shape passed the type check but not the schema's limits. */
function invalidInput(): never {
  fail("'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.", null);
}

function wrongInputType(value: unknown): never {
  reject(
    invalidRequest(
      `Invalid type for 'input': expected one of ${INPUT_KINDS}, but got ${typeName(value)} instead.`,
      'input',
      'invalid_type',
    ),
  );
}

function isTokenList(value: unknown[]): value is number[] {
  for (const id of value) if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) return false;
  return true;
}

/** `input` as OpenAI reads it: a string, strings, token ids, or lists of token ids. */
export function inputsOf(input: unknown): EmbeddingInput[] {
  if (typeof input === 'string') {
    if (input === '') invalidInput();
    return [input];
  }
  if (!Array.isArray(input)) wrongInputType(input);
  if (input.length === 0 || input.length > MAX_INPUTS) invalidInput();
  if (input.every((item) => typeof item === 'string')) {
    if (input.some((item) => item === '')) invalidInput();
    return input as string[];
  }
  if (isTokenList(input)) return [input];
  const lists: number[][] = [];
  for (const item of input) {
    if (!Array.isArray(item) || !isTokenList(item)) wrongInputType(input);
    if (item.length === 0) invalidInput();
    lists.push(item);
  }
  return lists;
}

export function decodeEmbeddingRequest(body: unknown): OpenAIEmbeddingRequest {
  if (body === undefined) fail('We could not parse the JSON body of your request.', null);
  if (!isObject(body)) {
    reject(invalidRequest(`Invalid type for body: expected an object, but got ${typeName(body)} instead.`, null, 'invalid_type'));
  }
  const o = body;
  if (o.model === undefined || o.model === null || o.model === '') fail('you must provide a model parameter', null);
  const model = expectString(o.model, 'model');
  if (o.input === undefined) fail("'input' is a required property", null);
  const inputs = inputsOf(o.input);
  const dimensions =
    o.dimensions === undefined || o.dimensions === null ? undefined : expectInteger(o.dimensions, 'dimensions', DIMENSIONS);
  if (dimensions !== undefined && model.startsWith('text-embedding-ada-002'))
    fail('This model does not support specifying dimensions.', null);
  const encoding =
    o.encoding_format === undefined || o.encoding_format === null ? 'float' : expectEnum(o.encoding_format, ENCODINGS, 'encoding_format');
  if (o.user !== undefined) expectString(o.user, 'user');
  return { model, inputs, dimensions, encoding };
}

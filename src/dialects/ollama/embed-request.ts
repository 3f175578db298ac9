// Ollama's embedding requests, bound as its Go handlers bind them: `/api/embed` takes `input` (a
// string or a list of strings; absent or empty embeds nothing), `truncate`, `dimensions`,
// `keep_alive`, `options`; the legacy `/api/embeddings` takes one `prompt`. A JSON null is "not
// sent"; members the structs do not name are ignored.

import { given, isObject } from '../wire-kit/values.js';
import { reject } from '../wire-kit/wire-error.js';
import { expectBoolean, expectInteger, expectObject, expectString, goPath, refusal, rule } from './wording.js';

export interface OllamaEmbedRequest {
  model: string;
  inputs: string[];
  /** Undefined for the model's default (Go's zero value, 0, means the same). */
  dimensions: number | undefined;
}

function notAnObject(body: unknown, struct: string): never {
  const kind = Array.isArray(body) ? 'array' : typeof body === 'string' ? 'string' : typeof body === 'boolean' ? 'bool' : 'number';
  reject(refusal(`json: cannot unmarshal ${kind} into Go value of type api.${struct}`));
}

const at = (struct: string, path: string) => goPath({ struct, path, at: path });

function common(body: Record<string, unknown>, struct: string): string {
  const model = given(body.model) ? expectString(body.model, at(struct, 'model')) : '';
  if (given(body.options)) expectObject(body.options, at(struct, 'options'));
  if (given(body.keep_alive) && typeof body.keep_alive !== 'string' && typeof body.keep_alive !== 'number') {
    rule('time: invalid duration', 'keep_alive');
  }
  return model;
}

export function decodeEmbed(body: unknown): OllamaEmbedRequest {
  if (!isObject(body)) notAnObject(body, 'EmbedRequest');
  const model = common(body, 'EmbedRequest');
  let inputs: string[] = [];
  const input = body.input;
  if (typeof input === 'string') inputs = input === '' ? [] : [input];
  else if (Array.isArray(input)) {
    if (!input.every((item) => typeof item === 'string')) rule('invalid input type', 'input');
    inputs = input as string[];
  } else if (given(input)) rule('invalid input type', 'input');
  if (given(body.truncate)) expectBoolean(body.truncate, at('EmbedRequest', 'truncate'));
  const raw = given(body.dimensions) ? expectInteger(body.dimensions, at('EmbedRequest', 'dimensions')) : 0;
  if (raw < 0) rule('dimensions must be a positive number', 'dimensions');
  return { model, inputs, dimensions: raw === 0 ? undefined : raw };
}

export function decodeLegacyEmbeddings(body: unknown): OllamaEmbedRequest {
  if (!isObject(body)) notAnObject(body, 'EmbeddingRequest');
  const model = common(body, 'EmbeddingRequest');
  const prompt = given(body.prompt) ? expectString(body.prompt, at('EmbeddingRequest', 'prompt')) : '';
  return { model, inputs: prompt === '' ? [] : [prompt], dimensions: undefined };
}

// Cohere's `POST /v2/embed` and `/v1/embed` (also under `/cohere`): `texts` embedded with the model, in each of the
// `embedding_types` asked for — float, int8, uint8, binary, ubinary, base64 — answered from the
// session's scripted vectors and the derived ones; an info route the journal records (cohere.embed).
// How each type is made from the float32 vector is Understudy's choice (docs/embeddings.md).

import { invalidRequest, isNeutralError, type NeutralError } from '../../core/errors.js';
import { floatList, MAX_DIMENSIONS } from '../../core/embedding-vectors.js';
import { EMBEDDING_TYPES, QUANTIZED, type EmbeddingType } from '../embeddings-kit/quantized.js';
import type { InfoAnswer, InfoAsk, InfoRouteSpec } from '../dialect.js';
import { inputTokensOf, inputUsage, journalRequest, vectorsFor, withScriptedAct } from '../embeddings-kit/vectors-for.js';
import { encodeCohereError } from '../cohere/errors.js';
import { expectArray, expectEnum, expectInteger, expectString, fail } from '../cohere/wording.js';
import { isObject } from '../wire-kit/values.js';
import { refusalOr, reject } from '../wire-kit/wire-error.js';
import { cohereV2Chat } from './index.js';

const INPUT_TYPES = ['search_document', 'search_query', 'classification', 'clustering', 'image'] as const;
const TRUNCATE = ['NONE', 'START', 'END'] as const;
export const MAX_TEXTS = 96;

interface CohereEmbedRequest {
  model: string;
  texts: string[];
  /** Undefined on v1 without `embedding_types`: the answer is then a plain list of floats. */
  types: EmbeddingType[] | undefined;
  dimensions: number | undefined;
}

/** v1's default model, and whether a model needs `input_type` (v3 and later do). */
const V1_DEFAULT_MODEL = 'embed-english-v2.0';
const NEEDS_INPUT_TYPE = /-v[3-9]|embed-v\d/;

function decode(body: unknown, version: 1 | 2): CohereEmbedRequest {
  if (!isObject(body)) reject(invalidRequest('invalid request: the body must be a JSON object.'));
  if (version === 2 && (body.model === undefined || body.model === null)) fail('model', 'model is required');
  const model = body.model === undefined || body.model === null ? V1_DEFAULT_MODEL : expectString(body.model, 'model');
  if (body.images !== undefined || body.inputs !== undefined) {
    fail(body.images !== undefined ? 'images' : 'inputs', 'Understudy embeds `texts` only; images and mixed inputs are not answered yet.');
  }
  if (body.texts === undefined || body.texts === null) fail('texts', 'one of texts, images or inputs must be provided');
  const texts = expectArray(body.texts, 'texts').map((t, i) => expectString(t, `texts.${i}`));
  if (texts.length === 0) fail('texts', 'texts must have at least 1 items');
  if (texts.length > MAX_TEXTS) fail('texts', `texts must have at most ${MAX_TEXTS} items`);
  if (body.input_type === undefined || body.input_type === null) {
    if (version === 2 || NEEDS_INPUT_TYPE.test(model)) fail('input_type', 'valid input_type must be provided with the provided model');
  } else expectEnum(body.input_type, INPUT_TYPES, 'input_type');
  const types =
    body.embedding_types === undefined || body.embedding_types === null
      ? version === 2
        ? (['float'] as EmbeddingType[])
        : undefined
      : expectArray(body.embedding_types, 'embedding_types').map((t, i) => expectEnum(t, EMBEDDING_TYPES, `embedding_types.${i}`));
  if (types?.length === 0) fail('embedding_types', 'embedding_types must have at least 1 items');
  const dimensions =
    body.output_dimension === undefined || body.output_dimension === null
      ? undefined
      : expectInteger(body.output_dimension, 'output_dimension', { min: 1, max: MAX_DIMENSIONS });
  if (body.truncate !== undefined && body.truncate !== null) expectEnum(body.truncate, TRUNCATE, 'truncate');
  if (body.max_tokens !== undefined && body.max_tokens !== null) expectInteger(body.max_tokens, 'max_tokens', { min: 1 });
  return { model, texts, types: types && [...new Set(types)], dimensions };
}

function answer(ask: InfoAsk, version: 1 | 2): InfoAnswer {
  const requestId = ask.requestId ?? '';
  const refuse = (error: NeutralError, request?: CohereEmbedRequest): InfoAnswer => ({
    ...encodeCohereError(error, { requestId }),
    journal: { error, ...(request && { request: journalRequest(request.model, request.texts) }) },
  });
  const request = refusalOr(() => decode(ask.body, version));
  if (isNeutralError(request)) return refuse(request);
  const vectors = vectorsFor({ model: request.model, inputs: request.texts, dimensions: request.dimensions }, ask.state);
  if (isNeutralError(vectors)) return refuse(vectors, request);
  const tokens = inputTokensOf(request.texts);
  let embeddings: unknown;
  if (request.types) {
    const byType: Record<string, unknown> = {};
    for (const type of request.types) byType[type] = vectors.map(QUANTIZED[type]);
    embeddings = byType;
  } else embeddings = vectors.map(floatList);
  return {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      id: requestId,
      response_type: request.types ? 'embeddings_by_type' : 'embeddings_floats',
      embeddings,
      texts: request.texts,
      meta: { api_version: { version: '2' }, billed_units: { input_tokens: tokens } },
    }),
    journal: { request: journalRequest(request.model, request.texts), usage: inputUsage(tokens) },
  };
}

const route = (path: string, version: 1 | 2): InfoRouteSpec => ({
  method: 'POST',
  path,
  dialect: cohereV2Chat,
  answer: withScriptedAct((ask) => answer(ask, version)),
  journalAs: version === 2 ? 'cohere.embed' : 'cohere.v1.embed',
});

// v1 (`/v1/embed`) is the same operation with v1's defaults: a model may be left out, input_type
// only v3 and later models need, and without embedding_types a plain list of floats.
export const COHERE_EMBED_ROUTES: InfoRouteSpec[] = [
  route('/v2/embed', 2),
  route('/cohere/v2/embed', 2),
  route('/v1/embed', 1),
  route('/cohere/v1/embed', 1),
];

// InvokeModel with an embedding model: Amazon Titan Text Embeddings (G1 and V2) and Cohere Embed
// bodies on Bedrock, answered from the session's scripted vectors and the derived ones. The
// InvokeModel route diverts a request here by its model id (routes.ts), so chat requests to that
// path pay one test of the id. Bedrock checks a model's body against the model's own schema and
// words a failure "Malformed input request: #/<member>: …, please reformat your input and try
// again." (docs/dialects/bedrock-invoke.md).

import { invalidRequest, isNeutralError, type NeutralError } from '../../core/errors.js';
import { floatList } from '../../core/embedding-vectors.js';
import type { InfoAnswer, InfoAsk, InfoRouteSpec } from '../dialect.js';
import { inputTokensOf, inputUsage, journalRequest, vectorsFor, withScriptedAct } from '../embeddings-kit/vectors-for.js';
import { QUANTIZED, type EmbeddingType } from '../embeddings-kit/quantized.js';
import { encodeBedrockError } from '../bedrock/errors.js';
import { isObject } from '../wire-kit/values.js';
import { refusalOr, reject } from '../wire-kit/wire-error.js';
import { bedrockInvoke } from './index.js';
import { embeddingFamilyOf, type EmbeddingFamily } from './model-family.js';

export const BEDROCK_EMBEDDINGS_OPERATION = 'bedrock.invokeModel.embeddings';

interface EmbedRequest {
  texts: string[];
  dimensions: number | undefined;
  /** Titan V2's embeddingTypes, Cohere's embedding_types; undefined when the body sets none. */
  types: EmbeddingType[] | undefined;
}

function malformed(path: string, text: string): never {
  reject(invalidRequest(`Malformed input request: #${path}: ${text}, please reformat your input and try again.`, path || null));
}

function allowedKeys(body: Record<string, unknown>, keys: readonly string[]): void {
  for (const key of Object.keys(body)) if (!keys.includes(key)) malformed('', `extraneous key [${key}] is not permitted`);
}

function enumValue<T>(value: unknown, path: string, values: readonly T[]): T {
  if (!values.includes(value as T)) malformed(path, `${JSON.stringify(value)} is not a valid enum value`);
  return value as T;
}

function listOf(value: unknown, path: string, min: number, max: number): unknown[] {
  if (!Array.isArray(value)) malformed(path, `expected type: JSONArray, found: ${value === null ? 'Null' : typeof value}`);
  if (value.length < min) malformed(path, `expected minimum item count: ${min}, found: ${value.length}`);
  if (value.length > max) malformed(path, `expected maximum item count: ${max}, found: ${value.length}`);
  return value;
}

function stringOf(value: unknown, path: string): string {
  if (typeof value !== 'string') malformed(path, `expected type: String, found: ${value === null ? 'Null' : typeof value}`);
  return value;
}

const TITAN_V2_KEYS = ['inputText', 'dimensions', 'normalize', 'embeddingTypes'];
const TITAN_V2_DIMENSIONS = [256, 512, 1024];

function decodeTitan(body: Record<string, unknown>, v2: boolean): EmbedRequest {
  allowedKeys(body, v2 ? TITAN_V2_KEYS : ['inputText']);
  if (body.inputText === undefined) malformed('', 'required key [inputText] not found');
  const text = stringOf(body.inputText, '/inputText');
  if (text.length === 0) malformed('/inputText', 'expected minLength: 1, actual: 0');
  const dimensions = body.dimensions === undefined ? undefined : enumValue(body.dimensions, '/dimensions', TITAN_V2_DIMENSIONS);
  if (body.normalize !== undefined && typeof body.normalize !== 'boolean') malformed('/normalize', 'expected type: Boolean');
  const types =
    body.embeddingTypes === undefined
      ? undefined
      : listOf(body.embeddingTypes, '/embeddingTypes', 1, 2).map((t, i) =>
          enumValue(t, `/embeddingTypes/${i}`, ['float', 'binary'] as EmbeddingType[]),
        );
  return { texts: [text], dimensions, types };
}

const COHERE_KEYS = ['texts', 'images', 'inputs', 'input_type', 'truncate', 'embedding_types', 'output_dimension', 'max_tokens'];
const COHERE_INPUT_TYPES = ['search_document', 'search_query', 'classification', 'clustering', 'image'];
const COHERE_TYPES: EmbeddingType[] = ['float', 'int8', 'uint8', 'binary', 'ubinary'];

function decodeCohere(body: Record<string, unknown>, v4: boolean): EmbedRequest {
  allowedKeys(body, v4 ? COHERE_KEYS : COHERE_KEYS.slice(0, 6));
  for (const member of ['images', 'inputs']) {
    if (body[member] !== undefined) malformed(`/${member}`, 'Understudy embeds texts only; images and mixed inputs are not answered yet');
  }
  if (body.texts === undefined) malformed('', 'required key [texts] not found');
  const texts = listOf(body.texts, '/texts', 1, 96).map((t, i) => stringOf(t, `/texts/${i}`));
  if (body.input_type === undefined) malformed('', 'required key [input_type] not found');
  enumValue(body.input_type, '/input_type', COHERE_INPUT_TYPES);
  if (body.truncate !== undefined) enumValue(body.truncate, '/truncate', ['NONE', 'START', 'END']);
  const types =
    body.embedding_types === undefined
      ? undefined
      : [
          ...new Set(
            listOf(body.embedding_types, '/embedding_types', 1, 5).map((t, i) => enumValue(t, `/embedding_types/${i}`, COHERE_TYPES)),
          ),
        ];
  const dimensions =
    body.output_dimension === undefined ? undefined : enumValue(body.output_dimension, '/output_dimension', [256, 512, 1024, 1536]);
  if (body.max_tokens !== undefined && (!Number.isInteger(body.max_tokens) || (body.max_tokens as number) < 1)) {
    malformed('/max_tokens', `${JSON.stringify(body.max_tokens)} is not greater or equal to 1`);
  }
  return { texts, dimensions, types };
}

function decode(body: unknown, family: EmbeddingFamily): EmbedRequest {
  if (!isObject(body)) malformed('', 'expected type: JSONObject');
  return family === 'titan-v1' || family === 'titan-v2'
    ? decodeTitan(body, family === 'titan-v2')
    : decodeCohere(body, family === 'cohere-v4');
}

/** Titan's binary embedding: one 0 or 1 per dimension. */
const titanBinary = (v: Float32Array) => Array.from(v, (x) => (x > 0 ? 1 : 0));

function bodyOf(family: EmbeddingFamily, request: EmbedRequest, vectors: Float32Array[], requestId: string): string {
  if (family === 'titan-v1') return JSON.stringify({ embedding: floatList(vectors[0]), inputTextTokenCount: inputTokensOf(request.texts) });
  if (family === 'titan-v2') {
    const byType: Record<string, unknown> = {};
    for (const type of request.types ?? ['float']) byType[type] = type === 'binary' ? titanBinary(vectors[0]) : floatList(vectors[0]);
    return JSON.stringify({
      embedding: floatList(vectors[0]),
      inputTextTokenCount: inputTokensOf(request.texts),
      embeddingsByType: byType,
    });
  }
  if (!request.types)
    return JSON.stringify({ id: requestId, embeddings: vectors.map(floatList), response_type: 'embeddings_floats', texts: request.texts });
  const byType: Record<string, unknown> = {};
  for (const type of request.types) byType[type] = vectors.map(QUANTIZED[type]);
  return JSON.stringify({ id: requestId, embeddings: byType, response_type: 'embeddings_by_type', texts: request.texts });
}

function answer(ask: InfoAsk, stream: boolean): InfoAnswer {
  const requestId = ask.requestId ?? '';
  const modelId = ask.params?.modelId ?? '';
  const refuse = (error: NeutralError, request?: EmbedRequest): InfoAnswer => ({
    ...encodeBedrockError(error, { requestId }),
    journal: { error, ...(request && { request: journalRequest(modelId, request.texts) }) },
  });
  const family = embeddingFamilyOf(modelId) as EmbeddingFamily;
  if (stream) {
    return refuse(
      invalidRequest(
        `The model ${modelId} is an embedding model: it does not support InvokeModelWithResponseStream. Call InvokeModel.`,
        'modelId',
      ),
    );
  }
  const request = refusalOr(() => decode(ask.body, family));
  if (isNeutralError(request)) return refuse(request);
  const vectors = vectorsFor({ model: modelId, inputs: request.texts, dimensions: request.dimensions }, ask.state);
  if (isNeutralError(vectors)) return refuse(vectors, request);
  const tokens = inputTokensOf(request.texts);
  return {
    status: 200,
    headers: { 'content-type': 'application/json', 'x-amzn-requestid': requestId, 'x-amzn-bedrock-input-token-count': String(tokens) },
    body: bodyOf(family, request, vectors, requestId),
    journal: { request: journalRequest(modelId, request.texts), usage: inputUsage(tokens) },
  };
}

const route = (path: string, stream: boolean): InfoRouteSpec => ({
  method: 'POST',
  path,
  dialect: bedrockInvoke,
  answer: withScriptedAct((ask) => answer(ask, stream)),
  journalAs: BEDROCK_EMBEDDINGS_OPERATION,
});

const INVOKE = route('/model/{modelId}/invoke', false);
const INVOKE_STREAM = route('/model/{modelId}/invoke-with-response-stream', true);

/** The embeddings route an InvokeModel request to `modelId` goes to instead, if its model embeds. */
export function embeddingsDivert(stream: boolean): (params: Readonly<Record<string, string>>) => InfoRouteSpec | undefined {
  const target = stream ? INVOKE_STREAM : INVOKE;
  return (params) => (embeddingFamilyOf(params.modelId ?? '') ? target : undefined);
}

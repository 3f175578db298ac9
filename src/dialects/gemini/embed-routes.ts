// The Gemini API's embedding routes, `models/{model}:embedContent` and `:batchEmbedContents`:
// info routes the journal records (operations gemini.embedContent, gemini.batchEmbedContents),
// answered from the session's scripted vectors and the derived ones, never from a chat script.

import { isNeutralError, type NeutralError } from '../../core/errors.js';
import { floatList } from '../../core/embedding-vectors.js';
import { countTokens } from '../../core/tokens.js';
import type { DialectRegistration, InfoAnswer, InfoAsk, InfoRouteSpec } from '../dialect.js';
import { inputTokensOf, inputUsage, journalRequest, vectorsFor, withScriptedAct } from '../embeddings-kit/vectors-for.js';
import { refusalOr } from '../wire-kit/wire-error.js';
import { decodeBatchEmbedContents, decodeEmbedContent, decodeVertexPredict, type GeminiEmbedRequest } from './embed-request.js';
import { encodeGeminiError } from './errors.js';
import { isImagenModel } from './imagen-request.js';
import { vertexImagenRoute } from './imagen-routes.js';
import { gemini } from './index.js';

const VERSIONS = new Set(['v1beta', 'v1', 'v1alpha']);
const VERTEX_VERSIONS = new Set(['v1', 'v1beta1']);

type Method = 'embedContent' | 'batchEmbedContents' | 'predict';

function refused(error: NeutralError, request?: GeminiEmbedRequest): InfoAnswer {
  return { ...encodeGeminiError(error), journal: { error, ...(request && { request: journalRequest(request.model, texts(request)) }) } };
}

const texts = (request: GeminiEmbedRequest) => request.items.map((item) => item.text);

function answer(method: Method, ask: InfoAsk): InfoAnswer {
  const version = ask.params?.version ?? 'v1beta';
  const model = ask.params?.model ?? '';
  if (!(method === 'predict' ? VERTEX_VERSIONS : VERSIONS).has(version)) {
    return refused({ kind: 'not_found', status: 404, code: 'NOT_FOUND', message: `API version "${version}" is not served here.` });
  }
  const decode = method === 'embedContent' ? decodeEmbedContent : method === 'predict' ? decodeVertexPredict : decodeBatchEmbedContents;
  const request = refusalOr(() => decode(ask.body, model));
  if (isNeutralError(request)) return refused(request);
  const vectors: Float32Array[] = [];
  for (const item of request.items) {
    const one = vectorsFor({ model, inputs: [item.text], dimensions: item.dimensions }, ask.state);
    if (isNeutralError(one)) return refused(one, request);
    vectors.push(one[0]);
  }
  const body = JSON.stringify(
    method === 'embedContent'
      ? { embedding: { values: floatList(vectors[0]) } }
      : method === 'predict'
        ? {
            predictions: vectors.map((vector, i) => ({
              embeddings: { values: floatList(vector), statistics: { token_count: countTokens(request.items[i].text), truncated: false } },
            })),
          }
        : { embeddings: vectors.map((vector) => ({ values: floatList(vector) })) },
  );
  return {
    status: 200,
    headers: { 'content-type': 'application/json; charset=UTF-8' },
    body,
    journal: { request: journalRequest(model, texts(request)), usage: inputUsage(inputTokensOf(texts(request))) },
  };
}

function routes(prefix: string): InfoRouteSpec[] {
  return (['embedContent', 'batchEmbedContents'] as const).map((method) => ({
    method: 'POST',
    path: `${prefix}/{model}:${method}`,
    dialect: gemini,
    answer: withScriptedAct((ask: InfoAsk) => answer(method, ask)),
    journalAs: `gemini.${method}`,
  }));
}

function predictRoute(path: string): InfoRouteSpec {
  const imagen = vertexImagenRoute(path);
  return {
    method: 'POST',
    path,
    dialect: gemini,
    answer: withScriptedAct((ask: InfoAsk) => answer('predict', ask)),
    journalAs: 'vertex.predict',
    divert: (params) => (isImagenModel(params.model ?? '') ? imagen : undefined),
  };
}

export const geminiEmbedRegistration: DialectRegistration = {
  routes: [],
  providerPaths: {},
  infoRoutes: [
    ...routes('/{version}/models'),
    ...routes('/gemini/{version}/models'),
    // Vertex AI's embedding models answer `:predict`, with project and location or in express mode
    // (an Imagen model's request is diverted to imagen-routes.ts).
    predictRoute('/{version}/projects/{project}/locations/{location}/publishers/google/models/{model}:predict'),
    predictRoute('/{version}/publishers/google/models/{model}:predict'),
  ],
};

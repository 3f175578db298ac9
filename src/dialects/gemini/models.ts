// Gemini's `GET models` and `GET models/{model}` from the session's model list
// (wire-kit/model-list.ts): `{models:[Model], nextPageToken}` paged by `pageSize` (default 50,
// above 1000 read as 1000) and an opaque `pageToken`; with a strict catalogue another model is
// Gemini's 404 NOT_FOUND. Understudy knows a model's name, not its card: the display name is made
// from the name, the token limits and sampling defaults are one set for every model.

import type { NeutralError } from '../../core/errors.js';
import type { EncodedBody, InfoAsk, InfoRouteSpec } from '../dialect.js';
import { bareModel, sessionGeminiModels, unknownGeminiModel } from './catalogue.js';
import { encodeGeminiError } from './errors.js';
import { gemini } from './index.js';

const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 1000;
const METHODS = ['generateContent', 'streamGenerateContent', 'countTokens'];
const CARD = {
  version: '001',
  inputTokenLimit: 1_048_576,
  outputTokenLimit: 65_536,
  supportedGenerationMethods: METHODS,
  temperature: 1,
  maxTemperature: 2,
  topP: 0.95,
  topK: 64,
  thinking: true,
};
const HEADERS = { 'content-type': 'application/json; charset=UTF-8' };

/** `gemini-2.5-flash-lite` → `Gemini 2.5 Flash Lite`. */
function displayName(id: string): string {
  return id
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

function modelJson(id: string): string {
  return JSON.stringify({ name: `models/${id}`, displayName: displayName(id), description: `${displayName(id)} (Understudy)`, ...CARD });
}

function invalid(message: string, field: string): NeutralError {
  return { kind: 'invalid_request', status: 400, code: 'INVALID_ARGUMENT', param: field, message };
}

function pageSizeOf(query: URLSearchParams | undefined): number | NeutralError {
  const raw = query?.get('pageSize') ?? query?.get('page_size');
  if (raw === null || raw === undefined || raw === '') return DEFAULT_PAGE_SIZE;
  if (!/^-?\d+$/.test(raw)) return invalid(`Invalid value at 'page_size' (TYPE_INT32), "${raw}"`, 'page_size');
  const size = Number(raw);
  if (size < 0) return invalid('page_size must not be negative.', 'page_size');
  return size === 0 ? DEFAULT_PAGE_SIZE : Math.min(size, MAX_PAGE_SIZE);
}

/** The index a page token resumes at (Understudy's tokens are the index, base64url). */
function offsetOf(query: URLSearchParams | undefined): number | NeutralError {
  const raw = query?.get('pageToken') ?? query?.get('page_token');
  if (raw === null || raw === undefined || raw === '') return 0;
  const decoded = Buffer.from(raw, 'base64url').toString('utf8');
  if (!/^\d+$/.test(decoded)) return invalid('Invalid page token.', 'page_token');
  return Number(decoded);
}

function listModels(ask: InfoAsk): EncodedBody {
  const size = pageSizeOf(ask.query);
  if (typeof size !== 'number') return encodeGeminiError(size);
  const offset = offsetOf(ask.query);
  if (typeof offset !== 'number') return encodeGeminiError(offset);
  const { ids } = sessionGeminiModels(ask.state);
  const page = ids.slice(offset, offset + size);
  const next = offset + size < ids.length ? `,"nextPageToken":"${Buffer.from(String(offset + size)).toString('base64url')}"` : '';
  return { status: 200, headers: HEADERS, body: `{"models":[${page.map(modelJson).join(',')}]${next}}` };
}

function getModel(ask: InfoAsk, version = ask.params?.version ?? 'v1'): EncodedBody {
  const model = ask.params?.model ?? '';
  const unknown = unknownGeminiModel(ask.state, model, version);
  return unknown ? encodeGeminiError(unknown) : { status: 200, headers: HEADERS, body: modelJson(bareModel(model)) };
}

/** Answers a models request that is Gemini's (the shared `/v1/models` routes pick it by its key). */
export const geminiModels = { list: listModels, get: (ask: InfoAsk): EncodedBody => getModel(ask) };

function at(prefix: string, version?: string): InfoRouteSpec[] {
  return [
    { method: 'GET', path: `${prefix}/models`, dialect: gemini, answer: listModels },
    { method: 'GET', path: `${prefix}/models/{model}`, dialect: gemini, answer: (ask) => getModel(ask, version) },
  ];
}

/** Vertex AI's `GET …/publishers/google/models/{model}` (genai's models.get with vertexai): a
 * PublisherModel, as much of it as Understudy knows. */
function getVertexModel(ask: InfoAsk): EncodedBody {
  const model = ask.params?.model ?? '';
  const unknown = unknownGeminiModel(ask.state, model, ask.params?.version ?? 'v1beta1', {
    project: ask.params?.project,
    location: ask.params?.location,
  });
  if (unknown) return encodeGeminiError(unknown);
  const body = {
    name: `publishers/google/models/${bareModel(model)}`,
    versionId: '001',
    launchStage: 'GA',
    openSourceCategory: 'PROPRIETARY',
  };
  return { status: 200, headers: HEADERS, body: JSON.stringify(body) };
}

const VERTEX_MODEL_ROUTES: InfoRouteSpec[] = [
  '/{version}/projects/{project}/locations/{location}/publishers/google/models/{model}',
  '/{version}/publishers/google/models/{model}',
].map((path) => ({ method: 'GET', path, dialect: gemini, answer: getVertexModel }));

/** `/v1/models` is shared with OpenAI and Anthropic (src/dialects/shared-model-routes.ts). */
export const GEMINI_MODEL_ROUTES: InfoRouteSpec[] = [
  ...at('/v1beta', 'v1beta'),
  ...at('/v1alpha', 'v1alpha'),
  ...at('/gemini/{version}'),
  ...VERTEX_MODEL_ROUTES,
];

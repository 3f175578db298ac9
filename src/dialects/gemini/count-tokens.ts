// `models/{model}:countTokens` → `{"totalTokens":n,"promptTokensDetails":[…]}`, counted as the
// promptTokenCount of a generateContent answer is. The Gemini API takes `{contents}` or
// `{generateContentRequest}` (one of them); Vertex AI takes a generateContent body. Both are
// decoded by the generateContent decoder. An info route: no script, nothing consumed or journalled.

import { isNeutralError, type NeutralError } from '../../core/errors.js';
import { countInputTokens } from '../../core/tokens.js';
import type { EncodedBody, InfoAsk, InfoRouteSpec, WireContext } from '../dialect.js';
import { infoBody, UnparsedBody } from '../wire-kit/info-json.js';
import { isObject } from '../wire-kit/values.js';
import { refusalOr, reject } from '../wire-kit/wire-error.js';
import { decodeGeminiRequest } from './decode-request.js';
import { gemini } from './index.js';
import { field, onlyKnownFields, unset } from './proto-fields.js';
import { expectObject, requestRule } from './wording.js';

const API_FIELDS = new Set(['contents', 'generateContentRequest']);
const NO_QUERY = new URLSearchParams();

function wireOf(ask: InfoAsk, vertex: boolean): WireContext {
  return {
    operation: vertex ? 'vertex.countTokens' : 'gemini.countTokens',
    params: ask.params ?? {},
    query: ask.query ?? NO_QUERY,
    headers: ask.headers ?? {},
    state: ask.state,
  };
}

/** The generateContent body the count is of, in the Gemini API's CountTokensRequest. */
function apiBody(body: unknown): unknown {
  if (!isObject(body)) return body;
  onlyKnownFields(body, API_FIELDS, '');
  const wrapped = field(body, 'generateContentRequest');
  if (unset(wrapped)) return { contents: field(body, 'contents') };
  if (!unset(field(body, 'contents'))) requestRule('contents and generate_content_request cannot both be set.', 'contents');
  return expectObject(wrapped, 'generate_content_request');
}

/** The prompt tokens of a countTokens body, or Gemini's refusal of it. */
export function countGeminiTokens(ask: InfoAsk, vertex: boolean): number | NeutralError {
  const parsed = infoBody(ask);
  if (parsed instanceof UnparsedBody) return parsed.error;
  return refusalOr(() => {
    const request = decodeGeminiRequest(vertex ? parsed : apiBody(parsed), wireOf(ask, vertex));
    if (isNeutralError(request)) reject(request);
    return countInputTokens(request);
  });
}

function answer(ask: InfoAsk, vertex: boolean): EncodedBody {
  const counted = countGeminiTokens(ask, vertex);
  if (isNeutralError(counted)) return gemini.encodeError(counted, { requestId: ask.requestId ?? '' });
  return {
    status: 200,
    headers: { 'content-type': 'application/json; charset=UTF-8' },
    body: `{"totalTokens":${counted},"promptTokensDetails":[{"modality":"TEXT","tokenCount":${counted}}]}`,
  };
}

function route(prefix: string, vertex: boolean): InfoRouteSpec {
  return { method: 'POST', path: `${prefix}/{model}:countTokens`, dialect: gemini, answer: (ask) => answer(ask, vertex) };
}

/** At the paths generateContent is served at (routes.ts). */
export const GEMINI_COUNT_TOKENS_ROUTES: InfoRouteSpec[] = [
  route('/v1beta/models', false),
  route('/{version}/models', false),
  route('/gemini/{version}/models', false),
  route('/{version}/projects/{project}/locations/{location}/publishers/google/models', true),
  route('/{version}/publishers/google/models', true),
];

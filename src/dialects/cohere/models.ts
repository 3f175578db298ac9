// Cohere's `GET /v1/models` and `GET /v1/models/{model}` (cohere-ai's `models.list` and
// `models.get`; also under `/cohere`) from the session's model list (wire-kit/model-list.ts):
// `{ models: [card], next_page_token }` paged by `page_size` (1 to 1000, default 20) and an opaque
// `page_token`, filtered by `endpoint` (the models compatible with it) and `default_only`. A card
// says what Understudy knows of a model from its family: the endpoints it serves, a context
// length, the chat features; `tokenizer_url` is null (Understudy serves no tokenizer). With a
// strict catalogue another id is Cohere's 404.

import type { NeutralError } from '../../core/errors.js';
import type { EncodedBody, InfoAsk } from '../dialect.js';
import { hasModel, modelList } from '../wire-kit/model-list.js';
import { encodeCohereError } from './errors.js';

export const COHERE_DEFAULT_MODELS: readonly string[] = [
  'command-a-03-2025',
  'command-r-plus-08-2024',
  'command-r-08-2024',
  'command-r7b-12-2024',
  'embed-v4.0',
  'embed-english-v3.0',
  'embed-multilingual-v3.0',
  'rerank-v3.5',
];

const ENDPOINTS = ['chat', 'embed', 'classify', 'summarize', 'rerank', 'rate', 'generate'] as const;
const CHAT_FEATURES = ['json_mode', 'json_schema', 'safety_modes', 'strict_tools', 'tool_choice', 'tools'];
const DEFAULT_PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 1000;
const HEADERS = { 'content-type': 'application/json' };

interface Card {
  endpoints: string[];
  contextLength: number;
  features: string[] | null;
}

function cardOf(id: string): Card {
  if (id.startsWith('embed-')) return { endpoints: ['embed'], contextLength: id.startsWith('embed-v4') ? 128_000 : 512, features: null };
  if (id.startsWith('rerank-')) return { endpoints: ['rerank'], contextLength: 4096, features: null };
  return {
    endpoints: ['chat', 'generate', 'summarize'],
    contextLength: id.startsWith('command-a') ? 256_000 : 128_000,
    features: CHAT_FEATURES,
  };
}

function cardJson(id: string): string {
  const card = cardOf(id);
  return JSON.stringify({
    name: id,
    is_deprecated: false,
    endpoints: card.endpoints,
    finetuned: false,
    context_length: card.contextLength,
    tokenizer_url: null,
    default_endpoints: [],
    features: card.features,
  });
}

function refusal(ask: InfoAsk, error: NeutralError): EncodedBody {
  return encodeCohereError(error, { requestId: ask.requestId ?? '' });
}

const invalid = (message: string): NeutralError => ({ kind: 'invalid_request', status: 400, code: null, message });

export function listCohereModels(ask: InfoAsk): EncodedBody {
  const query = ask.query ?? new URLSearchParams();
  const sizeText = query.get('page_size');
  const size = sizeText === null ? DEFAULT_PAGE_SIZE : Number(sizeText);
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) {
    return refusal(
      ask,
      invalid(`invalid request: page_size must be an integer from 1 to ${MAX_PAGE_SIZE}; found ${JSON.stringify(sizeText)}.`),
    );
  }
  const endpoint = query.get('endpoint');
  if (endpoint !== null && !(ENDPOINTS as readonly string[]).includes(endpoint)) {
    return refusal(ask, invalid(`invalid request: endpoint must be one of ${ENDPOINTS.join(', ')}; found ${JSON.stringify(endpoint)}.`));
  }
  const defaultOnly = query.get('default_only');
  if (defaultOnly !== null && defaultOnly !== 'true' && defaultOnly !== 'false') {
    return refusal(ask, invalid(`invalid request: default_only must be true or false; found ${JSON.stringify(defaultOnly)}.`));
  }
  const token = query.get('page_token');
  const start = token === null || token === '' ? 0 : Number(token);
  if (!Number.isInteger(start) || start < 0) return refusal(ask, invalid('invalid request: page_token is not a token this list gave.'));
  // No model is any endpoint's default here: default_only lists none.
  const ids =
    defaultOnly === 'true'
      ? []
      : modelList(ask.state, COHERE_DEFAULT_MODELS).ids.filter((id) => endpoint === null || cardOf(id).endpoints.includes(endpoint));
  const page = ids.slice(start, start + size);
  const next = start + size < ids.length ? `,"next_page_token":${JSON.stringify(String(start + size))}` : '';
  return { status: 200, headers: HEADERS, body: `{"models":[${page.map(cardJson).join(',')}]${next}}` };
}

export function getCohereModel(ask: InfoAsk): EncodedBody {
  const id = ask.params?.model ?? '';
  if (!hasModel(modelList(ask.state, COHERE_DEFAULT_MODELS), id)) {
    return refusal(ask, {
      kind: 'not_found',
      status: 404,
      code: null,
      message: `model '${id}' not found, make sure the correct model ID was used and that you have access to the model.`,
    });
  }
  return { status: 200, headers: HEADERS, body: cardJson(id) };
}

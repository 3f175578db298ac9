// OpenAI's `GET /v1/models` and `GET /v1/models/{model}` from the session's model list
// (wire-kit/model-list.ts): `{"object":"list","data":[{id,object:"model",created,owned_by}]}` and
// one such model; with a strict catalogue another id is OpenAI's 404 `model_not_found`. Dated by
// the session clock (Understudy knows no release dates).

import type { NeutralError } from '../../core/errors.js';
import type { DialectState, EncodedBody, InfoAsk } from '../dialect.js';
import { hasModel, modelList, type ModelList } from '../wire-kit/model-list.js';
import { encodeOpenAIError } from './encode-error.js';

/** The ids a session with no catalogue lists. */
export const OPENAI_DEFAULT_MODELS: readonly string[] = [
  'gpt-5',
  'gpt-5-mini',
  'gpt-4.1',
  'gpt-4.1-mini',
  'gpt-4o',
  'gpt-4o-mini',
  'o4-mini',
  'text-embedding-3-small',
  'text-embedding-3-large',
];

const HEADERS = { 'content-type': 'application/json' };

/** How a host of the family lists its models (OpenAI's own when left out). */
export interface OpenAIModelsOptions {
  /** Who a model is said to be owned by. */
  ownedBy: string;
  /** The ids a session with no catalogue lists. */
  defaults: readonly string[];
  /** Members a host's model cards carry besides OpenAI's (JSON members, each with its leading comma). */
  card?(id: string): string;
  /** The host's error body (OpenAI's when left out). */
  encodeError?(error: NeutralError): EncodedBody;
  /** The session's models where the host keeps its own list (Ollama's); modelList's when left out. */
  list?(state: DialectState): ModelList;
  /** The name a requested id is listed by (Ollama's `llama3.2` is `llama3.2:latest`). */
  listedAs?(id: string): string;
  /** The message of the host's 404 for a model it does not have. */
  notFound?(id: string): string;
}

const OPENAI: OpenAIModelsOptions = { ownedBy: 'openai', defaults: OPENAI_DEFAULT_MODELS };

function modelJson(id: string, created: number, options: OpenAIModelsOptions): string {
  const base = `{"id":${JSON.stringify(id)},"object":"model","created":${created},"owned_by":${JSON.stringify(options.ownedBy)}`;
  return `${base}${options.card?.(id) ?? ''}}`;
}

export function listOpenAIModels(ask: InfoAsk, options: OpenAIModelsOptions = OPENAI): EncodedBody {
  const { ids } = options.list?.(ask.state) ?? modelList(ask.state, options.defaults);
  const data = ids.map((id) => modelJson(id, ask.clock, options));
  return { status: 200, headers: HEADERS, body: `{"object":"list","data":[${data.join(',')}]}` };
}

export function getOpenAIModel(ask: InfoAsk, options: OpenAIModelsOptions = OPENAI): EncodedBody {
  const requested = ask.params?.model ?? '';
  const id = options.listedAs?.(requested) ?? requested;
  if (!hasModel(options.list?.(ask.state) ?? modelList(ask.state, options.defaults), id)) {
    return (options.encodeError ?? encodeOpenAIError)({
      kind: 'not_found',
      status: 404,
      type: 'invalid_request_error',
      code: 'model_not_found',
      param: 'model',
      message: options.notFound?.(requested) ?? `The model '${requested}' does not exist`,
    });
  }
  return { status: 200, headers: HEADERS, body: modelJson(id, ask.clock, options) };
}

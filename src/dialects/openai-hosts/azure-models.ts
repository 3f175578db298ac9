// Azure OpenAI's model list: `GET /openai/models` and `GET /openai/models/{model}` with a dated
// `api-version` (what `AzureOpenAI`'s `models.list` and `models.retrieve` call; also under
// `/azure`), answered in Azure's own card — `status`, `capabilities`, `lifecycle_status`,
// `deprecation`, `created_at` — and the v1 routes (`/openai/v1/models`, under `/azure`), which
// answer as OpenAI's list does. From the session's catalogue, else OpenAI's default ids; with a
// catalogue another id is Azure's 404. The capabilities come from the id's family (embedding models
// embed, the others chat); dates from the session clock, a deprecation a year after it.

import type { NeutralError } from '../../core/errors.js';
import type { DialectRegistration, EncodedBody, InfoAsk, InfoRouteSpec, WireContext } from '../dialect.js';
import { getOpenAIModel, listOpenAIModels, OPENAI_DEFAULT_MODELS } from '../openai/models.js';
import { hasModel, modelList } from '../wire-kit/model-list.js';
import { AZURE_CHAT_VERSIONS, azure } from './azure.js';
import { datedVersion, encodeAzureError, v1Version, type VersionRule } from './azure-service.js';
import { hostRegistration } from './host-dialect.js';

const HEADERS = { 'content-type': 'application/json' };
const YEAR = 365 * 24 * 3600;
const dated = datedVersion(AZURE_CHAT_VERSIONS);

function versionRefusal(rule: VersionRule, ask: InfoAsk): NeutralError | undefined {
  return rule({ query: ask.query ?? new URLSearchParams() } as WireContext);
}

function cardJson(id: string, clock: number): string {
  const embeds = /embedding/.test(id);
  return JSON.stringify({
    status: 'succeeded',
    capabilities: { fine_tune: false, inference: true, completion: false, chat_completion: !embeds, embeddings: embeds },
    lifecycle_status: 'generally-available',
    deprecation: { inference: clock + YEAR },
    id,
    created_at: clock,
    object: 'model',
  });
}

function list(ask: InfoAsk): EncodedBody {
  const refused = versionRefusal(dated, ask);
  if (refused) return encodeAzureError(refused);
  const { ids } = modelList(ask.state, OPENAI_DEFAULT_MODELS);
  return { status: 200, headers: HEADERS, body: `{"data":[${ids.map((id) => cardJson(id, ask.clock)).join(',')}],"object":"list"}` };
}

function get(ask: InfoAsk): EncodedBody {
  const refused = versionRefusal(dated, ask);
  if (refused) return encodeAzureError(refused);
  const id = ask.params?.model ?? '';
  if (!hasModel(modelList(ask.state, OPENAI_DEFAULT_MODELS), id)) {
    return encodeAzureError({
      kind: 'not_found',
      status: 404,
      code: 'model_not_found',
      message: `The model '${id}' does not exist.`,
      param: null,
      type: 'invalid_request_error',
    });
  }
  return { status: 200, headers: HEADERS, body: cardJson(id, ask.clock) };
}

const V1 = { ownedBy: 'system', defaults: OPENAI_DEFAULT_MODELS, encodeError: encodeAzureError };

function v1List(ask: InfoAsk): EncodedBody {
  const refused = versionRefusal(v1Version, ask);
  return refused ? encodeAzureError(refused) : listOpenAIModels(ask, V1);
}

function v1Get(ask: InfoAsk): EncodedBody {
  const refused = versionRefusal(v1Version, ask);
  return refused ? encodeAzureError(refused) : getOpenAIModel(ask, V1);
}

// Refusals before the answer (an unknown session, a missing key) in Azure's shape.
const dialect = hostRegistration(azure).routes[0].dialect;

const routes = (prefix: string): InfoRouteSpec[] => [
  { method: 'GET', path: `${prefix}/openai/models`, dialect, answer: list },
  { method: 'GET', path: `${prefix}/openai/models/{model}`, dialect, answer: get },
];

export const azureModelsRegistration: DialectRegistration = {
  routes: [],
  providerPaths: {},
  infoRoutes: [
    ...routes(''),
    ...routes('/azure'),
    { method: 'GET', path: '/azure/openai/v1/models', dialect, answer: v1List },
    { method: 'GET', path: '/azure/openai/v1/models/{model}', dialect, answer: v1Get },
  ],
};

// Azure AI Foundry. Its v1 routes (`/foundry/openai/v1/chat/completions` and `/responses`) are
// Azure OpenAI's v1; its model inference route (`/models/chat/completions`, also under
// `/foundry/models/…`) answers only `api-version=2024-05-01-preview` and names the model in the body.
// Its `extra-parameters` header says what becomes of body members Chat Completions does not
// define: `error` (the default) refuses them, `drop` and `pass-through` let them by (to a model
// Understudy does not have: they are accepted and not decoded).

import type { NeutralError } from '../../core/errors.js';
import type { WireContext } from '../dialect.js';
import { CHAT_FIELDS } from '../openai-chat/decode-request.js';
import { azureChat, versioned } from './azure.js';
import { azureBadRequest, encodeAzureError, onlyVersion, v1Version } from './azure-service.js';
import type { JsonObject, OpenAIHost } from './host.js';

export const FOUNDRY_MODELS_VERSION = '2024-05-01-preview';

const EXTRA_PARAMETERS = ['error', 'drop', 'pass-through'];
const inferenceVersion = onlyVersion(FOUNDRY_MODELS_VERSION);

/** The body as the model sees it under the request's `extra-parameters` option, or the refusal of
 * an option the service does not know. */
function withExtraParameters(body: JsonObject, wire: WireContext): JsonObject | NeutralError {
  const option = wire.headers['extra-parameters'];
  if (option === undefined || option === 'error') return body;
  if (typeof option !== 'string' || !EXTRA_PARAMETERS.includes(option)) {
    return azureBadRequest(`Unexpected EXTRA_PARAMETERS option ${String(option)}, expected options are ['error', 'drop', 'pass-through']`);
  }
  let kept: JsonObject | undefined;
  for (const key of Object.keys(body)) {
    if (Object.hasOwn(CHAT_FIELDS, key)) continue;
    kept ??= { ...body };
    delete kept[key];
  }
  return kept ?? body;
}

export const foundry: OpenAIHost = {
  id: 'foundry',
  name: 'Azure AI Foundry (v1 routes)',
  chat: azureChat(['/foundry/openai/v1/chat/completions'], v1Version),
  responses: versioned(['/foundry/openai/v1/responses'], v1Version),
  providerPaths: { foundry: '/foundry/openai/v1' },
  encodeError: encodeAzureError,
};

export const foundryModels: OpenAIHost = {
  id: 'foundry-models',
  name: 'Azure AI Foundry (model inference)',
  chat: {
    ...azureChat(['/models/chat/completions', '/foundry/models/chat/completions'], inferenceVersion),
    headers: ['extra-parameters'],
    prepare: (body, wire) => inferenceVersion(wire) ?? withExtraParameters(body, wire),
  },
  providerPaths: { 'foundry-models': '/foundry/models' },
  encodeError: encodeAzureError,
};

// Azure AI Foundry. Its v1 routes (`/foundry/openai/v1/chat/completions` and `/responses`) are
// Azure OpenAI's v1; its model inference route (`/models/chat/completions`, also under
// `/foundry/models/…`) answers only `api-version=2024-05-01-preview` and names the model in the body.

import { azureChat, versioned } from './azure.js';
import { encodeAzureError, onlyVersion, v1Version } from './azure-service.js';
import type { OpenAIHost } from './host.js';

export const FOUNDRY_MODELS_VERSION = '2024-05-01-preview';

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
  chat: azureChat(['/models/chat/completions', '/foundry/models/chat/completions'], onlyVersion(FOUNDRY_MODELS_VERSION)),
  providerPaths: { 'foundry-models': '/foundry/models' },
  encodeError: encodeAzureError,
};

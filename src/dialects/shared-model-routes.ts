// `GET /v1/models` and `GET /v1/models/{model}` are OpenAI's, Anthropic's and (with `apiVersion:
// 'v1'`) Gemini's paths at once: the request's headers say whose SDK sent it, so whose answer it
// gets. An `anthropic-version` header is Anthropic's; a Gemini key (`x-goog-api-key`, `?key=`) is
// Gemini's; cohere-ai's (`x-fern-sdk-name`: Cohere's SDK also lists at `/v1/models`) Cohere's;
// anything else OpenAI's. Refusals before the answer (an unknown session) take OpenAI's shape.

import { anthropicMessages } from './anthropic-messages/index.js';
import { cohereV2Chat } from './cohere-v2/index.js';
import { getCohereModel, listCohereModels } from './cohere/models.js';
import { getAnthropicModel, listAnthropicModels } from './anthropic-messages/models.js';
import type { EncodedBody, InfoAsk, InfoRouteSpec } from './dialect.js';
import { geminiModels } from './gemini/models.js';
import { getOpenAIModel, listOpenAIModels } from './openai/models.js';
import { openaiChat } from './openai-chat/index.js';

type Whose = 'openai' | 'anthropic' | 'gemini' | 'cohere';

function whose(ask: InfoAsk): Whose {
  if (ask.headers?.['anthropic-version'] !== undefined) return 'anthropic';
  if (ask.headers?.['x-goog-api-key'] !== undefined || ask.query?.has('key')) return 'gemini';
  if (ask.headers?.['x-fern-sdk-name'] === 'cohere-ai') return 'cohere';
  return 'openai';
}

function list(ask: InfoAsk): EncodedBody {
  const by = whose(ask);
  if (by === 'cohere') return listCohereModels(ask);
  return by === 'anthropic' ? listAnthropicModels(ask) : by === 'gemini' ? geminiModels.list(ask) : listOpenAIModels(ask);
}

function get(ask: InfoAsk): EncodedBody {
  const by = whose(ask);
  if (by === 'cohere') return getCohereModel(ask);
  return by === 'anthropic' ? getAnthropicModel(ask) : by === 'gemini' ? geminiModels.get(ask) : getOpenAIModel(ask);
}

export const SHARED_MODEL_ROUTES: InfoRouteSpec[] = [
  { method: 'GET', path: '/v1/models', dialect: openaiChat, answer: list },
  { method: 'GET', path: '/v1/models/{model}', dialect: openaiChat, answer: get },
  // The Anthropic SDK under a provider prefix; the OpenAI SDK's base URL is `/v1` (`/openai/v1` is Groq's).
  { method: 'GET', path: '/anthropic/v1/models', dialect: anthropicMessages, answer: listAnthropicModels },
  { method: 'GET', path: '/anthropic/v1/models/{model}', dialect: anthropicMessages, answer: getAnthropicModel },
  { method: 'GET', path: '/cohere/v1/models', dialect: cohereV2Chat, answer: listCohereModels },
  { method: 'GET', path: '/cohere/v1/models/{model}', dialect: cohereV2Chat, answer: getCohereModel },
];

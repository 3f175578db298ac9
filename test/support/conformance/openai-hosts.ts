// Conformance drivers for the hosts of the OpenAI dialects (src/dialects/openai-hosts/): each host
// operation through the client its users point at it — the `openai` SDK with the host's base URL
// unless the host has an SDK of its own.

import OpenAI, { AzureOpenAI } from 'openai';
import { CLIENT_TIMEOUT_MS, type ConformanceDriver, type ErrorSeen, type Target } from './driver.js';
import { groqChatDriver } from './groq.js';
import { mistralChatDriver } from './mistral.js';
import { openaiChatDriverAt, openaiErrorOf } from './openai-chat.js';
import { openaiResponsesDriverAt } from './openai-responses.js';

/** `AzureOpenAI` at the deployment routes (the SDK adds `/openai` and the deployment segment). */
function azureClient(apiVersion: string) {
  return (target: Target) =>
    new AzureOpenAI({
      endpoint: target.url('azure'),
      apiKey: target.apiKey,
      apiVersion,
      maxRetries: 0,
      timeout: CLIENT_TIMEOUT_MS,
      logLevel: 'off',
    });
}

/** OpenRouter classifies an error by its numeric `error.code` (the HTTP status); no `type`. */
function openrouterErrorOf(thrown: unknown): ErrorSeen {
  const seen = openaiErrorOf(thrown);
  if (!(thrown instanceof OpenAI.APIError)) return seen;
  const code = (thrown.error as { code?: unknown } | undefined)?.code;
  return { ...seen, type: code === undefined || code === null ? undefined : String(code) };
}

const OPENROUTER_ERRORS = {
  errorTypes: { invalidRequest: '400', rateLimited: '429', conflict: '409' },
  errorOf: openrouterErrorOf,
};

const PERPLEXITY_ERRORS = {
  errorTypes: { invalidRequest: 'invalid_parameter', rateLimited: 'rate_limit_exceeded', conflict: 'understudy_error' },
  errorOf: openaiErrorOf,
};

export const openaiHostDrivers: ConformanceDriver[] = [
  openaiChatDriverAt({
    name: 'deepseek-chat',
    dialect: 'openai-chat@deepseek',
    operation: 'deepseek.chat.completions',
    provider: 'deepseek',
    model: 'deepseek-chat',
    // JSON mode only: a json_schema format is refused (test/openai-hosts-deepseek.test.ts).
    lacks: ['structured output'],
  }),
  openaiChatDriverAt({
    name: 'azure-chat',
    dialect: 'openai-chat@azure',
    operation: 'azure.chat.completions',
    provider: 'azure',
    model: 'my-gpt4o',
    client: azureClient('2024-10-21'),
  }),
  openaiResponsesDriverAt({
    name: 'azure-responses',
    dialect: 'openai-responses@azure',
    operation: 'azure.responses',
    provider: 'azure',
    model: 'my-gpt4o',
    client: azureClient('2025-04-01-preview'),
  }),
  openaiChatDriverAt({
    name: 'azure-v1-chat',
    dialect: 'openai-chat@azure-v1',
    operation: 'azure-v1.chat.completions',
    provider: 'azure-v1',
    model: 'gpt-4o',
  }),
  openaiResponsesDriverAt({
    name: 'azure-v1-responses',
    dialect: 'openai-responses@azure-v1',
    operation: 'azure-v1.responses',
    provider: 'azure-v1',
    model: 'gpt-4o',
  }),
  openaiChatDriverAt({
    name: 'foundry-chat',
    dialect: 'openai-chat@foundry',
    operation: 'foundry.chat.completions',
    provider: 'foundry',
    model: 'gpt-4o',
  }),
  openaiResponsesDriverAt({
    name: 'foundry-responses',
    dialect: 'openai-responses@foundry',
    operation: 'foundry.responses',
    provider: 'foundry',
    model: 'gpt-4o',
  }),
  openaiChatDriverAt({
    name: 'foundry-models-chat',
    dialect: 'openai-chat@foundry-models',
    operation: 'foundry-models.chat.completions',
    provider: 'foundry-models',
    model: 'Llama-3.3-70B-Instruct',
    client: (target) =>
      new OpenAI({
        baseURL: target.url('foundry-models'),
        apiKey: target.apiKey,
        defaultQuery: { 'api-version': '2024-05-01-preview' },
        maxRetries: 0,
        timeout: CLIENT_TIMEOUT_MS,
        logLevel: 'off',
      }),
  }),
  groqChatDriver,
  openaiResponsesDriverAt({
    name: 'groq-responses',
    dialect: 'openai-responses@groq',
    operation: 'groq.responses',
    provider: 'groq-v1',
    model: 'openai/gpt-oss-20b',
  }),
  mistralChatDriver,
  openaiChatDriverAt({
    name: 'openrouter-chat',
    dialect: 'openai-chat@openrouter',
    operation: 'openrouter.chat.completions',
    provider: 'openrouter',
    model: 'openai/gpt-4o-mini',
    errors: OPENROUTER_ERRORS,
  }),
  openaiResponsesDriverAt({
    name: 'openrouter-responses',
    dialect: 'openai-responses@openrouter',
    operation: 'openrouter.responses',
    provider: 'openrouter',
    model: 'openai/gpt-4o-mini',
    errors: OPENROUTER_ERRORS,
  }),
  openaiChatDriverAt({
    name: 'perplexity-chat',
    dialect: 'openai-chat@perplexity',
    operation: 'perplexity.chat.completions',
    provider: 'perplexity',
    model: 'sonar',
    errors: PERPLEXITY_ERRORS,
    lacks: ['tools'],
  }),
  openaiChatDriverAt({
    name: 'ollama-openai-chat',
    dialect: 'openai-chat@ollama-openai',
    operation: 'ollama-openai.chat.completions',
    provider: 'ollama-openai',
    model: 'llama3.2',
  }),
];

// Conformance drivers for the hosts of the OpenAI dialects (src/dialects/openai-hosts/): each host
// operation through the client its users point at it — the `openai` SDK with the host's base URL
// unless the host has an SDK of its own.

import OpenAI from 'openai';
import type { ConformanceDriver, ErrorSeen } from './driver.js';
import { openaiChatDriverAt, openaiErrorOf } from './openai-chat.js';
import { openaiResponsesDriverAt } from './openai-responses.js';

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
  }),
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
    noTools: true,
  }),
];

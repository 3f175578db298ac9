import type { DialectRegistration } from '../dialect.js';
import { ANTHROPIC_COUNT_TOKENS_ROUTES } from './count-tokens.js';
import { anthropicMessages } from './index.js';

export const anthropicMessagesRegistration: DialectRegistration = {
  routes: [
    { method: 'POST', path: '/v1/messages', operation: 'anthropic.messages', dialect: anthropicMessages },
    { method: 'POST', path: '/anthropic/v1/messages', operation: 'anthropic.messages', dialect: anthropicMessages },
  ],
  // The Anthropic SDKs (and LangChain) append /v1 themselves; the AI SDK's provider wants it in the base URL.
  providerPaths: { anthropic: '', 'anthropic-v1': '/v1' },
  infoRoutes: ANTHROPIC_COUNT_TOKENS_ROUTES,
};

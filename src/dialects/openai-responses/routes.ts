import type { DialectRegistration } from '../dialect.js';
import { openaiResponses } from './index.js';

// The Responses API shares the `openai` base URL (`/v1`) that the Chat Completions dialect registers.
export const openaiResponsesRegistration: DialectRegistration = {
  routes: [
    { method: 'POST', path: '/v1/responses', operation: 'openai.responses', dialect: openaiResponses },
    { method: 'POST', path: '/openai/v1/responses', operation: 'openai.responses', dialect: openaiResponses },
  ],
  providerPaths: {},
};

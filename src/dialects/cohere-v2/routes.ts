import type { DialectRegistration } from '../dialect.js';
import { cohereV2Chat } from './index.js';

export const cohereV2Registration: DialectRegistration = {
  routes: [
    { method: 'POST', path: '/v2/chat', operation: 'cohere.chat', dialect: cohereV2Chat },
    { method: 'POST', path: '/cohere/v2/chat', operation: 'cohere.chat', dialect: cohereV2Chat },
  ],
  // cohere-ai's CohereClientV2 appends v2/chat itself; the AI SDK's provider wants /v2 in the base URL.
  providerPaths: { cohere: '', 'cohere-v2': '/v2' },
};

import type { DialectRegistration } from '../dialect.js';
import { cohereV1Chat } from './index.js';

export const cohereV1Registration: DialectRegistration = {
  routes: [
    { method: 'POST', path: '/v1/chat', operation: 'cohere.v1.chat', dialect: cohereV1Chat },
    { method: 'POST', path: '/cohere/v1/chat', operation: 'cohere.v1.chat', dialect: cohereV1Chat },
  ],
  // cohere-ai's CohereClient appends v1/chat to the origin, as CohereClientV2 appends v2/chat
  // (cohere-v2 registers the name `cohere`).
  providerPaths: {},
};

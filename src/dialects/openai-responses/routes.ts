import type { DialectRegistration } from '../dialect.js';

// Filled in by the OpenAI Responses dialect (issue 4).
export const openaiResponsesRegistration: DialectRegistration = { routes: [], providerPaths: {} };

import type { DialectRegistration } from '../dialect.js';

// Filled in by the Gemini dialect (issue 4).
export const geminiRegistration: DialectRegistration = { routes: [], providerPaths: {} };

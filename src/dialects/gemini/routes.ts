// Where Gemini requests arrive. The genai SDK adds the version and `models/…` itself, so its base
// URL is the server's origin; the Vercel AI SDK's Google provider wants `/v1beta` in its base URL.
// Vertex AI has two path shapes: with project and location (OAuth), and express mode (API key).

import type { DialectRegistration, RouteSpec } from '../dialect.js';
import { GEMINI_COUNT_TOKENS_ROUTES } from './count-tokens.js';
import { gemini } from './index.js';
import { GEMINI_MODEL_ROUTES } from './models.js';

const METHODS = ['generateContent', 'streamGenerateContent'] as const;

function routes(prefix: string, operationPrefix: 'gemini' | 'vertex'): RouteSpec[] {
  return METHODS.map((method) => ({
    method: 'POST' as const,
    path: `${prefix}/{model}:${method}`,
    operation: `${operationPrefix}.${method}`,
    dialect: gemini,
  }));
}

export const geminiRegistration: DialectRegistration = {
  routes: [
    // The Gemini API: v1beta (the SDKs' default) spelled out, other versions checked by the decoder.
    ...routes('/v1beta/models', 'gemini'),
    ...routes('/{version}/models', 'gemini'),
    ...routes('/gemini/{version}/models', 'gemini'),
    // Vertex AI.
    ...routes('/{version}/projects/{project}/locations/{location}/publishers/google/models', 'vertex'),
    ...routes('/{version}/publishers/google/models', 'vertex'),
  ],
  providerPaths: { gemini: '', 'gemini-v1beta': '/v1beta', vertex: '' },
  infoRoutes: [...GEMINI_COUNT_TOKENS_ROUTES, ...GEMINI_MODEL_ROUTES],
};

// Where Ollama requests arrive. ollama-js (and LangChain's ChatOllama, built on it) add `/api/…`
// to the host they are given, so the base URL is the server's origin; the same routes also answer
// under `/ollama`, for a server that stands in for several providers at distinct prefixes. The
// routes that describe the server (model list, model details, version) are info routes.

import type { DialectRegistration, RouteSpec } from '../dialect.js';
import { ollama } from './index.js';
import { OLLAMA_INFO_ROUTES } from './info-routes.js';

const route = (path: string, operation: string): RouteSpec => ({ method: 'POST', path, operation, dialect: ollama });

export const ollamaRegistration: DialectRegistration = {
  routes: [
    route('/api/chat', 'ollama.chat'),
    route('/api/generate', 'ollama.generate'),
    route('/ollama/api/chat', 'ollama.chat'),
    route('/ollama/api/generate', 'ollama.generate'),
  ],
  providerPaths: { ollama: '', 'ollama-prefixed': '/ollama' },
  infoRoutes: OLLAMA_INFO_ROUTES,
};

// Where Ollama requests arrive. ollama-js (and LangChain's ChatOllama, built on it) add `/api/…`
// to the host they are given, so the base URL is the server's origin; the same routes also answer
// under `/ollama`, for a server that stands in for several providers at distinct prefixes.

import type { DialectRegistration, RouteSpec } from '../dialect.js';
import { ollama } from './index.js';

const route = (path: string, operation: string): RouteSpec => ({ method: 'POST', path, operation, dialect: ollama });

export const ollamaRegistration: DialectRegistration = {
  routes: [
    route('/api/chat', 'ollama.chat'),
    route('/api/generate', 'ollama.generate'),
    route('/ollama/api/chat', 'ollama.chat'),
    route('/ollama/api/generate', 'ollama.generate'),
  ],
  providerPaths: { ollama: '', 'ollama-prefixed': '/ollama' },
};

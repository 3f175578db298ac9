// Ollama's error body: {"error":"…"} and nothing else, with the handler's status. The same object,
// on a line of its own, is how a stream fails once it has started.

import type { NeutralError } from '../../core/errors.js';
import type { EncodedBody } from '../dialect.js';

export function ollamaErrorJson(error: NeutralError): string {
  return `{"error":${JSON.stringify(error.message)}}`;
}

export function encodeOllamaError(error: NeutralError): EncodedBody {
  return {
    status: error.status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...(error.headers ?? {}) },
    body: ollamaErrorJson(error),
  };
}

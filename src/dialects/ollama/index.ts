import type { ChatDialect } from '../dialect.js';
import { decodeOllamaRequest, ollamaRequestedStream } from './decode-request.js';
import { encodeOllamaResponse } from './encode-response.js';
import { encodeOllamaStreamErrorEvent, encodeOllamaStreamEvents, encodeOllamaStreamFailure } from './encode-stream.js';
import { encodeOllamaError } from './errors.js';
import { recordModel } from './model-catalogue.js';
import { readOllamaAnswer, readOllamaStream } from './read-answer.js';

/** Ollama's native /api/chat and /api/generate. */
export const ollama: ChatDialect = {
  id: 'ollama',
  idPrefix: '',
  decodeHeaders: [],
  requestedStream: ollamaRequestedStream,
  decode: decodeOllamaRequest,
  encodeResponse: encodeOllamaResponse,
  encodeStream: encodeOllamaStreamEvents,
  encodeError: encodeOllamaError,
  encodeStreamFailure: encodeOllamaStreamFailure,
  encodeStreamErrorEvent: encodeOllamaStreamErrorEvent,
  // A model answered for is one the session's /api/tags lists.
  delivered: (_reply, request, ctx) => recordModel(ctx.wire.state, request.model, ctx.created),
  readAnswer: { json: readOllamaAnswer, stream: readOllamaStream },
};

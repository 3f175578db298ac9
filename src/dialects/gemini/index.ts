import type { ChatDialect } from '../dialect.js';
import { decodeGeminiRequest } from './decode-request.js';
import { encodeGeminiResponse } from './encode-response.js';
import { encodeGeminiStreamErrorEvent, encodeGeminiStreamEvents, encodeGeminiStreamFailure } from './encode-stream.js';
import { encodeGeminiError } from './errors.js';
import { readGeminiAnswer, readGeminiStream } from './read-answer.js';

/** Gemini's generateContent and streamGenerateContent, on the Gemini API and on Vertex AI. */
export const gemini: ChatDialect = {
  id: 'gemini',
  idPrefix: '',
  decodeHeaders: [],
  // The route says whether it streams (streamGenerateContent), not the body.
  requestedStream: (_body, wire) => wire.operation.endsWith('.streamGenerateContent'),
  decode: decodeGeminiRequest,
  encodeResponse: encodeGeminiResponse,
  encodeStream: encodeGeminiStreamEvents,
  encodeError: encodeGeminiError,
  encodeStreamFailure: encodeGeminiStreamFailure,
  encodeStreamErrorEvent: encodeGeminiStreamErrorEvent,
  readAnswer: { json: readGeminiAnswer, stream: readGeminiStream },
};

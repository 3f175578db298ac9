import type { ChatDialect } from '../dialect.js';
import { decodeChatRequest } from './decode-request.js';
import { encodeChatResponse, encodeChatResponseBody } from './encode-response.js';
import {
  encodeChatStream,
  encodeChatStreamBody,
  encodeChatStreamEvents,
  encodeChatStreamErrorEvent,
  encodeChatStreamFailure,
} from './encode-stream.js';
import { encodeOpenAIError } from '../openai/encode-error.js';

export const openaiChat: ChatDialect = {
  id: 'openai-chat',
  idPrefix: 'chatcmpl-',
  decode: decodeChatRequest,
  encodeResponse: encodeChatResponse,
  encodeResponseBody: encodeChatResponseBody,
  encodeStream: encodeChatStream,
  encodeStreamBody: encodeChatStreamBody,
  encodeStreamEvents: encodeChatStreamEvents,
  encodeError: encodeOpenAIError,
  encodeStreamFailure: encodeChatStreamFailure,
  encodeStreamErrorEvent: encodeChatStreamErrorEvent,
};

import { streamInBody, type ChatDialect } from '../dialect.js';
import { readChatAnswer, readChatStream } from './read-answer.js';
import { decodeChatRequest } from './decode-request.js';
import { outsideCatalogue } from './model-catalogue.js';
import { encodeChatResponse } from './encode-response.js';
import { encodeChatStreamEvents, encodeChatStreamErrorEvent, encodeChatStreamFailure } from './encode-stream.js';
import { encodeOpenAIError } from '../openai/encode-error.js';

export const openaiChat: ChatDialect = {
  id: 'openai-chat',
  idPrefix: 'chatcmpl-',
  decodeHeaders: [],
  requestedStream: streamInBody,
  decode: (body, wire) => outsideCatalogue(decodeChatRequest(body, wire), wire),
  encodeResponse: encodeChatResponse,
  encodeStream: encodeChatStreamEvents,
  encodeError: encodeOpenAIError,
  encodeStreamFailure: encodeChatStreamFailure,
  encodeStreamErrorEvent: encodeChatStreamErrorEvent,
  readAnswer: { json: readChatAnswer, stream: readChatStream },
};

import { streamInBody, type ChatDialect } from '../dialect.js';
import { decodeCohereChatRequest } from './decode-request.js';
import { encodeCohereError } from '../cohere/errors.js';
import { encodeCohereChatResponse } from './encode-response.js';
import { encodeCohereStreamErrorEvent, encodeCohereStreamEvents, encodeCohereStreamFailure } from './encode-stream.js';
import { readCohereChatAnswer, readCohereChatStream } from './read-answer.js';

export const cohereV2Chat: ChatDialect = {
  id: 'cohere-v2',
  idPrefix: 'c-',
  decodeHeaders: [],
  requestedStream: streamInBody,
  decode: decodeCohereChatRequest,
  encodeResponse: encodeCohereChatResponse,
  encodeStream: encodeCohereStreamEvents,
  encodeError: encodeCohereError,
  encodeStreamFailure: encodeCohereStreamFailure,
  encodeStreamErrorEvent: encodeCohereStreamErrorEvent,
  readAnswer: { json: readCohereChatAnswer, stream: readCohereChatStream },
};

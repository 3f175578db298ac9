import { encodeCohereError } from '../cohere/errors.js';
import { streamInBody, type ChatDialect } from '../dialect.js';
import { rememberDeliveredCalls } from './call-ids.js';
import { decodeCohereV1ChatRequest } from './decode-request.js';
import { encodeCohereV1ChatResponse } from './encode-response.js';
import { encodeCohereV1StreamErrorEvent, encodeCohereV1StreamEvents, encodeCohereV1StreamFailure } from './encode-stream.js';
import { readCohereV1ChatAnswer, readCohereV1ChatStream } from './read-answer.js';

export const cohereV1Chat: ChatDialect = {
  id: 'cohere-v1',
  idPrefix: 'c1-',
  decodeHeaders: [],
  requestedStream: streamInBody,
  decode: decodeCohereV1ChatRequest,
  encodeResponse: encodeCohereV1ChatResponse,
  encodeStream: encodeCohereV1StreamEvents,
  encodeError: encodeCohereError,
  encodeStreamFailure: encodeCohereV1StreamFailure,
  encodeStreamErrorEvent: encodeCohereV1StreamErrorEvent,
  // The ids of delivered calls come back on later requests (call-ids.ts).
  delivered: rememberDeliveredCalls,
  statefulDecode: true,
  readAnswer: { json: readCohereV1ChatAnswer, stream: readCohereV1ChatStream },
};

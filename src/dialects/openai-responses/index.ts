import { streamInBody, type ChatDialect } from '../dialect.js';
import { encodeOpenAIError } from '../openai/encode-error.js';
import { decodeResponsesRequest } from './decode-request.js';
import { encodeResponsesResponse } from './encode-response.js';
import { encodeResponsesStreamErrorEvent, encodeResponsesStreamEvents, encodeResponsesStreamFailure } from './encode-stream.js';
import { readResponsesAnswer, readResponsesStream } from './read-answer.js';
import { storeDeliveredResponse } from './store-response.js';

export const openaiResponses: ChatDialect = {
  id: 'openai-responses',
  idPrefix: 'resp_',
  // The credential scopes stored responses (a stateful decode sees every header; listed for the record).
  decodeHeaders: ['authorization', 'api-key', 'x-api-key'],
  requestedStream: streamInBody,
  decode: decodeResponsesRequest,
  encodeResponse: encodeResponsesResponse,
  encodeStream: encodeResponsesStreamEvents,
  encodeError: encodeOpenAIError,
  encodeStreamFailure: encodeResponsesStreamFailure,
  encodeStreamErrorEvent: encodeResponsesStreamErrorEvent,
  delivered: storeDeliveredResponse,
  // Decoding splices in stored history, so the journal keeps the decoded request.
  statefulDecode: true,
  readAnswer: { json: readResponsesAnswer, stream: readResponsesStream },
};

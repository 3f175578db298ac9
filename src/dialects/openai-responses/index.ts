import type { ChatDialect } from '../dialect.js';
import { encodeOpenAIError } from '../openai/encode-error.js';
import { decodeResponsesRequest } from './decode-request.js';
import { encodeResponsesResponse } from './encode-response.js';
import {
  encodeResponsesStream,
  encodeResponsesStreamErrorEvent,
  encodeResponsesStreamEvents,
  encodeResponsesStreamFailure,
} from './encode-stream.js';
import { storeDeliveredResponse } from './store-response.js';

export const openaiResponses: ChatDialect = {
  id: 'openai-responses',
  idPrefix: 'resp_',
  decode: decodeResponsesRequest,
  encodeResponse: encodeResponsesResponse,
  encodeStream: encodeResponsesStream,
  encodeStreamEvents: encodeResponsesStreamEvents,
  encodeError: encodeOpenAIError,
  encodeStreamFailure: encodeResponsesStreamFailure,
  encodeStreamErrorEvent: encodeResponsesStreamErrorEvent,
  delivered: storeDeliveredResponse,
  // Decoding splices in stored history, so the journal keeps the decoded request.
  statefulDecode: true,
};

import { streamInBody, type ChatDialect } from '../dialect.js';
import { readMessageAnswer, readMessageStream } from './read-answer.js';
import { decodeMessagesRequest } from './decode-request.js';
import { encodeMessageResponse } from './encode-response.js';
import { encodeMessageStreamEvents, encodeMessageStreamErrorEvent, encodeMessageStreamFailure } from './encode-stream.js';
import { encodeAnthropicError } from './errors.js';

export const anthropicMessages: ChatDialect = {
  id: 'anthropic-messages',
  idPrefix: 'msg_',
  // The API version selects what a request may say.
  decodeHeaders: ['anthropic-version'],
  requestedStream: streamInBody,
  decode: decodeMessagesRequest,
  encodeResponse: encodeMessageResponse,
  encodeStream: encodeMessageStreamEvents,
  encodeError: encodeAnthropicError,
  encodeStreamFailure: encodeMessageStreamFailure,
  encodeStreamErrorEvent: encodeMessageStreamErrorEvent,
  // Anthropic answers carry the request id as `request-id` (SDKs expose it as `_request_id`).
  responseHeaders: (ctx) => ({ 'request-id': ctx.requestId }),
  readAnswer: { json: readMessageAnswer, stream: readMessageStream },
};

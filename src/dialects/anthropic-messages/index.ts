import type { ChatDialect } from '../dialect.js';
import { decodeMessagesRequest } from './decode-request.js';
import { encodeMessageResponse, encodeMessageResponseBody } from './encode-response.js';
import {
  encodeMessageStream,
  encodeMessageStreamBody,
  encodeMessageStreamEvents,
  encodeMessageStreamErrorEvent,
  encodeMessageStreamFailure,
} from './encode-stream.js';
import { encodeAnthropicError } from './errors.js';

export const anthropicMessages: ChatDialect = {
  id: 'anthropic-messages',
  idPrefix: 'msg_',
  decode: decodeMessagesRequest,
  encodeResponse: encodeMessageResponse,
  encodeResponseBody: encodeMessageResponseBody,
  encodeStream: encodeMessageStream,
  encodeStreamBody: encodeMessageStreamBody,
  encodeStreamEvents: encodeMessageStreamEvents,
  encodeError: encodeAnthropicError,
  encodeStreamFailure: encodeMessageStreamFailure,
  encodeStreamErrorEvent: encodeMessageStreamErrorEvent,
  // Anthropic answers carry the request id as `request-id` (SDKs expose it as `_request_id`).
  responseHeaders: (ctx) => ({ 'request-id': ctx.requestId }),
};

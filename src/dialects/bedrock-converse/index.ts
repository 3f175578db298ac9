import type { ChatDialect } from '../dialect.js';
import { encodeBedrockError } from '../bedrock/errors.js';
import { corruptFrame } from '../bedrock/event-stream.js';
import { requestIdHeader } from '../bedrock/model-routes.js';
import { decodeConverseRequest } from './decode-request.js';
import { encodeConverseResponse } from './encode-response.js';
import { encodeConverseStream, encodeConverseStreamErrorEvent, encodeConverseStreamFailure } from './encode-stream.js';
import { CONVERSE_STREAM } from './operations.js';
import { readConverseAnswer, readConverseStream } from './read-answer.js';

export const bedrockConverse: ChatDialect = {
  id: 'bedrock-converse',
  // Converse answers carry no id; the prefix names the journal's response ids.
  idPrefix: 'converse-',
  decodeHeaders: [],
  // The route says whether it streams (ConverseStream); the body has no `stream` member.
  requestedStream: (_body, wire) => wire.operation === CONVERSE_STREAM,
  decode: decodeConverseRequest,
  encodeResponse: encodeConverseResponse,
  encodeStream: encodeConverseStream,
  encodeError: encodeBedrockError,
  encodeStreamFailure: encodeConverseStreamFailure,
  encodeStreamErrorEvent: encodeConverseStreamErrorEvent,
  responseHeaders: (ctx) => requestIdHeader(ctx.requestId),
  binaryStream: { malformedFrame: corruptFrame() },
  readAnswer: { json: readConverseAnswer, stream: readConverseStream },
};

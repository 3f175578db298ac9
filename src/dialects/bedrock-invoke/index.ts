// Bedrock's InvokeModel and InvokeModelWithResponseStream: the model's own body in and out, chosen
// by the model id in the path (Anthropic Claude's Messages body, Amazon Titan Text's, Amazon
// Nova's), Bedrock's restJson1 errors, and the stream in AWS event-stream `chunk` frames with
// exceptions as exception frames.

import type { NeutralError } from '../../core/errors.js';
import type { ChatRequest, ResolvedReply } from '../../core/model.js';
import { encodeBedrockError, bedrockExceptionFrame } from '../bedrock/errors.js';
import { corruptFrame } from '../bedrock/event-stream.js';
import type { ChatDialect, DialectEncodeContext, EventSource, StreamEncoding } from '../dialect.js';
import { chunkFrame, EVENT_STREAM } from './chunk-frames.js';
import { decodeInvokeRequest, familyOfRequest, STREAM_OPERATION } from './decode-request.js';
import { anthropicStreamStart, encodeAnthropicJson, encodeAnthropicStream } from './encode-anthropic.js';
import { encodeNovaJson, encodeNovaStream, NOVA_MESSAGE_START } from './encode-nova.js';
import { encodeTitanJson, encodeTitanStream } from './encode-titan.js';
import { invocationHeaders } from './invocation-metrics.js';
import { readInvokeAnswer, readInvokeStream } from './read-answer.js';

function encodeResponse(reply: ResolvedReply, request: ChatRequest, ctx: DialectEncodeContext): string {
  switch (familyOfRequest(request)) {
    case 'anthropic':
      return encodeAnthropicJson(reply, request, ctx);
    case 'titan-text':
      return encodeTitanJson(reply);
    default:
      return encodeNovaJson(reply);
  }
}

function encodeStream(reply: ResolvedReply, request: ChatRequest, ctx: DialectEncodeContext): { contentType: string; events: EventSource } {
  const family = familyOfRequest(request);
  const events =
    family === 'anthropic'
      ? encodeAnthropicStream(reply, request, ctx, ctx.pacing)
      : family === 'titan-text'
        ? encodeTitanStream(reply, ctx.pacing)
        : encodeNovaStream(reply, ctx.pacing);
  return { contentType: EVENT_STREAM, events };
}

/** A stream that fails once started: the family's opening chunk (Titan has none), then the exception. */
function encodeStreamFailure(error: NeutralError, request: ChatRequest, ctx: DialectEncodeContext): StreamEncoding {
  const family = familyOfRequest(request);
  const start =
    family === 'anthropic' ? [anthropicStreamStart(error, request, ctx)] : family === 'nova' ? [chunkFrame(NOVA_MESSAGE_START)] : [];
  return { contentType: EVENT_STREAM, events: [...start, bedrockExceptionFrame(error)] };
}

export const bedrockInvoke: ChatDialect = {
  id: 'bedrock-invoke',
  // Claude's message ids on Bedrock carry `bdrk`; Titan and Nova answers carry no id.
  idPrefix: 'msg_bdrk_',
  decodeHeaders: [],
  requestedStream: (_body, wire) => wire.operation === STREAM_OPERATION,
  decode: decodeInvokeRequest,
  encodeResponse,
  encodeStream,
  encodeError: encodeBedrockError,
  encodeStreamFailure,
  encodeStreamErrorEvent: (error) => bedrockExceptionFrame(error),
  responseHeaders(ctx, reply) {
    if (ctx.wire.operation === STREAM_OPERATION) {
      return { 'x-amzn-requestid': ctx.requestId, 'x-amzn-bedrock-content-type': 'application/json' };
    }
    return reply ? invocationHeaders(ctx.requestId, reply.usage, ctx.pacing) : { 'x-amzn-requestid': ctx.requestId };
  },
  binaryStream: { malformedFrame: corruptFrame() },
  readAnswer: { json: readInvokeAnswer, stream: readInvokeStream },
};

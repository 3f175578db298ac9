// A whole answer's bytes (a JSON body, or an unpaced stream joined), derived for every dialect
// from its two encoders. A scripted reply answered to a repeated request (the decode memo's one
// frozen request, decode-memo.ts) gives the same bytes every time but for its response id, so from
// the second such answer on they come from a byte template (body-template.ts): one copy and the id
// written into it, small answers as one latin1 string, large buffers recycled.

import type { ChatRequest, ResolvedReply } from '../core/model.js';
import type { AnswerBytes, ChatDialect, DialectEncodeContext, EventSource, StreamBody } from '../dialects/dialect.js';
import { templatedBody, type TemplateKey } from './body-template.js';

/** The JSON answer's bytes. */
export function jsonAnswer(dialect: ChatDialect, reply: ResolvedReply, request: ChatRequest, ctx: DialectEncodeContext): AnswerBytes {
  const key = templateKeyOf(dialect, reply, request, ctx);
  if (key) {
    const prefix = dialect.idPrefix;
    const templated = templatedBody(reply.shape as object, key, ctx.responseId.slice(prefix.length), (unique) =>
      dialect.encodeResponse(reply, request, { ...ctx, responseId: prefix + unique }),
    );
    if (templated) return templated;
  }
  return { body: dialect.encodeResponse(reply, request, ctx) };
}

/** The whole stream's bytes, for an answer written at once. */
export function streamAnswer(dialect: ChatDialect, reply: ResolvedReply, request: ChatRequest, ctx: DialectEncodeContext): StreamBody {
  if (dialect.binaryStream) {
    const stream = dialect.encodeStream(reply, request, ctx);
    return { contentType: stream.contentType, body: joinEvents(stream.events), encoding: 'latin1' };
  }
  const key = templateKeyOf(dialect, reply, request, ctx);
  if (key) {
    const prefix = dialect.idPrefix;
    const templated = templatedBody(reply.shape as object, key, ctx.responseId.slice(prefix.length), (unique) => {
      const stream = dialect.encodeStream(reply, request, { ...ctx, responseId: prefix + unique });
      streamTypes.set(request, stream.contentType);
      return joinEvents(stream.events);
    });
    const contentType = streamTypes.get(request);
    if (templated && contentType !== undefined)
      return { contentType, body: templated.body, encoding: templated.encoding, sentBy: templated.sentBy };
  }
  const stream = dialect.encodeStream(reply, request, ctx);
  return { contentType: stream.contentType, body: joinEvents(stream.events) };
}

/** A templated stream's content type, from its rendering (the request fixes it, as it fixes the rest). */
const streamTypes = new WeakMap<ChatRequest, string>();

function joinEvents(events: EventSource): string {
  let body = '';
  for (let i = 0; i < events.length; i++) body += events.at(i);
  return body;
}

/**
 * What a rendering depends on besides the reply's shape and the response id: the request (the
 * same frozen object, so everything the encoders read of it is the same), the clock, the model and
 * the usage (cached tokens change as the prompt cache warms). A request that is not the memo's own
 * gets no template: its key would never repeat, and would keep the request alive. What a template
 * writes into each answer is the response id's unique part, after the dialect's prefix: item ids
 * made from it (Responses' `msg_…`) then change with it.
 */
function templateKeyOf(
  dialect: ChatDialect,
  reply: ResolvedReply,
  request: ChatRequest,
  ctx: DialectEncodeContext,
): TemplateKey | undefined {
  if (!reply.shape || !Object.isFrozen(request) || !ctx.responseId.startsWith(dialect.idPrefix)) return undefined;
  const u = reply.usage;
  return [
    request,
    ctx.wire.operation,
    ctx.created,
    ctx.model,
    u.inputTokens,
    u.outputTokens,
    u.cachedInputTokens,
    u.cacheWriteTokens ?? 0,
    u.reasoningTokens,
  ];
}

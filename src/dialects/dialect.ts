// What a wire dialect provides. A dialect decodes wire bodies to the neutral request, encodes
// resolved replies and neutral errors back to its wire, and knows nothing of scripts or sessions.

import type { NeutralError } from '../core/errors.js';
import type { ChatRequest, EncodeContext, ResolvedReply } from '../core/model.js';

export interface EncodedBody {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface StreamEncoding {
  contentType: string;
  /** Wire events in order, each already framed (e.g. "data: {...}\n\n"). */
  events: string[];
}

export interface ChatDialect {
  readonly id: string;
  /** Checks and decodes the parsed JSON body; a wire error comes back in neutral form. */
  decode(body: unknown): ChatRequest | NeutralError;
  encodeResponse(reply: ResolvedReply, request: ChatRequest, ctx: EncodeContext): string;
  encodeStream(reply: ResolvedReply, request: ChatRequest, ctx: EncodeContext): StreamEncoding;
  encodeError(error: NeutralError, ctx: { requestId: string }): EncodedBody;
  /** Prefix of response ids (e.g. "chatcmpl-"). */
  readonly idPrefix: string;
}

// One provider request on its way through the stages once its body is decoded, and the small
// facts every stage shares about it.

import type { ServerResponse } from 'node:http';
import { fnv1a } from '../core/fnv.js';
import type { ChatRequest, Usage } from '../core/model.js';
import type { ChatDialect, DialectEncodeContext, WireContext } from '../dialects/dialect.js';
import { flattened } from '../engine/ids.js';
import type { JournalRecord } from '../engine/journal.js';
import type { Session } from '../engine/session.js';

export interface Exchange {
  session: Session;
  dialect: ChatDialect;
  request: ChatRequest;
  res: ServerResponse;
  entry: JournalRecord;
  wire: WireContext;
  /** The request body as received (record mode forwards it). */
  bodyText?: string;
}

export const LEFT_EARLY = 'the client closed the connection before its answer was delivered';

/** What a dialect's encoders are told about the answer they write. */
export function encodeContext(x: Exchange): DialectEncodeContext {
  return {
    wire: x.wire,
    responseId: flattened(x.dialect.idPrefix + x.session.nextId()),
    created: x.session.clock,
    model: x.request.model,
    requestId: x.entry.requestId,
  };
}

/** A number from the request id, seeding its pacing jitter and chaos (same session and request,
 * same timings). */
export function seedOf(requestId: string): number {
  return fnv1a(requestId);
}

/** The usage of an answer that produced no output. */
export function inputOnly(inputTokens: number): Usage {
  return { inputTokens, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 };
}

/** Waits `ms`, resolving false early if the client goes away. */
export function waitConnected(ms: number, res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(!res.destroyed);
    }, ms);
    res.once('close', onClose);
  });
}

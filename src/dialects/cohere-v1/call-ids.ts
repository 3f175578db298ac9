// v1 tool calls carry no id, so the ids of the calls Understudy delivered are kept per session, by
// the call's name and parameters: a later request echoing the call (a CHATBOT turn's tool_calls, a
// tool result's `call`) gets the id the script gave it back, and `toolResult` predicates naming
// it, and the tool ledger, match as on wires that carry ids. Bounded: the oldest are forgotten.

import type { ResolvedReply } from '../../core/model.js';
import type { DialectEncodeContext, DialectState } from '../dialect.js';

const STORE_NAME = 'cohere-v1.call-ids';
export const CALL_IDS_LIMIT = 1000;

export class DeliveredCallIds {
  private readonly byKey = new Map<string, string>();

  remember(key: string, id: string): void {
    this.byKey.delete(key);
    this.byKey.set(key, id);
    if (this.byKey.size > CALL_IDS_LIMIT) this.byKey.delete(this.byKey.keys().next().value as string);
  }

  idOf(name: string, parameters: unknown): string | undefined {
    return this.byKey.get(callKey(name, parameters));
  }
}

/** Parameters as the client echoes them: parsed JSON, serialised again. */
export function callKey(name: string, parameters: unknown): string {
  return `${name}\u0000${JSON.stringify(parameters)}`;
}

export function deliveredCallIds(state: DialectState): DeliveredCallIds {
  return state.store(STORE_NAME, () => new DeliveredCallIds());
}

export function rememberDeliveredCalls(reply: ResolvedReply, _request: unknown, ctx: DialectEncodeContext): void {
  if (reply.toolCalls.length === 0) return;
  const ids = deliveredCallIds(ctx.wire.state);
  for (const call of reply.toolCalls) {
    let parameters: unknown;
    try {
      parameters = JSON.parse(call.argumentsText);
    } catch {
      continue;
    }
    ids.remember(callKey(call.name, parameters), call.id);
  }
}

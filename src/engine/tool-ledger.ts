// Every tool call the session's replies made, and the result the application sent back for it:
// what verify() checks tool expectations against. Bounded; the oldest calls go first.
//
// A result counts once a request carrying it was answered: the engine records results when the
// reply to that request was delivered (exchange.ts), so a request refused with a 409, or cancelled
// before its answer, records nothing, and the result a later answered request carries is the one
// kept. Of answered requests carrying a result for the same call, the first is kept (later requests
// repeat the history; once every call has its result, a request costs the ledger nothing).

import type { ChatRequest, JsonValue, ResolvedReply } from '../core/model.js';

export interface ToolCallRecord {
  id: string;
  name: string;
  /** Parsed arguments (undefined when the scripted text was not JSON). */
  arguments: JsonValue | undefined;
  argumentsText: string;
  /** The request whose reply made the call. */
  requestId: string;
  /** The tool result the application sent back, when one arrived. */
  result?: string;
  resultIsError?: boolean;
  resultRequestId?: string;
}

export const TOOL_LEDGER_LIMIT = 10_000;

function parse(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

export class ToolLedger {
  private calls: ToolCallRecord[] = [];
  private readonly byId = new Map<string, ToolCallRecord>();
  private pending = 0;
  dropped = 0;

  recordCalls(reply: ResolvedReply, requestId: string): void {
    for (const call of reply.toolCalls) {
      const record: ToolCallRecord = {
        id: call.id,
        name: call.name,
        arguments: parse(call.argumentsText),
        argumentsText: call.argumentsText,
        requestId,
      };
      this.calls.push(record);
      this.byId.set(call.id, record);
      this.pending++;
    }
    if (this.calls.length > TOOL_LEDGER_LIMIT) {
      const gone = this.calls.splice(0, this.calls.length - TOOL_LEDGER_LIMIT);
      for (const record of gone) {
        if (this.byId.get(record.id) === record) this.byId.delete(record.id);
        if (record.result === undefined) this.pending--;
      }
      this.dropped += gone.length;
    }
  }

  /** Whether some call has no result yet (the engine records a request's results only then). */
  get awaitsResults(): boolean {
    return this.pending > 0;
  }

  /** Attaches results an answered request carries to the calls they answer (first answered result wins). */
  recordResults(request: ChatRequest, requestId: string): void {
    if (this.pending === 0) return;
    for (const message of request.messages) {
      for (const part of message.parts) {
        if (part.type !== 'tool_result') continue;
        const record = this.byId.get(part.callId);
        if (!record || record.result !== undefined) continue;
        record.result = part.content;
        record.resultIsError = part.isError;
        record.resultRequestId = requestId;
        this.pending--;
      }
    }
  }

  list(): ToolCallRecord[] {
    return this.calls.map((c) => ({ ...c }));
  }

  clear(): void {
    this.calls = [];
    this.byId.clear();
    this.pending = 0;
    this.dropped = 0;
  }
}

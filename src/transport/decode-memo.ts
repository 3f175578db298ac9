// Load tests send the same body again and again. Decoding a body is a pure function of its text
// and of the decode context (the only headers, query, path parameters and session a decode
// reads; see decodeContextOf in server.ts), so once the same text arrives twice in a row under the
// same context, its decoding is kept and shared, frozen, by the requests that repeat it.

import type { ChatRequest } from '../core/model.js';
import { deepFreeze } from '../core/deep-freeze.js';
import type { WireContext } from '../dialects/dialect.js';

/** Bodies longer than this are not kept (a memo must not hold a large upload alive). */
const MAX_TEXT = 64 * 1024;

export class DecodeMemo {
  private text = '';
  private context: WireContext | undefined;
  private decoded: ChatRequest | undefined;

  /** The text of the decoding kept (equal to the text of the last successful lookup). */
  get keptText(): string {
    return this.text;
  }

  lookup(text: string, context: WireContext): ChatRequest | undefined {
    return context === this.context && text === this.text ? this.decoded : undefined;
  }

  /** Called with each fresh decoding; keeps it when the same text came just before. */
  remember(text: string, context: WireContext, decoded: ChatRequest): void {
    if (text.length > MAX_TEXT) return;
    if (context === this.context && text === this.text) {
      this.decoded = deepFreeze(decoded);
      return;
    }
    this.text = text;
    this.context = context;
    this.decoded = undefined;
  }
}

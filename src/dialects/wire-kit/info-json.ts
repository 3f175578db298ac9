// An info route's body as a chat route reads it: the same refusal for text that is not JSON.

import { invalidRequest, type NeutralError } from '../../core/errors.js';
import type { InfoAsk } from '../dialect.js';

/** The parsed body, or the invalid-JSON refusal a chat route answers (its parser's words). */
export function infoBody(ask: InfoAsk): unknown {
  if (ask.body !== undefined || ask.text === '') return ask.body;
  try {
    return JSON.parse(ask.text) as unknown;
  } catch (e) {
    const message = `We could not parse the JSON body of your request: ${(e as Error).message}. The API expects a JSON payload.`;
    return new UnparsedBody(invalidRequest(message, null, 'invalid_json'));
  }
}

export class UnparsedBody {
  constructor(readonly error: NeutralError) {}
}

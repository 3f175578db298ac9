// A large request's input tokens are counted, and its prompt-cache prefixes hashed, before the
// engine selects anything, in slices with a turn of the event loop between them, so that other
// clients are answered meanwhile. Selection and reservation then run synchronously as for any
// request, reading what was kept here.

import type { ServerResponse } from 'node:http';
import type { ChatRequest } from '../core/model.js';
import { PrefixKeyTally } from '../core/prompt-cache.js';
import { InputTokenTally } from '../core/tokens.js';

/** Bodies at least this long (in characters) are counted in slices; shorter ones count at once. */
export const SLICED_COUNT_CHARS = 32 * 1024;
/** Characters counted per slice: a slice stays a few milliseconds even for the costliest text. */
const SLICE_CHARS = 4 * 1024;
/** Slices run back to back until this long has passed, then the loop gets a turn. */
const SLICE_MS = 8;

/** Resolves true once counted, false if the client went away first (nothing selected, nothing
 * consumed). */
export function countInSlices(request: ChatRequest, res: ServerResponse): Promise<boolean> {
  let tally: InputTokenTally | undefined;
  // The prompt cache's prefix keys are hashed in the same slices, once the tokens are counted.
  let keys: PrefixKeyTally | undefined;
  let counted = false;
  return new Promise((resolve, reject) => {
    const step = () => {
      if (res.destroyed) {
        resolve(false);
        return;
      }
      const until = performance.now() + SLICE_MS;
      try {
        // Listing the texts of a request of many messages is work too: in the first slice.
        tally ??= new InputTokenTally(request);
        do {
          if (!counted) {
            counted = tally.advance(SLICE_CHARS);
            if (counted && request.promptCaching === 'none') {
              resolve(true);
              return;
            }
          } else {
            keys ??= new PrefixKeyTally(request);
            if (keys.advance(4 * SLICE_CHARS)) {
              resolve(true);
              return;
            }
          }
        } while (performance.now() < until);
      } catch (error) {
        reject(error as Error);
        return;
      }
      setImmediate(step);
    };
    setImmediate(step);
  });
}

/** Resolves on the next turn of the event loop: true, or false if the client went away. */
export function nextTurn(res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => setImmediate(() => resolve(!res.destroyed)));
}

/** Whether the request's messages hold at least `chars` characters of text (stops counting there). */
export function holdsText(request: ChatRequest, chars: number): boolean {
  let total = 0;
  for (const message of request.messages) {
    for (const part of message.parts) {
      if (part.type === 'text' || part.type === 'reasoning') total += part.text.length;
      else if (part.type === 'tool_call') total += part.argumentsText.length;
      else if (part.type === 'tool_result') total += part.content.length;
      if (total >= chars) return true;
    }
  }
  return false;
}

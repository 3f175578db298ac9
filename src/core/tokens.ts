// Deterministic token counting with a real BPE (o200k_base), our own counter over a prebuilt rank
// table (data/o200k_base.bin, made by `npm run build`): loading it is one file read, a few ms, so
// it is loaded on first use; loadTokenizer() lets the server load it before it answers.

import { join } from 'node:path';
import { countO200k, countO200kFrom, type O200kCursor } from './bpe/o200k.js';
import { RankTable } from './bpe/rank-table.js';
import { PACKAGE_NAME, packageRoot } from './package-info.js';
import type { ChatRequest, ResolvedReply } from './model.js';
import { CountsByText } from './counts-by-text.js';

/** data/o200k_base.bin in the package root (core/package-info.ts), from wherever this module runs. */
export function tableFile(from: string = import.meta.url): string {
  const root = packageRoot(from);
  if (root === undefined) throw new Error(`o200k_base token table not found: no package.json of ${PACKAGE_NAME} at or above ${from}`);
  return join(root, 'data', 'o200k_base.bin');
}

let table: RankTable | undefined;

function rankTable(): RankTable {
  table ??= RankTable.fromFile(tableFile());
  return table;
}

/** Loads the rank table now (synchronously; the promise is for callers written for a slow load). */
export function loadTokenizer(): Promise<void> {
  try {
    rankTable();
    return Promise.resolve();
  } catch (error) {
    const failed = Promise.reject(error as Error);
    // Callers may await it only later (the server first starts listening): not an unhandled rejection.
    failed.catch(() => {});
    return failed;
  }
}

const counter = (text: string): number => countO200k(rankTable(), text);

// Tests and load runs send the same texts again and again; BPE is costly, a lookup is not.
// Bounded by total characters so memory never grows with traffic.
const CACHE_CHARS = 4_000_000;
const CACHEABLE_LENGTH = 8_192;
const cache = new CountsByText(CACHE_CHARS);

// Long texts are counted where they cannot be sliced (a scripted reply's text, after selection):
// repeating them must not cost a count each time. The map holds references to strings that
// usually live anyway (a fixture's replies), bounded by characters: twice the default largest
// scripted reply (engine/reply-limits.ts), so that such a reply is counted once.
const LONG_CACHE_CHARS = 32 * 1024 * 1024;
const longCache = new CountsByText(LONG_CACHE_CHARS);

export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  if (text.length > CACHEABLE_LENGTH) {
    const hit = longCache.get(text);
    if (hit !== undefined) return hit;
    const count = counter(text);
    longCache.set(text, count);
    return count;
  }
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  const count = counter(text);
  cache.set(text, count);
  return count;
}

// Per-message and per-reply framing, as chat formats add a few tokens around each message.
const PER_MESSAGE = 3;
const PER_REQUEST = 3;
const PER_TOOL = 8;

function toolTokens(request: ChatRequest): number {
  let total = 0;
  for (const tool of request.tools) {
    total += PER_TOOL + countTokens(tool.name) + countTokens(tool.description ?? '') + countTokens(JSON.stringify(tool.parameters));
  }
  return total;
}

function messageTokens(message: ChatRequest['messages'][number]): number {
  let total = PER_MESSAGE + countTokens(message.role);
  for (const part of message.parts) {
    switch (part.type) {
      case 'text':
      case 'reasoning':
        total += countTokens(part.text);
        break;
      case 'tool_call':
        total += countTokens(part.name) + countTokens(part.argumentsText);
        break;
      case 'tool_result':
        total += countTokens(part.content);
        break;
      case 'image':
        total += 85;
        break;
    }
  }
  return total;
}

// A load test's repeated body is decoded once and shared, frozen (transport/decode-memo.ts): its
// count is kept for as long as the same request object keeps coming.
let lastCounted: ChatRequest | undefined;
let lastCount = 0;

/** Boundaries counted ahead by an InputTokenTally, kept on the request itself (not enumerable, so
 * copies and JSON leave them out). */
const COUNTED = Symbol('inputTokenBoundaries');
type Counted = ChatRequest & { [COUNTED]?: number[] };

/** Input tokens: request framing, then the tool declarations, then each message in order. */
export function countInputTokens(request: ChatRequest): number {
  if (request === lastCounted) return lastCount;
  const counted = (request as Counted)[COUNTED];
  if (counted) return counted[counted.length - 1];
  let total = PER_REQUEST + toolTokens(request);
  for (const message of request.messages) total += messageTokens(message);
  if (Object.isFrozen(request)) {
    lastCounted = request;
    lastCount = total;
  }
  return total;
}

/** Cumulative input tokens at each prefix boundary: [after tools, after message 0, after message 1, …].
 * The last value equals countInputTokens(request). */
export function inputTokenBoundaries(request: ChatRequest): number[] {
  const counted = (request as Counted)[COUNTED];
  if (counted) return counted.slice();
  const bounds: number[] = [PER_REQUEST + toolTokens(request)];
  for (const message of request.messages) bounds.push(bounds[bounds.length - 1] + messageTokens(message));
  return bounds;
}

export function countOutputTokens(reply: Pick<ResolvedReply, 'content' | 'toolCalls'>): number {
  let total = 0;
  if (reply.content) total += countTokens(reply.content);
  for (const call of reply.toolCalls) total += PER_MESSAGE + countTokens(call.name) + countTokens(call.argumentsText);
  return total;
}

/** Texts longer than this are counted a step at a time by a tally. */
const STEP_CHARS = 8_192;

/**
 * The input tokens of one request counted a step at a time, so that a large request can be counted
 * between other work (transport/count-in-slices.ts). Once done, countInputTokens and
 * inputTokenBoundaries of that request read the result: the same numbers they would compute.
 */
export class InputTokenTally {
  /** Texts to count in order; a number is a fixed count, null closes a boundary. */
  private readonly items: (string | number | null)[] = [];
  private item = 0;
  private readonly cursor: O200kCursor = { at: 0 };
  private total = PER_REQUEST;
  private readonly bounds: number[] = [];

  constructor(private readonly request: ChatRequest) {
    const items = this.items;
    for (const tool of request.tools) {
      items.push(PER_TOOL, tool.name, tool.description ?? '', JSON.stringify(tool.parameters));
    }
    items.push(null);
    for (const message of request.messages) {
      items.push(PER_MESSAGE, message.role);
      for (const part of message.parts) {
        switch (part.type) {
          case 'text':
          case 'reasoning':
            items.push(part.text);
            break;
          case 'tool_call':
            items.push(part.name, part.argumentsText);
            break;
          case 'tool_result':
            items.push(part.content);
            break;
          case 'image':
            items.push(85);
            break;
        }
      }
      items.push(null);
    }
  }

  /** Counts at least `chars` characters (fewer at the end); true once the whole request is counted. */
  advance(chars: number): boolean {
    const items = this.items;
    const cursor = this.cursor;
    let left = chars;
    while (this.item < items.length && left > 0) {
      const item = items[this.item];
      if (item === null) {
        this.bounds.push(this.total);
      } else if (typeof item === 'number') {
        this.total += item;
      } else if (cursor.at === 0 && item.length <= STEP_CHARS) {
        this.total += countTokens(item);
        left -= item.length + 1;
      } else {
        const from = cursor.at;
        this.total += countO200kFrom(rankTable(), item, cursor, left);
        left -= cursor.at - from + 1;
        if (cursor.at < item.length) continue;
        cursor.at = 0;
      }
      this.item++;
    }
    if (this.item < items.length) return false;
    // A frozen request (one the decode memo shares) is counted again where it is used.
    if (!Object.isFrozen(this.request))
      Object.defineProperty(this.request, COUNTED, { value: this.bounds, enumerable: false, configurable: true });
    return true;
  }
}

// Deterministic token counting with a real BPE (o200k_base), our own counter over a prebuilt rank
// table (data/o200k_base.bin, made by `npm run build`): loading it is one file read, a few ms, so
// it is loaded on first use; loadTokenizer() lets the server load it before it answers.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countO200k } from './bpe/o200k.js';
import { RankTable } from './bpe/rank-table.js';
import type { ChatRequest, ResolvedReply } from './model.js';
import { CountsByText } from './counts-by-text.js';

const PACKAGE_NAME = 'llm-understudy';

/**
 * data/o200k_base.bin in the package root: the nearest directory at or above this module whose
 * package.json is ours. This module is src/core/tokens.ts under tsx but, bundled, part of
 * dist/index.js or dist/cli/main.js, one or two levels down, so no fixed relative path fits all.
 */
export function tableFile(from: string = import.meta.url): string {
  const start = dirname(from.startsWith('file:') ? fileURLToPath(from) : from);
  for (let dir = start; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME) {
      return join(dir, 'data', 'o200k_base.bin');
    }
    if (dirname(dir) === dir) {
      throw new Error(`o200k_base token table not found: no package.json of ${PACKAGE_NAME} at or above ${start}`);
    }
  }
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

export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  if (text.length > CACHEABLE_LENGTH) return counter(text);
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

/** Input tokens: request framing, then the tool declarations, then each message in order. */
export function countInputTokens(request: ChatRequest): number {
  if (request === lastCounted) return lastCount;
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

// Prompt-cache identity: a request whose leading part (model, tool declarations, then messages)
// was sent before in the same session reports that part as cached input tokens, the way
// providers with automatic prefix caching do. Only delivered answers warm the cache; the
// store is bounded and evicts the oldest prefix first, so results are deterministic.

import type { ChatRequest, Message } from './model.js';
import { countInputTokens, inputTokenBoundaries } from './tokens.js';

export interface PromptCacheOptions {
  /** Prefixes shorter than this many tokens are never cached (OpenAI: 1024). */
  minTokens: number;
  /** Cached tokens are reported in multiples of this (OpenAI: 128). */
  granularity: number;
  /** Most prefixes remembered per session. */
  maxPrefixes: number;
}

export const DEFAULT_PROMPT_CACHE: PromptCacheOptions = { minTokens: 1024, granularity: 128, maxPrefixes: 4096 };

/** The cacheable boundaries of one request: cumulative tokens and the identity of each prefix. */
export interface CacheProbe {
  tokens: number[];
  keys: string[];
  cachedTokens: number;
  /** Tokens this request writes to the cache (reported by providers with marked caching). */
  writeTokens: number;
}

// 53-bit string hash (two 32-bit lanes); collisions are negligible at these store sizes.
function hash(text: string, seed: number): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

function messageIdentity(message: Message): string {
  return JSON.stringify([message.role, message.parts]);
}

export class PromptCache {
  private readonly prefixes = new Set<string>();

  constructor(readonly options: PromptCacheOptions = DEFAULT_PROMPT_CACHE) {}

  /** Looks the request up without changing anything; undefined when it is too short to cache. */
  probe(request: ChatRequest, inputTokens = countInputTokens(request)): CacheProbe | undefined {
    if (request.promptCaching === 'none') return undefined;
    if (this.options.maxPrefixes <= 0 || inputTokens < this.options.minTokens) return undefined;
    const tokens = inputTokenBoundaries(request);
    const keys: string[] = [];
    let key = hash(`${request.model}\u0000${JSON.stringify(request.tools)}`, 0);
    keys.push(key);
    for (const message of request.messages) {
      key = hash(`${key}\u0000${messageIdentity(message)}`, 1);
      keys.push(key);
    }
    let cached = 0;
    for (let i = keys.length - 1; i >= 0; i--) {
      if (this.prefixes.has(keys[i])) {
        cached = tokens[i];
        break;
      }
    }
    if (cached < this.options.minTokens) cached = 0;
    cached -= cached % this.options.granularity;
    const whole = tokens[tokens.length - 1];
    const writeTokens = request.promptCaching === 'marked' && whole > cached ? whole - cached : 0;
    return { tokens, keys, cachedTokens: cached, writeTokens };
  }

  /** Remembers every prefix of a delivered request. */
  warm(probe: CacheProbe): void {
    for (let i = 0; i < probe.keys.length; i++) {
      if (probe.tokens[i] < this.options.minTokens) continue;
      const key = probe.keys[i];
      if (this.prefixes.has(key)) {
        this.prefixes.delete(key); // refresh its place: oldest-first eviction of unused prefixes
      }
      this.prefixes.add(key);
      if (this.prefixes.size > this.options.maxPrefixes) {
        this.prefixes.delete(this.prefixes.values().next().value as string);
      }
    }
  }

  get size(): number {
    return this.prefixes.size;
  }

  clear(): void {
    this.prefixes.clear();
  }
}

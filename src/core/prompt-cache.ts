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

// A 53-bit hash (two 32-bit lanes) fed piece by piece, so a message's identity is hashed
// straight from its fields without building its JSON. Collisions are negligible at these sizes.
class PrefixHash {
  private h1: number;
  private h2: number;
  constructor(seed: number) {
    this.h1 = 0xdeadbeef ^ seed;
    this.h2 = 0x41c6ce57 ^ seed;
  }
  feed(text: string): this {
    let h1 = this.h1;
    let h2 = this.h2;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    // a separator, so that ("ab", "c") and ("a", "bc") differ
    this.h1 = Math.imul(h1 ^ 0x1f, 2654435761);
    this.h2 = Math.imul(h2 ^ 0x1f, 1597334677);
    return this;
  }
  /** feed(text) in steps: text[from, to), then end() once the whole text is fed. */
  feedPart(text: string, from: number, to: number): void {
    let h1 = this.h1;
    let h2 = this.h2;
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    this.h1 = h1;
    this.h2 = h2;
  }
  end(): void {
    this.h1 = Math.imul(this.h1 ^ 0x1f, 2654435761);
    this.h2 = Math.imul(this.h2 ^ 0x1f, 1597334677);
  }
  digest(): string {
    const h1 = Math.imul(this.h1 ^ (this.h1 >>> 16), 2246822507) ^ Math.imul(this.h2 ^ (this.h2 >>> 13), 3266489909);
    const h2 = Math.imul(this.h2 ^ (this.h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
  }
}

function feedMessage(hash: PrefixHash, message: Message): void {
  hash.feed(message.role);
  for (const part of message.parts) {
    hash.feed(part.type);
    switch (part.type) {
      case 'text':
      case 'reasoning':
        hash.feed(part.text);
        break;
      case 'image':
        hash.feed(part.url);
        break;
      case 'tool_call':
        hash.feed(part.id).feed(part.name).feed(part.argumentsText);
        break;
      case 'tool_result':
        hash
          .feed(part.callId)
          .feed(part.content)
          .feed(part.isError ? '1' : '0');
        break;
    }
  }
}

/** Prefix keys made ahead by a PrefixKeyTally, kept on the request (not enumerable). */
const KEYS = Symbol('promptCacheKeys');
type Keyed = ChatRequest & { [KEYS]?: string[] };

/**
 * The prefix keys of one request made a step at a time (what probe() would make at once), so that
 * a large request's hashing happens between other work (transport/count-in-slices.ts).
 */
export class PrefixKeyTally {
  /** What probe() feeds, in order; null marks a key taken. */
  private readonly items: (string | null)[] = [];
  private item = 0;
  private at = 0;
  private readonly hash = new PrefixHash(0);
  private readonly keys: string[] = [];

  constructor(private readonly request: ChatRequest) {
    const items = this.items;
    items.push(request.model, request.tools.length ? JSON.stringify(request.tools) : '', null);
    for (const message of request.messages) {
      items.push(message.role);
      for (const part of message.parts) {
        items.push(part.type);
        switch (part.type) {
          case 'text':
          case 'reasoning':
            items.push(part.text);
            break;
          case 'image':
            items.push(part.url);
            break;
          case 'tool_call':
            items.push(part.id, part.name, part.argumentsText);
            break;
          case 'tool_result':
            items.push(part.callId, part.content, part.isError ? '1' : '0');
            break;
        }
      }
      items.push(null);
    }
  }

  /** Hashes at least `chars` characters (fewer at the end); true once every key is made. */
  advance(chars: number): boolean {
    const items = this.items;
    let left = chars;
    while (this.item < items.length && left > 0) {
      const item = items[this.item];
      if (item === null) {
        this.keys.push(this.hash.digest());
        left--;
      } else {
        const to = Math.min(item.length, this.at + left);
        this.hash.feedPart(item, this.at, to);
        left -= to - this.at + 1;
        if (to < item.length) {
          this.at = to;
          continue;
        }
        this.hash.end();
        this.at = 0;
      }
      this.item++;
    }
    if (this.item < items.length) return false;
    if (!Object.isFrozen(this.request))
      Object.defineProperty(this.request, KEYS, { value: this.keys, enumerable: false, configurable: true });
    return true;
  }
}

export class PromptCache {
  private readonly prefixes = new Set<string>();

  constructor(readonly options: PromptCacheOptions = DEFAULT_PROMPT_CACHE) {}

  /** Whether a prompt of this many tokens could read from or write to the cache at all. */
  mayCache(inputTokens: number): boolean {
    return this.options.maxPrefixes > 0 && inputTokens >= this.options.minTokens;
  }

  /** Looks the request up without changing anything; undefined when it is too short to cache. */
  probe(request: ChatRequest, inputTokens = countInputTokens(request)): CacheProbe | undefined {
    if (request.promptCaching === 'none') return undefined;
    if (!this.mayCache(inputTokens)) return undefined;
    const tokens = inputTokenBoundaries(request);
    let keys = (request as Keyed)[KEYS];
    if (!keys) {
      keys = [];
      const hash = new PrefixHash(0).feed(request.model).feed(request.tools.length ? JSON.stringify(request.tools) : '');
      keys.push(hash.digest());
      for (const message of request.messages) {
        feedMessage(hash, message);
        keys.push(hash.digest());
      }
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
    // Prefixes grow with i, and so do their token counts; with oldest-first eviction only the last
    // maxPrefixes of a request's keys could stay, so the ones before them are not added at all.
    for (let i = Math.max(0, probe.keys.length - this.options.maxPrefixes); i < probe.keys.length; i++) {
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

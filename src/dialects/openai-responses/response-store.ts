// Stored responses of one session, for `previous_response_id` and `item_reference`. Each entry
// keeps only what its request added (its input messages) and what it answered (one assistant
// message), plus a link to the response it continued; a conversation is rebuilt by walking the
// links. The store is bounded by entry count and by characters; when full it refuses new entries
// (the caller answers 409) rather than silently forgetting ones a test may still continue from.

import type { Message, Part } from '../../core/model.js';

export const STORE_NAME = 'openai-responses.stored';

/** Most responses one session stores. */
export const MAX_STORED_RESPONSES = 1000;
/** Most characters of message text, arguments and results one session stores. */
export const MAX_STORED_CHARS = 32 * 1024 * 1024;
/** How many ids of `store: false` responses are remembered, only to explain a 404 better. */
const UNSTORED_MEMORY = 1000;

export interface StoredResponse {
  id: string;
  model: string;
  /** The key the request authenticated with; continuations must use the same one. */
  credential: string;
  previousId: string | null;
  /** Messages the request added (instructions excluded: they do not carry over). */
  input: Message[];
  /** The assistant message it answered, or null when the answer had no output items. */
  output: Message | null;
  chars: number;
}

export interface StoredItem {
  response: StoredResponse;
  /** The item's content as parts of an assistant message. */
  parts: Part[];
}

export class ResponseStore {
  private readonly responses = new Map<string, StoredResponse>();
  private readonly items = new Map<string, StoredItem>();
  private readonly unstored = new Set<string>();
  private totalChars = 0;

  constructor(
    readonly maxResponses = MAX_STORED_RESPONSES,
    readonly maxChars = MAX_STORED_CHARS,
  ) {}

  get size(): number {
    return this.responses.size;
  }

  get chars(): number {
    return this.totalChars;
  }

  /** Why nothing more can be stored, or null when there is room. */
  fullReason(): string | null {
    if (this.responses.size >= this.maxResponses) {
      return `it holds ${this.responses.size} stored responses, the limit per session`;
    }
    if (this.totalChars >= this.maxChars) {
      return `its stored responses hold ${this.totalChars} characters, the limit per session is ${this.maxChars}`;
    }
    return null;
  }

  get(id: string): StoredResponse | undefined {
    return this.responses.get(id);
  }

  item(id: string): StoredItem | undefined {
    return this.items.get(id);
  }

  /** Adds a response and its output items (keyed by item id); false when the store is full. */
  add(response: StoredResponse, items: { id: string; parts: Part[] }[]): boolean {
    if (this.fullReason() !== null) return false;
    this.responses.set(response.id, response);
    for (const item of items) this.items.set(item.id, { response, parts: item.parts });
    this.totalChars += response.chars;
    return true;
  }

  /** Remembers (boundedly) that a response was answered with `store: false`. */
  markUnstored(id: string): void {
    if (this.unstored.size >= UNSTORED_MEMORY) {
      const oldest = this.unstored.values().next().value as string;
      this.unstored.delete(oldest);
    }
    this.unstored.add(id);
  }

  wasUnstored(id: string): boolean {
    return this.unstored.has(id);
  }

  /** The whole conversation up to and including `last`: every linked response's input and output. */
  history(last: StoredResponse): Message[] {
    const chain: StoredResponse[] = [];
    for (let at: StoredResponse | undefined = last; at; at = at.previousId ? this.responses.get(at.previousId) : undefined) {
      chain.push(at);
    }
    const messages: Message[] = [];
    for (let i = chain.length - 1; i >= 0; i--) {
      for (const message of chain[i].input) messages.push(message);
      const output = chain[i].output;
      if (output) messages.push(output);
    }
    return messages;
  }
}

/** Characters a list of messages holds, for the store's size budget. */
export function messageChars(messages: Iterable<Message>): number {
  let chars = 0;
  for (const message of messages) {
    for (const part of message.parts) {
      switch (part.type) {
        case 'text':
        case 'reasoning':
          chars += part.text.length;
          break;
        case 'image':
          chars += part.url.length;
          break;
        case 'tool_call':
          chars += part.name.length + part.argumentsText.length;
          break;
        case 'tool_result':
          chars += part.content.length;
          break;
      }
    }
  }
  return chars;
}

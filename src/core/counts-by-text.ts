import { TextKeyedCache } from './text-keyed-cache.js';

/** Counts kept by text, bounded by the characters of the texts held: the oldest go first once a
 * new one would pass the bound, so memory never grows with traffic. */
export class CountsByText {
  private readonly counts: TextKeyedCache<number>;

  constructor(maxChars: number) {
    this.counts = new TextKeyedCache<number>(maxChars);
  }

  get(text: string): number | undefined {
    return this.counts.peek(text);
  }

  set(text: string, count: number): void {
    this.counts.set(text, count);
  }
}

/** Counts kept by text, bounded by the characters of the texts held: the oldest go first once a
 * new one would pass the bound, so memory never grows with traffic. */
export class CountsByText {
  private readonly counts = new Map<string, number>();
  private chars = 0;

  constructor(private readonly maxChars: number) {}

  get(text: string): number | undefined {
    return this.counts.get(text);
  }

  set(text: string, count: number): void {
    // One text past the whole bound is not kept: keeping it would evict everything else (and leave
    // the map walking a long run of deleted entries on every later eviction).
    if (text.length > this.maxChars) return;
    while (this.chars + text.length > this.maxChars && this.counts.size > 0) {
      const oldest = this.counts.keys().next().value as string;
      this.counts.delete(oldest);
      this.chars -= oldest.length;
    }
    this.counts.set(text, count);
    this.chars += text.length;
  }
}

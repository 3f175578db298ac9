/** Values kept by a text key (a schema's JSON, a message), bounded both by entries and by the
 * characters of the keys held: the least recently used go first, so a run of large, distinct keys
 * never holds more than the bound. A key longer than the whole bound is not kept at all (keeping it
 * would evict everything else, and leave the map walking deleted entries on every eviction). */
export class TextKeyedCache<V> {
  private readonly values = new Map<string, V>();
  private chars = 0;

  constructor(
    private readonly maxChars: number,
    private readonly maxEntries = Number.POSITIVE_INFINITY,
  ) {}

  get size(): number {
    return this.values.size;
  }

  /** The value, made the most recently used. */
  get(key: string): V | undefined {
    const value = this.values.get(key);
    if (value !== undefined && this.maxEntries !== Number.POSITIVE_INFINITY) {
      this.values.delete(key);
      this.values.set(key, value);
    }
    return value;
  }

  /** The value without touching its recency (the cheaper lookup for count-only bounds). */
  peek(key: string): V | undefined {
    return this.values.get(key);
  }

  set(key: string, value: V): void {
    if (key.length > this.maxChars) return;
    if (this.values.has(key)) {
      this.values.delete(key);
      this.chars -= key.length;
    }
    while ((this.chars + key.length > this.maxChars || this.values.size >= this.maxEntries) && this.values.size > 0) {
      const oldest = this.values.keys().next().value as string;
      this.values.delete(oldest);
      this.chars -= oldest.length;
    }
    this.values.set(key, value);
    this.chars += key.length;
  }
}

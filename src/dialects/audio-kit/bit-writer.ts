// Fields of arbitrary bit widths, most significant bit first, as the audio containers' headers
// pack them (FLAC's STREAMINFO, AAC's ADTS header).

export class BitWriter {
  private readonly bytes: number[] = [];
  private current = 0;
  private filled = 0;

  /** Appends the low `width` bits of `value` (width up to 52: values stay exact doubles). */
  write(value: number, width: number): this {
    for (let bit = width - 1; bit >= 0; bit--) {
      const one = Math.floor(value / 2 ** bit) % 2;
      this.current = (this.current << 1) | one;
      if (++this.filled === 8) {
        this.bytes.push(this.current);
        this.current = 0;
        this.filled = 0;
      }
    }
    return this;
  }

  /** The bytes written, the last one padded with zero bits. */
  done(): Uint8Array {
    const out = [...this.bytes];
    if (this.filled > 0) out.push(this.current << (8 - this.filled));
    return Uint8Array.from(out);
  }
}

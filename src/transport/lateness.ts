// How late paced writes ran, over every write since the start or the last reset. A histogram,
// not a ring of recent samples: a ring of the last N writes describes only the end of a long run
// (the quiet tail after most streams ended), never the busy middle. Bins are 0.01 ms wide under
// 10 ms, 0.1 ms under 100 ms, 1 ms under 1 s and 10 ms under 100 s; a percentile is reported as the
// upper edge of its bin, so it never reads lower than the samples it stands for.

interface Band {
  /** The band covers [from, to) milliseconds. */
  from: number;
  to: number;
  width: number;
  /** Index of the band's first bin. */
  first: number;
}

const BANDS: Band[] = [];
let binsSoFar = 0;
for (const [from, to, width] of [
  [0, 10, 0.01],
  [10, 100, 0.1],
  [100, 1_000, 1],
  [1_000, 100_000, 10],
] as const) {
  BANDS.push({ from, to, width, first: binsSoFar });
  binsSoFar += Math.round((to - from) / width);
}
/** One more bin past the last band holds everything at or over 100 s. */
const BINS = binsSoFar + 1;

function binOf(ms: number): number {
  for (const band of BANDS) {
    if (ms < band.to) return band.first + Math.floor((ms - band.from) / band.width);
  }
  return BINS - 1;
}

function upperEdge(bin: number): number {
  if (bin === BINS - 1) return Infinity;
  for (let i = BANDS.length - 1; i >= 0; i--) {
    const band = BANDS[i];
    if (bin >= band.first) return Math.min(band.to, band.from + (bin - band.first + 1) * band.width);
  }
  return 0;
}

export interface LatenessStats {
  /** Writes measured since the start or the last reset. */
  writes: number;
  p50: number;
  p99: number;
  /** Exact, not binned. */
  max: number;
}

/** A histogram as plain data, to travel between processes (`--workers`): the non-empty bins as
 * [bin, count, bin, count, …] and the exact maximum. */
export interface LatenessSnapshot {
  bins: number[];
  max: number;
}

const round2 = (ms: number) => Math.round(ms * 100) / 100;

export class LatenessHistogram {
  private readonly counts = new Uint32Array(BINS);
  private total = 0;
  private highest = 0;

  record(ms: number): void {
    const value = ms > 0 ? ms : 0;
    this.counts[binOf(value)]++;
    this.total++;
    if (value > this.highest) this.highest = value;
  }

  reset(): void {
    this.counts.fill(0);
    this.total = 0;
    this.highest = 0;
  }

  snapshot(): LatenessSnapshot {
    const bins: number[] = [];
    for (let bin = 0; bin < BINS; bin++) if (this.counts[bin] > 0) bins.push(bin, this.counts[bin]);
    return { bins, max: this.highest };
  }

  /** Adds another histogram's writes (another worker's) to these. */
  absorb(other: LatenessSnapshot): void {
    for (let i = 0; i + 1 < other.bins.length; i += 2) {
      const bin = other.bins[i];
      const count = other.bins[i + 1];
      if (!Number.isInteger(bin) || bin < 0 || bin >= BINS || !Number.isInteger(count) || count < 0) continue;
      this.counts[bin] += count;
      this.total += count;
    }
    if (other.max > this.highest) this.highest = other.max;
  }

  stats(): LatenessStats {
    if (this.total === 0) return { writes: 0, p50: 0, p99: 0, max: 0 };
    return { writes: this.total, p50: this.percentile(0.5), p99: this.percentile(0.99), max: round2(this.highest) };
  }

  /** The smallest bin edge at or under which a share `q` of the writes fall (capped at the max). */
  private percentile(q: number): number {
    const rank = Math.max(1, Math.ceil(q * this.total));
    let seen = 0;
    for (let bin = 0; bin < BINS; bin++) {
      seen += this.counts[bin];
      if (seen >= rank) return round2(Math.min(upperEdge(bin), this.highest));
    }
    return round2(this.highest);
  }
}

// What the server counts for Prometheus as requests end: each journalled request by dialect,
// operation, session, status and outcome, and how long it took to its first byte and to its end.
// Counting is a few field reads and additions per request; the exposition text is written only
// when someone scrapes (src/control/metrics-exposition.ts).

import type { ErrorKind } from '../core/errors.js';
import { ABORTED_STATUS, type JournalRecord } from '../engine/journal.js';
import { operationById, providerOf } from './routes.js';

/** Upper bounds of the duration histograms' buckets, in seconds. */
export const DURATION_BUCKETS: readonly number[] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Sessions beyond this many get no label value of their own: they are counted as `_other`. */
export const DEFAULT_SESSION_LABELS = 100;
export const OTHER_SESSION = '_other';

export type Outcome =
  | 'answered'
  | 'zero_config'
  | 'upstream'
  | 'no_match'
  | 'exhausted'
  | 'mismatch'
  | 'superseded'
  | 'invalid'
  | 'scripted_error'
  | 'content_filter'
  | 'capacity'
  | 'fault'
  | 'aborted'
  | 'error';

export interface RequestSeries {
  dialect: string;
  operation: string;
  session: string;
  status: number;
  outcome: Outcome;
  count: number;
  /** The histograms this series' requests are observed in (shared with other series). */
  duration: Histogram;
  /** Time to first byte, for a JSON answer and for a stream. */
  firstByte: [Histogram, Histogram];
}

export class Histogram {
  /** Per bucket, not cumulative; the last counts what is above every bound. */
  readonly counts: number[] = new Array<number>(DURATION_BUCKETS.length + 1).fill(0);
  sum = 0;
  count = 0;

  constructor(readonly labels: Record<string, string>) {}

  observe(seconds: number): void {
    let i = 0;
    while (i < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[i]) i++;
    this.counts[i]++;
    this.sum += seconds;
    this.count++;
  }
}

const OUTCOME_OF_KIND: Record<ErrorKind, Outcome> = {
  invalid_request: 'invalid',
  unauthorized: 'invalid',
  not_found: 'invalid',
  method_not_allowed: 'invalid',
  too_large: 'invalid',
  unsupported_media_type: 'invalid',
  no_match: 'no_match',
  exhausted: 'exhausted',
  mismatch: 'mismatch',
  superseded: 'superseded',
  scripted: 'scripted_error',
  content_filter: 'content_filter',
  capacity: 'capacity',
  internal: 'error',
};

/** How a journalled request ended, for the `outcome` label. */
export function outcomeOf(entry: JournalRecord, kind: ErrorKind | undefined): Outcome {
  if (entry.status === ABORTED_STATUS) return 'aborted';
  if (entry.fault !== undefined) return 'fault';
  if (entry.source === 'upstream') return 'upstream';
  if (entry.error) return kind === undefined ? 'error' : OUTCOME_OF_KIND[kind];
  return entry.source === 'zero_config' ? 'zero_config' : 'answered';
}

export class RequestMetrics {
  readonly requests = new Map<string, RequestSeries>();
  readonly durations = new Map<string, Histogram>();
  readonly firstBytes = new Map<string, Histogram>();
  /** Answers being written over time (paced, faulted, large or relayed) right now. */
  openStreams = 0;
  private readonly sessionLabels = new Map<string, string>();
  private readonly dialects = new Map<string, string>();
  // The series of the previous request: a load test's requests mostly repeat it.
  private last: RequestSeries | undefined;
  private lastSession = '';

  constructor(private readonly sessionLimit = DEFAULT_SESSION_LABELS) {}

  /** Counts a request as it is journalled. */
  observe(entry: JournalRecord, kind: ErrorKind | undefined): void {
    const outcome = outcomeOf(entry, kind);
    let series = this.last;
    if (
      series === undefined ||
      series.operation !== entry.operation ||
      series.status !== entry.status ||
      series.outcome !== outcome ||
      this.lastSession !== entry.session
    ) {
      series = this.seriesOf(entry, outcome);
      this.last = series;
      this.lastSession = entry.session;
    }
    series.count++;
    const ms = entry.ms;
    if (ms === undefined) return;
    series.duration.observe(ms / 1000);
    const firstByte = entry.firstByteMs;
    if (firstByte !== undefined) series.firstByte[entry.stream ? 1 : 0].observe(firstByte / 1000);
  }

  private seriesOf(entry: JournalRecord, outcome: Outcome): RequestSeries {
    const session = this.sessionLabel(entry.session);
    const key = `${entry.operation}\n${session}\n${entry.status}\n${outcome}`;
    let series = this.requests.get(key);
    if (!series) {
      const dialect = this.dialectOf(entry.operation);
      series = {
        dialect,
        operation: entry.operation,
        session,
        status: entry.status,
        outcome,
        count: 0,
        duration: histogram(this.durations, dialect, outcome, 'outcome'),
        firstByte: [histogram(this.firstBytes, dialect, 'false', 'stream'), histogram(this.firstBytes, dialect, 'true', 'stream')],
      };
      this.requests.set(key, series);
    }
    return series;
  }

  /** A deleted session: its series are added into `_other`'s and its label value is free again,
   * so a long run that makes a session per test keeps a label for each of its live sessions. */
  forget(session: string): void {
    if (!this.sessionLabels.delete(session)) return;
    for (const [key, series] of this.requests) {
      if (series.session !== session) continue;
      this.requests.delete(key);
      const otherKey = `${series.operation}\n${OTHER_SESSION}\n${series.status}\n${series.outcome}`;
      const other = this.requests.get(otherKey);
      if (other) other.count += series.count;
      else this.requests.set(otherKey, { ...series, session: OTHER_SESSION });
    }
    this.last = undefined;
  }

  /** The session's label value: its id, or `_other` once the limit of distinct ids is reached. */
  sessionLabel(session: string): string {
    const known = this.sessionLabels.get(session);
    if (known !== undefined) return known;
    if (this.sessionLabels.size >= this.sessionLimit) return OTHER_SESSION;
    this.sessionLabels.set(session, session);
    return session;
  }

  private dialectOf(operation: string): string {
    let dialect = this.dialects.get(operation);
    if (dialect === undefined) {
      dialect = operationById(operation)?.dialect.id ?? providerOf(operation);
      this.dialects.set(operation, dialect);
    }
    return dialect;
  }
}

function histogram(map: Map<string, Histogram>, dialect: string, value: string, name: string): Histogram {
  const key = `${dialect}\n${value}`;
  let found = map.get(key);
  if (!found) map.set(key, (found = new Histogram({ dialect, [name]: value })));
  return found;
}

/** A histogram as plain data, to travel between processes (`--workers`) and to be written out. */
export interface HistogramData {
  labels: Record<string, string>;
  /** Per bucket, not cumulative; the last counts what is above every bound. */
  counts: number[];
  sum: number;
  count: number;
}

/** What one process counted, as plain data: an edge worker sends its own to the owner on each
 * sync, and the owner writes out the sum of its own and theirs. */
export interface MetricsSnapshot {
  requests: Omit<RequestSeries, 'duration' | 'firstByte'>[];
  durations: HistogramData[];
  firstBytes: HistogramData[];
  openStreams: number;
}

export function metricsSnapshot(metrics: RequestMetrics): MetricsSnapshot {
  const data = (h: Histogram): HistogramData => ({ labels: h.labels, counts: [...h.counts], sum: h.sum, count: h.count });
  return {
    requests: [...metrics.requests.values()].map(({ dialect, operation, session, status, outcome, count }) => ({
      dialect,
      operation,
      session,
      status,
      outcome,
      count,
    })),
    durations: [...metrics.durations.values()].map(data),
    firstBytes: [...metrics.firstBytes.values()].map(data),
    openStreams: metrics.openStreams,
  };
}

/** The sum of several processes' snapshots, series by series. */
export function combinedSnapshots(snapshots: readonly MetricsSnapshot[]): MetricsSnapshot {
  const requests = new Map<string, MetricsSnapshot['requests'][number]>();
  for (const snapshot of snapshots) {
    for (const s of snapshot.requests) {
      const key = `${s.operation}\n${s.session}\n${s.status}\n${s.outcome}`;
      const found = requests.get(key);
      if (found) found.count += s.count;
      else requests.set(key, { ...s });
    }
  }
  const histograms = (pick: (s: MetricsSnapshot) => HistogramData[]) => {
    const out = new Map<string, HistogramData>();
    for (const snapshot of snapshots) {
      for (const h of pick(snapshot)) {
        const key = JSON.stringify(h.labels);
        const found = out.get(key);
        if (!found) out.set(key, { labels: h.labels, counts: [...h.counts], sum: h.sum, count: h.count });
        else {
          h.counts.forEach((n, i) => (found.counts[i] += n));
          found.sum += h.sum;
          found.count += h.count;
        }
      }
    }
    return [...out.values()];
  };
  return {
    requests: [...requests.values()],
    durations: histograms((s) => s.durations),
    firstBytes: histograms((s) => s.firstBytes),
    openStreams: snapshots.reduce((n, s) => n + s.openStreams, 0),
  };
}

// GET /_understudy/metrics: the Prometheus text exposition format (version 0.0.4), written at
// scrape time from the request counts (transport/metrics.ts), the sessions' journals and the
// pacing statistics. Written by hand: see docs/decisions/0018-metrics-exposition-by-hand.md.

import type { Registry } from '../engine/registry.js';
import type { Session } from '../engine/session.js';
import type { LatenessStats } from '../transport/lateness.js';
import {
  combinedSnapshots,
  DURATION_BUCKETS,
  metricsSnapshot,
  type HistogramData,
  type MetricsSnapshot,
  type RequestMetrics,
} from '../transport/metrics.js';

export const EXPOSITION_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

type Labels = Record<string, string | number>;

/** One exposition: each family's HELP and TYPE once, then its samples together. */
class Exposition {
  private readonly lines: string[] = [];

  family(name: string, type: 'counter' | 'gauge' | 'histogram', help: string): this {
    this.lines.push(`# HELP ${name} ${help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`, `# TYPE ${name} ${type}`);
    return this;
  }

  sample(name: string, labels: Labels, value: number): this {
    const pairs = Object.entries(labels).map(([key, v]) => `${key}="${escapeLabel(String(v))}"`);
    this.lines.push(`${name}${pairs.length ? `{${pairs.join(',')}}` : ''} ${formatValue(value)}`);
    return this;
  }

  histogram(name: string, histogram: HistogramData): void {
    // A series is made with both first-byte histograms; one never observed says nothing.
    if (histogram.count === 0) return;
    let cumulative = 0;
    DURATION_BUCKETS.forEach((bound, i) => {
      cumulative += histogram.counts[i];
      this.sample(`${name}_bucket`, { ...histogram.labels, le: bound }, cumulative);
    });
    this.sample(`${name}_bucket`, { ...histogram.labels, le: '+Inf' }, histogram.count);
    this.sample(`${name}_sum`, histogram.labels, histogram.sum);
    this.sample(`${name}_count`, histogram.labels, histogram.count);
  }

  text(): string {
    return `${this.lines.join('\n')}\n`;
  }
}

export function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

/** The journal counters exported per session, by the `outcome` label they get. */
const SESSION_OUTCOMES = [
  ['matched', 'matched'],
  ['unmatched', 'unmatched'],
  ['exhausted', 'exhausted'],
  ['mismatched', 'mismatched'],
  ['invalid', 'invalid'],
  ['errorsReturned', 'errors_returned'],
  ['aborted', 'aborted'],
  ['nearMisses', 'near_misses'],
] as const;

interface SessionSums {
  requests: number;
  outcomes: number[];
  entries: number;
  bytes: number;
  evicted: number;
  promptPrefixes: number;
  videoJobs: number;
}

/** Per session label (sessions past the label limit summed into `_other`). */
function sessionSums(sessions: readonly Session[], metrics: RequestMetrics): Map<string, SessionSums> {
  const sums = new Map<string, SessionSums>();
  for (const session of sessions) {
    const label = metrics.sessionLabel(session.id);
    let sum = sums.get(label);
    if (!sum) {
      sum = { requests: 0, outcomes: SESSION_OUTCOMES.map(() => 0), entries: 0, bytes: 0, evicted: 0, promptPrefixes: 0, videoJobs: 0 };
      sums.set(label, sum);
    }
    const counters = session.journal.counters;
    sum.requests += counters.requests;
    SESSION_OUTCOMES.forEach(([field], i) => (sum.outcomes[i] += counters[field]));
    const usage = session.journal.usage();
    sum.entries += usage.entries;
    sum.bytes += usage.bytes;
    sum.evicted += counters.evicted;
    sum.promptPrefixes += session.promptCache.size;
    sum.videoJobs += session.videoJobs.counts().jobs;
  }
  return sums;
}

/** The exposition of this process's counts and, under `--workers`, the edge workers' as of the
 * last sync. */
export function metricsText(metrics: RequestMetrics, edges: readonly MetricsSnapshot[], registry: Registry, pacing: LatenessStats): string {
  const counted = combinedSnapshots([metricsSnapshot(metrics), ...edges]);
  const out = new Exposition();
  out.family(
    'understudy_requests_total',
    'counter',
    'Requests journalled, by dialect, operation, session, status and outcome (how the request ended).',
  );
  for (const s of counted.requests) {
    out.sample(
      'understudy_requests_total',
      { dialect: s.dialect, operation: s.operation, session: s.session, status: s.status, outcome: s.outcome },
      s.count,
    );
  }
  out.family(
    'understudy_request_duration_seconds',
    'histogram',
    'Time from a request arriving to its journal entry (answer written or refused).',
  );
  for (const h of counted.durations) out.histogram('understudy_request_duration_seconds', h);
  out.family('understudy_time_to_first_byte_seconds', 'histogram', 'Time from a request arriving to the first byte of its answer.');
  for (const h of counted.firstBytes) out.histogram('understudy_time_to_first_byte_seconds', h);

  const sessions = registry.list();
  const sums = sessionSums(sessions, metrics);
  out.family('understudy_session_requests_total', 'counter', "Requests a session's journal has counted (its counters.requests).");
  for (const [session, sum] of sums) out.sample('understudy_session_requests_total', { session }, sum.requests);
  out.family('understudy_session_outcomes_total', 'counter', "A session's journal counters, one outcome each.");
  for (const [session, sum] of sums) {
    SESSION_OUTCOMES.forEach(([, outcome], i) => out.sample('understudy_session_outcomes_total', { session, outcome }, sum.outcomes[i]));
  }
  out.family('understudy_journal_entries', 'gauge', 'Journal entries kept.');
  for (const [session, sum] of sums) out.sample('understudy_journal_entries', { session }, sum.entries);
  out.family('understudy_journal_bytes', 'gauge', 'Estimated bytes the kept journal entries hold.');
  for (const [session, sum] of sums) out.sample('understudy_journal_bytes', { session }, sum.bytes);
  out.family('understudy_journal_evictions_total', 'counter', 'Journal entries evicted to stay within the journal limits.');
  for (const [session, sum] of sums) out.sample('understudy_journal_evictions_total', { session }, sum.evicted);
  out.family('understudy_prompt_cache_prefixes', 'gauge', 'Prompt-cache prefixes a session keeps.');
  for (const [session, sum] of sums) out.sample('understudy_prompt_cache_prefixes', { session }, sum.promptPrefixes);
  out.family('understudy_video_jobs', 'gauge', 'Video jobs a session keeps.');
  for (const [session, sum] of sums) out.sample('understudy_video_jobs', { session }, sum.videoJobs);

  out
    .family('understudy_sessions', 'gauge', 'Sessions that exist, the default one included.')
    .sample('understudy_sessions', {}, sessions.length);
  out
    .family('understudy_open_streams', 'gauge', 'Answers being written over time (paced, faulted or large) right now.')
    .sample('understudy_open_streams', {}, counted.openStreams);
  out
    .family(
      'understudy_paced_writes_total',
      'counter',
      'Paced writes whose lateness was measured, since the start or the last pacing reset.',
    )
    .sample('understudy_paced_writes_total', {}, pacing.writes);
  out.family(
    'understudy_pacing_lateness_seconds',
    'gauge',
    'How late paced writes went out: the median, the 99th percentile and the most.',
  );
  out.sample('understudy_pacing_lateness_seconds', { stat: 'p50' }, pacing.p50 / 1000);
  out.sample('understudy_pacing_lateness_seconds', { stat: 'p99' }, pacing.p99 / 1000);
  out.sample('understudy_pacing_lateness_seconds', { stat: 'max' }, pacing.max / 1000);
  return out.text();
}

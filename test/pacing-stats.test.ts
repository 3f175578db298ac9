// The lateness statistics behind GET /_understudy/health `pacing`: every paced write since the
// start or the last reset counts, however many there were, and percentiles are exact to a bin.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LatenessHistogram } from '../src/transport/lateness.js';

test('a busy stretch early in a long run still shows in p99 after many quiet writes', { timeout: 10_000 }, () => {
  const lateness = new LatenessHistogram();
  for (let i = 0; i < 60_000; i++) lateness.record(40 + (i % 7) * 0.1);
  for (let i = 0; i < 200_000; i++) lateness.record(0.5);
  const stats = lateness.stats();
  assert.equal(stats.writes, 260_000);
  assert.equal(stats.p50, 0.51);
  assert.ok(stats.p99 >= 40 && stats.p99 <= 40.7, `p99 ${stats.p99}`);
  assert.equal(stats.max, 40.6);
});

test('percentiles are within one bin of the exact value, never under it, and max is exact', { timeout: 10_000 }, () => {
  const samples = Array.from({ length: 10_001 }, (_, i) => (i * 7919) % 10_001).map((k) => (k / 10_000) * 250); // 0 … 250 ms
  const lateness = new LatenessHistogram();
  for (const ms of samples) lateness.record(ms);
  const sorted = [...samples].sort((a, b) => a - b);
  const exact = (q: number) => sorted[Math.ceil(q * sorted.length) - 1];
  const { p50, p99, max } = lateness.stats();
  // 125 ms falls in the 1 ms band, 247.5 ms too.
  assert.ok(p50 >= exact(0.5) && p50 - exact(0.5) <= 1, `p50 ${p50} vs ${exact(0.5)}`);
  assert.ok(p99 >= exact(0.99) && p99 - exact(0.99) <= 1, `p99 ${p99} vs ${exact(0.99)}`);
  assert.equal(max, 250);

  const fine = new LatenessHistogram();
  for (let i = 0; i < 1000; i++) fine.record(i * 0.004); // 0 … 3.996 ms
  assert.ok(Math.abs(fine.stats().p50 - 2) <= 0.01, `p50 ${fine.stats().p50}`);
  assert.ok(Math.abs(fine.stats().p99 - 3.96) <= 0.01, `p99 ${fine.stats().p99}`);
});

test('reset starts over; negative lateness counts as on time; beyond 100 s is still counted', { timeout: 10_000 }, () => {
  const lateness = new LatenessHistogram();
  assert.deepEqual(lateness.stats(), { writes: 0, p50: 0, p99: 0, max: 0 });
  lateness.record(5);
  lateness.reset();
  assert.deepEqual(lateness.stats(), { writes: 0, p50: 0, p99: 0, max: 0 });
  lateness.record(-3);
  assert.deepEqual(lateness.stats(), { writes: 1, p50: 0, p99: 0, max: 0 }); // capped at the max
  lateness.reset();
  lateness.record(250_000);
  assert.deepEqual(lateness.stats(), { writes: 1, p50: 250_000, p99: 250_000, max: 250_000 });
});

// `node --import tsx bench/metrics-ab.ts`: B1 (B1-32's request and repeating script, 32
// connections) against three Understudy children of the built package, started in this order:
// "off A" with `metrics: false`, "on" with Prometheus metrics on (the default), "off B" with
// `metrics: false` again. They take turns in short runs, each round in one of the six orders in
// turn, so a machine whose load drifts charges all of them alike and no child keeps a place. While
// "on" is measured, its /_understudy/metrics is scraped every `--scrape-every` seconds (a scraper
// far keener than Prometheus's usual 15 s).
//
// Reported per round, then as medians over rounds: on ÷ off, "on" against the mean of the two
// metrics-off children in that round (the issue's goal: at least 0.95), and the A/A control,
// off B ÷ off A: two identical children, which says how far this machine lets two runs differ with
// nothing between them. The same for server CPU per request. And, measured apart from any server,
// what counting one request costs (RequestMetrics.observe on a B1-like record) and what writing one
// exposition costs, set against the server's CPU per request.
//
// Options:
//   --rounds=N           rounds (default 18; a multiple of 6 gives every order equally often)
//   --duration=S         seconds per run (default 2)
//   --warmup=S           seconds of warm-up per child (default 2)
//   --connections=N      (default 32)
//   --scrape-every=S     seconds between scrapes of the metrics-on child; 0: none (default 1)
//   --scrape-all         send the same scrapes to the metrics-off children while they are measured
//                        (they answer 404): equal control traffic, so only the metrics differ
//   --out=DIR            where metrics-ab.json / metrics-ab.md go (default bench/results)
//   --no-build           use dist/ as it is instead of running `npm run build` first
//
// Any failed request stops the run with exit code 1.

import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { newRecord } from '../src/engine/journal.js';
import { RequestMetrics } from '../src/transport/metrics.js';
import { metricsText } from '../src/control/metrics-exposition.js';
import { UnderstudyServer } from '../src/server/understudy-server.js';
import { pacingStats } from '../src/transport/scheduler.js';
import {
  BENCH_DIR,
  fmt,
  log,
  measure,
  median,
  percentile,
  problemsOf,
  ROOT,
  startChild,
  stopChild,
  type Child,
  type Measurement,
} from './harness.js';
import { BODY_HELLO, type UnderstudyChildConfig } from './scenarios.js';

interface Options {
  rounds: number;
  durationS: number;
  warmupS: number;
  connections: number;
  scrapeEveryS: number;
  outDir: string;
  build: boolean;
  scrapeAll: boolean;
}

function parseOptions(argv: string[]): Options {
  const options: Options = {
    rounds: 18,
    durationS: 2,
    warmupS: 2,
    connections: 32,
    scrapeEveryS: 1,
    outDir: join(BENCH_DIR, 'results'),
    build: true,
    scrapeAll: false,
  };
  const number = (name: string, value: string, least: number) => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < least) throw new Error(`--${name} needs a number >= ${least}, got "${value}"`);
    return n;
  };
  for (const arg of argv) {
    const [name, value = ''] = arg.replace(/^--/, '').split('=', 2) as [string, string?];
    if (name === 'rounds') options.rounds = Math.round(number(name, value, 1));
    else if (name === 'duration') options.durationS = number(name, value, 0.5);
    else if (name === 'warmup') options.warmupS = number(name, value, 0);
    else if (name === 'connections') options.connections = Math.round(number(name, value, 1));
    else if (name === 'scrape-every') options.scrapeEveryS = number(name, value, 0);
    else if (name === 'out') options.outDir = resolve(value);
    else if (name === 'no-build') options.build = false;
    else if (name === 'scrape-all') options.scrapeAll = true;
    else throw new Error(`unknown option "${arg}" (see the header of bench/metrics-ab.ts)`);
  }
  return options;
}

const LABELS = ['off A', 'on', 'off B'] as const;
type Label = (typeof LABELS)[number];

const CONFIG: Record<Label, UnderstudyChildConfig> = {
  'off A': { script: 'bench', metrics: false },
  on: { script: 'bench' },
  'off B': { script: 'bench', metrics: false },
};

/** The six orders of the three children, taken in turn round by round. */
const ORDERS: Label[][] = [
  ['off A', 'on', 'off B'],
  ['on', 'off B', 'off A'],
  ['off B', 'off A', 'on'],
  ['off B', 'on', 'off A'],
  ['on', 'off A', 'off B'],
  ['off A', 'off B', 'on'],
];

interface Run extends Measurement {
  round: number;
  label: Label;
  /** Scrapes of the metrics-on child during this run. */
  scrapes: number;
}

async function metricsStatus(child: Child): Promise<{ status: number; bytes: number }> {
  const response = await fetch(`http://127.0.0.1:${child.port}/_understudy/metrics`);
  return { status: response.status, bytes: (await response.arrayBuffer()).byteLength };
}

/** Scrapes `child` every `seconds` until stopped; resolves to how many scrapes it made. */
function scraper(child: Child, seconds: number, expected = 200): { stop: () => Promise<number> } {
  if (seconds <= 0) return { stop: async () => 0 };
  let count = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      await new Promise((r) => setTimeout(r, seconds * 1000));
      if (!running) break;
      const { status } = await metricsStatus(child);
      if (status !== expected) throw new Error(`a scrape answered ${status}, not ${expected}`);
      count++;
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return count;
    },
  };
}

/** What counting one B1 request costs, apart from any server: RequestMetrics.observe on a record
 * like B1's (same session, operation, status and outcome as the one before, as under load). */
function observeCost(): { nsPerRequest: number; calls: number } {
  const metrics = new RequestMetrics();
  const record = newRecord('req_1', 'default', 'POST /v1/chat/completions', 'openai.chat.completions');
  record.status = 200;
  record.source = 'script';
  record.script = 'bench';
  record.step = 'reply';
  const calls = 2_000_000;
  const times: number[] = [];
  for (let trial = 0; trial < 5; trial++) {
    const started = performance.now();
    for (let i = 0; i < calls; i++) {
      record.ms = i & 3;
      record.firstByteMs = i & 1;
      metrics.observe(record, undefined);
    }
    times.push(((performance.now() - started) * 1e6) / calls);
  }
  return { nsPerRequest: median(times), calls };
}

/** CPU time to write one exposition of B1's series (one session, one dialect), in process. */
function expositionCost(): { usPerScrape: number; bytes: number } {
  const server = new UnderstudyServer({});
  const metrics = new RequestMetrics();
  const record = newRecord('req_1', 'default', 'POST /v1/chat/completions', 'openai.chat.completions');
  record.status = 200;
  record.source = 'script';
  for (let i = 0; i < 1000; i++) {
    record.ms = i & 3;
    record.firstByteMs = i & 1;
    metrics.observe(record, undefined);
  }
  let bytes = 0;
  const times: number[] = [];
  for (let trial = 0; trial < 5; trial++) {
    const started = performance.now();
    for (let i = 0; i < 2000; i++) bytes = metricsText(metrics, [], server.registry, pacingStats()).length;
    times.push(((performance.now() - started) * 1000) / 2000);
  }
  return { usPerScrape: median(times), bytes };
}

const quartiles = (values: number[]) => [percentile(values, 0.25), percentile(values, 0.75)];

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const started = performance.now();
  const loadAtStart = loadavg();
  if (options.build) {
    log('building dist/ (Understudy runs from the built package)');
    execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  }
  log(
    `metrics A/B: ${options.rounds} rounds x 3 children x ${options.durationS} s, ${options.connections} connections, scrape every ${options.scrapeEveryS || 'never'} s; ${cpus().length} CPUs, load ${loadAtStart.map((l) => l.toFixed(2)).join(' ')}`,
  );
  const children = {} as Record<Label, Child>;
  for (const label of LABELS)
    children[label] = await startChild('understudy', [JSON.stringify(CONFIG[label])], { label: `metrics ${label}` });
  const runs: Run[] = [];
  try {
    // Only the metrics-on child has metrics.
    for (const label of LABELS) {
      const { status } = await metricsStatus(children[label]);
      if (status !== (label === 'on' ? 200 : 404)) throw new Error(`the ${label} child answered /_understudy/metrics with ${status}`);
    }
    for (const label of LABELS) {
      const warm = await measure(children[label], { body: BODY_HELLO, connections: options.connections, seconds: options.warmupS || 0.5 });
      const problem = problemsOf(warm);
      if (problem) throw new Error(`warm-up of ${label}: ${problem}`);
    }
    for (let round = 1; round <= options.rounds; round++) {
      for (const label of ORDERS[(round - 1) % ORDERS.length]!) {
        const scraping =
          label === 'on'
            ? scraper(children.on, options.scrapeEveryS)
            : scraper(children[label], options.scrapeAll ? options.scrapeEveryS : 0, 404);
        const m = await measure(children[label], { body: BODY_HELLO, connections: options.connections, seconds: options.durationS });
        const scrapes = await scraping.stop();
        const problem = problemsOf(m);
        if (problem) throw new Error(`round ${round}, ${label}: ${problem}`);
        runs.push({ ...m, round, label, scrapes });
        log(
          `round ${String(round).padStart(2)}/${options.rounds} ${label.padEnd(5)} ${fmt(m.reqPerSec).padStart(6)} req/s  p50 ${fmt(m.p50Ms, 2)} ms  p99 ${fmt(m.p99Ms, 2)} ms  server CPU ${fmt(m.cpuUsPerReq, 1)} µs/req (${fmt(m.serverCpuPct)}%)${label === 'on' ? `  ${scrapes} scrapes` : ''}`,
        );
      }
    }
  } finally {
    for (const label of LABELS) await stopChild(children[label]);
  }

  const of = (label: Label) => runs.filter((r) => r.label === label);
  const rounds = Array.from({ length: options.rounds }, (_, i) => {
    const run = (label: Label) => runs.find((r) => r.round === i + 1 && r.label === label)!;
    const [a, on, b] = [run('off A'), run('on'), run('off B')];
    const cpu = (r: Run) => r.cpuUsPerReq ?? NaN;
    return {
      round: i + 1,
      order: ORDERS[i % ORDERS.length]!.join(', '),
      /** on ÷ the mean of the two metrics-off children in this round. */
      onOverOff: on.reqPerSec / ((a.reqPerSec + b.reqPerSec) / 2),
      /** off B ÷ off A: two identical children. */
      control: b.reqPerSec / a.reqPerSec,
      /** Server CPU per request, the metrics-off children's mean ÷ on's (1: as cheap). */
      cpuOffOverOn: (cpu(a) + cpu(b)) / 2 / cpu(on),
      cpuControl: cpu(a) / cpu(b),
    };
  });
  const observe = observeCost();
  const exposition = expositionCost();
  const medianOf = (label: Label, pick: (r: Run) => number | null) => median(of(label).map((r) => pick(r) ?? NaN));
  const summary = {
    medianReqPerSec: Object.fromEntries(LABELS.map((l) => [l, medianOf(l, (r) => r.reqPerSec)])),
    medianCpuUsPerReq: Object.fromEntries(LABELS.map((l) => [l, medianOf(l, (r) => r.cpuUsPerReq)])),
    medianP99Ms: Object.fromEntries(LABELS.map((l) => [l, medianOf(l, (r) => r.p99Ms)])),
    /** Median over rounds of on ÷ off req/s: the issue's measure (goal ≥ 0.95). */
    ratio: median(rounds.map((r) => r.onOverOff)),
    ratioQuartiles: quartiles(rounds.map((r) => r.onOverOff)),
    control: median(rounds.map((r) => r.control)),
    controlQuartiles: quartiles(rounds.map((r) => r.control)),
    cpuEfficiency: median(rounds.map((r) => r.cpuOffOverOn)),
    cpuControl: median(rounds.map((r) => r.cpuControl)),
    scrapes: of('on').reduce((n, r) => n + r.scrapes, 0),
    observeNsPerRequest: observe.nsPerRequest,
    exposition,
  };
  const met = summary.ratio >= 0.95;
  const totalS = (performance.now() - started) / 1000;
  const loadAtEnd = loadavg();
  const report = {
    command: `node --import tsx bench/metrics-ab.ts ${process.argv.slice(2).join(' ')}`.trim(),
    date: new Date().toISOString(),
    node: process.version,
    cpus: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`,
    loadAverage: { start: loadAtStart, end: loadAtEnd },
    options: { ...options, outDir: relative(ROOT, options.outDir) || '.' },
    goal: 'B1 with metrics on within 5% of off: median over rounds of on ÷ off req/s ≥ 0.95',
    met,
    summary,
    rounds,
    runs,
    totalS,
  };
  const q = (pair: number[]) => `${fmt(pair[0], 3)}–${fmt(pair[1], 3)}`;
  const md = [
    '# Metrics A/B: B1 with Prometheus metrics on vs off',
    '',
    `\`${report.command}\` — ${report.date}, node ${report.node}, ${report.cpus}, load average ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} at start, ${loadAtEnd.map((l) => l.toFixed(2)).join(' ')} at the end, ${fmt(totalS)} s in all.`,
    `${options.rounds} rounds of three ${options.durationS} s runs at ${options.connections} connections (children started off A, on, off B; the order changes every round); the metrics-on child scraped every ${options.scrapeEveryS || 'never'} s while measured (${summary.scrapes} scrapes)${options.scrapeAll ? ', and the metrics-off children likewise (answered 404)' : ''}.`,
    '',
    '| | off A | on | off B |',
    '| --- | ---: | ---: | ---: |',
    `| req/s, median of runs | ${LABELS.map((l) => fmt(summary.medianReqPerSec[l])).join(' | ')} |`,
    `| server CPU µs/req, median | ${LABELS.map((l) => fmt(summary.medianCpuUsPerReq[l], 1)).join(' | ')} |`,
    `| p99 ms, median | ${LABELS.map((l) => fmt(summary.medianP99Ms[l], 2)).join(' | ')} |`,
    '',
    '| median over rounds (interquartile range) | req/s | CPU per request (off ÷ on) |',
    '| --- | ---: | ---: |',
    `| on ÷ off (the mean of off A and off B) | **${fmt(summary.ratio, 3)}** (${q(summary.ratioQuartiles)}) | ${fmt(summary.cpuEfficiency, 3)} |`,
    `| control: off B ÷ off A | ${fmt(summary.control, 3)} (${q(summary.controlQuartiles)}) | ${fmt(summary.cpuControl, 3)} |`,
    '',
    `Goal: ${report.goal} — **${met ? 'met' : 'not met'}**.`,
    '',
    `Apart from any server: counting one request (RequestMetrics.observe, B1's record) takes ${fmt(summary.observeNsPerRequest, 0)} ns, ${fmt((100 * summary.observeNsPerRequest) / 1000 / summary.medianCpuUsPerReq['off A'], 2)}% of the server's CPU per request; writing one exposition of B1's series (${summary.exposition.bytes} bytes) takes ${fmt(summary.exposition.usPerScrape)} µs of CPU.`,
    '',
    '| round | order | on ÷ off req/s | off B ÷ off A req/s | CPU off ÷ on |',
    '| ---: | --- | ---: | ---: | ---: |',
    ...rounds.map((r) => `| ${r.round} | ${r.order} | ${fmt(r.onOverOff, 3)} | ${fmt(r.control, 3)} | ${fmt(r.cpuOffOverOn, 3)} |`),
    '',
  ].join('\n');
  mkdirSync(options.outDir, { recursive: true });
  writeFileSync(join(options.outDir, 'metrics-ab.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(options.outDir, 'metrics-ab.md'), md);
  process.stdout.write(`${md}\nwrote ${relative(process.cwd(), join(options.outDir, 'metrics-ab.json'))} and metrics-ab.md\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`BENCH FAILED: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

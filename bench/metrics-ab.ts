// `node --import tsx bench/metrics-ab.ts`: B1 (B1-32's request and repeating script, 32
// connections) against two Understudy children of the built package, one with Prometheus metrics
// on (the default) and one with `metrics: false`, in short runs taking turns: pair after pair, the
// order flipped every pair (off-on, on-off, ...), so a machine whose load drifts charges both
// alike. While the metrics-on child is measured, its /_understudy/metrics is scraped every
// `--scrape-every` seconds (a scraper far keener than Prometheus's usual 15 s).
//
// Reported: each side's median req/s and server CPU per request, the median over pairs of
// on ÷ off req/s (the issue's goal: at least 0.95) and of off ÷ on CPU per request; and, measured
// apart from any server, what counting one request costs (RequestMetrics.observe on a B1-like
// record) and what one scrape costs, set against the server's CPU per request.
//
// Options:
//   --pairs=N            pairs of runs (default 16)
//   --duration=S         seconds per run (default 2)
//   --warmup=S           seconds of warm-up per child (default 2)
//   --connections=N      (default 32)
//   --scrape-every=S     seconds between scrapes of the metrics-on child; 0: none (default 1)
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
import { BENCH_DIR, fmt, log, measure, median, problemsOf, ROOT, startChild, stopChild, type Child, type Measurement } from './harness.js';
import { BODY_HELLO, type UnderstudyChildConfig } from './scenarios.js';

interface Options {
  pairs: number;
  durationS: number;
  warmupS: number;
  connections: number;
  scrapeEveryS: number;
  outDir: string;
  build: boolean;
}

function parseOptions(argv: string[]): Options {
  const options: Options = {
    pairs: 16,
    durationS: 2,
    warmupS: 2,
    connections: 32,
    scrapeEveryS: 1,
    outDir: join(BENCH_DIR, 'results'),
    build: true,
  };
  const number = (name: string, value: string, least: number) => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < least) throw new Error(`--${name} needs a number >= ${least}, got "${value}"`);
    return n;
  };
  for (const arg of argv) {
    const [name, value = ''] = arg.replace(/^--/, '').split('=', 2) as [string, string?];
    if (name === 'pairs') options.pairs = Math.round(number(name, value, 1));
    else if (name === 'duration') options.durationS = number(name, value, 0.5);
    else if (name === 'warmup') options.warmupS = number(name, value, 0);
    else if (name === 'connections') options.connections = Math.round(number(name, value, 1));
    else if (name === 'scrape-every') options.scrapeEveryS = number(name, value, 0);
    else if (name === 'out') options.outDir = resolve(value);
    else if (name === 'no-build') options.build = false;
    else throw new Error(`unknown option "${arg}" (see the header of bench/metrics-ab.ts)`);
  }
  return options;
}

type Side = 'on' | 'off';

interface Run extends Measurement {
  pair: number;
  side: Side;
  /** Scrapes of the metrics-on child during this run. */
  scrapes: number;
}

const CONFIG: Record<Side, UnderstudyChildConfig> = { on: { script: 'bench' }, off: { script: 'bench', metrics: false } };

async function metricsStatus(child: Child): Promise<{ status: number; bytes: number }> {
  const response = await fetch(`http://127.0.0.1:${child.port}/_understudy/metrics`);
  return { status: response.status, bytes: (await response.arrayBuffer()).byteLength };
}

/** Scrapes `child` every `seconds` until stopped; resolves to how many scrapes it made. */
function scraper(child: Child, seconds: number): { stop: () => Promise<number> } {
  if (seconds <= 0) return { stop: async () => 0 };
  let count = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      await new Promise((r) => setTimeout(r, seconds * 1000));
      if (!running) break;
      const { status } = await metricsStatus(child);
      if (status !== 200) throw new Error(`a scrape of the metrics-on child answered ${status}`);
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

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const started = performance.now();
  const loadAtStart = loadavg();
  if (options.build) {
    log('building dist/ (Understudy runs from the built package)');
    execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  }
  log(
    `metrics A/B: ${options.pairs} pairs x ${options.durationS} s, ${options.connections} connections, scrape every ${options.scrapeEveryS || 'never'} s; ${cpus().length} CPUs, load ${loadAtStart.map((l) => l.toFixed(2)).join(' ')}`,
  );
  const children = {} as Record<Side, Child>;
  for (const side of ['off', 'on'] as const) {
    children[side] = await startChild('understudy', [JSON.stringify(CONFIG[side])], { label: `metrics ${side}` });
  }
  const runs: Run[] = [];
  let exposition = { status: 0, bytes: 0 };
  let scrapeMs: number[] = [];
  try {
    // Both children answer as they should, and only one has metrics.
    const off = await metricsStatus(children.off);
    if (off.status !== 404) throw new Error(`the metrics-off child answered /_understudy/metrics with ${off.status}, not 404`);
    for (const side of ['off', 'on'] as const) {
      const warm = await measure(children[side], { body: BODY_HELLO, connections: options.connections, seconds: options.warmupS || 0.5 });
      const problem = problemsOf(warm);
      if (problem) throw new Error(`warm-up of metrics ${side}: ${problem}`);
    }
    for (let pair = 1; pair <= options.pairs; pair++) {
      const order: Side[] = pair % 2 === 1 ? ['off', 'on'] : ['on', 'off'];
      for (const side of order) {
        const scraping = side === 'on' ? scraper(children.on, options.scrapeEveryS) : scraper(children.on, 0);
        const m = await measure(children[side], { body: BODY_HELLO, connections: options.connections, seconds: options.durationS });
        const scrapes = await scraping.stop();
        const problem = problemsOf(m);
        if (problem) throw new Error(`pair ${pair}, metrics ${side}: ${problem}`);
        runs.push({ ...m, pair, side, scrapes });
        log(
          `pair ${String(pair).padStart(2)}/${options.pairs} metrics ${side.padEnd(3)} ${fmt(m.reqPerSec).padStart(6)} req/s  p50 ${fmt(m.p50Ms, 2)} ms  p99 ${fmt(m.p99Ms, 2)} ms  server CPU ${fmt(m.cpuUsPerReq, 1)} µs/req (${fmt(m.serverCpuPct)}%)${side === 'on' ? `  ${scrapes} scrapes` : ''}`,
        );
      }
    }
    // One scrape's size and time, after the load (the series are all there by now).
    exposition = await metricsStatus(children.on);
    scrapeMs = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await metricsStatus(children.on);
      scrapeMs.push(performance.now() - t);
    }
  } finally {
    await stopChild(children.on);
    await stopChild(children.off);
  }

  const of = (side: Side) => runs.filter((r) => r.side === side);
  const pairs = Array.from({ length: options.pairs }, (_, i) => {
    const on = runs.find((r) => r.pair === i + 1 && r.side === 'on')!;
    const off = runs.find((r) => r.pair === i + 1 && r.side === 'off')!;
    return {
      pair: i + 1,
      reqPerSecRatio: on.reqPerSec / off.reqPerSec,
      cpuRatio: on.cpuUsPerReq !== null && off.cpuUsPerReq !== null ? off.cpuUsPerReq / on.cpuUsPerReq : NaN,
    };
  });
  const observe = observeCost();
  const summary = {
    medianReqPerSec: { on: median(of('on').map((r) => r.reqPerSec)), off: median(of('off').map((r) => r.reqPerSec)) },
    medianCpuUsPerReq: {
      on: median(of('on').map((r) => r.cpuUsPerReq ?? NaN)),
      off: median(of('off').map((r) => r.cpuUsPerReq ?? NaN)),
    },
    medianP99Ms: { on: median(of('on').map((r) => r.p99Ms)), off: median(of('off').map((r) => r.p99Ms)) },
    /** Median over pairs of on ÷ off req/s: the issue's measure (goal ≥ 0.95). */
    ratio: median(pairs.map((p) => p.reqPerSecRatio)),
    ratioOfMedians: median(of('on').map((r) => r.reqPerSec)) / median(of('off').map((r) => r.reqPerSec)),
    /** Median over pairs of off ÷ on server CPU per request (1: as cheap). */
    cpuEfficiency: median(pairs.map((p) => p.cpuRatio)),
    pairsOnSlower: pairs.filter((p) => p.reqPerSecRatio < 1).length,
    scrapes: of('on').reduce((n, r) => n + r.scrapes, 0),
    observeNsPerRequest: observe.nsPerRequest,
    exposition: { bytes: exposition.bytes, medianScrapeMs: median(scrapeMs) },
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
    goal: 'B1 with metrics on within 5% of off: median over pairs of on ÷ off req/s ≥ 0.95',
    met,
    summary,
    pairs,
    runs,
    totalS,
  };
  const md = [
    '# Metrics A/B: B1 with Prometheus metrics on vs off',
    '',
    `\`${report.command}\` — ${report.date}, node ${report.node}, ${report.cpus}, load average ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} at start, ${loadAtEnd.map((l) => l.toFixed(2)).join(' ')} at the end, ${fmt(totalS)} s in all.`,
    `${options.pairs} pairs of ${options.durationS} s runs at ${options.connections} connections, order flipped every pair; the metrics-on child scraped every ${options.scrapeEveryS || 'never'} s while measured (${summary.scrapes} scrapes).`,
    '',
    '| | metrics off | metrics on | on ÷ off |',
    '| --- | ---: | ---: | ---: |',
    `| req/s, median of runs | ${fmt(summary.medianReqPerSec.off)} | ${fmt(summary.medianReqPerSec.on)} | ${fmt(summary.ratioOfMedians, 3)} |`,
    `| req/s, median of per-pair ratios | | | **${fmt(summary.ratio, 3)}** |`,
    `| server CPU µs/req, median | ${fmt(summary.medianCpuUsPerReq.off, 1)} | ${fmt(summary.medianCpuUsPerReq.on, 1)} | CPU efficiency (off ÷ on, median of pairs) ${fmt(summary.cpuEfficiency, 3)} |`,
    `| p99 ms, median | ${fmt(summary.medianP99Ms.off, 2)} | ${fmt(summary.medianP99Ms.on, 2)} | |`,
    '',
    `Goal: ${report.goal} — **${met ? 'met' : 'not met'}** (${summary.pairsOnSlower} of ${options.pairs} pairs had metrics on slower).`,
    '',
    `Apart from any server: counting one request (RequestMetrics.observe, B1's record) takes ${fmt(summary.observeNsPerRequest, 0)} ns, ${fmt((100 * summary.observeNsPerRequest) / 1000 / summary.medianCpuUsPerReq.off, 2)}% of the server's CPU per request; one scrape of the ${summary.exposition.bytes}-byte exposition took ${fmt(summary.exposition.medianScrapeMs, 2)} ms (median of 20, round trip).`,
    '',
    '| pair | on ÷ off req/s | off ÷ on CPU/req |',
    '| ---: | ---: | ---: |',
    ...pairs.map((p) => `| ${p.pair} | ${fmt(p.reqPerSecRatio, 3)} | ${fmt(p.cpuRatio, 3)} |`),
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

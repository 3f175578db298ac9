// `npm run bench [-- --quick] [-- --scenario=B1-32,B4]`: the scenarios of the performance issue, on
// loopback, each server in its own child process and autocannon in this (parent) process.
//
//   B1-32, B1-256  non-streamed chat completion from a repeating script, 32 / 256 connections,
//                  against a bare node:http server writing the same bytes, and aimock
//   B2             streamed chat completion scripted as 100 chunks, no pacing (bare, aimock)
//   B3             many concurrent paced streams (quick: 2,000, full: 10,000 then 2,000–5,000; 20
//                  chunks/s), plain-socket clients: memory per open stream, the server's pacing error
//   B4             start-up: in-process startUnderstudy() and `understudy serve`, fresh processes
//   B5-scripts     10 vs 10,000 scripts loaded, the answering one last
//   B5-history     2 vs 100 vs 200 messages of history in the request
//   B6             a million requests (quick: 100,000): memory after the first tenth vs the end
//   B7-B1, B7-B2   B1 and B2 through Anthropic Messages (POST /v1/messages), against bare replaying
//                  Understudy's captured bytes, 32 connections (--scenario=B7 runs all four B7s)
//   B7-bedrock-B1, B7-bedrock-B2  the same through Bedrock Converse and ConverseStream (event-stream
//                  frames), HTTP/1.1
//   vidai-1000     VidaiMock's k6 profile: its body, 1,000 connections, zero-config Understudy vs bare
//                  (quick: 2 rounds x 5 s; full: 5 rounds x 10 s)
//
// Throughput scenarios let the contenders take turns round by round (bare, understudy, aimock,
// bare, ...) so slow drifts of a shared, noisy machine hit every contender alike; what to read is
// the ratio to the baseline measured in the same round, as a median over rounds.
//
// Options:
//   --quick               3 rounds x 2 s, 0.5 s warm-up, B4 5 runs, B6 100,000 requests
//                         (default: 5 rounds x 10 s, 2 s warm-up, B4 20 runs, B6 1,000,000 requests)
//   --duration=S          seconds per measured round (every throughput scenario)
//   --rounds=N            rounds per throughput scenario
//   --warmup=S            seconds of warm-up per contender and scenario, before round 1
//   --connections=N       override every throughput scenario's connection count
//   --scenario=ID[,ID]    B1-32, B1-256, B2, B3, B4, B5-scripts, B5-history, B6, B7-B1, B7-B2, B7-bedrock-B1,
//                         B7-bedrock-B2, vidai-1000
//                         (default: all); a group name (B1, B5, B7) selects every id in it
//   --servers=K[,K]       bare, understudy, understudy-workers, aimock (default: all; a scenario's baseline always runs)
//   --no-aimock           same as --servers=bare,understudy
//   --profile             run the server children with --cpu-prof (profiles in bench/results/profiles/<label>/;
//                         summarize with bench/profile-top.ts)
//   --out=DIR             where latest.json / latest.md go (default bench/results)
//   --no-build            use dist/ as it is instead of running `npm run build` first
//
// Any failed request (connection error, timeout, non-2xx) stops the run with exit code 1 and a
// BENCH FAILED message; the results so far are still written.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, arch, release, tmpdir, totalmem } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { BENCH_DIR, fmt, log, median, openFilesLimit, ROOT } from './harness.js';
import { runPaced, type CapacityRung, type PacedResult, type PacingStats } from './paced.js';
import { SCENARIOS, type ScenarioId, type ServerKind } from './scenarios.js';
import { runSoak, type SoakResult } from './soak.js';
import { runStartup, type StartupResult } from './startup.js';
import { DEFAULT_ROUNDS, runThroughput, type ThroughputResult, type ThroughputRow } from './throughput.js';

const ALL_SERVERS: ServerKind[] = ['bare', 'understudy', 'understudy-workers', 'aimock'];

// ------------------------------------------------------------------ options

interface Options {
  mode: 'quick' | 'full';
  durationS?: number;
  rounds?: number;
  warmupS: number;
  connections?: number;
  scenarios: ScenarioId[];
  servers: ServerKind[];
  profile: boolean;
  build: boolean;
  outDir: string;
  command: string;
}

function parseOptions(argv: string[]): Options {
  const quick = argv.includes('--quick');
  const options: Options = {
    mode: quick ? 'quick' : 'full',
    warmupS: quick ? 0.5 : 2,
    scenarios: SCENARIOS.map((s) => s.id),
    servers: [...ALL_SERVERS],
    profile: false,
    build: true,
    outDir: join(BENCH_DIR, 'results'),
    command: `npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}`,
  };
  const positive = (name: string, value: string) => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} needs a positive number, got "${value}"`);
    return n;
  };
  for (const arg of argv) {
    const [name, value = ''] = arg.replace(/^--/, '').split('=', 2) as [string, string?];
    switch (name) {
      case 'quick':
        break;
      case 'duration':
        options.durationS = positive(name, value);
        break;
      case 'rounds':
        options.rounds = Math.round(positive(name, value));
        break;
      case 'warmup':
        options.warmupS = Number(value);
        if (!Number.isFinite(options.warmupS) || options.warmupS < 0) throw new Error(`--warmup needs a number >= 0, got "${value}"`);
        break;
      case 'connections':
        options.connections = Math.round(positive(name, value));
        break;
      case 'scenario': {
        const ids = value.split(',').filter(Boolean);
        if (!ids.length) throw new Error('--scenario needs at least one id');
        const selects = (id: string, wanted: string) => id === wanted || id.startsWith(`${wanted}-`);
        for (const id of ids)
          if (!SCENARIOS.some((s) => selects(s.id, id)))
            throw new Error(`unknown scenario "${id}"; known: ${SCENARIOS.map((s) => s.id).join(', ')}`);
        options.scenarios = SCENARIOS.map((s) => s.id).filter((id) => ids.some((wanted) => selects(id, wanted)));
        break;
      }
      case 'servers': {
        const kinds = value.split(',').filter(Boolean);
        for (const k of kinds)
          if (!ALL_SERVERS.includes(k as ServerKind)) throw new Error(`unknown server "${k}"; known: ${ALL_SERVERS.join(', ')}`);
        options.servers = ALL_SERVERS.filter((k) => k === 'bare' || kinds.includes(k));
        break;
      }
      case 'no-aimock':
        options.servers = options.servers.filter((k) => k !== 'aimock');
        break;
      case 'profile':
        options.profile = true;
        break;
      case 'no-build':
        options.build = false;
        break;
      case 'out':
        options.outDir = resolve(value);
        break;
      default:
        throw new Error(`unknown option "${arg}" (see the header of bench/run.ts)`);
    }
  }
  return options;
}

// ------------------------------------------------------------------ goals

type Result = ThroughputResult | StartupResult | SoakResult | PacedResult;

interface Goal {
  scenario: ScenarioId;
  goal: string;
  measured: string;
  /** null: no goal stated, reported only. */
  met: boolean | null;
}

function row(result: ThroughputResult, label: string): ThroughputRow | undefined {
  return result.summary.find((r) => r.contender === label);
}

/** Median over rounds of a[i] / b[i]: contenders alternate round by round, so round i is a fair pair. */
function medianRoundRatio(a: number[], b: number[]): number {
  const ratios = a.slice(0, b.length).map((x, i) => x / b[i]);
  return median(ratios);
}

function goalsOf(results: Result[]): Goal[] {
  const goals: Goal[] = [];
  for (const result of results) {
    if (result.type === 'throughput') {
      if (
        result.id === 'B1-32' ||
        result.id === 'B1-256' ||
        result.id === 'B2' ||
        result.id === 'B7-B1' ||
        result.id === 'B7-B2' ||
        result.id === 'B7-bedrock-B1' ||
        result.id === 'B7-bedrock-B2' ||
        result.id === 'vidai-1000'
      ) {
        const u = row(result, 'understudy');
        if (!u) continue;
        const ratio = `${fmt(u.ratioToBaseline, 2)} of bare (${fmt(u.medianReqPerSec)} req/s, p99 ${fmt(u.medianP99Ms, 1)} ms)`;
        if (result.id === 'vidai-1000') {
          goals.push({
            scenario: result.id,
            goal: 'no errors at 1,000 connections',
            measured: `${u.errors} errors; ${ratio}`,
            met: u.errors === 0,
          });
        } else {
          // The issue's goals: B1 ≥ 0.8 of bare, B2 ≥ 0.7 of bare, and both ≥ 3 × aimock; B7 repeats them through Anthropic and Bedrock.
          const streamed = result.id === 'B2' || result.id === 'B7-B2' || result.id === 'B7-bedrock-B2';
          const ofBare = streamed ? 0.7 : 0.8;
          const what = streamed ? 'streamed' : 'non-streamed';
          const through = result.id.startsWith('B7-bedrock')
            ? ' through Bedrock Converse'
            : result.id.startsWith('B7')
              ? ' through Anthropic Messages'
              : '';
          goals.push({
            scenario: result.id,
            goal: `${what} throughput${through} ≥ ${ofBare} of bare node:http`,
            measured: ratio,
            met: u.ratioToBaseline >= ofBare,
          });
          const w = row(result, 'understudy --workers 2');
          if (w) {
            const times = medianRoundRatio(w.reqPerSecByRound, u.reqPerSecByRound);
            goals.push({
              scenario: result.id,
              goal: '`serve --workers 2` beats the single process (ratio > 1)',
              measured: `${fmt(times, 2)} × single process (${fmt(w.medianReqPerSec)} req/s; ${fmt(w.ratioToBaseline, 2)} of bare)`,
              met: times > 1,
            });
          }
          const a = row(result, 'aimock');
          if (a) {
            const times = medianRoundRatio(u.reqPerSecByRound, a.reqPerSecByRound);
            goals.push({
              scenario: result.id,
              goal: `${what} throughput${through} ≥ 3 × aimock`,
              measured: `${fmt(times, 2)} × aimock (${fmt(a.medianReqPerSec)} req/s)`,
              met: times >= 3,
            });
          }
        }
      }
      if (result.id === 'B5-scripts') {
        const big = row(result, '10,000 scripts');
        if (big)
          goals.push({
            scenario: result.id,
            goal: '10,000 scripts cost ≤ 20% throughput (ratio ≥ 0.80)',
            measured: `10,000 / 10 scripts = ${fmt(big.ratioToBaseline, 3)} (${fmt(big.medianCpuUsPerReq, 1)} vs ${fmt(row(result, '10 scripts')?.medianCpuUsPerReq, 1)} µs CPU/req)`,
            met: big.ratioToBaseline >= 0.8,
          });
      }
      if (result.id === 'B5-history') {
        const c2 = row(result, '2 messages')?.medianCpuUsPerReq;
        const c100 = row(result, '100 messages')?.medianCpuUsPerReq;
        const r200 = row(result, '200 messages');
        const c200 = r200?.medianCpuUsPerReq;
        if (c2 != null && c100 != null && c200 != null) {
          // Cost per extra message in the lower and the upper half: linear growth keeps them alike.
          const low = (c100 - c2) / 98;
          const high = (c200 - c100) / 100;
          goals.push({
            scenario: result.id,
            goal: 'history cost grows at most linearly (server CPU per extra message, 100→200 ≤ 1.5 × 2→100)',
            measured: `200 / 2 messages = ${fmt(r200!.ratioToBaseline, 3)} of the throughput; CPU/req ${fmt(c2, 1)} → ${fmt(c100, 1)} → ${fmt(c200, 1)} µs: ${fmt(low, 2)} µs/message (2→100), ${fmt(high, 2)} µs/message (100→200)`,
            met: high <= 1.5 * low,
          });
        }
      }
    }
    if (result.type === 'paced' && result.round && result.serverPacing) {
      const p = result.serverPacing;
      const a = result.round.arrival;
      const reference = result.reference;
      const streams = `${result.streams.toLocaleString('en-US')} streams${result.capNote ? ' (capped by ulimit -n)' : ''}`;
      goals.push({
        scenario: result.id,
        goal: `p99 pacing error < ${result.goals.pacingP99Ms} ms (server's own health \`pacing\`)`,
        measured: `${streams}, at most ${result.round.maxOpen.toLocaleString('en-US')} open at once: p50 ${fmt(p.p50, 2)} ms, p99 ${fmt(p.p99, 2)} ms, max ${fmt(p.max, 1)} ms over ${p.writes.toLocaleString('en-US')} paced writes (whole round); steady phase alone p99 ${fmt(result.steady?.serverPacing?.p99, 2)} ms; client-side arrival p50 ${fmt(a.p50Ms, 2)} ms, p99 ${fmt(a.p99Ms, 2)} ms (information)${reference ? `; bare node:http, same round: p99 ${fmt(reference.serverPacing?.p99, 2)} ms, at most ${reference.round.maxOpen.toLocaleString('en-US')} open` : ''}`,
        met: p.p99 < result.goals.pacingP99Ms,
      });
      if (result.capacity) {
        const held = (rungs: CapacityRung[]) => {
          const most = rungs.filter((rung) => rung.pacing.p99 < result.goals.pacingP99Ms).reduce((n, rung) => Math.max(n, rung.streams), 0);
          return most ? most.toLocaleString('en-US') : 'none';
        };
        const tried = result.capacity.understudy.map((rung) => rung.streams.toLocaleString('en-US')).join(', ');
        goals.push({
          scenario: result.id,
          goal: `(information) most streams held within the p99 goal on this machine`,
          measured: `of ${tried} streams: Understudy ${held(result.capacity.understudy)}${result.capacity.workers ? `, \`serve --workers 2\` ${held(result.capacity.workers)}` : ''}, bare node:http ${held(result.capacity.bare)} (whole-round p99 per count in the B3 section)`,
          met: null,
        });
      }
      if (result.kbPerOpenStream !== null && result.round.sample)
        goals.push({
          scenario: result.id,
          goal: `< ${result.goals.kbPerStream} KB of server RSS per open stream`,
          measured: `${fmt(result.kbPerOpenStream, 1)} KB: RSS ${fmt(result.rssBeforeMB, 1)} → ${fmt(result.round.sample.rssMB, 1)} MB with ${result.round.sample.open.toLocaleString('en-US')} of ${streams} open (peak RSS ${fmt(result.peakRssMB, 1)} MB: ${fmt(result.kbPerStreamFromPeak, 1)} KB/stream)${reference ? `; bare node:http streaming the same bytes: ${fmt(reference.kbPerOpenStream, 1)} KB with ${reference.round.sample?.open.toLocaleString('en-US') ?? 'n/a'} open` : ''}`,
          met: result.kbPerOpenStream < result.goals.kbPerStream,
        });
    }
    if (result.type === 'startup' && result.inProcess.importToFirstAnswer.runs) {
      const a = result.inProcess.importToFirstAnswer;
      const b = result.cli.spawnToFirstAnswer;
      goals.push({
        scenario: result.id,
        goal: `in-process start-up < ${result.goals.inProcessMs} ms`,
        measured: `import + startUnderstudy() + first answer: median ${fmt(a.medianMs)} ms, p90 ${fmt(a.p90Ms)} ms`,
        met: a.medianMs < result.goals.inProcessMs,
      });
      goals.push({
        scenario: result.id,
        goal: `CLI start-up < ${result.goals.cliMs} ms`,
        measured: `spawn to first answer: median ${fmt(b.medianMs)} ms, p90 ${fmt(b.p90Ms)} ms`,
        met: b.medianMs < result.goals.cliMs,
      });
    }
    if (result.type === 'soak' && result.rssGrowth !== null && result.heapGrowth !== null) {
      const first = result.samples[0];
      const last = result.samples[result.samples.length - 1];
      const n = (x: number) => x.toLocaleString('en-US');
      const bare = result.bare;
      const bareNote = bare
        ? `; bare node:http, same requests: ${fmt(bare.rssMB[0], 1)} → ${fmt(bare.rssMB[bare.rssMB.length - 1], 1)} MB (×${fmt(bare.rssGrowth, 3)})`
        : '';
      const range = result.rssRangeMB
        ? `; RSS ranged ${fmt(result.rssRangeMB[0], 1)}–${fmt(result.rssRangeMB[1], 1)} MB after the first sample`
        : '';
      goals.push({
        scenario: result.id,
        goal: `RSS after ${n(last.requests)} requests within 10% of after ${n(first.requests)}`,
        measured: `${fmt(first.rssMB, 1)} → ${fmt(last.rssMB, 1)} MB (×${fmt(result.rssGrowth, 3)})${range}${bareNote}`,
        met: result.rssGrowth <= 1.1,
      });
      goals.push({
        scenario: result.id,
        goal: 'nothing retained per request: heap used right after a full GC within 10%',
        measured: `${fmt(first.heapUsedAfterGcMB, 1)} → ${fmt(last.heapUsedAfterGcMB, 1)} MB (×${fmt(result.heapGrowth, 3)}); journal ${last.journalEntries} entries, ${fmt(last.journalBytes / 1024)} KB`,
        met: result.heapGrowth <= 1.1,
      });
    }
  }
  return goals;
}

// ------------------------------------------------------------------ markdown

function throughputTable(results: ThroughputResult[]): string {
  const lines = [
    '| Scenario | Contender | conns | req/s (median) | p50 ms | p99 ms | ratio to baseline | req/s per round | server CPU µs/req | CPU eff. vs baseline | server CPU % | autocannon CPU % | peak RSS MB |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const result of results) {
    for (const r of result.summary) {
      const ratio = r.contender === r.baseline ? '1 (baseline)' : fmt(r.ratioToBaseline, 3);
      lines.push(
        `| ${r.scenario} | ${r.contender} | ${r.connections} | ${fmt(r.medianReqPerSec)} | ${fmt(r.medianP50Ms, 2)} | ${fmt(r.medianP99Ms, 2)} | ${ratio} | ${r.reqPerSecByRound.map((x) => fmt(x)).join(', ')} | ${fmt(r.medianCpuUsPerReq, 1)} | ${fmt(r.cpuEfficiencyVsBaseline, 2)} | ${fmt(r.medianServerCpuPct)} | ${fmt(r.medianLoadgenCpuPct)} | ${fmt(r.peakRssMB, 1)} |`,
      );
    }
    for (const [label, reason] of Object.entries(result.skipped))
      lines.push(`| ${result.id} | ${label} | skipped: ${reason} | | | | | | | | | | |`);
  }
  return lines.join('\n');
}

function startupTables(result: StartupResult): string {
  const s = (name: string, x: { medianMs: number; p90Ms: number; minMs: number; maxMs: number }, goal = '') =>
    `| ${name} | ${fmt(x.medianMs, 1)} | ${fmt(x.p90Ms, 1)} | ${fmt(x.minMs, 1)} | ${fmt(x.maxMs, 1)} | ${goal} |`;
  const lines = [
    `${result.runs} fresh processes of each kind, interleaved.`,
    '',
    '| B4 measure | median ms | p90 ms | min ms | max ms | goal |',
    '| --- | ---: | ---: | ---: | ---: | --- |',
    s(
      'in-process: import dist + `startUnderstudy()` + first answer',
      result.inProcess.importToFirstAnswer,
      `< ${result.goals.inProcessMs} ms`,
    ),
    s('in-process: `startUnderstudy()` + first answer', result.inProcess.startToFirstAnswer),
    s('in-process: spawn to first answer (includes node boot)', result.inProcess.spawnToFirstAnswer),
    s('CLI `serve --port 0`: spawn to "listening" line', result.cli.spawnToListening),
    s('CLI `serve --port 0`: spawn to first answer', result.cli.spawnToFirstAnswer, `< ${result.goals.cliMs} ms`),
    s('node boot alone (`node -e`, spawn to first line)', result.nodeBoot),
    '',
    'Where the in-process time goes (median of the breakdown runs: each runtime dependency imported on its own first, then `dist/index.js`, one esbuild bundle of all of Understudy’s own modules, which is then left with them; the o200k_base table loads in `startUnderstudy()`):',
    '',
    '| phase | median ms |',
    '| --- | ---: |',
    ...result.breakdown.map((b) => `| ${b.name} | ${fmt(b.medianMs, 1)} |`),
  ];
  if (result.profile) {
    lines.push(
      '',
      `CPU profile of ${result.profile.file}, ${fmt(result.profile.totalMs)} ms profiled; samples attributed to the innermost package on their stack (inside the dist/ bundle, to the src/ folder of the bundled module):`,
      '',
      '| package | ms |',
      '| --- | ---: |',
      ...result.profile.byPackage.map((g) => `| ${g.group} | ${fmt(g.ms, 1)} |`),
    );
  }
  return lines.join('\n');
}

function soakTable(result: SoakResult): string {
  return [
    `${result.totalRequests.toLocaleString('en-US')} requests in ${result.samples.length} segments, ${result.connections} connections, ${fmt(result.durationS)} s.`,
    '',
    '| requests | RSS MB | bare node:http RSS MB | peak RSS MB | heap used MB | heap used after full GC MB | heap total after GC MB | journal entries | journal KB | health | segment req/s | segment p99 ms |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |',
    ...result.samples.map(
      (s, i) =>
        `| ${s.requests.toLocaleString('en-US')} | ${fmt(s.rssMB, 1)} | ${fmt(result.bare?.rssMB[i] ?? null, 1)} | ${fmt(s.peakRssMB, 1)} | ${fmt(s.heapUsedMB, 1)} | ${fmt(s.heapUsedAfterGcMB, 1)} | ${fmt(s.heapTotalAfterGcMB, 1)} | ${s.journalEntries} | ${fmt(s.journalBytes / 1024)} | ${s.healthOk ? 'ok' : 'NOT OK'} | ${fmt(s.segmentReqPerSec)} | ${fmt(s.segmentP99Ms, 2)} |`,
    ),
  ].join('\n');
}

function goalsTable(goals: Goal[]): string {
  return [
    '| Scenario | Goal | Measured (this run) | Met |',
    '| --- | --- | --- | --- |',
    ...goals.map((g) => `| ${g.scenario} | ${g.goal} | ${g.measured} | ${g.met === null ? '—' : g.met ? 'yes' : '**no**'} |`),
  ].join('\n');
}

function pacedTable(result: PacedResult): string {
  const r = result.round;
  const p = result.serverPacing;
  const pacing = (x: PacedResult['serverPacing']) =>
    x ? `${fmt(x.p50, 2)} / ${fmt(x.p99, 2)} / ${fmt(x.max, 1)} ms over ${x.writes} writes` : 'n/a';
  const lines = [
    `${result.streams.toLocaleString('en-US')} concurrent streams${result.capNote ? ` (${result.capNote})` : ''}, each ${result.chunks} content chunks at ${result.chunksPerSecond} chunks/s (${result.eventsPerStream ?? 'n/a'} SSE events, ${result.streamBytes ?? 'n/a'} bytes); opened in batches of 100 every 25 ms after a ${result.warmup?.streams ?? 0}-stream warm-up round; \`ulimit -n\` ${result.openFilesLimit ?? 'unknown'}.`,
    '',
    '| measure | value |',
    '| --- | ---: |',
  ];
  if (r) {
    lines.push(
      `| streams completed | ${r.completed} / ${r.streams} |`,
      `| all streams had their headers after | ${fmt(r.allOpenMs)} ms |`,
      `| most open at once | ${r.maxOpen} |`,
      `| round took | ${fmt(r.durationMs)} ms |`,
      `| server RSS before the round | ${fmt(result.rssBeforeMB, 1)} MB |`,
      `| server RSS with the most streams open | ${fmt(r.sample?.rssMB, 1)} MB (${r.sample?.open ?? 'n/a'} open, at ${fmt(r.sample?.atMs)} ms) |`,
      `| server peak RSS (VmHWM) | ${fmt(result.peakRssMB, 1)} MB |`,
      `| memory per open stream | ${fmt(result.kbPerOpenStream, 1)} KB (from peak: ${fmt(result.kbPerStreamFromPeak, 1)} KB) |`,
      `| server pacing error (health, whole round) p50 / p99 / max | ${pacing(p)} |`,
      `| … of which while the streams were opening (cumulative when the last one opened) | ${pacing(result.serverPacingWhileOpening)} |`,
      `| server pacing error, steady phase (second round: reset once all were open, read when the first ended${result.steady?.windowMs != null ? `, ${fmt(result.steady.windowMs)} ms` : ''}) | ${pacing(result.steady?.serverPacing ?? null)} |`,
      `| client arrival error p50 / p99 / max | ${fmt(r.arrival.p50Ms, 2)} / ${fmt(r.arrival.p99Ms, 2)} / ${fmt(r.arrival.maxMs, 1)} ms over ${r.arrival.events} events |`,
      `| server CPU / client CPU | ${fmt(r.serverCpuPct)}% / ${fmt(r.loadgenCpuPct)}% |`,
    );
  }
  if (result.capacity) {
    const bare = new Map(result.capacity.bare.map((rung) => [rung.streams, rung]));
    const workers = result.capacity.workers && new Map(result.capacity.workers.map((rung) => [rung.streams, rung]));
    const three = (x: PacingStats) => `${fmt(x.p50, 2)} / ${fmt(x.p99, 2)} / ${fmt(x.max, 1)}`;
    const cells = (rung: CapacityRung | undefined) =>
      rung ? `${rung.maxOpen} | ${three(rung.pacing)} | ${fmt(rung.serverCpuPct)}%` : 'n/a | n/a | n/a';
    lines.push(
      '',
      `Capacity: one round per count (same stream, whole-round pacing error from health), Understudy${workers ? ', `serve --workers 2` (health counts both workers; CPU is all its processes)' : ''}, then the bare reference.`,
      '',
      `| streams | Understudy: most open | p50 / p99 / max ms | server CPU |${workers ? ' --workers 2: most open | p50 / p99 / max ms | server CPU |' : ''} bare: most open | p50 / p99 / max ms | server CPU |`,
      `| ---: | ---: | ---: | ---: |${workers ? ' ---: | ---: | ---: |' : ''} ---: | ---: | ---: |`,
      ...result.capacity.understudy.map(
        (rung) =>
          `| ${rung.streams} | ${cells(rung)} |${workers ? ` ${cells(workers.get(rung.streams))} |` : ''} ${cells(bare.get(rung.streams))} |`,
      ),
    );
  }
  return lines.join('\n');
}

function gitInfo(): { commit: string | null; dirty: boolean | null } {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: ROOT, encoding: 'utf8' }).trim().length > 0;
    return { commit, dirty };
  } catch {
    return { commit: null, dirty: null };
  }
}

// ------------------------------------------------------------------ main

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const quick = options.mode === 'quick';
  if (options.build) {
    log('building dist/ (Understudy runs from the built package)');
    execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  }
  const scratch = mkdtempSync(join(tmpdir(), 'understudy-bench-'));
  const profileDir = options.profile ? join(options.outDir, 'profiles') : undefined;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const startedAt = new Date();
  const loadStart = loadavg();
  const cpuList = cpus();
  const defaults = DEFAULT_ROUNDS[options.mode];
  const durationS = options.durationS ?? defaults.durationS;
  const rounds = options.rounds ?? defaults.rounds;
  log(
    `${options.mode} run: ${options.scenarios.join(', ')}; throughput ${rounds} rounds x ${durationS} s (vidai-1000 has its own), ${options.warmupS} s warm-up; ${cpuList.length} CPUs, node ${process.version}, load ${loadStart.map((x) => x.toFixed(2)).join(' ')}`,
  );

  // Every connection is a socket here (autocannon) and one in the server child.
  const fileLimit = openFilesLimit();
  const mostConnections = Math.max(
    0,
    ...SCENARIOS.filter((s) => options.scenarios.includes(s.id)).map((s) =>
      'connections' in s ? (options.connections ?? s.connections) : 0,
    ),
  );
  if (fileLimit !== null && fileLimit < mostConnections + 256)
    log(
      `WARNING: ulimit -n is ${fileLimit}, close to the ${mostConnections} connections of a scenario: expect EMFILE errors; raise it (ulimit -n 4096) in the shell before npm run bench`,
    );

  const failures: string[] = [];
  const results: Result[] = [];
  try {
    for (const id of options.scenarios) {
      const scenario = SCENARIOS.find((s) => s.id === id)!;
      const t0 = performance.now();
      if (scenario.type === 'throughput') {
        results.push(
          await runThroughput(
            scenario,
            {
              quick,
              durationS: options.durationS,
              rounds: options.rounds,
              warmupS: options.warmupS,
              connections: options.connections,
              servers: options.servers,
              profileDir,
              scratch,
            },
            failures,
          ),
        );
      } else if (scenario.type === 'paced') {
        results.push(await runPaced(scenario, quick, failures, options.servers.includes('understudy-workers')));
      } else if (scenario.type === 'startup') {
        results.push(await runStartup(scenario, quick, scratch, failures));
      } else {
        results.push(await runSoak(scenario, quick, profileDir, scratch, failures));
      }
      log(`${id} took ${fmt((performance.now() - t0) / 1000, 1)} s`);
      if (failures.length) break;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }

  const goals = goalsOf(results);
  const throughput = results.filter((r): r is ThroughputResult => r.type === 'throughput');
  const startup = results.find((r): r is StartupResult => r.type === 'startup');
  const soak = results.find((r): r is SoakResult => r.type === 'soak');
  const paced = results.find((r): r is PacedResult => r.type === 'paced');
  const totalS = (Date.now() - startedAt.getTime()) / 1000;
  const report = {
    ok: failures.length === 0,
    failures,
    command: options.command,
    mode: options.mode,
    config: {
      durationS,
      rounds,
      warmupS: options.warmupS,
      connections: options.connections ?? 'per scenario',
      pipelining: 1,
      servers: options.servers,
      order: 'round-robin per round, in the order the scenario lists its contenders',
      ratio: 'median over rounds of (contender req/s / baseline req/s in the same round)',
      latency: 'p50/p99 of every response time recorded by autocannon in the round (ms, sub-ms precision); median over rounds',
      peakRss: 'VmHWM of the server child and its descendants at the end of its scenario, MB',
    },
    machine: {
      cpus: cpuList.length,
      cpuModel: cpuList[0]?.model ?? null,
      totalMemMB: Math.round(totalmem() / 1024 / 1024),
      node: process.version,
      platform: `${platform()} ${release()} ${arch()}`,
      loadavgStart: loadStart,
      loadavgEnd: loadavg(),
      date: startedAt.toISOString(),
      git: gitInfo(),
      openFilesLimit: fileLimit,
      autocannon: '9.0.0',
    },
    durationS: totalS,
    goals,
    scenarios: results,
  };

  const sections: string[] = [];
  if (throughput.length) sections.push('## Throughput', '', throughputTable(throughput), '');
  if (paced) sections.push('## B3 paced streams', '', pacedTable(paced), '');
  if (startup) sections.push('## B4 start-up', '', startupTables(startup), '');
  if (soak) sections.push('## B6 a million requests', '', soakTable(soak), '');
  const wireNotes = throughput.flatMap((r) => (r.wireCheck && !r.wireCheck.identical ? [`Wire check ${r.id}: ${r.wireCheck.note}`] : []));
  const md = [
    `# Understudy benchmark (${options.mode})`,
    '',
    `\`${options.command}\` — ${startedAt.toISOString()}, node ${process.version}, ${cpuList.length} × ${cpuList[0]?.model ?? 'cpu'}, load average ${loadStart.map((x) => x.toFixed(2)).join(' ')} at start, ${fmt(totalS)} s in all.`,
    `Throughput: ${rounds} rounds × ${durationS} s per contender (vidai-1000: its own), ${options.warmupS} s warm-up, contenders alternating round by round; medians over rounds.`,
    '',
    '## Goals',
    '',
    goalsTable(goals),
    '',
    ...sections,
    'ratio to baseline: median over rounds of req/s ÷ the baseline’s req/s in the same round. CPU eff. vs baseline: baseline CPU per request ÷ this contender’s (1 = as cheap). Peak RSS: VmHWM of the server child and its descendants.',
    ...wireNotes.flatMap((n) => ['', n]),
    ...(failures.length ? ['', '**FAILED**', ...failures.map((f) => `- ${f}`)] : []),
    '',
  ].join('\n');
  mkdirSync(options.outDir, { recursive: true });
  writeFileSync(join(options.outDir, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(options.outDir, 'latest.md'), md);

  process.stdout.write(`\n${md}\n`);
  process.stdout.write(`wrote ${relative(process.cwd(), join(options.outDir, 'latest.json'))} and latest.md in ${fmt(totalS, 1)} s\n`);
  if (failures.length) {
    process.stderr.write(`\nBENCH FAILED:\n${failures.map((f) => `  - ${f}`).join('\n')}\n`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);

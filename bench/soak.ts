// B6 a million requests: one Understudy child answers the B1 request in equal autocannon runs of a
// fixed number of requests (`amount`); after each, the child's memory as it is and right after a
// full GC (the child runs with --expose-gc), its peak RSS (/proc/<pid>/status), its journal usage
// (over the IPC channel: cheap, unlike GET .../journal, which copies every entry) and
// GET /_understudy/health are sampled. Memory must not grow with traffic. The goal is stated on
// RSS, which swings with V8's heap sizing (tens of MB between samples); the heap still used right
// after a full GC tells whether anything is retained per request.

import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CapturedResponse } from './bare-server.js';
import {
  checkAnswer,
  fmt,
  httpCall,
  log,
  measure,
  post,
  problemsOf,
  procStatusKb,
  sampleAnswer,
  startChild,
  stopChild,
  type Child,
  type Measurement,
} from './harness.js';
import { REPLY_TEXT, type SoakScenario } from './scenarios.js';

interface ChildStats {
  memory: NodeJS.MemoryUsage;
  afterGc: NodeJS.MemoryUsage | null;
  journal: { entries: number; bytes: number };
  counters: { requests: number } & Record<string, number>;
  scripts: number;
}

export interface SoakSample {
  requests: number;
  /** As sampled, wherever the garbage collector happened to be. */
  rssMB: number;
  heapUsedMB: number;
  /** Right after a full GC in the child: what is retained (V8 keeps the pages, so RSS barely moves). */
  rssAfterGcMB: number;
  heapUsedAfterGcMB: number;
  heapTotalAfterGcMB: number;
  externalAfterGcMB: number;
  peakRssMB: number | null;
  journalEntries: number;
  journalBytes: number;
  journalRequests: number;
  healthOk: boolean;
  segmentReqPerSec: number;
  segmentP99Ms: number;
  segmentS: number;
}

export interface SoakResult {
  type: 'soak';
  id: 'B6';
  title: string;
  description: string;
  totalRequests: number;
  connections: number;
  samples: SoakSample[];
  /** RSS after the last segment / after the first (goal: at most 1.10). */
  rssGrowth: number | null;
  /** Lowest and highest RSS over the samples after the first: the garbage collector's swing. */
  rssRangeMB: [number, number] | null;
  /** Heap used right after a full GC, last / first: whether anything is retained per request. */
  heapGrowth: number | null;
  /** The reference: a bare node:http server replaying Understudy's answer, the same segments,
   * its RSS after each. */
  bare: { rssMB: number[]; rssGrowth: number | null } | null;
  durationS: number;
}

function childStats(proc: ChildProcess, timeoutMs = 5000): Promise<ChildStats> {
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      proc.off('message', onMessage);
      reject(new Error(`no stats from the child within ${timeoutMs} ms`));
    }, timeoutMs);
    const onMessage = (message: { stats?: ChildStats }) => {
      if (!message?.stats) return;
      clearTimeout(timer);
      proc.off('message', onMessage);
      resolvePromise(message.stats);
    };
    proc.on('message', onMessage);
    proc.send({ stats: true });
  });
}

const mb = (bytes: number) => bytes / 1024 / 1024;

export async function runSoak(
  scenario: SoakScenario,
  quick: boolean,
  profileDir: string | undefined,
  scratch: string,
  failures: string[],
): Promise<SoakResult> {
  const total = scenario.requests[quick ? 'quick' : 'full'];
  const perSegment = Math.ceil(total / scenario.segments);
  const result: SoakResult = {
    type: 'soak',
    id: scenario.id,
    title: scenario.title,
    description: scenario.description,
    totalRequests: perSegment * scenario.segments,
    connections: scenario.connections,
    samples: [],
    rssGrowth: null,
    rssRangeMB: null,
    heapGrowth: null,
    bare: null,
    durationS: 0,
  };
  const started = performance.now();
  let child: Child | undefined;
  try {
    child = await startChild('understudy', [JSON.stringify({ script: 'bench', stats: true })], {
      label: 'understudy-soak',
      profileDir,
      ipc: true,
      nodeArgs: ['--expose-gc'],
    });
    const answer = await post(child.port, scenario.body);
    const problem = checkAnswer({ text: REPLY_TEXT, stream: false }, answer.status, answer.body.toString('utf8'), false);
    if (problem) throw new Error(`B6: the answer is not the scripted reply: ${problem}`);
    const captured: CapturedResponse = { status: answer.status, rawHeaders: answer.rawHeaders, bodyBase64: answer.body.toString('base64') };
    let sent = 1;
    for (let segment = 1; segment <= scenario.segments; segment++) {
      const m = await runSegment(child, scenario, perSegment);
      const problems = problemsOf(m);
      if (problems) throw new Error(`B6 segment ${segment}: ${problems}${await sampleAnswer(child, scenario.body)}`);
      sent += m.requests;
      const stats = await childStats(child.proc);
      const health = await httpCall(child.port, 'GET', '/_understudy/health');
      const healthOk = health.status === 200 && (JSON.parse(health.body.toString('utf8')) as { ok?: boolean }).ok === true;
      if (!stats.afterGc) throw new Error('B6: the child has no gc() (it must run with --expose-gc)');
      const hwm = procStatusKb(child.pid, 'VmHWM');
      const sample: SoakSample = {
        requests: sent,
        rssMB: mb(stats.memory.rss),
        heapUsedMB: mb(stats.memory.heapUsed),
        rssAfterGcMB: mb(stats.afterGc.rss),
        heapUsedAfterGcMB: mb(stats.afterGc.heapUsed),
        heapTotalAfterGcMB: mb(stats.afterGc.heapTotal),
        externalAfterGcMB: mb(stats.afterGc.external),
        peakRssMB: hwm === null ? null : hwm / 1024,
        journalEntries: stats.journal.entries,
        journalBytes: stats.journal.bytes,
        journalRequests: stats.counters.requests,
        healthOk,
        segmentReqPerSec: m.reqPerSec,
        segmentP99Ms: m.p99Ms,
        segmentS: m.durationS,
      };
      result.samples.push(sample);
      log(
        `B6 ${sample.requests} requests: RSS ${fmt(sample.rssMB, 1)} MB (${fmt(sample.rssAfterGcMB, 1)} after GC), heap used ${fmt(sample.heapUsedMB, 1)} MB (${fmt(sample.heapUsedAfterGcMB, 1)} after GC), journal ${sample.journalEntries} entries / ${fmt(sample.journalBytes / 1024)} KB (counted ${sample.journalRequests} requests), ${fmt(m.reqPerSec)} req/s, p99 ${fmt(m.p99Ms, 2)} ms, health ${healthOk ? 'ok' : 'NOT OK'}`,
      );
      if (!healthOk)
        throw new Error(`B6: GET /_understudy/health answered ${health.status}: ${health.body.toString('utf8').slice(0, 200)}`);
      if (stats.counters.requests !== sent)
        throw new Error(`B6: the journal counted ${stats.counters.requests} requests, the bench sent ${sent} that were answered`);
    }
    const first = result.samples[0];
    const last = result.samples[result.samples.length - 1];
    result.rssGrowth = last.rssMB / first.rssMB;
    const later = result.samples.slice(1).map((s) => s.rssMB);
    if (later.length) result.rssRangeMB = [Math.min(...later), Math.max(...later)];
    result.heapGrowth = last.heapUsedAfterGcMB / first.heapUsedAfterGcMB;
    await stopChild(child);
    child = undefined;
    result.bare = await bareReference(scenario, perSegment, captured, scratch);
  } catch (error) {
    const message = (error as Error).message;
    failures.push(message);
    log(`FAILED: ${message}`);
  } finally {
    if (child) await stopChild(child);
    result.durationS = (performance.now() - started) / 1000;
  }
  return result;
}

/** One segment: `perSegment` requests, bounded in time as well as in count (at least 1,000 req/s
 * or the run fails). */
function runSegment(child: Child, scenario: SoakScenario, perSegment: number): Promise<Measurement> {
  return measure(child, {
    body: scenario.body,
    connections: scenario.connections,
    amount: perSegment,
    limitS: Math.max(60, perSegment / 1000),
  });
}

/** The same segments against a bare node:http server replaying the captured answer: how much the
 * RSS of a process that keeps nothing moves over the same traffic. */
async function bareReference(
  scenario: SoakScenario,
  perSegment: number,
  captured: CapturedResponse,
  scratch: string,
): Promise<SoakResult['bare']> {
  const captureFile = join(scratch, 'B6.capture.json');
  writeFileSync(captureFile, JSON.stringify(captured));
  const bare = await startChild('bare', [captureFile], { label: 'bare-soak' });
  try {
    const rssMB: number[] = [];
    for (let segment = 1; segment <= scenario.segments; segment++) {
      const m = await runSegment(bare, scenario, perSegment);
      const problems = problemsOf(m);
      if (problems) throw new Error(`B6 bare segment ${segment}: ${problems}`);
      const rss = procStatusKb(bare.pid, 'VmRSS');
      if (rss === null) throw new Error('B6: no VmRSS for the bare server');
      rssMB.push(rss / 1024);
    }
    log(`B6 bare node:http RSS after each segment: ${rssMB.map((x) => fmt(x, 1)).join(', ')} MB`);
    return { rssMB, rssGrowth: rssMB[rssMB.length - 1] / rssMB[0] };
  } finally {
    await stopChild(bare);
  }
}

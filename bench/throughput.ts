// Throughput scenarios (B1, B2, B5, B7, VidaiMock's profile): every contender in its own child process,
// autocannon in the parent, contenders taking turns round by round, each round's req/s divided by
// the baseline's req/s in the same round; medians over rounds.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CapturedResponse } from './bare-server.js';
import {
  checkAnswer,
  fmt,
  log,
  measure,
  median,
  orNull,
  post,
  problemsOf,
  procStatusKb,
  sampleAnswer,
  startChild,
  stopChild,
  streamShape,
  streamShapeOf,
  answerText,
  wireCheck,
  type Child,
  type Measurement,
  type WireCheck,
} from './harness.js';
import { OPENAI_CHAT, type Contender, type ScenarioId, type ServerKind, type ThroughputScenario } from './scenarios.js';

export interface ThroughputSettings {
  quick: boolean;
  /** Seconds per round and rounds, when given on the command line (else the scenario's or the mode's). */
  durationS?: number;
  rounds?: number;
  warmupS: number;
  /** Overrides every scenario's own connection count. */
  connections?: number;
  /** Contender kinds to run (bare is dropped only if the scenario's baseline is not bare). */
  servers: ServerKind[];
  profileDir?: string;
  scratch: string;
}

export interface RoundRecord extends Measurement {
  scenario: ScenarioId;
  round: number;
  contender: string;
  server: ServerKind;
}

export interface ThroughputRow {
  scenario: ScenarioId;
  contender: string;
  server: ServerKind;
  connections: number;
  rounds: number;
  medianReqPerSec: number;
  reqPerSecByRound: number[];
  medianP50Ms: number;
  medianP99Ms: number;
  peakRssMB: number | null;
  baseline: string;
  /** Median over rounds of (this contender's req/s / the baseline's req/s in the same round). */
  ratioToBaseline: number;
  /** This contender's median req/s / the baseline's median req/s. */
  ratioOfMedians: number;
  medianCpuUsPerReq: number | null;
  /** Median over rounds of (baseline CPU per request / this contender's CPU per request): 1 = as cheap. */
  cpuEfficiencyVsBaseline: number | null;
  medianServerCpuPct: number | null;
  medianLoadgenCpuPct: number;
  errors: number;
}

export interface ThroughputResult {
  type: 'throughput';
  id: ScenarioId;
  title: string;
  description: string;
  connections: number;
  durationS: number;
  rounds: number;
  baseline: string;
  requestBodies: Record<string, string>;
  contenders: Record<
    string,
    { server: ServerKind; pid: number; startupMs: number; peakRssMB: number | null; rssAtEndMB: number | null; requestBytes: number }
  >;
  skipped: Record<string, string>;
  capture?: { status: number; headers: string[]; bodyBytes: number; stream?: { events: number; contentChunks: number } };
  aimockStream?: { events: number; contentChunks: number };
  wireCheck?: WireCheck;
  roundRecords: RoundRecord[];
  summary: ThroughputRow[];
}

/** Seconds per round and rounds by default: quick 3 x 2 s, full 5 x 10 s. */
export const DEFAULT_ROUNDS = { quick: { durationS: 2, rounds: 3 }, full: { durationS: 10, rounds: 5 } };

function settingsFor(scenario: ThroughputScenario, settings: ThroughputSettings) {
  const mode = settings.quick ? 'quick' : 'full';
  return {
    durationS: settings.durationS ?? scenario.durationS?.[mode] ?? DEFAULT_ROUNDS[mode].durationS,
    rounds: settings.rounds ?? scenario.rounds?.[mode] ?? DEFAULT_ROUNDS[mode].rounds,
  };
}

function childArgs(contender: Contender): string[] {
  if (contender.kind === 'understudy' || contender.kind === 'understudy-workers')
    return [JSON.stringify(contender.config ?? { script: 'bench' })];
  if (contender.kind === 'aimock') return [JSON.stringify(contender.aimock)];
  return [];
}

function summarize(result: ThroughputResult, contenders: Contender[]): ThroughputRow[] {
  const rounds = result.roundRecords;
  const base = rounds.filter((r) => r.contender === result.baseline);
  const baseByRound = new Map(base.map((r) => [r.round, r]));
  const baseMedian = median(base.map((r) => r.reqPerSec));
  return contenders.flatMap((contender) => {
    const mine = rounds.filter((r) => r.contender === contender.label);
    if (!mine.length) return [];
    const ratios = mine.map((r) => r.reqPerSec / (baseByRound.get(r.round)?.reqPerSec ?? NaN));
    const cpuRatios = mine.map((r) => {
      const b = baseByRound.get(r.round)?.cpuUsPerReq;
      return b != null && r.cpuUsPerReq ? b / r.cpuUsPerReq : NaN;
    });
    const medianReqPerSec = median(mine.map((r) => r.reqPerSec));
    return [
      {
        scenario: result.id,
        contender: contender.label,
        server: contender.kind,
        connections: result.connections,
        rounds: mine.length,
        medianReqPerSec,
        reqPerSecByRound: mine.map((r) => r.reqPerSec),
        medianP50Ms: median(mine.map((r) => r.p50Ms)),
        medianP99Ms: median(mine.map((r) => r.p99Ms)),
        peakRssMB: result.contenders[contender.label]?.peakRssMB ?? null,
        baseline: result.baseline,
        ratioToBaseline: median(ratios),
        ratioOfMedians: medianReqPerSec / baseMedian,
        medianCpuUsPerReq: orNull(median(mine.map((r) => r.cpuUsPerReq ?? NaN))),
        cpuEfficiencyVsBaseline: orNull(median(cpuRatios)),
        medianServerCpuPct: orNull(median(mine.map((r) => r.serverCpuPct ?? NaN))),
        medianLoadgenCpuPct: median(mine.map((r) => r.loadgenCpuPct)),
        errors: mine.reduce((n, r) => n + r.errors + r.non2xx, 0),
      },
    ];
  });
}

export async function runThroughput(
  scenario: ThroughputScenario,
  settings: ThroughputSettings,
  failures: string[],
): Promise<ThroughputResult> {
  const { durationS, rounds } = settingsFor(scenario, settings);
  const connections = settings.connections ?? scenario.connections;
  const endpoint = scenario.endpoint ?? OPENAI_CHAT;
  const contenders = scenario.contenders.filter(
    (c) => settings.servers.includes(c.kind) || c.label === scenario.baseline || c.label === scenario.captureFrom,
  );
  const result: ThroughputResult = {
    type: 'throughput',
    id: scenario.id,
    title: scenario.title,
    description: scenario.description,
    connections,
    durationS,
    rounds,
    baseline: scenario.baseline,
    requestBodies: Object.fromEntries(contenders.map((c) => [c.label, c.body.length > 300 ? `${c.body.slice(0, 300)}…` : c.body])),
    contenders: {},
    skipped: {},
    roundRecords: [],
    summary: [],
  };
  const children = new Map<string, Child>();
  const start = (c: Contender, args = childArgs(c)) => startChild(c.kind, args, { label: c.label, profileDir: settings.profileDir });
  // aimock starts alongside the others; it is stopped below even if nothing else got that far.
  const aimock = contenders.find((c) => c.kind === 'aimock');
  const aimockStart = aimock
    ? start(aimock).then(
        (c) => c,
        (e: Error) => e,
      )
    : undefined;
  try {
    // Understudy children first (one at a time: a 10,000-script child takes a while to load).
    for (const contender of contenders.filter((c) => c.kind === 'understudy' || c.kind === 'understudy-workers')) {
      const child = await start(contender);
      children.set(contender.label, child);
      const answer = await post(child.port, contender.body, endpoint);
      const problem = checkAnswer(scenario.expected, answer.status, answerText(scenario.expected, answer.body), true);
      if (problem) throw new Error(`${scenario.id}: ${contender.label}'s answer is not the expected reply: ${problem}`);
      if (contender.label === scenario.captureFrom) {
        const captured: CapturedResponse = {
          status: answer.status,
          rawHeaders: answer.rawHeaders,
          bodyBase64: answer.body.toString('base64'),
          path: endpoint.path,
        };
        result.capture = {
          status: answer.status,
          headers: answer.rawHeaders.filter((_, i) => i % 2 === 0),
          bodyBytes: answer.body.length,
          ...(scenario.expected.stream && { stream: streamShapeOf(scenario.expected, answer.body) }),
        };
        const bare = contenders.find((c) => c.kind === 'bare');
        if (bare) {
          const captureFile = join(settings.scratch, `${scenario.id}.capture.json`);
          writeFileSync(captureFile, JSON.stringify(captured));
          const bareChild = await start(bare, [captureFile]);
          children.set(bare.label, bareChild);
          const bareAnswer = await post(bareChild.port, bare.body, endpoint);
          const bareProblem = checkAnswer(scenario.expected, bareAnswer.status, answerText(scenario.expected, bareAnswer.body), true);
          if (bareProblem) throw new Error(`${scenario.id}: the bare server does not replay the capture: ${bareProblem}`);
          result.wireCheck = await wireCheck(bareChild.port, child.port, contender.body, endpoint);
          log(
            `${scenario.id}: captured ${answer.status}, ${answer.body.length} body bytes${result.capture.stream ? ` (${result.capture.stream.contentChunks} content chunks)` : ''}; wire check ${result.wireCheck.identical ? 'identical (modulo Date and ids)' : `DIFFERENT: ${result.wireCheck.note}`}`,
          );
        }
      }
    }

    if (aimock && aimockStart) {
      const started = await aimockStart;
      if (started instanceof Error) {
        result.skipped[aimock.label] = `did not start: ${started.message}`;
      } else {
        children.set(aimock.label, started);
        const answer = await post(started.port, aimock.body, endpoint).catch((e: Error) => ({
          status: 0,
          rawHeaders: [],
          body: Buffer.from(e.message),
        }));
        const problem = checkAnswer(scenario.expected, answer.status, answerText(scenario.expected, answer.body), false);
        if (problem) {
          result.skipped[aimock.label] = `answer is not the bench reply: ${problem}`;
          await stopChild(started);
          children.delete(aimock.label);
        } else if (scenario.expected.stream) {
          result.aimockStream = streamShape(answer.body.toString('utf8'));
        }
      }
      if (result.skipped[aimock.label]) log(`${scenario.id}: skipping aimock: ${result.skipped[aimock.label]}`);
    }

    const order = contenders.filter((c) => children.has(c.label));
    for (const c of order) {
      const child = children.get(c.label)!;
      result.contenders[c.label] = {
        server: c.kind,
        pid: child.pid,
        startupMs: Math.round(child.startupMs),
        peakRssMB: null,
        rssAtEndMB: null,
        requestBytes: Buffer.byteLength(c.body),
      };
    }

    const check = async (c: Contender, m: Measurement, what: string) => {
      const problem = problemsOf(m);
      if (problem)
        throw new Error(`${scenario.id} ${what} ${c.label}: ${problem}${await sampleAnswer(children.get(c.label)!, c.body, endpoint)}`);
    };
    if (settings.warmupS > 0) {
      for (const c of order) {
        const warm = await measure(children.get(c.label)!, { body: c.body, endpoint, connections, seconds: settings.warmupS });
        await check(c, warm, 'warm-up');
      }
    }
    for (let round = 1; round <= rounds; round++) {
      for (const c of order) {
        const m = await measure(children.get(c.label)!, { body: c.body, endpoint, connections, seconds: durationS });
        result.roundRecords.push({ scenario: scenario.id, round, contender: c.label, server: c.kind, ...m });
        log(
          `${scenario.id} round ${round}/${rounds} ${c.label.padEnd(14)} ${fmt(m.reqPerSec).padStart(6)} req/s  p50 ${fmt(m.p50Ms, 2)} ms  p99 ${fmt(m.p99Ms, 2)} ms  server CPU ${fmt(m.serverCpuPct)}%  autocannon CPU ${fmt(m.loadgenCpuPct)}%`,
        );
        await check(c, m, `round ${round}`);
      }
    }
  } catch (error) {
    const message = (error as Error).message;
    failures.push(message);
    log(`FAILED: ${message}`);
  } finally {
    for (const [label, child] of children) {
      const hwm = procStatusKb(child.pid, 'VmHWM');
      const now = procStatusKb(child.pid, 'VmRSS');
      const entry = result.contenders[label];
      if (entry) {
        entry.peakRssMB = hwm === null ? null : hwm / 1024;
        entry.rssAtEndMB = now === null ? null : now / 1024;
      }
    }
    await Promise.all([...children.values()].map(stopChild));
    const started = await aimockStart;
    if (aimock && started && !(started instanceof Error) && !children.has(aimock.label)) await stopChild(started);
    result.summary = summarize(result, contenders);
  }
  return result;
}

// `npm run bench [-- --quick]`: throughput of Understudy against a bare node:http server that
// writes the same bytes (and, when it starts, against @copilotkit/aimock), on loopback.
//
// Each server runs in its own child process; autocannon runs here, in the parent, so the load
// generator never shares the server's event loop. Servers take turns round by round (bare,
// understudy, aimock, bare, understudy, aimock, ...) so slow drifts of a shared, noisy machine hit
// every contender alike. What to read is the ratio to bare measured in the same round, as a median.
//
// Options:
//   --quick               3 s x 3 rounds, 0.5 s warm-up (default: 10 s x 5 rounds, 2 s warm-up)
//   --duration=S          seconds per measured round
//   --rounds=N            rounds per scenario
//   --warmup=S            seconds of warm-up per server and scenario, before round 1
//   --connections=N       concurrent connections (default 32)
//   --scenario=ID[,ID]    chat-json, chat-stream (default: all)
//   --servers=K[,K]       bare, understudy, aimock (default: all; bare is always included)
//   --no-aimock           same as --servers=bare,understudy
//   --profile             run the server children with --cpu-prof (profiles in bench/results/profiles/<server>/;
//                         summarize with bench/profile-top.ts)
//   --out=DIR             where latest.json / latest.md go (default bench/results)

import autocannon from 'autocannon';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { cpus, loadavg, platform, arch, release, tmpdir, totalmem } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CapturedResponse } from './bare-server.js';
import { CHAT_PATH, REPLY_TEXT, SCENARIOS, type ReadyLine, type Scenario, type ScenarioId, type ServerKind } from './scenarios.js';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH_DIR, '..');
const ALL_SERVERS: ServerKind[] = ['bare', 'understudy', 'aimock'];
const CHILD_ENTRY: Record<ServerKind, string> = {
  bare: join(BENCH_DIR, 'bare-server.ts'),
  understudy: join(BENCH_DIR, 'understudy-server.ts'),
  aimock: join(BENCH_DIR, 'aimock-server.ts'),
};
const STARTUP_TIMEOUT_MS = 30_000;

// ------------------------------------------------------------------ options

interface Options {
  mode: 'quick' | 'full' | 'custom';
  durationS: number;
  rounds: number;
  warmupS: number;
  connections: number;
  scenarios: ScenarioId[];
  servers: ServerKind[];
  profile: boolean;
  outDir: string;
  command: string;
}

function parseOptions(argv: string[]): Options {
  const quick = argv.includes('--quick');
  const options: Options = {
    mode: quick ? 'quick' : 'full',
    durationS: quick ? 3 : 10,
    rounds: quick ? 3 : 5,
    warmupS: quick ? 0.5 : 2,
    connections: 32,
    scenarios: SCENARIOS.map((s) => s.id),
    servers: [...ALL_SERVERS],
    profile: false,
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
        options.mode = 'custom';
        break;
      case 'rounds':
        options.rounds = Math.round(positive(name, value));
        options.mode = 'custom';
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
        for (const id of ids)
          if (!SCENARIOS.some((s) => s.id === id))
            throw new Error(`unknown scenario "${id}"; known: ${SCENARIOS.map((s) => s.id).join(', ')}`);
        options.scenarios = ids as ScenarioId[];
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
      case 'out':
        options.outDir = resolve(value);
        break;
      default:
        throw new Error(`unknown option "${arg}" (see the header of bench/run.ts)`);
    }
  }
  return options;
}

// ------------------------------------------------------------------ children

interface Child {
  kind: ServerKind;
  proc: ChildProcess;
  port: number;
  pid: number;
  startupMs: number;
}

const liveChildren = new Set<ChildProcess>();
process.on('exit', () => {
  for (const proc of liveChildren) proc.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const proc of liveChildren) proc.kill('SIGKILL');
    process.exit(130);
  });
}

function startChild(kind: ServerKind, args: string[], profileDir: string | undefined): Promise<Child> {
  const started = performance.now();
  const nodeArgs = ['--import', 'tsx'];
  // One directory per server: with tsx the loader thread writes a (mostly idle) profile of its own.
  if (profileDir) nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${join(profileDir, kind)}`);
  const proc = spawn(process.execPath, [...nodeArgs, CHILD_ENTRY[kind], ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  liveChildren.add(proc);
  proc.once('exit', () => liveChildren.delete(proc));
  return new Promise<Child>((resolvePromise, reject) => {
    let buffered = '';
    const fail = (reason: string) => {
      clearTimeout(timer);
      proc.kill('SIGKILL');
      reject(new Error(`${kind} child: ${reason}`));
    };
    const timer = setTimeout(() => fail(`no ready line within ${STARTUP_TIMEOUT_MS} ms`), STARTUP_TIMEOUT_MS);
    const onExit = (code: number | null, signal: string | null) => fail(`exited before it was ready (code ${code}, signal ${signal})`);
    proc.once('exit', onExit);
    proc.once('error', (error) => fail(error.message));
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const newline = buffered.indexOf('\n');
      if (newline < 0) return;
      let line: ReadyLine;
      try {
        line = JSON.parse(buffered.slice(0, newline)) as ReadyLine;
      } catch {
        fail(`unexpected first line on stdout: ${buffered.slice(0, newline)}`);
        return;
      }
      if (line.pid !== proc.pid) {
        fail(`reported pid ${line.pid} but the spawned process is ${proc.pid}`);
        return;
      }
      clearTimeout(timer);
      proc.off('exit', onExit);
      proc.stdout!.off('data', onData);
      proc.stdout!.resume(); // keep draining whatever it prints later
      resolvePromise({ kind, proc, port: line.port, pid: line.pid, startupMs: performance.now() - started });
    };
    proc.stdout!.on('data', onData);
  });
}

async function stopChild(child: Child): Promise<void> {
  if (child.proc.exitCode !== null || child.proc.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.proc.once('exit', () => r()));
  child.proc.kill('SIGTERM');
  const timeout = new Promise<void>((r) => setTimeout(r, 5000).unref());
  await Promise.race([exited, timeout]);
  if (child.proc.exitCode === null && child.proc.signalCode === null) child.proc.kill('SIGKILL');
}

// ------------------------------------------------------------------ /proc

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

function procStatusKb(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** User + system CPU time of a process, in ms (clock-tick resolution). */
function procCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

// ------------------------------------------------------------------ capture and checks

function post(port: number, body: string): Promise<{ status: number; rawHeaders: string[]; body: Buffer }> {
  return new Promise((resolvePromise, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path: CHAT_PATH, method: 'POST', agent: false, headers: { 'content-type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

async function capture(port: number, scenario: Scenario): Promise<CapturedResponse> {
  const response = await post(port, scenario.body);
  const problem = checkAnswer(scenario, response.status, response.body.toString('utf8'));
  if (problem) throw new Error(`Understudy's answer to ${scenario.id} is not the scripted reply: ${problem}`);
  return { status: response.status, rawHeaders: response.rawHeaders, bodyBase64: response.body.toString('base64') };
}

/** Null when the body is the scripted reply in the scenario's shape, else what is wrong. */
function checkAnswer(scenario: Scenario, status: number, text: string): string | null {
  if (status !== 200) return `status ${status}: ${text.slice(0, 300)}`;
  if (!scenario.stream) {
    try {
      const json = JSON.parse(text) as { choices?: { message?: { content?: unknown } }[] };
      const content = json.choices?.[0]?.message?.content;
      return content === REPLY_TEXT ? null : `content ${JSON.stringify(content)}`;
    } catch (e) {
      return `not JSON (${(e as Error).message}): ${text.slice(0, 200)}`;
    }
  }
  const events = text
    .split('\n\n')
    .map((e) => e.trim())
    .filter(Boolean);
  if (events[events.length - 1] !== 'data: [DONE]') return `stream does not end with [DONE]: ${text.slice(-200)}`;
  let content = '';
  let pieces = 0;
  for (const event of events.slice(0, -1)) {
    if (!event.startsWith('data: ')) return `not a data event: ${event.slice(0, 100)}`;
    const chunk = JSON.parse(event.slice(6)) as { choices?: { delta?: { content?: string | null } }[] };
    const piece = chunk.choices?.[0]?.delta?.content;
    if (piece) {
      content += piece;
      pieces++;
    }
  }
  if (content !== REPLY_TEXT) return `streamed content ${JSON.stringify(content)}`;
  return pieces < 2 ? `only ${pieces} content chunk(s)` : null;
}

function streamShape(text: string): { events: number; contentChunks: number } {
  const events = text.split('\n\n').filter((e) => e.trim());
  return { events: events.length, contentChunks: events.filter((e) => /"delta":\{"content":"/.test(e)).length };
}

/** One request over a raw socket: the response bytes exactly as they came off the wire. */
function wireBytes(port: number, body: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('raw request timed out'));
    }, 10_000);
    socket.setEncoding('latin1');
    socket.on('error', reject);
    socket.on('data', (chunk: string) => {
      data += chunk;
      const headEnd = data.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const head = data.slice(0, headEnd);
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
      const done = length ? data.length >= headEnd + 4 + Number(length[1]) : /\r\n0\r\n\r\n$/.test(data);
      if (done) {
        clearTimeout(timer);
        socket.destroy();
        resolvePromise(data);
      }
    });
    socket.write(
      `POST ${CHAT_PATH} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: keep-alive\r\n\r\n${body}`,
    );
  });
}

/** Masks what legitimately differs between two responses: the Date header and generated ids. */
function maskWire(text: string): string {
  return text
    .replace(/\r\nDate: [^\r]*/, '\r\nDate: <date>')
    .replace(/chatcmpl-[A-Za-z0-9_-]+/g, 'chatcmpl-<id>')
    .replace(/req_[A-Za-z0-9]+/g, 'req_<id>');
}

interface WireCheck {
  identical: boolean;
  bareBytes: number;
  understudyBytes: number;
  headers: string;
  note?: string;
}

async function wireCheck(barePort: number, understudyPort: number, body: string): Promise<WireCheck> {
  const [bare, understudy] = await Promise.all([wireBytes(barePort, body), wireBytes(understudyPort, body)]);
  const a = maskWire(bare);
  const b = maskWire(understudy);
  const headers = b.slice(0, b.indexOf('\r\n\r\n')).replace(/\r\n/g, ' | ');
  if (a === b) return { identical: true, bareBytes: bare.length, understudyBytes: understudy.length, headers };
  let at = 0;
  while (at < a.length && a[at] === b[at]) at++;
  return {
    identical: false,
    bareBytes: bare.length,
    understudyBytes: understudy.length,
    headers,
    note: `first difference at byte ${at}: bare ${JSON.stringify(a.slice(at, at + 60))} vs understudy ${JSON.stringify(b.slice(at, at + 60))}`,
  };
}

// ------------------------------------------------------------------ measurement

interface Measurement {
  requests: number;
  durationS: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  serverCpuMs: number | null;
  serverCpuPct: number | null;
  cpuUsPerReq: number | null;
  loadgenCpuPct: number;
  autocannonLatency: { p50: number; p99: number; mean: number };
}

class Samples {
  private data = new Float64Array(1 << 16);
  length = 0;
  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }
  percentiles(...ps: number[]): number[] {
    const sorted = this.data.slice(0, this.length).sort();
    return ps.map((p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : NaN));
  }
}

async function measure(child: Child, scenario: Scenario, seconds: number, connections: number): Promise<Measurement> {
  const samples = new Samples();
  const cpuBefore = procCpuMs(child.pid);
  const loadgenBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const result = await new Promise<autocannon.Result>((resolvePromise, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${child.port}${CHAT_PATH}`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: scenario.body,
        connections,
        pipelining: 1,
        duration: seconds,
      },
      (error: unknown, res: autocannon.Result) =>
        error ? reject(error instanceof Error ? error : new Error(String(error))) : resolvePromise(res),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => samples.push(responseTime));
  });
  const wallMs = performance.now() - wallBefore;
  const loadgen = process.cpuUsage(loadgenBefore);
  const cpuAfter = procCpuMs(child.pid);
  const serverCpuMs = cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null;
  const [p50, p99] = samples.percentiles(0.5, 0.99);
  const requests = result.requests.total;
  return {
    requests,
    durationS: result.duration,
    reqPerSec: requests / result.duration,
    p50Ms: p50,
    p99Ms: p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat?.count ?? 0])),
    serverCpuMs,
    serverCpuPct: serverCpuMs === null ? null : (100 * serverCpuMs) / wallMs,
    cpuUsPerReq: serverCpuMs === null || requests === 0 ? null : (serverCpuMs * 1000) / requests,
    loadgenCpuPct: (100 * (loadgen.user + loadgen.system)) / 1000 / wallMs,
    autocannonLatency: { p50: result.latency.p50, p99: result.latency.p99, mean: result.latency.average },
  };
}

function problemsOf(m: Measurement): string | null {
  const problems: string[] = [];
  if (m.errors) problems.push(`${m.errors} errors`);
  if (m.timeouts) problems.push(`${m.timeouts} timeouts`);
  if (m.non2xx) problems.push(`${m.non2xx} non-2xx responses (status codes: ${JSON.stringify(m.statusCodes)})`);
  if (m.requests === 0) problems.push('no completed requests');
  return problems.length ? problems.join(', ') : null;
}

/** What the server answers now, for the failure message. */
async function sampleAnswer(child: Child, scenario: Scenario): Promise<string> {
  try {
    const answer = await post(child.port, scenario.body);
    return `; a request now gets ${answer.status}: ${answer.body.toString('utf8').slice(0, 300)}`;
  } catch (e) {
    return `; a request now fails: ${(e as Error).message}`;
  }
}

// ------------------------------------------------------------------ statistics and output

function median(values: number[]): number {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return NaN;
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

interface RoundRecord extends Measurement {
  scenario: ScenarioId;
  round: number;
  server: ServerKind;
}

interface SummaryRow {
  scenario: ScenarioId;
  server: ServerKind;
  rounds: number;
  medianReqPerSec: number;
  reqPerSecByRound: number[];
  medianP50Ms: number;
  medianP99Ms: number;
  peakRssMB: number | null;
  /** Median over rounds of (this server's req/s / bare's req/s in the same round). */
  ratioToBare: number;
  /** This server's median req/s / bare's median req/s. */
  ratioOfMedians: number;
  medianCpuUsPerReq: number | null;
  /** Median over rounds of (bare CPU per request / this server's CPU per request): 1 = as cheap as bare. */
  cpuEfficiencyVsBare: number | null;
  medianServerCpuPct: number | null;
  medianLoadgenCpuPct: number;
}

interface ScenarioResult {
  id: ScenarioId;
  description: string;
  requestBody: string;
  servers: Partial<
    Record<ServerKind, { pid: number; startupMs: number; peakRssMB: number | null; rssAtEndMB: number | null; responseBytes?: number }>
  >;
  skipped: Partial<Record<ServerKind, string>>;
  capture?: { status: number; headers: string[]; bodyBytes: number; stream?: { events: number; contentChunks: number } };
  aimockStream?: { events: number; contentChunks: number };
  wireCheck?: WireCheck;
  rounds: RoundRecord[];
  summary: SummaryRow[];
}

function summarize(
  scenario: ScenarioId,
  rounds: RoundRecord[],
  servers: ServerKind[],
  rss: Partial<Record<ServerKind, number | null>>,
): SummaryRow[] {
  const bareByRound = new Map(rounds.filter((r) => r.server === 'bare').map((r) => [r.round, r]));
  const bareMedian = median(rounds.filter((r) => r.server === 'bare').map((r) => r.reqPerSec));
  return servers.flatMap((server) => {
    const mine = rounds.filter((r) => r.server === server);
    if (!mine.length) return [];
    const ratios = mine.map((r) => r.reqPerSec / (bareByRound.get(r.round)?.reqPerSec ?? NaN));
    const cpuRatios = mine.map((r) => {
      const bare = bareByRound.get(r.round)?.cpuUsPerReq;
      return bare != null && r.cpuUsPerReq ? bare / r.cpuUsPerReq : NaN;
    });
    const cpuPerReq = mine.map((r) => r.cpuUsPerReq ?? NaN);
    const cpuPct = mine.map((r) => r.serverCpuPct ?? NaN);
    const medianReqPerSec = median(mine.map((r) => r.reqPerSec));
    const orNull = (x: number) => (Number.isFinite(x) ? x : null);
    return [
      {
        scenario,
        server,
        rounds: mine.length,
        medianReqPerSec,
        reqPerSecByRound: mine.map((r) => r.reqPerSec),
        medianP50Ms: median(mine.map((r) => r.p50Ms)),
        medianP99Ms: median(mine.map((r) => r.p99Ms)),
        peakRssMB: rss[server] ?? null,
        ratioToBare: median(ratios),
        ratioOfMedians: medianReqPerSec / bareMedian,
        medianCpuUsPerReq: orNull(median(cpuPerReq)),
        cpuEfficiencyVsBare: orNull(median(cpuRatios)),
        medianServerCpuPct: orNull(median(cpuPct)),
        medianLoadgenCpuPct: median(mine.map((r) => r.loadgenCpuPct)),
      },
    ];
  });
}

const fmt = (x: number | null | undefined, digits = 0) => (x == null || !Number.isFinite(x) ? 'n/a' : x.toFixed(digits));

function markdownTable(results: ScenarioResult[]): string {
  const lines = [
    '| Scenario | Server | req/s (median) | p50 ms | p99 ms | peak RSS MB | ratio to bare | req/s per round | server CPU µs/req | CPU efficiency vs bare | server CPU % | autocannon CPU % |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |',
  ];
  for (const result of results) {
    for (const row of result.summary) {
      lines.push(
        `| ${row.scenario} | ${row.server} | ${fmt(row.medianReqPerSec)} | ${fmt(row.medianP50Ms, 2)} | ${fmt(row.medianP99Ms, 2)} | ${fmt(row.peakRssMB, 1)} | ${fmt(row.ratioToBare, 2)} | ${row.reqPerSecByRound.map((x) => fmt(x)).join(', ')} | ${fmt(row.medianCpuUsPerReq, 1)} | ${fmt(row.cpuEfficiencyVsBare, 2)} | ${fmt(row.medianServerCpuPct)} | ${fmt(row.medianLoadgenCpuPct)} |`,
      );
    }
    for (const [server, reason] of Object.entries(result.skipped))
      lines.push(`| ${result.id} | ${server} | skipped: ${reason} | | | | | | | | | |`);
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

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

// ------------------------------------------------------------------ one scenario

async function runScenario(
  scenario: Scenario,
  options: Options,
  scratch: string,
  profileDir: string | undefined,
  failures: string[],
): Promise<ScenarioResult> {
  const result: ScenarioResult = {
    id: scenario.id,
    description: scenario.description,
    requestBody: scenario.body,
    servers: {},
    skipped: {},
    rounds: [],
    summary: [],
  };
  const children = new Map<ServerKind, Child>();
  // aimock starts alongside Understudy; it is stopped below even if nothing else got that far.
  const aimockStart = options.servers.includes('aimock')
    ? startChild('aimock', [], profileDir).then(
        (c) => c,
        (e: Error) => e,
      )
    : undefined;
  try {
    // Understudy first: its answer is what the bare server will replay.
    const understudy = await startChild('understudy', [], profileDir);
    children.set('understudy', understudy);
    const captured = await capture(understudy.port, scenario);
    const capturedBody = Buffer.from(captured.bodyBase64, 'base64');
    result.capture = {
      status: captured.status,
      headers: captured.rawHeaders.filter((_, i) => i % 2 === 0),
      bodyBytes: capturedBody.length,
      ...(scenario.stream && { stream: streamShape(capturedBody.toString('utf8')) }),
    };
    const captureFile = join(scratch, `${scenario.id}.capture.json`);
    writeFileSync(captureFile, JSON.stringify(captured));
    const bare = await startChild('bare', [captureFile], profileDir);
    children.set('bare', bare);

    const bareAnswer = await post(bare.port, scenario.body);
    const bareProblem = checkAnswer(scenario, bareAnswer.status, bareAnswer.body.toString('utf8'));
    if (bareProblem) throw new Error(`bare server does not replay the capture: ${bareProblem}`);
    result.wireCheck = await wireCheck(bare.port, understudy.port, scenario.body);
    log(
      `${scenario.id}: captured ${captured.status}, ${capturedBody.length} body bytes; wire check ${result.wireCheck.identical ? 'identical (modulo Date and ids)' : `DIFFERENT: ${result.wireCheck.note}`}`,
    );

    if (aimockStart) {
      const started = await aimockStart;
      if (started instanceof Error) {
        result.skipped.aimock = `did not start: ${started.message}`;
      } else {
        children.set('aimock', started);
        const answer = await post(started.port, scenario.body).catch((e: Error) => ({
          status: 0,
          rawHeaders: [],
          body: Buffer.from(e.message),
        }));
        const problem = checkAnswer(scenario, answer.status, answer.body.toString('utf8'));
        if (problem) {
          result.skipped.aimock = `answer is not the bench reply: ${problem}`;
          await stopChild(started);
          children.delete('aimock');
        } else if (scenario.stream) {
          result.aimockStream = streamShape(answer.body.toString('utf8'));
        }
      }
      if (result.skipped.aimock) log(`${scenario.id}: skipping aimock: ${result.skipped.aimock}`);
    }

    const order = options.servers.filter((k) => children.has(k));
    for (const kind of order) {
      const child = children.get(kind)!;
      result.servers[kind] = { pid: child.pid, startupMs: Math.round(child.startupMs), peakRssMB: null, rssAtEndMB: null };
    }

    if (options.warmupS > 0) {
      for (const kind of order) {
        const warm = await measure(children.get(kind)!, scenario, options.warmupS, options.connections);
        const problem = problemsOf(warm);
        if (problem) throw new Error(`${scenario.id} ${kind} warm-up: ${problem}${await sampleAnswer(children.get(kind)!, scenario)}`);
      }
    }

    for (let round = 1; round <= options.rounds; round++) {
      for (const kind of order) {
        const m = await measure(children.get(kind)!, scenario, options.durationS, options.connections);
        result.rounds.push({ scenario: scenario.id, round, server: kind, ...m });
        log(
          `${scenario.id} round ${round}/${options.rounds} ${kind.padEnd(10)} ${fmt(m.reqPerSec).padStart(6)} req/s  p50 ${fmt(m.p50Ms, 2)} ms  p99 ${fmt(m.p99Ms, 2)} ms  server CPU ${fmt(m.serverCpuPct)}%  autocannon CPU ${fmt(m.loadgenCpuPct)}%`,
        );
        const problem = problemsOf(m);
        if (problem)
          throw new Error(`${scenario.id} round ${round} ${kind}: ${problem}${await sampleAnswer(children.get(kind)!, scenario)}`);
      }
    }
  } catch (error) {
    const message = (error as Error).message;
    failures.push(message);
    log(`FAILED: ${message}`);
  } finally {
    const rss: Partial<Record<ServerKind, number | null>> = {};
    for (const [kind, child] of children) {
      const hwm = procStatusKb(child.pid, 'VmHWM');
      const now = procStatusKb(child.pid, 'VmRSS');
      rss[kind] = hwm === null ? null : hwm / 1024;
      const entry = result.servers[kind];
      if (entry) {
        entry.peakRssMB = rss[kind] ?? null;
        entry.rssAtEndMB = now === null ? null : now / 1024;
      }
    }
    await Promise.all([...children.values()].map(stopChild));
    const aimock = await aimockStart;
    if (aimock && !(aimock instanceof Error) && !children.has('aimock')) await stopChild(aimock);
    result.summary = summarize(scenario.id, result.rounds, options.servers, rss);
  }
  return result;
}

// ------------------------------------------------------------------ main

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  if (options.servers.includes('understudy')) {
    log('building dist/ (the Understudy child runs the built package)');
    execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  }
  const scratch = mkdtempSync(join(tmpdir(), 'understudy-bench-'));
  const profileDir = options.profile ? join(options.outDir, 'profiles') : undefined;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const startedAt = new Date();
  const loadStart = loadavg();
  const cpuList = cpus();
  log(
    `${options.mode} run: ${options.scenarios.join(', ')} x ${options.servers.join(', ')}; ${options.rounds} rounds x ${options.durationS} s, ${options.warmupS} s warm-up, ${options.connections} connections; ${cpuList.length} CPUs, node ${process.version}`,
  );

  const failures: string[] = [];
  const results: ScenarioResult[] = [];
  try {
    for (const id of options.scenarios) {
      const scenario = SCENARIOS.find((s) => s.id === id)!;
      results.push(await runScenario(scenario, options, scratch, profileDir, failures));
      if (failures.length) break;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }

  const report = {
    ok: failures.length === 0,
    failures,
    command: options.command,
    mode: options.mode,
    config: {
      durationS: options.durationS,
      rounds: options.rounds,
      warmupS: options.warmupS,
      connections: options.connections,
      pipelining: 1,
      servers: options.servers,
      order: 'round-robin per round: ' + options.servers.join(', '),
      ratio: 'median over rounds of (server req/s / bare req/s in the same round)',
      latency: 'p50/p99 of every response time recorded by autocannon in the round (ms, sub-ms precision); median over rounds',
      peakRss: 'VmHWM of the server child at the end of its scenario (includes Node + the tsx loader that starts the child), MB',
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
      autocannon: '9.0.0',
    },
    durationS: (Date.now() - startedAt.getTime()) / 1000,
    scenarios: results,
  };

  mkdirSync(options.outDir, { recursive: true });
  const table = markdownTable(results);
  const md = [
    `# Understudy benchmark (${options.mode})`,
    '',
    `\`${options.command}\` — ${startedAt.toISOString()}, node ${process.version}, ${cpuList.length} × ${cpuList[0]?.model ?? 'cpu'}, load average ${loadStart.map((x) => x.toFixed(2)).join(' ')} at start.`,
    `${options.rounds} rounds × ${options.durationS} s per server and scenario, ${options.connections} connections, servers alternating round by round (${options.servers.join(', ')}); medians over rounds.`,
    '',
    table,
    '',
    'ratio to bare: median over rounds of req/s ÷ bare req/s in the same round. CPU efficiency vs bare: bare CPU per request ÷ this server’s CPU per request (1 = as cheap as bare). Peak RSS: VmHWM of the server child process.',
    ...results.flatMap((r) => (r.wireCheck && !r.wireCheck.identical ? [``, `Wire check ${r.id}: ${r.wireCheck.note}`] : [])),
    ...(failures.length ? ['', '**FAILED**', ...failures.map((f) => `- ${f}`)] : []),
    '',
  ].join('\n');
  writeFileSync(join(options.outDir, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(options.outDir, 'latest.md'), md);

  process.stdout.write(`\n${table}\n\n`);
  process.stdout.write(
    `wrote ${relative(process.cwd(), join(options.outDir, 'latest.json'))} and latest.md in ${report.durationS.toFixed(1)} s\n`,
  );
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

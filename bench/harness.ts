// What every benchmark scenario shares: server children, /proc readings, plain HTTP requests,
// one autocannon measurement, answer checks, and statistics.

import { eventFrames, type EventFrame } from './event-stream-frames.js';
import autocannon from 'autocannon';
import { buildSync } from 'esbuild';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_BUNDLE } from '../scripts/node-bundle.mjs';
import { OPENAI_CHAT, type Endpoint, type Expected, type ReadyLine, type ServerKind } from './scenarios.js';

export const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(BENCH_DIR, '..');
const CHILD_ENTRY: Record<ServerKind, string> = {
  bare: join(BENCH_DIR, 'bare-server.ts'),
  'bare-paced': join(BENCH_DIR, 'bare-paced-server.ts'),
  understudy: join(BENCH_DIR, 'understudy-server.ts'),
  'understudy-workers': join(BENCH_DIR, 'understudy-workers-server.ts'),
  aimock: join(BENCH_DIR, 'aimock-server.ts'),
};
const STARTUP_TIMEOUT_MS = 60_000;

export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

export const fmt = (x: number | null | undefined, digits = 0) => (x == null || !Number.isFinite(x) ? 'n/a' : x.toFixed(digits));

// ------------------------------------------------------------------ children

export interface Child {
  kind: ServerKind;
  label: string;
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

/** Every process the bench spawns is killed when the bench exits, whatever the reason. */
export function track(proc: ChildProcess): ChildProcess {
  liveChildren.add(proc);
  proc.once('exit', () => liveChildren.delete(proc));
  return proc;
}

export interface StartOptions {
  label?: string;
  /** Directory for `--cpu-prof` profiles (one sub-directory per label). */
  profileDir?: string;
  /** Open an IPC channel to the child. */
  ipc?: boolean;
  /** More node options (e.g. --expose-gc). */
  nodeArgs?: string[];
}

const compiledChildren = new Map<string, string>();

/** The child's TypeScript compiled to one plain script (npm packages left external), so server
 * children run on plain node: under the tsx loader, a saturated child at 1,000 connections left
 * some connections unanswered for seconds (a loader artefact; the same server on plain node did not). */
function childScript(entry: string): string {
  let script = compiledChildren.get(entry);
  if (script === undefined) {
    script = entry.replace(/\.ts$/, '.child.mjs');
    buildSync({
      entryPoints: [entry],
      outfile: script,
      ...NODE_BUNDLE,
      logLevel: 'error',
    });
    compiledChildren.set(entry, script);
  }
  return script;
}

export function startChild(kind: ServerKind, args: string[], options: StartOptions = {}): Promise<Child> {
  const label = options.label ?? kind;
  const started = performance.now();
  const nodeArgs = [...(options.nodeArgs ?? [])];
  if (options.profileDir) nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${join(options.profileDir, label.replace(/[^A-Za-z0-9.-]+/g, '_'))}`);
  const proc = track(
    spawn(process.execPath, [...nodeArgs, childScript(CHILD_ENTRY[kind]), ...args], {
      cwd: ROOT,
      stdio: options.ipc ? ['ignore', 'pipe', 'inherit', 'ipc'] : ['ignore', 'pipe', 'inherit'],
    }),
  );
  return new Promise<Child>((resolvePromise, reject) => {
    let buffered = '';
    const fail = (reason: string) => {
      clearTimeout(timer);
      proc.kill('SIGKILL');
      reject(new Error(`${label} child: ${reason}`));
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
      resolvePromise({ kind, label, proc, port: line.port, pid: line.pid, startupMs: performance.now() - started });
    };
    proc.stdout!.on('data', onData);
  });
}

export async function stopProcess(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  proc.kill('SIGTERM');
  const timeout = new Promise<void>((r) => setTimeout(r, 5000).unref());
  await Promise.race([exited, timeout]);
  if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
}

export const stopChild = (child: Child) => stopProcess(child.proc);

// ------------------------------------------------------------------ /proc

/** The soft limit on open files (`ulimit -n`) this process (and every child) runs with; every socket counts. */
export function openFilesLimit(): number | null {
  try {
    const value = execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim();
    return value === 'unlimited' ? Infinity : Number(value) || null;
  } catch {
    return null;
  }
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A /proc/<pid>/status field in kB, summed over the process and its descendants (a server that
 * runs as several processes, e.g. `serve --workers`, is measured whole). */
export function procStatusKb(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  let total: number | null = null;
  for (const p of processTree(pid)) {
    try {
      const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      if (match) total = (total ?? 0) + Number(match[1]);
    } catch {
      /* gone meanwhile */
    }
  }
  return total;
}

/** User + system CPU time of a process and its descendants, in ms (clock-tick resolution). */
export function procCpuMs(pid: number): number | null {
  let total: number | null = null;
  for (const p of processTree(pid)) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total = (total ?? 0) + ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    } catch {
      /* gone meanwhile */
    }
  }
  return total;
}

/** The pid and every descendant's, from the parent pids in /proc/<pid>/stat. */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [root];
  }
  for (const name of pids) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(parent) ?? [];
      list.push(Number(name));
      children.set(parent, list);
    } catch {
      /* gone meanwhile */
    }
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

// ------------------------------------------------------------------ plain requests

export interface PlainResponse {
  status: number;
  rawHeaders: string[];
  body: Buffer;
}

export function httpCall(
  port: number,
  method: string,
  path: string,
  body?: string,
  timeoutMs = 10_000,
  headers: Record<string, string> = OPENAI_CHAT.headers,
): Promise<PlainResponse> {
  return new Promise((resolvePromise, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        agent: false,
        headers: body === undefined ? {} : headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`${method} ${path} timed out after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

export const post = (port: number, body: string, endpoint: Endpoint = OPENAI_CHAT) =>
  httpCall(port, 'POST', endpoint.path, body, 10_000, endpoint.headers);

/** Null when the body is the expected reply in the expected shape, else what is wrong. */
export function checkAnswer(expected: Expected, status: number, text: string, exactChunks: boolean): string | null {
  if (status !== 200) return `status ${status}: ${text.slice(0, 300)}`;
  if (expected.dialect === 'anthropic') return checkAnthropic(expected, text, exactChunks);
  if (expected.dialect === 'bedrock') return checkBedrock(expected, text, exactChunks);
  if (!expected.stream) {
    try {
      const json = JSON.parse(text) as { choices?: { message?: { content?: unknown } }[] };
      const content = json.choices?.[0]?.message?.content;
      return content === expected.text ? null : `content ${JSON.stringify(content)}`;
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
  if (content !== expected.text) return `streamed content ${JSON.stringify(content.slice(0, 200))}`;
  if (exactChunks && expected.chunks !== undefined && pieces !== expected.chunks)
    return `${pieces} content chunks, expected ${expected.chunks}`;
  return pieces < 2 ? `only ${pieces} content chunk(s)` : null;
}

/** checkAnswer for an Anthropic Messages answer: a `message`, or its SSE events ending in message_stop. */
function checkAnthropic(expected: Expected, text: string, exactChunks: boolean): string | null {
  if (!expected.stream) {
    try {
      const json = JSON.parse(text) as { type?: string; content?: { type?: string; text?: unknown }[] };
      const content = json.content?.[0]?.text;
      if (json.type !== 'message') return `type ${JSON.stringify(json.type)}, expected "message"`;
      return content === expected.text ? null : `content ${JSON.stringify(content)}`;
    } catch (e) {
      return `not JSON (${(e as Error).message}): ${text.slice(0, 200)}`;
    }
  }
  const events = text
    .split('\n\n')
    .map((e) => e.trim())
    .filter(Boolean);
  let content = '';
  let pieces = 0;
  let last = '';
  for (const event of events) {
    const data = /^data: (.*)$/m.exec(event)?.[1];
    if (!/^event: /m.test(event) || data === undefined) return `not an event with data: ${event.slice(0, 100)}`;
    const parsed = JSON.parse(data) as { type?: string; delta?: { type?: string; text?: string } };
    last = parsed.type ?? '';
    if (parsed.type === 'content_block_delta' && parsed.delta?.type === 'text_delta' && parsed.delta.text) {
      content += parsed.delta.text;
      pieces++;
    }
  }
  if (last !== 'message_stop') return `stream does not end with message_stop: ${text.slice(-200)}`;
  if (content !== expected.text) return `streamed content ${JSON.stringify(content.slice(0, 200))}`;
  if (exactChunks && expected.chunks !== undefined && pieces !== expected.chunks)
    return `${pieces} content chunks, expected ${expected.chunks}`;
  return pieces < 2 ? `only ${pieces} content chunk(s)` : null;
}

/** checkAnswer for a Bedrock Converse answer: its output message, or its event-stream frames
 * (`text` is then the body as latin1) ending in messageStop and metadata. */
function checkBedrock(expected: Expected, text: string, exactChunks: boolean): string | null {
  if (!expected.stream) {
    try {
      const json = JSON.parse(text) as { output?: { message?: { content?: { text?: unknown }[] } }; stopReason?: string };
      const content = json.output?.message?.content?.[0]?.text;
      if (json.stopReason !== 'end_turn') return `stopReason ${JSON.stringify(json.stopReason)}`;
      return content === expected.text ? null : `content ${JSON.stringify(content)}`;
    } catch (e) {
      return `not JSON (${(e as Error).message}): ${text.slice(0, 200)}`;
    }
  }
  let frames: EventFrame[];
  try {
    frames = eventFrames(Buffer.from(text, 'latin1'));
  } catch (e) {
    return (e as Error).message;
  }
  let content = '';
  let pieces = 0;
  for (const frame of frames) {
    if (frame.headers[':message-type'] !== 'event') return `a ${frame.headers[':message-type']} frame: ${frame.payload}`;
    if (frame.headers[':event-type'] !== 'contentBlockDelta') continue;
    const piece = (JSON.parse(frame.payload) as { delta?: { text?: string } }).delta?.text;
    if (piece) {
      content += piece;
      pieces++;
    }
  }
  const last = frames.map((f) => f.headers[':event-type']).slice(-2);
  if (last.join() !== 'messageStop,metadata') return `stream ends with ${last.join(', ')}`;
  if (content !== expected.text) return `streamed content ${JSON.stringify(content.slice(0, 200))}`;
  if (exactChunks && expected.chunks !== undefined && pieces !== expected.chunks)
    return `${pieces} content chunks, expected ${expected.chunks}`;
  return pieces < 2 ? `only ${pieces} content chunk(s)` : null;
}

/** The body text checkAnswer reads: latin1 for a binary event stream, UTF-8 otherwise. */
export function answerText(expected: Expected, body: Buffer): string {
  return body.toString(expected.dialect === 'bedrock' && expected.stream ? 'latin1' : 'utf8');
}

export function streamShape(text: string): { events: number; contentChunks: number } {
  const events = text.split('\n\n').filter((e) => e.trim());
  return {
    events: events.length,
    contentChunks: events.filter((e) => /"delta":\{"content":"|"delta":\{"type":"text_delta"/.test(e)).length,
  };
}

/** A Bedrock stream's frames, checksums checked. */
export function streamShapeOf(expected: Expected, body: Buffer): { events: number; contentChunks: number } {
  if (expected.dialect !== 'bedrock') return streamShape(body.toString('utf8'));
  const frames = eventFrames(body);
  return { events: frames.length, contentChunks: frames.filter((f) => f.headers[':event-type'] === 'contentBlockDelta').length };
}

/** One request over a raw socket: the response bytes exactly as they came off the wire. */
function wireBytes(port: number, body: string, endpoint: Endpoint): Promise<string> {
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
    const headers = Object.entries(endpoint.headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(
      `POST ${endpoint.path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${headers}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: keep-alive\r\n\r\n${body}`,
    );
  });
}

/** Masks what legitimately differs between two responses: the Date header and generated ids. */
function maskWire(text: string): string {
  return text
    .replace(/\r\nDate: [^\r]*/, '\r\nDate: <date>')
    .replace(/chatcmpl-[A-Za-z0-9_-]+/g, 'chatcmpl-<id>')
    .replace(/req_[A-Za-z0-9]+/g, 'req_<id>')
    .replace(/msg_[A-Za-z0-9]+/g, 'msg_<id>');
}

export interface WireCheck {
  identical: boolean;
  bareBytes: number;
  understudyBytes: number;
  headers: string;
  note?: string;
}

export async function wireCheck(
  barePort: number,
  understudyPort: number,
  body: string,
  endpoint: Endpoint = OPENAI_CHAT,
): Promise<WireCheck> {
  const [bare, understudy] = await Promise.all([wireBytes(barePort, body, endpoint), wireBytes(understudyPort, body, endpoint)]);
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

export interface Measurement {
  requests: number;
  durationS: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** Client-side error messages autocannon reported (e.g. ECONNRESET, EMFILE), with counts. */
  errorKinds: Record<string, number>;
  serverCpuMs: number | null;
  serverCpuPct: number | null;
  cpuUsPerReq: number | null;
  loadgenCpuPct: number;
  autocannonLatency: { p50: number; p99: number; mean: number };
  /** Set when the run was stopped by its time limit before `amount` requests. */
  stoppedByTimeLimit?: boolean;
}

export class Samples {
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

export interface Load {
  body: string;
  /** Default: OpenAI chat completions. */
  endpoint?: Endpoint;
  connections: number;
  /** Seconds, for a timed run. */
  seconds?: number;
  /** Requests, for a counted run; stopped (and flagged) after `limitS` seconds. */
  amount?: number;
  limitS?: number;
}

export async function measure(child: Child, load: Load): Promise<Measurement> {
  const samples = new Samples();
  const errorKinds: Record<string, number> = {};
  const cpuBefore = procCpuMs(child.pid);
  const loadgenBefore = process.cpuUsage();
  const wallBefore = performance.now();
  let stoppedByTimeLimit = false;
  let lastResponseAt = wallBefore;
  const result = await new Promise<autocannon.Result>((resolvePromise, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${child.port}${(load.endpoint ?? OPENAI_CHAT).path}`,
        method: 'POST',
        headers: (load.endpoint ?? OPENAI_CHAT).headers,
        body: load.body,
        connections: load.connections,
        pipelining: 1,
        ...(load.amount !== undefined ? { amount: load.amount } : { duration: load.seconds ?? 1 }),
      },
      (error: unknown, res: autocannon.Result) => {
        clearTimeout(limit);
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else resolvePromise(res);
      },
    );
    const limit = setTimeout(
      () => {
        stoppedByTimeLimit = true;
        instance.stop();
      },
      (load.amount !== undefined ? (load.limitS ?? 120) : (load.seconds ?? 1) + 30) * 1000,
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      samples.push(responseTime);
      lastResponseAt = performance.now();
    });
    instance.on('reqError', (error: Error & { code?: string }) => {
      const key = error.code ?? error.message;
      errorKinds[key] = (errorKinds[key] ?? 0) + 1;
    });
  });
  const wallMs = performance.now() - wallBefore;
  const loadgen = process.cpuUsage(loadgenBefore);
  const cpuAfter = procCpuMs(child.pid);
  const serverCpuMs = cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null;
  const [p50, p99] = samples.percentiles(0.5, 0.99);
  const requests = result.requests.total;
  // autocannon ends a counted run at its next 1-second tick, so its duration is rounded up to whole
  // seconds; a counted run's rate is taken up to its last response instead.
  const durationS = load.amount !== undefined ? (lastResponseAt - wallBefore) / 1000 : result.duration;
  return {
    requests,
    durationS,
    reqPerSec: requests / durationS,
    p50Ms: p50,
    p99Ms: p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat?.count ?? 0])),
    errorKinds,
    serverCpuMs,
    serverCpuPct: serverCpuMs === null ? null : (100 * serverCpuMs) / wallMs,
    cpuUsPerReq: serverCpuMs === null || requests === 0 ? null : (serverCpuMs * 1000) / requests,
    loadgenCpuPct: (100 * (loadgen.user + loadgen.system)) / 1000 / wallMs,
    autocannonLatency: { p50: result.latency.p50, p99: result.latency.p99, mean: result.latency.average },
    ...(stoppedByTimeLimit ? { stoppedByTimeLimit } : {}),
  };
}

/** Null when every request of the measurement got a 2xx answer in time, else what went wrong. */
export function problemsOf(m: Measurement): string | null {
  const problems: string[] = [];
  if (m.errors) problems.push(`${m.errors} errors (${JSON.stringify(m.errorKinds)})`);
  if (m.timeouts) problems.push(`${m.timeouts} timeouts`);
  if (m.non2xx) problems.push(`${m.non2xx} non-2xx responses (status codes: ${JSON.stringify(m.statusCodes)})`);
  if (m.requests === 0) problems.push('no completed requests');
  if (m.stoppedByTimeLimit) problems.push('stopped by its time limit before completing its requests');
  return problems.length ? problems.join(', ') : null;
}

/** What the server answers now, for a failure message. */
export async function sampleAnswer(child: Child, body: string, endpoint: Endpoint = OPENAI_CHAT): Promise<string> {
  try {
    const answer = await post(child.port, body, endpoint);
    return `; a request now gets ${answer.status}: ${answer.body.toString('utf8').slice(0, 300)}`;
  } catch (e) {
    return `; a request now fails: ${(e as Error).message}`;
  }
}

// ------------------------------------------------------------------ statistics

export function median(values: number[]): number {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return NaN;
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/** Nearest-rank percentile (p in 0..1). */
export function percentile(values: number[], p: number): number {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return NaN;
  return v[Math.min(v.length - 1, Math.max(0, Math.ceil(p * v.length) - 1))];
}

export const orNull = (x: number) => (Number.isFinite(x) ? x : null);

// B4 start-up, each run in a fresh `node` process (plain node, no tsx, nothing preloaded):
//
//   node boot        `node -e` printing one line: what any Node process costs before our code runs
//   in-process       import dist/index.js, `await startUnderstudy({ fixtures })`, one chat completion
//                    answered over node:http; timed inside the child with performance.now()
//   CLI              `node dist/cli/main.js serve --port 0`: spawn to its "listening on" line, then to
//                    a first answered request sent by this process
//   breakdown        like in-process, but the runtime dependencies are imported first, one at a time,
//                    so each one's load time is its own and `dist/index.js` (one bundle of all of ours,
//                    scripts/bundle.mjs) is left with the rest; the o200k_base rank table loads in
//                    startUnderstudy(), before the server listens
//   profile          one in-process run under --cpu-prof: samples attributed to the innermost package
//                    (node_modules/<pkg>, or src/<dir> inside the dist/ bundle) on their stack

import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkAnswer, fmt, httpCall, log, median, percentile, ROOT, stopProcess, track } from './harness.js';
import { BODY_HELLO, CHAT_PATH, REPLY_TEXT, understudyFixture, type StartupScenario } from './scenarios.js';

const RUN_TIMEOUT_MS = 20_000;
const DIST_URL = pathToFileURL(join(ROOT, 'dist', 'index.js')).href;
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
/** Runtime dependencies in the order the breakdown imports them (package.json "dependencies"). */
const DEPENDENCIES = ['ajv', 'ajv-formats', 'yaml'];

/** The child program: every phase timed with performance.now() (ms since the process started). */
const IN_PROCESS_CHILD = `
import { request } from 'node:http';
const t = { boot: performance.now() };
const phases = [];
let last = t.boot;
const mark = (name) => { const now = performance.now(); phases.push({ name, ms: now - last }); last = now; };
for (const spec of JSON.parse(process.env.BENCH_PRELOAD || '[]')) { await import(spec); mark(spec); }
const { startUnderstudy } = await import(process.env.BENCH_DIST);
mark('import dist/index.js');
const mock = await startUnderstudy({ fixtures: [JSON.parse(process.env.BENCH_FIXTURE)] });
mark('startUnderstudy()');
const answer = await new Promise((resolve, reject) => {
  const req = request(mock.url('openai') + '/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
  });
  req.on('error', reject);
  req.end(process.env.BENCH_BODY);
});
mark('first request');
process.stdout.write(JSON.stringify({ boot: t.boot, phases, total: last - t.boot, status: answer.status, body: answer.body }) + '\\n');
await mock.close();
`;

interface ChildRun {
  boot: number;
  phases: { name: string; ms: number }[];
  total: number;
  status: number;
  body: string;
}

/** Spawns node with these arguments, returns the first stdout line and the wall time to it. */
function firstLine(
  args: string[],
  env: Record<string, string>,
  until: (line: string) => boolean,
): Promise<{ line: string; ms: number; proc: ReturnType<typeof spawn> }> {
  const started = performance.now();
  const proc = track(spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }));
  return new Promise((resolvePromise, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`node ${args.slice(0, 2).join(' ')}: nothing within ${RUN_TIMEOUT_MS} ms`));
    }, RUN_TIMEOUT_MS);
    proc.stderr!.on('data', (c: Buffer) => (err += c.toString('utf8')));
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`node ${args.slice(0, 2).join(' ')} exited (code ${code}) before the expected line: ${(err || out).slice(0, 500)}`));
    });
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      for (const line of out.split('\n').slice(0, -1)) {
        if (until(line)) {
          clearTimeout(timer);
          proc.removeAllListeners('exit');
          proc.stdout!.removeAllListeners('data');
          proc.stdout!.resume();
          resolvePromise({ line, ms: performance.now() - started, proc });
          return;
        }
      }
    });
  });
}

async function inProcessRun(preload: string[], extraArgs: string[] = []): Promise<ChildRun & { wallMs: number }> {
  const { line, ms, proc } = await firstLine(
    [...extraArgs, '--input-type=module', '-e', IN_PROCESS_CHILD],
    {
      BENCH_DIST: DIST_URL,
      BENCH_PRELOAD: JSON.stringify(preload),
      BENCH_FIXTURE: JSON.stringify(understudyFixture({ script: 'bench' })),
      BENCH_BODY: BODY_HELLO,
    },
    (l) => l.startsWith('{'),
  );
  const run = JSON.parse(line) as ChildRun;
  await waitExit(proc);
  const problem = checkAnswer({ text: REPLY_TEXT, stream: false }, run.status, run.body, false);
  if (problem) throw new Error(`B4 in-process: the first request was not answered with the script: ${problem}`);
  return { ...run, wallMs: ms };
}

function waitExit(proc: ReturnType<typeof spawn>): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return Promise.race([
    new Promise<void>((r) => proc.once('exit', () => r())),
    new Promise<void>((r) => setTimeout(r, RUN_TIMEOUT_MS).unref()),
  ]).then(() => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  });
}

async function cliRun(): Promise<{ listeningMs: number; firstAnswerMs: number }> {
  const started = performance.now();
  const { line, proc } = await firstLine([CLI, 'serve', '--host', '127.0.0.1', '--port', '0'], {}, (l) => /listening on http:\/\//.test(l));
  const listeningMs = performance.now() - started;
  try {
    const port = Number(/listening on http:\/\/[^:\s]+:(\d+)/.exec(line)?.[1]);
    if (!port) throw new Error(`B4 CLI: no port in "${line}"`);
    const answer = await httpCall(port, 'POST', CHAT_PATH, BODY_HELLO);
    const firstAnswerMs = performance.now() - started;
    if (answer.status !== 200) throw new Error(`B4 CLI: first request got ${answer.status}: ${answer.body.toString('utf8').slice(0, 300)}`);
    return { listeningMs, firstAnswerMs };
  } finally {
    await stopProcess(proc);
  }
}

async function nodeBootRun(): Promise<number> {
  const { ms, proc } = await firstLine(['-e', 'process.stdout.write("up\\n")'], {}, (l) => l === 'up');
  await waitExit(proc);
  return ms;
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/**
 * Where each module of a dist/ bundle starts: esbuild (not minifying) opens every module's code with
 * a `// src/<path>.ts` line. Sorted by line (0-based, as in a CPU profile's call frames).
 */
function bundleModules(url: string): { line: number; source: string }[] {
  const modules: { line: number; source: string }[] = [];
  let text = '';
  try {
    text = readFileSync(new URL(url), 'utf8');
  } catch {
    return modules;
  }
  text.split('\n').forEach((line, i) => {
    const source = /^\/\/ (src\/\S+\.ts)$/.exec(line)?.[1];
    if (source) modules.push({ line: i, source });
  });
  return modules;
}

/** src/<dir>/ (or src/<file>.ts) of the bundled module a function of dist/<file>.js starts in. */
function bundledGroup(modules: { line: number; source: string }[], file: string, line: number): string {
  let found: string | undefined;
  for (const module of modules) {
    if (module.line > line) break;
    found = module.source;
  }
  if (!found) return `${file} (top level)`;
  const parts = found.split('/');
  return parts.length > 2 ? `${parts[0]}/${parts[1]}/` : found;
}

/** Milliseconds of samples per innermost package on the stack (node_modules/<pkg>, src/<dir> in dist/). */
function profileByPackage(profile: CpuProfile): { group: string; ms: number }[] {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const bundles = new Map<string, { line: number; source: string }[]>();
  const groupOf = (id: number): string => {
    const own = byId.get(id)!.callFrame.functionName;
    if (own === '(garbage collector)' || own === '(idle)' || own === '(program)') return own;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { url, lineNumber } = byId.get(at)!.callFrame;
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
      if (pkg) return pkg[1];
      const dist = /\/(dist\/.+\.js)$/.exec(url);
      if (dist) {
        if (!bundles.has(url)) bundles.set(url, bundleModules(url));
        return bundledGroup(bundles.get(url)!, dist[1], lineNumber);
      }
    }
    return 'node itself (boot; the module loader reading, parsing and compiling modules)';
  };
  const totals = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const group = groupOf(samples[i]);
    totals.set(group, (totals.get(group) ?? 0) + (deltas[i] ?? 0) / 1000);
  }
  return [...totals].map(([group, ms]) => ({ group, ms })).sort((a, b) => b.ms - a.ms);
}

interface Stats {
  runs: number;
  medianMs: number;
  p90Ms: number;
  minMs: number;
  maxMs: number;
  valuesMs: number[];
}

function stats(values: number[]): Stats {
  return {
    runs: values.length,
    medianMs: median(values),
    p90Ms: percentile(values, 0.9),
    minMs: Math.min(...values),
    maxMs: Math.max(...values),
    valuesMs: values.map((v) => Math.round(v * 10) / 10),
  };
}

export interface StartupResult {
  type: 'startup';
  id: 'B4';
  title: string;
  description: string;
  runs: number;
  goals: { inProcessMs: number; cliMs: number };
  nodeBoot: Stats;
  inProcess: {
    /** import dist + startUnderstudy() + first answered request, inside the child. */
    importToFirstAnswer: Stats;
    /** startUnderstudy() + first answered request. */
    startToFirstAnswer: Stats;
    /** Spawn to the child's report, in this process (includes node boot). */
    spawnToFirstAnswer: Stats;
    phases: Record<string, number>;
  };
  cli: { spawnToListening: Stats; spawnToFirstAnswer: Stats };
  breakdown: { name: string; medianMs: number }[];
  profile?: { file: string; totalMs: number; byPackage: { group: string; ms: number }[] };
}

export async function runStartup(scenario: StartupScenario, quick: boolean, scratch: string, failures: string[]): Promise<StartupResult> {
  const n = scenario.runs[quick ? 'quick' : 'full'];
  const result: StartupResult = {
    type: 'startup',
    id: scenario.id,
    title: scenario.title,
    description: scenario.description,
    runs: n,
    goals: { inProcessMs: 50, cliMs: 500 },
    nodeBoot: stats([]),
    inProcess: { importToFirstAnswer: stats([]), startToFirstAnswer: stats([]), spawnToFirstAnswer: stats([]), phases: {} },
    cli: { spawnToListening: stats([]), spawnToFirstAnswer: stats([]) },
    breakdown: [],
  };
  try {
    const boot: number[] = [];
    const inProcess: (ChildRun & { wallMs: number })[] = [];
    const cli: { listeningMs: number; firstAnswerMs: number }[] = [];
    const breakdown: ChildRun[] = [];
    // Interleaved, like the throughput rounds, so a busy moment of the machine hits every kind alike.
    for (let i = 0; i < n; i++) {
      boot.push(await nodeBootRun());
      inProcess.push(await inProcessRun([]));
      cli.push(await cliRun());
      breakdown.push(await inProcessRun(DEPENDENCIES));
      const last = inProcess[inProcess.length - 1];
      log(
        `B4 run ${i + 1}/${n}: node boot ${fmt(boot[i])} ms; in-process import→first answer ${fmt(last.total)} ms (${last.phases.map((p) => `${p.name} ${fmt(p.ms)}`).join(', ')}); CLI listening ${fmt(cli[i].listeningMs)} ms, first answer ${fmt(cli[i].firstAnswerMs)} ms`,
      );
    }
    result.nodeBoot = stats(boot);
    const phase = (run: ChildRun, name: string) => run.phases.find((p) => p.name === name)?.ms ?? NaN;
    result.inProcess = {
      importToFirstAnswer: stats(inProcess.map((r) => r.total)),
      startToFirstAnswer: stats(inProcess.map((r) => phase(r, 'startUnderstudy()') + phase(r, 'first request'))),
      spawnToFirstAnswer: stats(inProcess.map((r) => r.wallMs)),
      phases: Object.fromEntries(
        ['import dist/index.js', 'startUnderstudy()', 'first request'].map((name) => [name, median(inProcess.map((r) => phase(r, name)))]),
      ),
    };
    result.cli = { spawnToListening: stats(cli.map((r) => r.listeningMs)), spawnToFirstAnswer: stats(cli.map((r) => r.firstAnswerMs)) };
    result.breakdown = [
      { name: 'node boot (to the first line of our code)', medianMs: median(breakdown.map((r) => r.boot)) },
      ...breakdown[0].phases.map(({ name }) => ({ name, medianMs: median(breakdown.map((r) => phase(r, name))) })),
    ];

    const profileDir = join(scratch, 'b4-profile');
    mkdirSync(profileDir, { recursive: true });
    await inProcessRun([], ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-interval=100']);
    const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
    if (file) {
      const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as CpuProfile;
      result.profile = {
        file: 'one in-process run under --cpu-prof --cpu-prof-interval=100 (µs)',
        totalMs: (profile.endTime - profile.startTime) / 1000,
        byPackage: profileByPackage(profile)
          .slice(0, 10)
          .map((g) => ({ group: g.group, ms: Math.round(g.ms * 10) / 10 })),
      };
    }
  } catch (error) {
    const message = (error as Error).message;
    failures.push(message);
    log(`FAILED: ${message}`);
  }
  return result;
}

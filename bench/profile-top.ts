// Summarizes a V8 .cpuprofile (from `npm run bench -- --profile`): the functions with the most self
// time, and the project functions (src/) with the most total time (self + callees).
//
//   node --import tsx bench/profile-top.ts bench/results/profiles/understudy-*.cpuprofile [--top=N]

import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

function where(node: ProfileNode): string {
  const { functionName, url, lineNumber, columnNumber } = node.callFrame;
  let file = url;
  if (url.startsWith('file://')) {
    try {
      file = relative(process.cwd(), fileURLToPath(url));
    } catch {
      /* keep the url */
    }
  }
  file = file.replace(/^.*node_modules\//, 'node_modules/');
  // Under tsx a module is transpiled onto few lines: the column tells functions apart.
  return `${file || '(native)'}${file ? `:${lineNumber + 1}:${columnNumber + 1}` : ''} ${functionName || '(anonymous)'}`;
}

function summarize(path: string, top: number): void {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  // Self time per node from samples and time deltas (µs).
  const selfUs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) selfUs.set(samples[i], (selfUs.get(samples[i]) ?? 0) + (deltas[i + 1] ?? deltas[i] ?? 0));
  const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0);

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    self.set(where(node), (self.get(where(node)) ?? 0) + us);
    // Inclusive: charge every distinct frame on the stack once.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const key = where(byId.get(at)!);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }
  const pct = (us: number) => `${((100 * us) / totalUs).toFixed(1).padStart(5)}%`;
  const idle = self.get('(native) (idle)') ?? 0;
  // Note: samples are wall-clock while a frame is on the stack, so a native call such as writev
  // also collects the time the thread was descheduled inside it (likely on a busy 2-core box).
  console.log(`\n${path}: ${(totalUs / 1e6).toFixed(2)} s sampled, ${pct(idle).trim()} idle`);
  console.log(`\ntop ${top} by self time:`);
  for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(us)}  ${key}`);
  console.log(`\ntop ${top} project functions (src/, dist/, bench/) by total time:`);
  for (const [key, us] of [...inclusive]
    .filter(([key]) => /^(src|dist|bench)\//.test(key))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top))
    console.log(`  ${pct(us)}  ${key}`);
}

const args = process.argv.slice(2);
const top = Number(args.find((a) => a.startsWith('--top='))?.slice(6) ?? 25);
const files = args.filter((a) => !a.startsWith('--'));
if (!files.length) {
  console.error('usage: bench/profile-top.ts <file.cpuprofile>... [--top=N]');
  process.exit(2);
}
for (const file of files) summarize(file, top);

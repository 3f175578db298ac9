// Runs a program in a node process of its own and collects what it printed: the docs' examples
// are run as written this way (each as a `*.tmp.mts` file inside the checkout, so that the
// packages they import resolve, and removed after the test file).

import { spawn } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after } from 'node:test';
import { ROOT } from './cli-process.js';

export interface ProgramRun {
  /** null when it was killed for running too long. */
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr as they interleaved. */
  output: string;
  ms: number;
}

/** `node ARGS` in `cwd`, killed after `killAfterMs`. */
export function runNode(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; killAfterMs?: number } = {},
): Promise<ProgramRun> {
  const started = Date.now();
  const child = spawn(process.execPath, args, {
    cwd: options.cwd ?? ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: options.env ?? process.env,
  });
  const run = { stdout: '', stderr: '', output: '' };
  child.stdout.setEncoding('utf8').on('data', (d: string) => ((run.stdout += d), (run.output += d)));
  child.stderr.setEncoding('utf8').on('data', (d: string) => ((run.stderr += d), (run.output += d)));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 20_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, ...run, ms: Date.now() - started });
    });
  });
}

// Where each package entry's source is, from a program written under test/.
const ENTRIES: [string, string][] = [
  ['llm-understudy/presets/ai-sdk', '../src/presets/ai-sdk.js'],
  ['llm-understudy/presets/langchain', '../src/presets/langchain.js'],
  ['llm-understudy/presets', '../src/presets/index.js'],
  ['llm-understudy/ai-sdk', '../src/in-process/ai-sdk/index.js'],
  ['llm-understudy/langchain', '../src/in-process/langchain/index.js'],
  ['llm-understudy', '../src/index.js'],
];

/** A docs example's imports of the package pointed at this checkout's source. */
export function pointedAtCheckout(source: string): string {
  let out = source;
  for (const [entry, path] of ENTRIES) out = out.replaceAll(`from '${entry}'`, `from '${path}'`);
  return out;
}

const written: string[] = [];
// Registered as the importing test file loads, so the hook is its root's, not one test's.
after(async () => {
  for (const file of written) await rm(file, { force: true });
});

/** Writes `source` as test/.NAME-PID.tmp.mts (ignored by git) and runs it with tsx: a docs
 * example, its imports of the package pointed at this checkout (pointedAtCheckout). */
export async function runTsProgram(
  name: string,
  source: string,
  options: { args?: string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<ProgramRun> {
  const file = join(ROOT, 'test', `.${name}-${process.pid}.tmp.mts`);
  written.push(file);
  await writeFile(file, pointedAtCheckout(source));
  return runNode(['--import', 'tsx', ...(options.args ?? []), file], { env: options.env });
}

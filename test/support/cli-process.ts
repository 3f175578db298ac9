// Runs the `understudy` command as a child process, as a user runs it: built from the current
// source for this test process (fresh-cli.ts), or the built bin (dist/cli/main.js), under plain node. Every child is killed at
// the end of the file, and every wait has a deadline, so nothing hangs.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshCli } from './fresh-cli.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Cli {
  name: string;
  argv: string[];
  /** Why this form cannot run here, or false. */
  skip: string | false;
}

export const CLIS: Cli[] = [
  {
    name: 'src',
    // Built on first use, so a file that imports this but spawns only dist/ builds nothing.
    get argv() {
      return [freshCli()];
    },
    skip: false,
  },
  {
    name: 'dist (built)',
    argv: ['dist/cli/main.js'],
    skip: existsSync(join(ROOT, 'dist', 'cli', 'main.js')) ? false : 'dist/ is not built (npm run build)',
  },
];

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

const children = new Set<ChildProcess>();

/** Kills every child still running (call from `after`). */
export function killChildren(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

export interface SpawnOptions {
  closeStdout?: boolean;
  /** Environment variables set for the child besides this process's own. */
  env?: Record<string, string>;
}

export function spawnCli(cli: Cli, args: string[], options: SpawnOptions = {}): ChildProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...options.env };
  delete env.UNDERSTUDY_CONTROL_TOKEN;
  const child = spawn(process.execPath, [...cli.argv, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
  // Closing our end before the child writes makes its first write fail with EPIPE.
  if (options.closeStdout) child.stdout!.destroy();
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Runs the command to completion (killed after 30 s). */
export function runCli(cli: Cli, args: string[], options: SpawnOptions = {}): Promise<Run> {
  const child = spawnCli(cli, args, options);
  let stdout = '';
  let stderr = '';
  if (!options.closeStdout) child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

export interface Served {
  url: string;
  banner: string;
  /** The server process's id (its memory is read from /proc/{pid}). */
  pid: number;
  stop(): Promise<Run>;
}

/** Starts `serve` and waits for the whole banner (it ends with the control API line). */
export async function serveCli(cli: Cli, args: string[], options: { env?: Record<string, string> } = {}): Promise<Served> {
  const child = spawnCli(cli, ['serve', ...args], options);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const closed = new Promise<Run>((resolve) => child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no banner in 30 s; stdout:\n${stdout}\nstderr:\n${stderr}`)), 30_000);
    const onData = () => {
      const m = /listening on (http:\/\/\S+)/.exec(stdout);
      if (m && /Control API:.*\n/.test(stdout)) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', onData);
    void closed.then((r) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${r.code}: ${r.stdout}${r.stderr}`));
    });
  });
  return {
    url,
    banner: stdout,
    pid: child.pid as number,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const result = await closed;
      clearTimeout(timer);
      return result;
    },
  };
}

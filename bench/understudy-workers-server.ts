// `understudy serve --workers N` as a benchmark child: the built CLI (dist/cli/main.js) serving the
// same fixture as bench/understudy-server.ts from a temporary file. Prints the ready line with its
// own pid; the harness measures CPU and memory over this process and all its descendants.
//
// Run as a child: node --import tsx bench/understudy-workers-server.ts '{"script":"bench","workers":2}'

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { announce, exitOnSignal, understudyFixture, type UnderstudyChildConfig } from './scenarios.js';

const config = JSON.parse(process.argv[2] ?? '{"script":"bench","workers":2}') as UnderstudyChildConfig;
const dir = mkdtempSync(join(tmpdir(), 'understudy-workers-'));
const file = join(dir, 'fixture.json');
writeFileSync(file, JSON.stringify(understudyFixture(config)));
const cli = new URL('../dist/cli/main.js', import.meta.url).pathname;
const args = [cli, 'serve', '--port', '0', '--workers', String(config.workers ?? 2)];
// No scripts (zero-config): no fixture file at all; a file needs at least one scenario.
if (config.script !== 'none') args.push('--fixtures', file);
if (config.fallback !== 'auto') args.push('--strict');
const server = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });

let seen = '';
server.stdout.on('data', (chunk: Buffer) => {
  seen += chunk.toString('utf8');
  const match = /listening on http:\/\/[^:]+:(\d+)/.exec(seen);
  if (match && seen !== '') {
    announce('understudy-workers', Number(match[1]));
    seen = '';
    server.stdout.removeAllListeners('data');
    server.stdout.resume();
  }
});
server.once('exit', (code) => {
  rmSync(dir, { recursive: true, force: true });
  process.exit(code ?? 1);
});
exitOnSignal(
  () =>
    new Promise<void>((resolve) => {
      server.once('exit', () => resolve());
      server.kill('SIGTERM');
    }),
);

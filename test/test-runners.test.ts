// Issue 15 §1: the test-runner entry points under the real runners, as a user's project runs them:
// a temporary project with the packed package installed (its tarball unpacked into node_modules,
// its dependencies and the runners linked from ours: nothing is fetched), test files that pass,
// a test whose verification fails (the runner reports it failed, with verify()'s report, and exits
// by itself), two files at once with sessions of their own, and the matchers both ways.

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PROJECTS = join(ROOT, 'test', 'support', 'runner-projects');
/** What the packed package needs at run time, and what the projects' tests import. */
const APP_LINE = '  // … the application under test runs …';
const LINKED = ['ajv', 'ajv-formats', 'yaml', 'zod', 'openai', 'vitest', 'jest', '@jest/globals'];

let project: string;

before(() => {
  project = mkdtempSync(join(tmpdir(), 'understudy-runners-'));
  // The package as npm would publish it (dist/ is built by `npm ci`'s prepare, and by `npm test` runs
  // after a build); --ignore-scripts keeps the build out of a test run.
  const packed = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', project], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const tarball = join(project, (JSON.parse(packed) as { filename: string }[])[0]?.filename as string);
  const modules = join(project, 'node_modules');
  mkdirSync(join(modules, '@jest'), { recursive: true });
  execFileSync('tar', ['xzf', tarball, '-C', project]);
  renameSync(join(project, 'package'), join(modules, 'llm-understudy'));
  for (const name of LINKED) symlinkSync(join(ROOT, 'node_modules', name), join(modules, name));
  for (const file of readdirSync(PROJECTS)) cpSync(join(PROJECTS, file), join(project, file));
  // Jest's tests are Vitest's, importing from Jest's packages (the same API, the same assertions).
  for (const file of readdirSync(PROJECTS).filter((f) => f.startsWith('vitest-'))) {
    const vitest = readFileSync(join(PROJECTS, file), 'utf8');
    const jest = vitest.replace("from 'vitest'", "from '@jest/globals'").replace("'llm-understudy/vitest'", "'llm-understudy/jest'");
    assert.notEqual(jest, vitest, `${file} imports from vitest and llm-understudy/vitest`);
    writeFileSync(join(project, file.replace(/^vitest-/, 'jest-')), jest);
  }
  // The README's runner example as written, its application being common.mjs's weather loop.
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const example = /## With a test runner\n+```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  assert.ok(example.includes(APP_LINE), 'README.md has the runner example, with its application line');
  writeFileSync(
    join(project, 'vitest-readme.test.mjs'),
    example.replace(APP_LINE, "  await (await import('./common.mjs')).weatherApp(understudy);"),
  );
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'runner-project', type: 'module', private: true, jest: { testEnvironment: 'node', transform: {} } }),
  );
});

after(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  output: string;
  ms: number;
}

/** Runs a runner in the project; it must exit by itself within the bound. */
function run(command: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    // A runner of its own: not a child of this file's node:test run (which it would join).
    const { NODE_TEST_CONTEXT: _ours, ...inherited } = process.env;
    const child = spawn(command, args, { cwd: project, env: { ...inherited, ...env, CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not exit within 40 s:\n${output}`));
    }, 40_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output, ms: performance.now() - started });
    });
  });
}

const RUNNERS = {
  vitest: (files: string[]) => run(process.execPath, [join(project, 'node_modules/vitest/vitest.mjs'), 'run', ...files]),
  jest: (files: string[]) =>
    run(process.execPath, [
      '--experimental-vm-modules',
      join(project, 'node_modules/jest/bin/jest.js'),
      '--ci',
      ...files.map((f) => `${f}$`),
    ]),
  'node:test': (files: string[]) => run(process.execPath, ['--test', ...files]),
} as const;

const PREFIX = { vitest: 'vitest', jest: 'jest', 'node:test': 'node' } as const;

for (const runner of Object.keys(RUNNERS) as (keyof typeof RUNNERS)[]) {
  const prefix = PREFIX[runner];
  test(
    `${runner}: passing tests in two files at once, each test with its own session, matchers both ways`,
    { timeout: 60_000 },
    async () => {
      const result = await RUNNERS[runner]([`${prefix}-pass.test.mjs`, `${prefix}-other.test.mjs`]);
      assert.equal(result.code, 0, result.output);
      const sessions = [...result.output.matchAll(/SESSION (\S+)/g)].map((m) => m[1]);
      assert.equal(sessions.length, 2, result.output);
      assert.notEqual(sessions[0], sessions[1]);
      assert.ok(
        sessions.some((id) => id?.startsWith('a-matcher-that-fails') || id?.startsWith('an-assertion-that-fails')),
        String(sessions),
      );
      assert.ok(
        sessions.some((id) => id?.startsWith('another-file')),
        String(sessions),
      );
    },
  );

  test(
    `${runner}: a test whose verification fails is reported failed with the report, and the run exits by itself`,
    { timeout: 60_000 },
    async () => {
      const result = await RUNNERS[runner]([`${prefix}-fail.test.mjs`]);
      assert.notEqual(result.code, 0, result.output);
      assert.match(result.output, /leaves a scripted step unused/);
      assert.match(result.output, /unused/i);
      assert.match(result.output, /never asked for|step-2/);
      assert.ok(result.ms < 30_000, `exited after ${result.ms.toFixed(0)} ms`);
      if (process.env.SHOW_RUNNER_OUTPUT) console.log(result.output);
    },
  );
}

test("vitest: the README's runner example passes as written", { timeout: 60_000 }, async () => {
  const result = await RUNNERS.vitest(['vitest-readme.test.mjs']);
  assert.equal(result.code, 0, result.output);
  assert.match(result.output, /1 passed/);
});

// Issue 23 §3: `understudy journal` against a server it cannot use, run as a user runs it (from
// the current source): a server with a control token answers 401 without it, and the command says to
// pass --control-token (the flag and UNDERSTUDY_CONTROL_TOKEN both work; a wrong token is told
// apart); an unreachable server is named with its URL and `understudy serve`; bad usage exits 2.
// (test/cli-journal.test.ts has what it prints; the two files share a minute each.)

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { after, test } from 'node:test';
import OpenAI from 'openai';
import { CLIS, killChildren, ROOT, runCli, serveCli, type Cli, type Run } from './support/cli-process.js';

const SOURCE = CLIS[0] as Cli;

after(() => killChildren());

const journal = (args: string[]) => runCli(SOURCE, ['journal', ...args]);

const ask = (url: string) =>
  new OpenAI({ baseURL: `${url}/v1`, apiKey: 'understudy', maxRetries: 0, timeout: 10_000 }).chat.completions.create({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'hello' }],
  });

/** Runs `journal` with UNDERSTUDY_CONTROL_TOKEN set (spawnCli keeps it out of every child). */
function journalWithEnvToken(args: string[], token: string): Promise<Run> {
  const child = spawn(process.execPath, [...SOURCE.argv, 'journal', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', UNDERSTUDY_CONTROL_TOKEN: token },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) =>
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    }),
  );
}

test(
  'a server with a control token: 401 without it says to pass --control-token; the flag or the environment variable works',
  { timeout: 60_000 },
  async () => {
    const served = await serveCli(SOURCE, ['--port', '0', '--quiet', '--control-token', 's3cret']);
    try {
      await ask(served.url);
      const without = await journal(['--url', served.url]);
      assert.equal(without.code, 1);
      assert.match(
        without.stderr,
        /^understudy: the server at http:\/\/127\.0\.0\.1:\d+ needs its control token: pass --control-token TOKEN \(or set UNDERSTUDY_CONTROL_TOKEN\)\n$/,
      );
      const wrong = await journal(['--url', served.url, '--control-token', 'nope']);
      assert.equal(wrong.code, 1);
      assert.match(wrong.stderr, /refused the control token given/);
      const withFlag = await journal(['--url', served.url, '--control-token', 's3cret']);
      assert.equal(withFlag.code, 0, withFlag.stderr);
      assert.match(withFlag.stdout, /  default  #1  POST \/v1\/chat\/completions  200  zero-config/);
      const withEnv = await journalWithEnvToken(['--url', served.url], 's3cret');
      assert.equal(withEnv.code, 0, withEnv.stderr);
      assert.equal(withEnv.stdout, withFlag.stdout);
      // The live feed needs the token too.
      const follow = await journal(['--url', served.url, '--follow']);
      assert.equal(follow.code, 1);
      assert.match(follow.stderr, /needs its control token: pass --control-token/);
    } finally {
      await served.stop();
    }
  },
);

/** A loopback port nothing listens on (one that was free a moment ago). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('an unreachable server is named with its URL and `understudy serve`; bad usage exits 2', { timeout: 60_000 }, async () => {
  const url = `http://127.0.0.1:${await freePort()}`;
  for (const args of [
    ['--url', url],
    ['--url', url, '--follow'],
  ]) {
    const run = await journal(args);
    assert.equal(run.code, 1, run.stdout);
    assert.equal(run.stdout, '');
    assert.equal(
      run.stderr,
      `understudy: cannot reach Understudy at ${url} (ECONNREFUSED): is it running? Start it with \`understudy serve\`, or point --url at it\n`,
    );
  }
  const mistyped = await journal(['--folow']);
  assert.equal(mistyped.code, 2);
  assert.match(mistyped.stderr, /unknown flag "--folow" for "understudy journal"; did you mean --follow\?/);
  const badUrl = await journal(['--url', 'localhost:8100']);
  assert.equal(badUrl.code, 2);
  assert.match(badUrl.stderr, /--url must be an http:\/\/ address/);
});

// Issue 15 §4: `understudy serve | head -1` through a real shell pipe. head takes the banner's
// first line and leaves; serve's next write (the request log's line for a request sent then) finds
// the pipe closed, and serve stops by itself, exit 0, with no unhandled EPIPE. The same under
// --workers 2, where the primary stops every worker when the one that logged leaves cleanly.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, test } from 'node:test';
import { ROOT } from './support/cli-process.js';

const children: ReturnType<typeof spawn>[] = [];
after(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

async function servePipedToHead(flags: string): Promise<{ code: number | null; first: string; stderr: string }> {
  // bash's PIPESTATUS gives serve's own exit code, not head's.
  const child = spawn('bash', ['-c', `node dist/cli/main.js serve --port 0 ${flags} | head -1; exit \${PIPESTATUS[0]}`], {
    cwd: ROOT,
    detached: true,
  });
  children.push(child);
  let first = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner line in 20 s: ${stderr}`)), 20_000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      first += d;
      const m = /listening on (http:\/\/\S+)/.exec(first);
      if (m) {
        clearTimeout(timer);
        resolve(m[1] as string);
      }
    });
  });
  // head has left by now (one line, then exit); a request makes serve write its log line.
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  for (let i = 0; i < 20; i++) {
    const answered = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
    }).then(
      () => true,
      () => false,
    );
    if (!answered) break;
    const done = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 250))]);
    if (done) break;
  }
  const code = await Promise.race([
    exited,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`serve did not stop: ${stderr}`)), 15_000)),
  ]);
  return { code, first, stderr };
}

test('serve | head -1: serve stops by itself, exit 0, no EPIPE', { timeout: 60_000 }, async () => {
  const { code, first, stderr } = await servePipedToHead('');
  assert.match(first, /^Understudy is listening on http:/);
  assert.equal(code, 0, stderr);
  assert.doesNotMatch(stderr, /EPIPE|Unhandled|Error/);
});

test('serve --workers 2 | head -1: every worker stops, exit 0', { timeout: 60_000 }, async () => {
  const { code, stderr } = await servePipedToHead('--workers 2');
  assert.equal(code, 0, stderr);
  assert.doesNotMatch(stderr, /EPIPE|Unhandled|exited \(/);
});

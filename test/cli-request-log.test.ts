// Issue 15 §3: `understudy serve` prints a line per request as it ends, on by default; `--log json`
// prints JSON lines; `--quiet` prints none (the banner stays).

import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import OpenAI from 'openai';
import { CLIS, killChildren, serveCli } from './support/cli-process.js';

after(() => killChildren());

const cli = CLIS.find((c) => c.name.includes('dist')) ?? (CLIS[0] as (typeof CLIS)[number]);

async function twoRequests(url: string): Promise<void> {
  const openai = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'k', maxRetries: 0, timeout: 10_000 });
  await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
  await openai.chat.completions.create({ model: 'gpt-4o', messages: [], temperature: 9 } as never).catch(() => {});
}

/** The output after the banner, once it holds `lines` lines (or after 5 s). */
async function logAfter(served: Awaited<ReturnType<typeof serveCli>>, lines: number): Promise<string[]> {
  await new Promise((resolve) => setTimeout(resolve, 300));
  const { stdout } = await served.stop();
  const log = stdout.slice(served.banner.length).split('\n').filter(Boolean);
  assert.ok(log.length >= lines || lines === 0, `log:\n${log.join('\n')}`);
  return log;
}

test('serve logs a line per request by default: a 200 answered by zero-config, a 400 with its reason', { timeout: 60_000 }, async () => {
  const served = await serveCli(cli, ['--port', '0']);
  await twoRequests(served.url);
  const log = await logAfter(served, 2);
  assert.match(log[0] as string, /  default  POST \/v1\/chat\/completions  200  zero-config  \d+ ms$/);
  assert.match(log[1] as string, /  default  POST \/v1\/chat\/completions  400  .*temperature.*  \d+ ms$/);
});

test('--log json prints JSON lines; --quiet prints none', { timeout: 60_000 }, async () => {
  const json = await serveCli(cli, ['--port', '0', '--log', 'json']);
  await twoRequests(json.url);
  const lines = (await logAfter(json, 2)).map((line) => JSON.parse(line) as { status: number; route: string });
  assert.deepEqual(
    lines.map((l) => [l.route, l.status]),
    [
      ['POST /v1/chat/completions', 200],
      ['POST /v1/chat/completions', 400],
    ],
  );
  const quiet = await serveCli(cli, ['--port', '0', '--quiet']);
  await twoRequests(quiet.url);
  assert.deepEqual(await logAfter(quiet, 0), []);
});

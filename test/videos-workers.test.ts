// Video jobs under `understudy serve --workers 2`: the jobs live with the owner, so a job made on
// one connection is found, polled, downloaded and deleted from any other, whichever worker each
// connection reaches, and one budget holds across them.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { Agent, fetch as undiciFetch } from 'undici';

import { connectUnderstudy } from '../src/index.js';
import { freshCli } from './support/fresh-cli.js';

const CWD = fileURLToPath(new URL('..', import.meta.url));
let serverProcess: ChildProcess;
let baseUrl: string;
const agents: Agent[] = [];

/** An SDK client on its own connection: node:cluster hands each new connection to the next worker. */
function client(apiKey: string): OpenAI {
  const agent = new Agent({ connections: 1 });
  agents.push(agent);
  return new OpenAI({
    baseURL: `${baseUrl}/v1`,
    apiKey,
    maxRetries: 0,
    timeout: 10_000,
    fetch: undiciFetch as unknown as typeof fetch,
    fetchOptions: { dispatcher: agent } as NonNullable<ConstructorParameters<typeof OpenAI>[0]>['fetchOptions'],
  });
}

before(async () => {
  serverProcess = spawn(process.execPath, [freshCli(), 'serve', '--port', '0', '--workers', '2'], {
    cwd: CWD,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no "listening" line: ${out}`)), 30_000);
    serverProcess.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  // The owner prints the line; wait until the second worker answers too (the default session
  // answers zero-config chat on any worker).
  const deadline = Date.now() + 20_000;
  for (;;) {
    await Promise.all(
      [0, 1, 2, 3].map(() =>
        client('understudy').chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
      ),
    );
    const journal = (await (await fetch(`${baseUrl}/_understudy/sessions/default/journal`)).json()) as { entries: { worker?: number }[] };
    if (journal.entries.some((e) => e.worker === 1)) break;
    assert.ok(Date.now() < deadline, 'the second worker never answered');
  }
});

after(async () => {
  for (const agent of agents) await agent.close();
  if (serverProcess.exitCode === null) {
    const exited = new Promise((resolve) => serverProcess.once('exit', resolve));
    serverProcess.kill('SIGTERM');
    const timer = setTimeout(() => serverProcess.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
});

test(
  'a job made on one connection is retrieved, downloaded and deleted on others; the budget is one [openai-videos.capacity.json +]',
  { timeout: 60_000 },
  async () => {
    const remote = await connectUnderstudy(baseUrl);
    const session = await remote.session(undefined, { videoCapacity: { maxJobs: 2 } });
    const job = await client(session.apiKey).videos.create({ prompt: 'spread out' });
    const seen = await Promise.all(Array.from({ length: 8 }, () => client(session.apiKey).videos.retrieve(job.id)));
    assert.ok(seen.every((v) => v.id === job.id && v.status === 'queued'));
    await session.advanceClock(10);
    const done = await Promise.all(Array.from({ length: 4 }, () => client(session.apiKey).videos.retrieve(job.id)));
    assert.ok(
      done.every((v) => v.status === 'completed'),
      'the clock moved for every worker',
    );
    const mp4 = await client(session.apiKey).videos.downloadContent(job.id);
    assert.equal(mp4.headers.get('content-type'), 'video/mp4');
    await client(session.apiKey).videos.create({ prompt: 'second' });
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, (_, i) => client(session.apiKey).videos.create({ prompt: `more ${i}` })),
    );
    assert.ok(results.every((r) => r.status === 'rejected' && r.reason instanceof OpenAI.APIError && r.reason.status === 409));
    await client(session.apiKey).videos.delete(job.id);
    assert.equal((await client(session.apiKey).videos.list()).data.length, 1);
    const { entries } = await session.journal();
    assert.equal(entries.filter((e) => e.operation === 'openai.videos.retrieve').length, 12, 'each request journalled once');
  },
);

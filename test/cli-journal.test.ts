// Issue 23 §3: `understudy journal` prints a running server's journal as text for CI logs, run as
// a user runs it (a `serve` child and a `journal` child, both from the current source), with requests
// from the real openai SDK: the scenario and step that answered, a strict 409 no_match with its
// failed predicate and the expected and actual values on lines of their own, the counters;
// `--json` lines; an unknown session named with the sessions there are; `--follow` prints a
// request within a second of its answer (measured from the SDK's answer to the line arriving on
// the follower's stdout), exits 0 on Ctrl-C and 1 when the server goes away.
// (test/cli-journal-access.test.ts: tokens, an unreachable server, bad usage.)

import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { after, before, test } from 'node:test';
import OpenAI from 'openai';
import { countersLine, entryLines } from '../src/cli/journal-text.js';
import { CLIS, killChildren, runCli, serveCli, spawnCli, type Cli } from './support/cli-process.js';

const SOURCE = CLIS[0] as Cli;
let dir = '';
let fixture = '';

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'understudy-journal-'));
  fixture = join(dir, 'weather.yaml');
  await writeFile(
    fixture,
    [
      'scenarios:',
      '  - name: weather',
      '    exhausted: repeat_last',
      '    steps:',
      '      - id: paris',
      '        when: { latestUser: { contains: "weather in Paris" } }',
      '        reply: { text: "Paris is sunny, 21 °C." }',
      // Never taken, so a request no scenario takes is its near miss (a completed scenario is none).
      '  - name: forecast',
      '    steps:',
      '      - id: tomorrow',
      '        when: { latestUser: { contains: "forecast for tomorrow" } }',
      '        reply: { text: "Rain." }',
      '',
    ].join('\n'),
  );
});

after(async () => {
  killChildren();
  await rm(dir, { recursive: true, force: true });
});

function sdk(url: string): OpenAI {
  return new OpenAI({ baseURL: `${url}/v1`, apiKey: 'understudy', maxRetries: 0, timeout: 10_000 });
}

const ask = (openai: OpenAI, content: string) => openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content }] });

/** A request no scenario takes: the strict server answers 409 no_match, which the SDK throws. */
async function askUnmatched(openai: OpenAI): Promise<void> {
  await assert.rejects(ask(openai, 'weather in London?'), (error: unknown) => error instanceof OpenAI.APIError && error.status === 409);
}

const journal = (args: string[]) => runCli(SOURCE, ['journal', ...args]);

/** The lines of an entry's text: its header (found by `#seq` and status) and the indented lines under it. */
function entryBlock(stdout: string, seq: number, status: number): string[] {
  const lines = stdout.split('\n');
  const start = lines.findIndex((line) => new RegExp(`  #${seq}  \\S+ \\S+  ${status}  `).test(line));
  assert.ok(start >= 0, `no entry #${seq} with status ${status} in:\n${stdout}`);
  const block = [lines[start] as string];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith('    ')) break;
    block.push(line);
  }
  return block;
}

test(
  'journal prints each entry with what answered, a 409 with its failed predicate, expected and actual, then the counters',
  { timeout: 60_000 },
  async () => {
    const served = await serveCli(SOURCE, ['--port', '0', '--strict', '--quiet', '--fixtures', fixture]);
    try {
      const openai = sdk(served.url);
      assert.equal((await ask(openai, "What's the weather in Paris?")).choices[0]?.message.content, 'Paris is sunny, 21 °C.');
      await askUnmatched(openai);

      const run = await journal(['--url', served.url]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stderr, '');
      const [answered] = entryBlock(run.stdout, 1, 200);
      assert.match(
        answered as string,
        /^\d\d:\d\d:\d\d\.\d{3}  default  #1  POST \/v1\/chat\/completions  200  scenario "weather" step "paris"/,
      );
      const refused = entryBlock(run.stdout, 2, 409);
      assert.match(refused[0] as string, /  default  #2  POST \/v1\/chat\/completions  409  no_match/);
      // The error's message, then the near miss: the predicate, then expected and actual on lines of their own.
      assert.match(refused[1] as string, /^ {4}no script matched this request/);
      const at = refused.indexOf('    near miss: scenario "forecast" step "tomorrow"');
      assert.ok(at > 0, refused.join('\n'));
      assert.deepEqual(refused.slice(at + 1, at + 4), [
        '      latestUser',
        '        expected: contains "forecast for tomorrow"',
        '        actual:   "weather in London?"',
      ]);
      assert.ok(
        refused.some((line) => /^ {4}usage: \d+ input, 0 output tokens$/.test(line)),
        refused.join('\n'),
      );
      assert.match(
        run.stdout,
        /^session default: requests 2, matched 1, unmatched 1, exhausted 0, mismatched 0, invalid 0, errors returned 1, aborted 0/m,
      );

      // --json (of the one session, its URL given with a slash): one object a line, the entries as
      // the control API gives them, then the counters.
      const json = await journal(['--url', `${served.url}/`, '--session', 'default', '--json']);
      assert.equal(json.code, 0, json.stderr);
      const lines = json.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      assert.deepEqual(
        lines.map((l) => l.seq ?? 'counters'),
        [1, 2, 'counters'],
      );
      assert.equal((lines[0] as { script?: string }).script, 'weather');
      assert.deepEqual((lines[1] as { nearMisses?: unknown[] }).nearMisses?.length, 1);
      const counters = ((await (await fetch(`${served.url}/_understudy/sessions/default/journal`)).json()) as { counters: unknown })
        .counters;
      assert.deepEqual(lines[2], { session: 'default', counters });

      // An unknown session is named, with the sessions there are (and the nearest).
      const unknown = await journal(['--url', served.url, '--session', 'defualt']);
      assert.equal(unknown.code, 1);
      assert.match(
        unknown.stderr,
        /^understudy: session "defualt" does not exist on the server at http:\/\/127\.0\.0\.1:\d+; did you mean "default"\? Its sessions: default\n$/,
      );
    } finally {
      await served.stop();
    }
  },
);

/** A `journal --follow` child whose stdout lines are kept with the moment each arrived here. */
function follower(args: string[]) {
  const child = spawnCli(SOURCE, ['journal', '--follow', ...args]);
  const lines: { text: string; at: number }[] = [];
  let partial = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (data: string) => {
    const at = performance.now();
    const parts = (partial + data).split('\n');
    partial = parts.pop() as string;
    for (const text of parts) lines.push({ text, at });
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const until = async (what: string, ok: () => boolean, ms = 20_000) => {
    const deadline = performance.now() + ms;
    while (!ok()) {
      if (performance.now() > deadline)
        throw new Error(`follower: no ${what} within ${ms} ms; stdout:\n${lines.map((l) => l.text).join('\n')}\nstderr:\n${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  return {
    child,
    lines,
    stderr: () => stderr,
    exited,
    /** Resolves once the backlog is printed and the feed is live. */
    live: () => until('live marker on stderr', () => stderr.includes('-- following ')),
    /** The first line matching `pattern`, once it has arrived. */
    async line(pattern: RegExp, ms?: number) {
      await until(`line matching ${pattern}`, () => lines.some((l) => pattern.test(l.text)), ms);
      return lines.find((l) => pattern.test(l.text)) as { text: string; at: number };
    },
  };
}

test(
  '[observe.journal-cli.follow +] journal --follow: the backlog, then each request within a second of its answer; Ctrl-C exits 0',
  { timeout: 60_000 },
  async (t) => {
    const served = await serveCli(SOURCE, ['--port', '0', '--strict', '--quiet', '--fixtures', fixture]);
    try {
      const openai = sdk(served.url);
      await ask(openai, 'weather in Paris, before the follower');
      const follow = follower(['--url', served.url, '--session', 'default']);
      await follow.live();
      // The backlog was printed before the feed went live.
      assert.match(follow.lines[0]?.text ?? '', /  default  #1  POST \/v1\/chat\/completions  200  scenario "weather" step "paris"/);

      const delays: number[] = [];
      for (let i = 0; i < 5; i++) {
        await ask(openai, `weather in Paris, request ${i}`);
        const answered = performance.now();
        const line = await follow.line(new RegExp(`  default  #${i + 2}  POST \\S+  200  scenario "weather" step "paris"`), 5_000);
        delays.push(line.at - answered);
      }
      await askUnmatched(openai);
      const answered = performance.now();
      const refused = await follow.line(/  default  #7  POST \S+  409  no_match/, 5_000);
      delays.push(refused.at - answered);
      // Its explanation follows at once: the failed predicate with expected and actual.
      await follow.line(/^ {8}actual: {3}"weather in London\?"$/, 5_000);
      assert.ok(follow.lines.some((l) => l.text === '        expected: contains "forecast for tomorrow"'));
      t.diagnostic(`from the SDK's answer to the follower's line, ms: ${delays.map((d) => d.toFixed(1)).join(', ')}`);
      assert.ok(
        Math.max(...delays) < 1000,
        `from the SDK's answer to the follower's line, ms: ${delays.map((d) => d.toFixed(1)).join(', ')}`,
      );

      follow.child.kill('SIGINT');
      assert.equal(await follow.exited, 0, follow.stderr());
    } finally {
      await served.stop();
    }
  },
);

test(
  '[observe.journal-cli.follow -] journal --follow --json prints parseable lines; a server that goes away ends it with exit 1 and says so',
  { timeout: 60_000 },
  async () => {
    const served = await serveCli(SOURCE, ['--port', '0', '--quiet']);
    const follow = follower(['--url', served.url, '--json']);
    try {
      await follow.live();
      const openai = sdk(served.url);
      await ask(openai, 'hello');
      await ask(openai, 'hello again');
      await follow.line(/"seq":2/, 5_000);
      const entries = follow.lines.map((l) => JSON.parse(l.text) as { seq: number; session: string; status: number; source?: string });
      assert.deepEqual(
        entries.map((e) => [e.session, e.seq, e.status, e.source]),
        [
          ['default', 1, 200, 'zero_config'],
          ['default', 2, 200, 'zero_config'],
        ],
      );
    } finally {
      await served.stop();
    }
    assert.equal(await follow.exited, 1);
    assert.match(follow.stderr(), /understudy: the (server at|journal feed from) http:\/\/127\.0\.0\.1:\d+ .*(went away|stopped)/);
  },
);

test('the text of entries the server journals less often: zero-config near miss, aborted, paced, faulted, a value of several lines', () => {
  const base = { session: 's1', route: 'POST /v1/messages', time: '2026-01-01T12:00:01.250Z' };
  assert.deepEqual(
    entryLines({
      ...base,
      seq: 4,
      status: 200,
      source: 'zero_config',
      ms: 2,
      nearMisses: [{ scenario: 'plan', step: 'ask', failed: [{ predicate: 'messages', expected: '[\n  "a"\n]', actual: '[]' }] }],
    }),
    [
      '12:00:01.250  s1  #4  POST /v1/messages  200  zero-config (near miss)  2 ms',
      '    near miss: scenario "plan" step "ask"',
      '      messages',
      '        expected: [',
      '                    "a"',
      '                  ]',
      '        actual:   []',
    ],
  );
  assert.deepEqual(
    entryLines({
      ...base,
      seq: 5,
      status: 499,
      event: 'request_aborted',
      error: { code: 'client_closed_request', message: 'the client left' },
    }),
    ['12:00:01.250  s1  #5  POST /v1/messages  499  aborted', '    the client left'],
  );
  assert.deepEqual(
    entryLines({
      ...base,
      seq: 6,
      status: 200,
      source: 'restart',
      script: 'loop',
      step: 'one',
      stream: true,
      ms: 412.4,
      firstByteMs: 0.4,
      pacing: { ttftMs: 200, chunksPerSecond: 20, jitterMs: 5 },
      fault: 'close after 2 chunks',
      worker: 1,
      usage: { inputTokens: 9, outputTokens: 3, cachedInputTokens: 4, reasoningTokens: 2 },
    }),
    [
      '12:00:01.250  s1  #6  POST /v1/messages  200  scenario "loop" step "one" (restart)  412 ms',
      '    usage: 9 input, 3 output, 4 cached input, 2 reasoning tokens',
      '    stream, paced (first token after 200 ms, 20 chunks/s, jitter ±5 ms), first byte after 0.4 ms, fault: close after 2 chunks, worker 1',
    ],
  );
  assert.equal(
    countersLine('s1', {
      requests: 3,
      matched: 1,
      unmatched: 0,
      exhausted: 0,
      mismatched: 0,
      invalid: 0,
      errorsReturned: 1,
      aborted: 1,
      evicted: 0,
      nearMisses: 1,
      later: 7,
    }),
    'session s1: requests 3, matched 1, unmatched 0, exhausted 0, mismatched 0, invalid 0, errors returned 1, aborted 1, near misses 1, evicted 0, later 7',
  );
});

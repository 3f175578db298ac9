// `understudy serve`'s start-up banner tells the truth, checked against what the server then does:
// the fallback in force (a fixture's `session: fallback: strict`, and --strict over a file's
// `auto`), session pacing from a file, every chaos flag, and the scenarios and steps with scripted
// pacing, delays, errors or faults. Two --fixtures files defining one scenario name are refused,
// naming both files.

import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import OpenAI from 'openai';
import { CLIS, killChildren, runCli, serveCli } from './support/cli-process.js';

const dir = await mkdtemp(join(tmpdir(), 'understudy-banner-'));
after(async () => {
  killChildren();
  await rm(dir, { recursive: true, force: true });
});

async function fixture(name: string, lines: string[]): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, `${lines.join('\n')}\n`);
  return file;
}

const STRICT = await fixture('strict.yaml', [
  'session:',
  '  fallback: strict',
  'scenarios:',
  '  - name: hello',
  '    steps:',
  "      - when: { latestUser: { contains: 'hello' } }",
  "        reply: { text: 'hi there' }",
]);
const AUTO = await fixture('auto.yaml', [
  'session:',
  '  fallback: auto',
  'scenarios:',
  '  - name: other',
  '    steps:',
  "      - when: { latestUser: 'other' }",
  '        reply: { text: x }',
]);
const TIMING = await fixture('timing.yaml', [
  'session:',
  '  pacing: { ttftMs: 250, chunksPerSecond: 40 }',
  'scenarios:',
  '  - name: slow-model',
  '    pacing: { chunksPerSecond: 5, jitterMs: 20 }',
  '    steps:',
  '      - id: think',
  "        reply: { text: 'a b c', pacing: { ttftMs: 2000 } }",
  '  - name: flaky',
  '    replies:',
  '      - { error: { status: 429, message: slow down, code: rate_limit_exceeded }, delayMs: 30 }',
  '      - { text: partial answer, fault: { kind: reset, afterChunks: 2 } }',
  '      - { text: ok }',
]);
const GREETING_AGAIN = await fixture('greeting-again.yaml', ['scenarios:', '  - name: greeting', '    replies: [{ text: again }]']);

function sdk(url: string): OpenAI {
  return new OpenAI({ baseURL: `${url}/v1`, apiKey: 'understudy', maxRetries: 0, timeout: 10_000 });
}

const unmatched = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'nothing scripts this' }] };

/** The banner's line that starts with `label` (after its indent). */
function line(banner: string, label: string): string | undefined {
  return banner.split('\n').find((l) => l.trimStart().startsWith(label));
}

for (const cli of CLIS) {
  describe(`serve's banner from ${cli.name}`, { skip: cli.skip }, () => {
    test('no fixture, no flag: zero-config answers, and nothing else claimed', async () => {
      const served = await serveCli(cli, ['--port', '0']);
      try {
        assert.match(line(served.banner, 'unmatched requests:') ?? '', /zero-config answers/);
        for (const label of ['pacing', 'chaos', 'scripted']) assert.equal(line(served.banner, label), undefined, served.banner);
        const answer = await sdk(served.url).chat.completions.create(unmatched);
        assert.equal(answer.choices[0].finish_reason, 'stop');
      } finally {
        await served.stop();
      }
    });

    test('the banner links the dashboard and the metrics, and says where the control token goes; the dashboard answers there', async () => {
      const served = await serveCli(cli, ['--port', '0', '--control-token', 'banner-token']);
      try {
        const printed = line(served.banner, 'Dashboard:') ?? '';
        assert.equal(
          printed,
          `Dashboard: ${served.url}/_understudy/ui/#token=<the control token>  Metrics: ${served.url}/_understudy/metrics (docs/dashboard.md)`,
        );
        const page = await fetch(`${served.url}/_understudy/ui/`);
        assert.notEqual(page.status, 401, 'the page needs no token; its data calls do');
        await page.arrayBuffer();
        const metrics = await fetch(`${served.url}/_understudy/metrics`, { headers: { authorization: 'Bearer banner-token' } });
        assert.equal(metrics.status, 200);
        await metrics.arrayBuffer();
      } finally {
        await served.stop();
      }
      const plain = await serveCli(cli, ['--port', '0', '--no-metrics']);
      try {
        assert.equal(line(plain.banner, 'Dashboard:'), `Dashboard: ${plain.url}/_understudy/ui/ (docs/dashboard.md)`);
        assert.equal((await fetch(`${plain.url}/_understudy/metrics`)).status, 404);
      } finally {
        await plain.stop();
      }
    });

    test("the banner's Bedrock client line works as printed: Converse over the AWS client's default HTTP/2", async () => {
      const served = await serveCli(cli, ['--port', '0']);
      try {
        const printed = line(served.banner, 'new BedrockRuntimeClient(') ?? '';
        const endpoint = /endpoint: '([^']+)'/.exec(printed)?.[1];
        assert.equal(endpoint, served.url, served.banner);
        const client = new BedrockRuntimeClient({
          endpoint,
          region: 'us-east-1',
          credentials: { accessKeyId: 'understudy', secretAccessKey: 'x' },
          maxAttempts: 1,
          requestHandler: { requestTimeout: 10_000 },
        });
        const answer = await client.send(
          new ConverseCommand({ modelId: 'amazon.nova-lite-v1:0', messages: [{ role: 'user', content: [{ text: 'hi' }] }] }),
        );
        assert.equal(answer.stopReason, 'end_turn');
        assert.ok(answer.output?.message?.content?.[0]?.text);
        client.destroy();
      } finally {
        await served.stop();
      }
    });

    test("a fixture's session.fallback: strict shows as strict, named, and is strict", async () => {
      const served = await serveCli(cli, ['--port', '0', '--fixtures', STRICT]);
      try {
        assert.equal(
          line(served.banner, 'unmatched requests:'),
          `  unmatched requests: strict (409 no_match naming the nearest script), set by ${STRICT}`,
        );
        const error = await sdk(served.url)
          .chat.completions.create(unmatched)
          .then(
            () => assert.fail('answered although the banner says strict'),
            (e: unknown) => e,
          );
        assert.ok(error instanceof OpenAI.ConflictError, String(error));
        assert.equal(error.code, 'no_match');
      } finally {
        await served.stop();
      }
    });

    test("--strict wins over a fixture's fallback: auto, and the banner says so", async () => {
      const served = await serveCli(cli, ['--port', '0', '--strict', '--fixtures', AUTO]);
      try {
        assert.match(line(served.banner, 'unmatched requests:') ?? '', /^ {2}unmatched requests: strict .*, set by --strict$/);
        await assert.rejects(sdk(served.url).chat.completions.create(unmatched), OpenAI.ConflictError);
      } finally {
        await served.stop();
      }
      // Without the flag the file's auto is in force.
      const auto = await serveCli(cli, ['--port', '0', '--fixtures', AUTO]);
      try {
        assert.match(
          line(auto.banner, 'unmatched requests:') ?? '',
          new RegExp(`zero-config answers .*, set by ${AUTO.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
        );
        assert.equal((await sdk(auto.url).chat.completions.create(unmatched)).choices[0].finish_reason, 'stop');
      } finally {
        await auto.stop();
      }
    });

    test('every chaos flag is named, and is in force', async () => {
      const served = await serveCli(cli, [
        '--port',
        '0',
        '--latency',
        '20',
        '--chaos-drop',
        '0',
        '--rate-limit-after',
        '1',
        '--content-filter',
        'forbidden',
        '--content-filter',
        'banned',
      ]);
      try {
        const chaos = line(served.banner, 'chaos') ?? '';
        assert.match(chaos, /latency 20 ms \(--latency\)/);
        assert.match(chaos, /0 % of requests dropped with a 500 \(--chaos-drop\)/);
        assert.match(chaos, /429 after 1 requests \(--rate-limit-after\)/);
        assert.match(chaos, /content filter on "forbidden", "banned" \(--content-filter\)/);
        const openai = sdk(served.url);
        await openai.chat.completions.create(unmatched);
        await assert.rejects(openai.chat.completions.create(unmatched), OpenAI.RateLimitError);
      } finally {
        await served.stop();
      }
    });

    test('session pacing from a file, and scripted pacing, delays, errors and faults, are listed', async () => {
      const served = await serveCli(cli, ['--port', '0', '--fixtures', TIMING]);
      try {
        assert.equal(
          line(served.banner, 'pacing of every stream:'),
          `  pacing of every stream: first token after 250 ms, 40 events/s, set by ${TIMING}`,
        );
        const scripted = served.banner.slice(served.banner.indexOf('scripted timing and failures:'));
        assert.match(scripted, /^ {4}slow-model \(every step\): pacing 5 events\/s, jitter ± 20 ms$/m);
        assert.match(scripted, /^ {4}slow-model think: pacing first token after 2000 ms$/m);
        assert.match(scripted, /^ {4}flaky step-1: error 429 rate_limit_exceeded; delay 30 ms$/m);
        assert.match(scripted, /^ {4}flaky step-2: fault reset after 2 events$/m);
        assert.doesNotMatch(scripted, /flaky step-3/, 'a plain reply is not listed');
      } finally {
        await served.stop();
      }
    });

    test('two --fixtures files with one scenario name: refused, naming both files', async () => {
      const run = await runCli(cli, ['serve', '--port', '0', '--fixtures', 'examples/queue.yaml', GREETING_AGAIN]);
      assert.equal(run.code, 1, run.stdout + run.stderr);
      assert.equal(run.signal, null);
      assert.match(
        run.stderr,
        new RegExp(
          `scenario "greeting" is defined in both examples/queue\\.yaml and ${GREETING_AGAIN.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
        ),
      );
      assert.doesNotMatch(run.stdout, /listening on/);
      const twice = await runCli(cli, ['serve', '--port', '0', '--fixtures', 'examples/queue.yaml', 'examples/queue.yaml']);
      assert.equal(twice.code, 1);
      assert.match(twice.stderr, /examples\/queue\.yaml is given twice/);
      // validate says so too, as a note: files checked together may be meant for different servers.
      const validated = await runCli(cli, ['validate', 'examples/queue.yaml', GREETING_AGAIN]);
      assert.equal(validated.code, 0, validated.stdout + validated.stderr);
      assert.ok(
        validated.stdout.includes(`note: scenario "greeting" is defined in both examples/queue.yaml and ${GREETING_AGAIN}`),
        validated.stdout,
      );
    });
  });
}

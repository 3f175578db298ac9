// The record-and-replay workflow as a team runs it from the command line (docs/record-replay.md):
// `serve --record DIR --upstream openai=URL` records an agent loop from a local upstream, the
// recording passes `validate`, `serve --fixtures DIR --strict` (and `--replay DIR`) replays it with the upstream
// stopped and the SDK sees the same answers, and `drift` is quiet while the upstream answers
// alike and reports the step whose answer changed shape.

import assert from 'node:assert/strict';
import { after, test } from 'node:test';

import OpenAI from 'openai';

import { CLIS, killChildren, runCli, serveCli, type Cli } from './support/cli-process.js';
import { CLOCK_TOOL, recordedFiles, recordingDir, startUpstream, toolResult, UPSTREAM_KEY, WEATHER_TOOL } from './support/record-replay.js';

const SOURCE = CLIS[0] as Cli;
after(killChildren);

const TOOLS = [WEATHER_TOOL, CLOCK_TOOL].map((t) => ({ type: 'function' as const, function: t }));

/** The upstream's loop to its end: what the application saw. */
async function weatherLoop(baseURL: string): Promise<unknown[]> {
  const sdk = new OpenAI({ baseURL, apiKey: UPSTREAM_KEY, maxRetries: 0, timeout: 10_000 });
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Paris?' }];
  const seen: unknown[] = [];
  for (let round = 0; round < 4; round++) {
    const { choices, usage } = await sdk.chat.completions.create({ model: 'gpt-4o', messages, tools: TOOLS });
    const message = choices[0].message;
    seen.push({ content: message.content, calls: message.tool_calls, finish: choices[0].finish_reason, usage });
    messages.push(message);
    const calls = (message.tool_calls ?? []).filter((c) => c.type === 'function');
    if (calls.length === 0) break;
    for (const call of calls) messages.push({ role: 'tool', tool_call_id: call.id, content: toolResult(call.function.name) });
  }
  return seen;
}

test('record with serve --record, validate the directory, replay it with --fixtures --strict, and check it for drift', async () => {
  const upstream = await startUpstream();
  const dir = recordingDir();
  try {
    const recording = await serveCli(SOURCE, [
      '--port',
      '0',
      '--quiet',
      '--record',
      dir,
      '--upstream',
      `openai=${upstream.mock.url('openai')}`,
    ]);
    assert.match(recording.banner, /recording to .* \(mode missing\): what no script answers goes upstream: openai → http/);
    const recorded = await weatherLoop(`${recording.url}/v1`);
    await recording.stop();
    assert.equal(recorded.length, 3);
    assert.deepEqual(
      recordedFiles(dir).map((f) => f.path.slice(dir.length)),
      ['/default.yaml'],
    );

    const validated = await runCli(SOURCE, ['validate', dir]);
    assert.equal(validated.code, 0, validated.stdout + validated.stderr);

    const quiet = await runCli(SOURCE, ['drift', dir, '--upstream', `openai=${upstream.mock.url('openai')}`], {
      env: { OPENAI_API_KEY: UPSTREAM_KEY },
    });
    assert.equal(quiet.code, 0, quiet.stdout + quiet.stderr);
    assert.match(quiet.stdout, /3 recorded steps: 3 unchanged/);

    // The provider now answers the weather call's result with text, where it called a tool.
    const session = await upstream.mock.session('changed', { apiKey: 'sk-changed', fallback: 'strict' });
    session
      .scenario('loop')
      .onExhausted('restart')
      .whenLatestUser({ contains: 'weather' })
      .callsTool('weather', { city: 'Paris' }, 'call_weather_1')
      .thenWhenToolResult('weather', 'call_weather_1')
      .replies('It is sunny.');
    const drifted = await runCli(SOURCE, ['drift', dir, '--upstream', `openai=${upstream.mock.url('openai')}`], {
      env: { OPENAI_API_KEY: 'sk-changed' },
    });
    assert.equal(drifted.code, 1, drifted.stdout + drifted.stderr);
    assert.match(drifted.stdout, /unchanged +\S+default\.yaml +default \/ call-1\n/);
    assert.match(
      drifted.stdout,
      /drifted +\S+default\.yaml +default \/ call-2\n(?: {4}.*\n)*? {4}field removed: \$\.choices\[\]\.message\.tool_calls \(array\)\n(?: {4}.*\n)*? {4}tools called: clock → none\n/,
    );
    for (const run of [quiet, drifted]) assert.ok(!run.stdout.includes(UPSTREAM_KEY) && !run.stderr.includes(UPSTREAM_KEY));

    await upstream.mock.close();
    for (const flag of ['--fixtures', '--replay']) {
      const replay = await serveCli(SOURCE, ['--port', '0', '--quiet', flag, dir, '--strict']);
      try {
        if (flag === '--replay') assert.match(replay.banner, /replaying: each session starts with its recordings from /);
        assert.deepEqual(await weatherLoop(`${replay.url}/v1`), recorded, `replayed with ${flag}`);
      } finally {
        await replay.stop();
      }
    }
  } finally {
    await upstream.mock.close();
  }
});

test('record mode flags are checked before anything starts', async () => {
  const dir = recordingDir();
  const stray = await runCli(SOURCE, ['serve', '--port', '0', '--upstream', 'openai=http://127.0.0.1:9/v1']);
  assert.equal(stray.code, 2);
  assert.match(stray.stderr, /--upstream needs --record DIR/);
  const unknown = await runCli(SOURCE, ['serve', '--port', '0', '--record', dir, '--upstream', 'openia=http://127.0.0.1:9/v1']);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /unknown upstream provider "openia"; known: anthropic, azure/);
  const badMode = await runCli(SOURCE, ['serve', '--port', '0', '--record', dir, '--record-mode', 'sometimes']);
  assert.equal(badMode.code, 2);
  assert.match(badMode.stderr, /--record-mode must be missing or all, got "sometimes"/);
  const workers = await runCli(SOURCE, ['serve', '--port', '0', '--record', dir, '--workers', '2']);
  assert.equal(workers.code, 2);
  assert.match(workers.stderr, /--record runs in one process/);
  const badRedact = await runCli(SOURCE, ['serve', '--port', '0', '--record', dir, '--redact', 'metadata.user']);
  assert.equal(badRedact.code, 1);
  assert.match(badRedact.stderr, /a redaction path must start with "\$": metadata.user/);
});

test('serve and drift read --upstream alike: a name twice, or a URL that is not http(s), is bad usage', async () => {
  const dir = recordingDir();
  for (const command of [
    ['serve', '--port', '0', '--record', dir],
    ['drift', dir],
  ]) {
    const twice = await runCli(SOURCE, [
      ...command,
      '--upstream',
      'openai=http://127.0.0.1:9/v1',
      '--upstream',
      'openai=http://127.0.0.1:8/v1',
    ]);
    assert.equal(twice.code, 2, twice.stderr);
    assert.match(twice.stderr, /--upstream openai is given twice/);
    const ftp = await runCli(SOURCE, [...command, '--upstream', 'openai=ftp://example.test/v1']);
    assert.equal(ftp.code, 2, ftp.stderr);
    assert.match(ftp.stderr, /--upstream must be NAME=URL with an http\(s\) URL/);
  }
});

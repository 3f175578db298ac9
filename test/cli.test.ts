// The `understudy` command, run as a child process the way a user runs it: `serve` with the
// example fixtures answers the real openai SDK, zero-config answers the README curl verbatim,
// `--strict` turns that off; `validate` reports problems as file:line:col; bad usage exits 2.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { CLIS, killChildren, runCli, serveCli, type Cli } from './support/cli-process.js';

const SOURCE = CLIS[0] as Cli;
const run = (args: string[]) => runCli(SOURCE, args);
const serve = (args: string[]) => serveCli(SOURCE, args);
const tempDirs: string[] = [];

after(async () => {
  killChildren();
  for (const dir of tempDirs) await rm(dir, { recursive: true, force: true });
});

function sdk(url: string): OpenAI {
  return new OpenAI({ baseURL: `${url}/v1`, apiKey: 'understudy', maxRetries: 0, timeout: 10_000 });
}

const WEATHER_TOOL = {
  type: 'function' as const,
  function: {
    name: 'weather',
    description: 'Current weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

// The OpenAI example of /work/shared/seeds/002 (a zero-config tool call), body byte for byte.
const SEED_OPENAI_CURL_BODY = `{"model": "gpt-4o",
       "messages": [{"role": "user", "content": "Weather?"}],
       "tools": [{"type": "function",
                  "function": {"name": "get_weather", "parameters": {}}}]}`;

test('serve with the example fixtures: banner, weather round, queue, zero-config, clean shutdown', async () => {
  const served = await serve(['--port', '0', '--fixtures', 'examples/weather.yaml', 'examples/queue.yaml']);
  try {
    const banner = served.banner;
    assert.match(served.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(!served.url.endsWith(':0'), 'the real port is printed, not 0');
    assert.match(banner, /examples\/weather\.yaml, examples\/queue\.yaml/);
    assert.match(banner, /scenarios: weather-paris, greeting/);
    assert.ok(banner.includes(`new OpenAI({ baseURL: '${served.url}/v1', apiKey: 'understudy' })`), banner);
    assert.ok(banner.includes(`curl ${served.url}/v1/chat/completions`), banner);
    assert.ok(banner.includes(`${served.url}/_understudy/health`), banner);

    const openai = sdk(served.url);

    // The weather example: a tool call, then the answer from its result.
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: "What's the weather in Paris?" }];
    const first = await openai.chat.completions.create({ model: 'gpt-4o', messages, tools: [WEATHER_TOOL] });
    assert.equal(first.choices[0].finish_reason, 'tool_calls');
    const call = first.choices[0].message.tool_calls?.[0];
    assert.ok(call && call.type === 'function');
    assert.equal(call.id, 'call_paris');
    assert.equal(call.function.name, 'weather');
    assert.deepEqual(JSON.parse(call.function.arguments), { city: 'Paris' });
    messages.push(first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: '{"temp":21,"sky":"sunny"}' });
    const second = await openai.chat.completions.create({ model: 'gpt-4o', messages, tools: [WEATHER_TOOL] });
    assert.equal(second.choices[0].finish_reason, 'stop');
    assert.equal(second.choices[0].message.content, 'Paris is sunny, 21 °C.');

    // The queue example, streamed this time.
    const stream = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello!' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    assert.equal(text, 'Hello from Understudy!');
    assert.equal(
      (await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hello' }] })).choices[0].message
        .content,
      'Hello again! Still here.',
    );

    // Zero-config: an unrelated request with tools gets a call of the declared tool, then text once a result is there.
    const zero = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'What time is it in Tokyo?' }],
      tools: [{ type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: { tz: { type: 'string' } } } } }],
    });
    const zeroCall = zero.choices[0].message.tool_calls?.[0];
    assert.ok(zeroCall && zeroCall.type === 'function');
    assert.equal(zeroCall.function.name, 'get_time');
    assert.equal(zeroCall.function.arguments, '{}');
    const zeroDone = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'user', content: 'What time is it in Tokyo?' },
        zero.choices[0].message,
        { role: 'tool', tool_call_id: zeroCall.id, content: '09:00' },
      ],
      tools: [{ type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: { tz: { type: 'string' } } } } }],
    });
    assert.equal(zeroDone.choices[0].finish_reason, 'stop');
    assert.ok((zeroDone.choices[0].message.content ?? '').length > 0);

    // The seed's OpenAI curl example, verbatim (no Authorization header, like the curl).
    const curl = await fetch(`${served.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: SEED_OPENAI_CURL_BODY,
    });
    assert.equal(curl.status, 200);
    const body = (await curl.json()) as {
      choices: {
        message: { role: string; content: null; tool_calls: { id: string; type: string; function: { name: string; arguments: string } }[] };
        finish_reason: string;
      }[];
    };
    assert.equal(body.choices[0].finish_reason, 'tool_calls');
    assert.equal(body.choices[0].message.role, 'assistant');
    assert.equal(body.choices[0].message.content, null);
    assert.equal(body.choices[0].message.tool_calls.length, 1);
    assert.equal(body.choices[0].message.tool_calls[0].type, 'function');
    assert.equal(body.choices[0].message.tool_calls[0].function.name, 'get_weather');
    assert.equal(body.choices[0].message.tool_calls[0].function.arguments, '{}');
    assert.match(body.choices[0].message.tool_calls[0].id, /^call_/);

    // The control API is there too, and the default session recorded all of the above.
    const journal = (await (await fetch(`${served.url}/_understudy/sessions/default/journal`)).json()) as {
      entries: { status: number; source?: string }[];
    };
    assert.deepEqual(
      journal.entries.map((e) => e.status),
      [200, 200, 200, 200, 200, 200, 200],
    );
    assert.deepEqual(
      journal.entries.map((e) => e.source),
      ['script', 'script', 'script', 'script', 'zero_config', 'zero_config', 'zero_config'],
    );
  } finally {
    const result = await served.stop();
    assert.equal(result.code, 0, `SIGTERM should stop serve cleanly; stderr: ${result.stderr}`);
  }
});

test('serve --strict answers an unmatched request with 409 no_match', async () => {
  const served = await serve(['--port', '0', '--strict', '--fixtures', 'examples/weather.yaml']);
  try {
    assert.match(served.banner, /unmatched requests: strict/);
    const openai = sdk(served.url);
    const error = await openai.chat.completions
      .create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'Weather?' }],
        tools: [{ type: 'function', function: { name: 'get_weather', parameters: {} } }],
      })
      .then(
        () => assert.fail('answered in strict mode'),
        (e: unknown) => e,
      );
    assert.ok(error instanceof OpenAI.ConflictError, String(error));
    assert.equal(error.code, 'no_match');
    assert.match(error.message, /weather-paris/, 'names the nearest script');
    // The scripted round still works in strict mode.
    const ok = await openai.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'weather in Paris please' }],
      tools: [WEATHER_TOOL],
    });
    assert.equal(ok.choices[0].message.tool_calls?.[0].id, 'call_paris');
  } finally {
    await served.stop();
  }
});

async function brokenFixture(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'understudy-cli-'));
  tempDirs.push(dir);
  const file = join(dir, 'broken.yaml');
  await writeFile(
    file,
    ['scenarios:', '  - name: broken', '    exhausted: repeat', '    steps:', '      - reply:', '          text: hi', ''].join('\n'),
  );
  return file;
}

test('validate: ok files exit 0; a broken file exits 1 with file:line:col  /path  message; no file exits 2', async () => {
  const ok = await run(['validate', 'examples/weather.yaml', 'examples/queue.yaml']);
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, /^ok {2}examples\/weather\.yaml \(1 scenario\)$/m);
  assert.match(ok.stdout, /^ok {2}examples\/queue\.yaml \(1 scenario\)$/m);

  const file = await brokenFixture();
  const broken = await run(['validate', 'examples/weather.yaml', file]);
  assert.equal(broken.code, 1, broken.stdout + broken.stderr);
  assert.match(broken.stdout, /^ok {2}examples\/weather\.yaml/m, 'the good file is still reported');
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  assert.match(
    broken.stdout,
    new RegExp(`^${escaped}:3:\\d+ {2}/scenarios/0/exhausted {2}expected one of reject, repeat_last, restart; found "repeat"`, 'm'),
  );

  const missing = await run(['validate', join(tmpdir(), 'no-such-understudy-fixture.yaml')]);
  assert.equal(missing.code, 1);
  assert.match(missing.stdout, /no-such-understudy-fixture\.yaml {2}\(file\) {2}expected a readable fixture file; no such file/);

  const none = await run(['validate']);
  assert.equal(none.code, 2);
  assert.match(none.stdout + none.stderr, /usage: understudy validate FILE/);
});

test('serve with a broken fixture exits non-zero and names the file and path', async () => {
  const file = await brokenFixture();
  const result = await run(['serve', '--port', '0', '--fixtures', 'examples/weather.yaml', file]);
  assert.notEqual(result.code, 0);
  assert.equal(result.signal, null, 'exited by itself, was not killed');
  const output = result.stdout + result.stderr;
  assert.ok(output.includes(file), output);
  assert.match(output, /\/scenarios\/0\/exhausted/);
  assert.doesNotMatch(output, /listening on/);
});

test('bad usage exits 2 and says what was wrong (help and did-you-mean: cli-help.test.ts)', async () => {
  const unknown = await run(['frobnicate']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown command "frobnicate" \(understudy --help lists the commands\)/);

  const badPort = await run(['serve', '--port', 'eighty']);
  assert.equal(badPort.code, 2);
  assert.match(badPort.stderr, /--port must be an integer/);

  const badOption = await run(['serve', '--colour']);
  assert.equal(badOption.code, 2);
  assert.match(badOption.stderr, /unknown flag "--colour"/);

  const help = await run(['--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^ {2}serve +Start the server/m);
});

// Record mode's rules beyond one loop (issue 22, docs/record-replay.md), through the real openai
// SDK against a local upstream: mode missing answers from what is recorded and adds what is not,
// keeping the file's earlier scenarios; mode all sends everything again and writes the file
// afresh; separate conversations of one session are separate scenarios; an upstream that cannot be
// reached is a 502 in the provider's shape, an upstream's error is relayed and not recorded, a
// client that leaves part-way records nothing; sessions choose their own upstreams or none; what
// --redact names never reaches the files.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import OpenAI from 'openai';
import { parse } from 'yaml';

import { startUnderstudy } from '../src/client/index.js';
import { recordedFiles, recordingDir, startUpstream, STORY, UPSTREAM_KEY } from './support/record-replay.js';

function client(baseURL: string): OpenAI {
  return new OpenAI({ baseURL, apiKey: UPSTREAM_KEY, maxRetries: 0, timeout: 10_000 });
}

async function ask(baseURL: string, question: string, extra: Record<string, unknown> = {}): Promise<string | null> {
  const completion = await client(baseURL).chat.completions.create({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: question }],
    ...extra,
  });
  return completion.choices[0].message.content;
}

function scenariosIn(file: string): { name: string; steps: unknown[] }[] {
  return (parse(readFileSync(file, 'utf8')) as { scenarios: { name: string; steps: unknown[] }[] }).scenarios;
}

test('mode missing answers what the directory holds without the upstream and records only what it does not, keeping the earlier scenarios', async () => {
  const upstream = await startUpstream();
  const dir = recordingDir();
  const record = { dir, upstreams: { openai: upstream.mock.url('openai') } };
  try {
    const first = await startUnderstudy({ record });
    assert.equal(await ask(first.url('openai'), 'Tell me a story.'), STORY);
    await first.close();
    assert.equal(await upstream.requests(), 1);

    const second = await startUnderstudy({ record });
    assert.equal(await ask(second.url('openai'), 'Tell me a story.'), STORY, 'answered from the recording');
    assert.equal(await upstream.requests(), 1, 'the recorded question did not go upstream again');
    const miss = await client(second.url('openai')).chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Tell me another story, please.' }],
    });
    assert.equal(miss.choices[0].message.content, STORY);
    assert.equal(await upstream.requests(), 2, 'the new question went upstream');
    const journal = await second.defaultSession.journal();
    assert.deepEqual(
      journal.entries.map((e) => e.source),
      ['script', 'upstream'],
    );
    await second.close();
    const scenarios = scenariosIn(join(dir, 'default.yaml'));
    assert.deepEqual(
      scenarios.map((s) => s.name),
      ['default', 'default-2'],
    );
  } finally {
    await upstream.mock.close();
  }
});

test('mode all sends every request upstream again and writes the session file afresh', async () => {
  const upstream = await startUpstream();
  const dir = recordingDir();
  try {
    for (let run = 1; run <= 2; run++) {
      const recorder = await startUnderstudy({ record: { dir, upstreams: { openai: upstream.mock.url('openai') }, mode: 'all' } });
      assert.equal(await ask(recorder.url('openai'), 'Tell me a story.'), STORY);
      await recorder.close();
      assert.equal(await upstream.requests(), run);
    }
    assert.deepEqual(
      scenariosIn(join(dir, 'default.yaml')).map((s) => [s.name, s.steps.length]),
      [['default', 1]],
    );
  } finally {
    await upstream.mock.close();
  }
});

test('two conversations of one session are two scenarios, each step where its conversation goes on', async () => {
  const upstream = await startUpstream();
  const dir = recordingDir();
  const recorder = await startUnderstudy({ record: { dir, upstreams: { openai: upstream.mock.url('openai') } } });
  try {
    const sdk = client(recorder.url('openai'));
    const story: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Tell me a story.' }];
    const other: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'A story about the sea, please.' }];
    for (const messages of [story, other, story]) {
      const answer = await sdk.chat.completions.create({ model: 'gpt-4o', messages });
      messages.push(answer.choices[0].message, { role: 'user', content: 'And then, what story?' });
    }
    assert.deepEqual(
      scenariosIn(join(dir, 'default.yaml')).map((s) => [s.name, s.steps.length]),
      [
        ['default', 2],
        ['default-2', 1],
      ],
    );
  } finally {
    await recorder.close();
    await upstream.mock.close();
  }
});

test("an upstream that cannot be reached is a 502 in OpenAI's shape, and nothing is recorded", async () => {
  const upstream = await startUpstream();
  const gone = upstream.mock.url('openai');
  await upstream.mock.close();
  const dir = recordingDir();
  const recorder = await startUnderstudy({ record: { dir, upstreams: { openai: gone } } });
  try {
    await assert.rejects(
      ask(recorder.url('openai'), 'Tell me a story.'),
      (error: unknown) => error instanceof OpenAI.APIError && error.status === 502 && /could not reach the upstream/.test(error.message),
    );
    const [entry] = (await recorder.defaultSession.journal()).entries;
    assert.equal(entry.status, 502);
    assert.deepEqual(recordedFiles(dir), []);
  } finally {
    await recorder.close();
  }
});

test("an upstream's error answer reaches the SDK as the upstream sent it and is not recorded", async () => {
  const upstream = await startUpstream();
  const dir = recordingDir();
  const recorder = await startUnderstudy({ record: { dir, upstreams: { openai: upstream.mock.url('openai') } } });
  try {
    await assert.rejects(
      ask(recorder.url('openai'), 'Nothing the upstream knows.'),
      (error: unknown) => error instanceof OpenAI.APIError && error.status === 409 && error.code === 'no_match',
    );
    const [entry] = (await recorder.defaultSession.journal()).entries;
    assert.equal(entry.source, 'upstream');
    assert.equal(entry.status, 409);
    assert.deepEqual(recordedFiles(dir), []);
  } finally {
    await recorder.close();
    await upstream.mock.close();
  }
});

test('a client that leaves part-way through a relayed stream records nothing', async () => {
  const upstream = await startUpstream({ chunksPerSecond: 10 });
  const dir = recordingDir();
  const recorder = await startUnderstudy({ record: { dir, upstreams: { openai: upstream.mock.url('openai') } } });
  try {
    const controller = new AbortController();
    const stream = await client(recorder.url('openai')).chat.completions.create(
      { model: 'gpt-4o', messages: [{ role: 'user', content: 'Tell me a story.' }], stream: true },
      { signal: controller.signal },
    );
    let pieces = 0;
    try {
      for await (const chunk of stream) {
        if (chunk.choices[0]?.delta.content && ++pieces === 2) controller.abort();
      }
    } catch {
      // the SDK reports the abort its own way; what matters is what the recorder kept
    }
    assert.equal(pieces, 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(recordedFiles(dir), []);
    const [entry] = (await recorder.defaultSession.journal()).entries;
    assert.equal(entry.status, 499, 'journalled as a request its client left');
  } finally {
    await recorder.close();
    await upstream.mock.close();
  }
});

test('a session names its own upstreams, or records nothing; a server that does not record refuses a session that asks to', async () => {
  const upstream = await startUpstream();
  const dir = recordingDir();
  const recorder = await startUnderstudy({ record: { dir, upstreams: {} } });
  const plain = await startUnderstudy();
  try {
    // Over the control API, as a test suite in any language would.
    const created = await fetch(`${recorder.baseUrl}/_understudy/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'own-upstream', record: { upstreams: { openai: upstream.mock.url('openai') } } }),
    });
    assert.equal(created.status, 201);
    assert.equal(await ask(`${recorder.baseUrl}/s/own-upstream/v1`, 'Tell me a story.'), STORY);
    assert.ok(existsSync(join(dir, 'own-upstream.yaml')));

    await recorder.session('none', { record: false });
    await assert.rejects(
      ask(`${recorder.baseUrl}/s/none/v1`, 'Tell me a story.'),
      (error: unknown) => error instanceof OpenAI.APIError && error.status === 409 && error.code === 'no_match',
    );
    // The default session has no upstream either: the server named none.
    await assert.rejects(ask(recorder.url('openai'), 'Tell me a story.'), (error: unknown) => error instanceof OpenAI.APIError);

    const refused = await fetch(`${plain.baseUrl}/_understudy/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'wants-to', record: { upstreams: { openai: upstream.mock.url('openai') } } }),
    });
    assert.equal(refused.status, 409);
    assert.match(await refused.text(), /this server does not record/);
    const badUrl = await fetch(`${recorder.baseUrl}/_understudy/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'bad-url', record: { upstreams: { openai: 'not a url' } } }),
    });
    assert.match(((await badUrl.json()) as { error: { message: string } }).error.message, /the openai upstream "not a url" is not a URL/);
    const badName = await fetch(`${recorder.baseUrl}/_understudy/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'bad-name', record: { upstreams: { openia: upstream.mock.url('openai') } } }),
    });
    assert.match(((await badName.json()) as { error: { message: string } }).error.message, /unknown upstream provider "openia"/);
  } finally {
    await recorder.close();
    await plain.close();
    await upstream.mock.close();
  }
});

test('what --redact names, a body path or a text pattern, never reaches the files; the credential never does', async () => {
  const upstream = await startUpstream();
  const dir = recordingDir();
  const recorder = await startUnderstudy({
    record: { dir, upstreams: { openai: upstream.mock.url('openai') }, redact: ['$.metadata.tenant', '/acct-[0-9]+/'] },
  });
  try {
    await ask(recorder.url('openai'), 'Tell me a story for acct-991234.', {
      metadata: { tenant: 'tenant-secret-name', purpose: 'demo' },
      user: 'end-user-5',
      safety_identifier: 'safety-id-6',
      prompt_cache_key: 'cache-key-7',
    });
    const files = recordedFiles(dir);
    assert.equal(files.length, 1);
    const text = files[0].text;
    for (const secret of [UPSTREAM_KEY, 'tenant-secret-name', 'acct-991234', 'end-user-5', 'safety-id-6', 'cache-key-7']) {
      assert.ok(!text.includes(secret), `${secret} is not in the recording`);
    }
    assert.match(text, /purpose: demo/, 'what is not redacted is kept');
  } finally {
    await recorder.close();
    await upstream.mock.close();
  }
});

test("a recorded step's when names every declared tool (hasTool takes a list): a request missing one of them is refused, naming both", async () => {
  const mock = await startUnderstudy();
  try {
    const session = await mock.session('tools-list', { fallback: 'strict' });
    await session.load({ scenarios: [{ name: 'both', steps: [{ when: { hasTool: ['weather', 'clock'] }, reply: { text: 'Both.' } }] }] });
    const sdk = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
    const tool = (name: string) => ({ type: 'function' as const, function: { name, parameters: { type: 'object', properties: {} } } });
    await assert.rejects(
      sdk.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], tools: [tool('weather')] }),
      (error: unknown) =>
        error instanceof OpenAI.APIError && error.status === 409 && /declared tools "weather", "clock"/.test(error.message),
    );
    const both = await sdk.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Hi' }],
      tools: [tool('clock'), tool('weather')],
    });
    assert.equal(both.choices[0].message.content, 'Both.');
  } finally {
    await mock.close();
  }
});

test('a session whose id is "." or ".." writes nothing outside the directory, and replays nothing from outside it', async () => {
  const upstream = await startUpstream();
  const parent = recordingDir();
  const dir = join(parent, 'recordings');
  const warnings: string[] = [];
  const recorder = await startUnderstudy({
    record: { dir, upstreams: { openai: upstream.mock.url('openai') }, layout: 'scenario', onWarning: (m) => warnings.push(m) },
    replay: dir,
  });
  try {
    await recorder.session('..');
    // A URL's path cannot say ".." (it is resolved away); the session header can.
    const sdk = new OpenAI({
      baseURL: recorder.url('openai'),
      apiKey: UPSTREAM_KEY,
      maxRetries: 0,
      timeout: 10_000,
      defaultHeaders: { 'x-understudy-session': '..' },
    });
    const answer = await sdk.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Tell me a story.' }] });
    assert.equal(answer.choices[0].message.content, STORY, 'relayed');
    assert.deepEqual(recordedFiles(parent), [], 'nothing written, in the directory or beside it');
    assert.match(warnings.join('\n'), /the session id "\.\." cannot name a file/);
  } finally {
    await recorder.close();
    await upstream.mock.close();
  }
});

test('layout scenario writes a file per conversation under the session folder, and each session replays its folder', async () => {
  const upstream = await startUpstream();
  const dir = recordingDir();
  const recorder = await startUnderstudy({ record: { dir, upstreams: { openai: upstream.mock.url('openai') }, layout: 'scenario' } });
  try {
    await recorder.session('layout-test');
    const base = `${recorder.baseUrl}/s/layout-test/v1`;
    assert.equal(await ask(base, 'Tell me a story.'), STORY);
    assert.equal(await ask(base, 'A story about the sea, please.'), STORY);
  } finally {
    await recorder.close();
    await upstream.mock.close();
  }
  assert.deepEqual(
    recordedFiles(dir).map((f) => f.path.slice(dir.length)),
    ['/layout-test/layout-test-2.yaml', '/layout-test/layout-test.yaml'],
  );
  const replay = await startUnderstudy({ replay: dir });
  try {
    const session = await replay.session('layout-test', { fallback: 'strict' });
    const base = `${replay.baseUrl}/s/layout-test/v1`;
    assert.equal(await ask(base, 'A story about the sea, please.'), STORY);
    assert.equal(await ask(base, 'Tell me a story.'), STORY);
    await session.verify();
  } finally {
    await replay.close();
  }
});

test("an answer the dialect's reader cannot read is relayed as it came, not recorded, and the reason given", async () => {
  const { createServer } = await import('node:http');
  const odd = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"not":"a chat completion"}');
  });
  await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
  const port = (odd.address() as { port: number }).port;
  const dir = recordingDir();
  const warnings: string[] = [];
  const recorder = await startUnderstudy({
    record: { dir, upstreams: { openai: `http://127.0.0.1:${port}/v1` }, onWarning: (m) => warnings.push(m) },
  });
  try {
    const answer = await fetch(`${recorder.url('openai')}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${UPSTREAM_KEY}` },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] }),
    });
    assert.equal(answer.status, 200);
    assert.equal(await answer.text(), '{"not":"a chat completion"}');
    assert.deepEqual(recordedFiles(dir), []);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /was relayed but not recorded: /);
  } finally {
    await recorder.close();
    await new Promise((resolve) => odd.close(resolve));
  }
});

test("an upstream whose answer breaks off part-way: the client's answer is cut, journalled as broken off, and nothing is recorded", async () => {
  const { createServer } = await import('node:http');
  const breaking = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: {"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Half"}}]}\n\n');
    setTimeout(() => res.socket?.destroy(), 50);
  });
  await new Promise<void>((resolve) => breaking.listen(0, '127.0.0.1', resolve));
  const port = (breaking.address() as { port: number }).port;
  const dir = recordingDir();
  const recorder = await startUnderstudy({ record: { dir, upstreams: { openai: `http://127.0.0.1:${port}/v1` } } });
  try {
    const stream = await client(recorder.url('openai')).chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Tell me a story.' }],
      stream: true,
    });
    let text = '';
    await assert.rejects(async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    });
    assert.equal(text, 'Half', 'what arrived before the break was relayed');
    const [entry] = (await recorder.defaultSession.journal()).entries;
    assert.equal(entry.status, 499);
    assert.match(entry.error?.message ?? '', /the upstream's answer broke off part-way/);
    assert.deepEqual(recordedFiles(dir), []);
  } finally {
    await recorder.close();
    await new Promise((resolve) => breaking.close(resolve));
  }
});

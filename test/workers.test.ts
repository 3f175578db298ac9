// `understudy serve --workers 2`, run as a user runs it, judged by the real openai SDK: requests
// spread over both workers; a repeating script is answered by both and everything lands in one
// journal; a stateful queue is consumed exactly once, in order, however the connections are
// spread; a prompt long enough to be cached reports cached tokens whichever worker it reaches.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ollama } from 'ollama';
import OpenAI, { toFile } from 'openai';
import { Agent, fetch as undiciFetch } from 'undici';

import { connectUnderstudy } from '../src/index.js';
import { freshCli } from './support/fresh-cli.js';

const CWD = fileURLToPath(new URL('..', import.meta.url));
const CANNED = 'Always the same answer.';

let serverProcess: ChildProcess;
let dir: string;
let baseUrl: string;
let remote: Awaited<ReturnType<typeof connectUnderstudy>>;
const agents: Agent[] = [];

/** An SDK client on its own connection: node:cluster hands each new connection to the next worker. */
function client(apiKey = 'understudy', url = baseUrl): OpenAI {
  const agent = new Agent({ connections: 1 });
  agents.push(agent);
  return new OpenAI({
    baseURL: `${url}/v1`,
    apiKey,
    maxRetries: 0,
    timeout: 10_000,
    fetch: undiciFetch as unknown as typeof fetch,
    fetchOptions: { dispatcher: agent } as NonNullable<ConstructorParameters<typeof OpenAI>[0]>['fetchOptions'],
  });
}

/** An ollama-js client on its own connection, with a timeout on every request (it has none). */
function ollamaClient(apiKey: string): Ollama {
  const agent = new Agent({ connections: 1 });
  agents.push(agent);
  const viaAgent = (input: Parameters<typeof undiciFetch>[0], init?: Parameters<typeof undiciFetch>[1]) =>
    undiciFetch(input, { ...init, dispatcher: agent, signal: AbortSignal.timeout(10_000) });
  return new Ollama({ host: baseUrl, headers: { Authorization: `Bearer ${apiKey}` }, fetch: viaAgent as unknown as typeof fetch });
}

function ask(sdk: OpenAI, content: string) {
  return sdk.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] });
}

async function journal(session = 'default') {
  const res = await fetch(`${baseUrl}/_understudy/sessions/${session}/journal`);
  assert.equal(res.status, 200);
  return (await res.json()) as {
    entries: {
      worker?: number;
      operation?: string;
      status: number;
      source?: string;
      step?: string;
      usage?: { inputTokens: number };
      request?: unknown;
      error?: { message: string };
    }[];
    counters: Record<string, number>;
  };
}

/** A session whose one step answers CANNED every time; its API key is `<id>-key`. */
async function cannedSession(id: string): Promise<void> {
  const made = await fetch(`${baseUrl}/_understudy/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      id,
      apiKey: `${id}-key`,
      fixture: { scenarios: [{ name: 'canned', exhausted: 'repeat_last', steps: [{ reply: { text: CANNED } }] }] },
    }),
  });
  assert.equal(made.status, 201);
}

/** `understudy serve --port 0 --workers 2 …` from source; resolves with its URL once it listens. */
async function serve(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [freshCli(), 'serve', '--port', '0', '--workers', '2', ...args], {
    cwd: CWD,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no "listening" line: ${out}`)), 30_000);
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  return { child, url };
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'understudy-workers-'));
  const fixture = join(dir, 'canned.json');
  await writeFile(
    fixture,
    JSON.stringify({ scenarios: [{ name: 'canned', exhausted: 'repeat_last', steps: [{ id: 'say', reply: { text: CANNED } }] }] }),
  );
  ({ child: serverProcess, url: baseUrl } = await serve(['--fixtures', fixture]));
  remote = await connectUnderstudy(baseUrl);
  // The owner prints the line; wait until the second worker answers too.
  const deadline = Date.now() + 20_000;
  for (;;) {
    await Promise.all([0, 1, 2, 3].map(() => ask(client(), 'warm up')));
    if ((await journal()).entries.some((e) => e.worker === 1)) break;
    assert.ok(Date.now() < deadline, 'the second worker never answered');
  }
  await fetch(`${baseUrl}/_understudy/sessions/default/reset`, { method: 'POST' });
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
  await rm(dir, { recursive: true, force: true });
});

describe('serve --workers 2', { timeout: 60_000 }, () => {
  test('a repeating script is answered by both workers; one journal holds every request, counted once', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => ask(client(), `question ${i % 4}`)));
    assert.ok(answers.every((a) => a.choices[0].message.content === CANNED));
    assert.equal(new Set(answers.map((a) => a.id)).size, 40, 'ids stay unique across workers');

    const { entries, counters } = await journal();
    assert.equal(entries.length, 40);
    assert.equal(counters.requests, 40);
    assert.equal(counters.matched, 40);
    assert.deepEqual(new Set(entries.map((e) => e.worker)), new Set([0, 1]), 'both workers answered');
    assert.equal(entries.filter((e) => e.source === 'script').length, 1, 'only the first use is "script"');
    assert.equal(entries.filter((e) => e.source === 'repeat_last').length, 39);
    const verify = await fetch(`${baseUrl}/_understudy/sessions/default/verify`, { method: 'POST' });
    assert.equal(((await verify.json()) as { ok: boolean }).ok, true);
  });

  test('metrics count the requests every worker answered, once each, as the journal does', async () => {
    await cannedSession('metrics-w');
    await Promise.all(Array.from({ length: 30 }, (_, i) => ask(client('metrics-w-key'), `question ${i}`)));
    const { entries, counters } = await journal('metrics-w');
    assert.deepEqual(new Set(entries.map((e) => e.worker)), new Set([0, 1]), 'both workers answered');
    const text = await (await fetch(`${baseUrl}/_understudy/metrics`)).text();
    const samples = (name: string) =>
      [...text.matchAll(new RegExp(`^${name}\\{([^}]*)\\} (\\S+)$`, 'gm'))]
        .filter((m) => m[1].includes('session="metrics-w"'))
        .reduce((sum, m) => sum + Number(m[2]), 0);
    assert.equal(samples('understudy_requests_total'), 30, text);
    assert.equal(samples('understudy_session_requests_total'), counters.requests);
    assert.equal(counters.requests, 30);
  });

  test('the live feed shows requests either worker answered, within a second of their answers', async () => {
    await cannedSession('feed-w');
    const feed = await fetch(`${baseUrl}/_understudy/events?session=feed-w`, { signal: AbortSignal.timeout(20_000) });
    assert.equal(feed.status, 200);
    const reader = feed.body!.pipeThrough(new TextDecoderStream()).getReader();
    const seen: { worker?: number; at: number }[] = [];
    const reading = (async () => {
      let text = '';
      while (seen.length < 12) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
        for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n')) {
          const event = text.slice(0, end);
          text = text.slice(end + 2);
          const data = /^event: entry\ndata: (.*)$/m.exec(event.replace(/^id: .*\n/, ''));
          if (data) seen.push({ worker: (JSON.parse(data[1]) as { worker?: number }).worker, at: Date.now() });
        }
      }
    })();
    const answered: number[] = [];
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => ask(client('feed-w-key'), `question ${i}`).then(() => answered.push(Date.now()))),
    );
    await reading;
    await reader.cancel();
    assert.equal(seen.length, 12);
    assert.deepEqual(new Set(seen.map((e) => e.worker)), new Set([0, 1]), 'entries from both workers');
    const lastAnswer = Math.max(...answered);
    const lastSeen = Math.max(...seen.map((e) => e.at));
    assert.ok(lastSeen - lastAnswer < 1000, `the last entry arrived ${lastSeen - lastAnswer} ms after the last answer`);
  });

  test('scripted embedding vectors are answered under --workers, each request journalled once', async () => {
    const session = await remote.session('embed-workers');
    // A repeating one-step script makes the session answerable on every worker.
    await session.load({
      scenarios: [{ name: 'canned', exhausted: 'repeat_last', replies: [{ text: 'x' }] }],
      embeddings: [{ input: 'pinned', vector: [0.5, 0.25] }],
    });
    // Four clients, each on its own connection: node:cluster spreads the connections over both.
    const sdks = Array.from({ length: 4 }, () => client(session.apiKey));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        sdks[i % 4].embeddings.create({ model: 'text-embedding-3-small', input: 'pinned', encoding_format: 'float' }),
      ),
    );
    assert.ok(
      answers.every((a) => JSON.stringify(a.data[0].embedding) === '[0.5,0.25]'),
      JSON.stringify(answers.map((a) => a.data[0].embedding.length)),
    );
    const { entries, counters } = await journal('embed-workers');
    assert.equal(counters.requests, 20);
    assert.ok(entries.every((e) => e.operation === 'openai.embeddings' && e.status === 200));
    assert.equal(entries.length, 20);
    assert.deepEqual(new Set(entries.map((e) => e.worker)), new Set([0, 1]), 'both workers answered with the scripted vector');
  });

  test('scripted images are answered under --workers, each request journalled once', async () => {
    const session = await remote.session('image-workers');
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==', 'base64');
    await session.load({
      scenarios: [{ name: 'canned', exhausted: 'repeat_last', replies: [{ text: 'x' }] }],
      images: [{ prompt: 'pinned', b64: png.toString('base64') }],
    });
    const sdk = client(session.apiKey);
    const answers = await Promise.all(Array.from({ length: 20 }, () => sdk.images.generate({ model: 'gpt-image-1', prompt: 'pinned' })));
    assert.ok(answers.every((a) => a.data?.[0].b64_json === png.toString('base64')));
    const { entries, counters } = await journal('image-workers');
    assert.equal(counters.requests, 20);
    assert.ok(entries.every((e) => e.operation === 'openai.images.generate' && e.status === 200));
  });

  test('scripted speech and transcripts are answered by edge workers too, each request journalled once', async () => {
    const session = await remote.session('audio-workers');
    await session.load({
      scenarios: [{ name: 'canned', exhausted: 'repeat_last', replies: [{ text: 'x' }] }],
      speech: [{ input: 'pinned', audio: Buffer.from('scripted bytes').toString('base64') }],
      transcriptions: [{ fileName: 'memo.wav', text: 'Scripted on every worker.' }],
    });
    // A client per request, so that requests arrive on connections the workers share out.
    const speak = async () =>
      Buffer.from(
        await (await client(session.apiKey).audio.speech.create({ model: 'tts-1', input: 'pinned', voice: 'alloy' })).arrayBuffer(),
      ).toString();
    const hear = async () =>
      (await client(session.apiKey).audio.transcriptions.create({ file: await toFile(Buffer.from('a'), 'memo.wav'), model: 'whisper-1' }))
        .text;
    let sent = 0;
    for (let round = 0; round < 10; round++) {
      const [speech, transcripts] = await Promise.all([Promise.all([0, 1, 2, 3].map(speak)), Promise.all([0, 1, 2, 3].map(hear))]);
      sent += 8;
      assert.deepEqual([...new Set(speech)], ['scripted bytes']);
      assert.deepEqual([...new Set(transcripts)], ['Scripted on every worker.']);
      const answeredBy = new Set((await journal('audio-workers')).entries.map((e) => `${e.operation} ${e.worker}`));
      if (answeredBy.has('openai.audio.speech 1') && answeredBy.has('openai.audio.transcriptions 1')) break;
    }
    const { entries, counters } = await journal('audio-workers');
    assert.ok(
      entries.some((e) => e.worker === 1 && e.operation === 'openai.audio.speech'),
      'an edge answered speech',
    );
    assert.ok(
      entries.some((e) => e.worker === 1 && e.operation === 'openai.audio.transcriptions'),
      'an edge answered a transcription',
    );
    assert.equal(counters.requests, sent);
    assert.equal(entries.length, sent);
    assert.ok(entries.every((e) => e.operation?.startsWith('openai.audio.') && e.status === 200));
  });

  test('a queue in a named session is consumed exactly once across workers: 5 steps, 30 parallel requests', async () => {
    const session = await remote.session('queue', { fallback: 'strict' });
    const texts = ['one', 'two', 'three', 'four', 'five'];
    await session.load({ name: 'queue', replies: texts.map((text) => ({ text })) });
    const results = await Promise.allSettled(Array.from({ length: 30 }, () => ask(client(session.apiKey), 'next')));
    const given = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.choices[0].message.content] : []));
    assert.deepEqual([...given].sort(), [...texts].sort(), 'each reply exactly once');
    const refused = results.filter((r) => r.status === 'rejected');
    assert.equal(refused.length, 25);
    for (const r of refused) assert.equal((r.reason as { status?: number }).status, 409);

    const { entries, counters } = await journal('queue');
    assert.equal(counters.requests, 30);
    assert.equal(counters.matched, 5);
    assert.equal(counters.exhausted, 25);
    assert.ok(
      entries.every((e) => e.worker === 0),
      'the owner answered every request of a stateful session',
    );
    assert.deepEqual(
      entries.filter((e) => e.status === 200).map((e) => e.step),
      ['step-1', 'step-2', 'step-3', 'step-4', 'step-5'],
    );
  });

  test('loading a queue into the default session takes effect on every worker before the control call returns', async () => {
    await fetch(`${baseUrl}/_understudy/sessions/default/scripts`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ scenarios: [{ name: 'pair', replies: [{ text: 'first' }, { text: 'second' }] }] }),
    });
    // Fresh connections, so the requests reach both workers.
    assert.equal((await ask(client(), 'a')).choices[0].message.content, 'first');
    assert.equal((await ask(client(), 'b')).choices[0].message.content, 'second');
    await assert.rejects(ask(client(), 'c'), (e: { status?: number }) => e.status === 409);
    await assert.rejects(ask(client(), 'd'), (e: { status?: number }) => e.status === 409);
    const { counters } = await journal();
    assert.equal(counters.matched, 42, '40 canned answers before, then the two queued ones');
  });

  test("a session's Azure stream flavour reaches every worker, and a fixture load switches it on every worker", async () => {
    const session = await remote.session('flavoured', { fallback: 'strict', streamFlavour: 'azure' });
    const scenario = { name: 'always', exhausted: 'repeat_last' as const, replies: [{ text: CANNED }] };
    await session.load({ scenarios: [scenario] });
    // Leading chunks of each stream, each on a fresh connection (so both workers answer).
    const firstChunks = () =>
      Promise.all(
        Array.from({ length: 8 }, async () => {
          const stream = await client(session.apiKey, `${baseUrl}/azure/openai`).chat.completions.create({
            model: 'gpt-4o',
            messages: [{ role: 'user', content: 'hi' }],
            stream: true,
          });
          const chunks = [];
          for await (const chunk of stream) chunks.push(chunk);
          return chunks[0];
        }),
      );
    const flavoured = await firstChunks();
    assert.ok(
      flavoured.every((c) => c?.id === '' && c.choices.length === 0),
      JSON.stringify(flavoured[0]),
    );
    await session.load({ session: { streamFlavour: 'plain' }, scenarios: [scenario] });
    const plain = await firstChunks();
    assert.ok(
      plain.every((c) => c?.id.startsWith('chatcmpl-')),
      JSON.stringify(plain[0]),
    );
    const { entries } = await journal('flavoured');
    assert.deepEqual(new Set(entries.map((e) => e.worker)), new Set([0, 1]), 'both workers answered');
  });

  test("a session's model catalogue reaches every worker, and a fixture load switches it on every worker", async () => {
    const session = await remote.session('catalogued', { fallback: 'strict', models: ['llama3.2'] });
    const scenario = { name: 'always', exhausted: 'repeat_last' as const, replies: [{ text: CANNED }] };
    await session.load({ scenarios: [scenario] });
    // The status of the same request on eight fresh connections (so both workers answer).
    const statuses = (model: string) =>
      Promise.all(
        Array.from({ length: 8 }, () =>
          ollamaClient(session.apiKey)
            .chat({ model, messages: [{ role: 'user', content: 'hi' }], stream: false })
            .then(
              () => 200,
              (e: { status_code?: number }) => e.status_code,
            ),
        ),
      );
    assert.deepEqual(await statuses('llama3.2'), Array(8).fill(200));
    assert.deepEqual(await statuses('qwen3'), Array(8).fill(404));
    await session.load({ session: { models: ['qwen3'] }, scenarios: [scenario] });
    assert.deepEqual(await statuses('llama3.2'), Array(8).fill(404));
    assert.deepEqual(await statuses('qwen3'), Array(8).fill(200));
    const { entries } = await journal('catalogued');
    assert.deepEqual(new Set(entries.map((e) => e.worker)), new Set([0, 1]), 'both workers answered');
    assert.deepEqual(new Set(entries.filter((e) => e.status === 404).map((e) => e.worker)), new Set([0, 1]), 'both workers refused');
    assert.ok(
      entries.every(
        (e) => (e.status === 404) === (e.error?.message === "model 'qwen3' not found" || e.error?.message === "model 'llama3.2' not found"),
      ),
      'each refusal journalled with its message',
    );
    assert.ok(
      entries.every((e) => (e.status === 404) === (e.request === undefined)),
      'a refused request has no decoded request, on the owner as on an edge',
    );
  });

  test('a prompt long enough to be cached goes to the owner: cached tokens from the second request on, on any connection', async () => {
    const session = await remote.session('cache');
    await session.load({ name: 'cached', exhausted: 'repeat_last', steps: [{ id: 'say', reply: { text: 'ok' } }] });
    const long = 'The lighthouse keeper counted the waves again. '.repeat(200);
    const usages = [];
    for (let i = 0; i < 4; i++) usages.push((await ask(client(session.apiKey), long)).usage);
    assert.ok(usages[0]!.prompt_tokens > 1024);
    assert.equal(usages[0]!.prompt_tokens_details?.cached_tokens, 0);
    for (const usage of usages.slice(1)) assert.ok((usage!.prompt_tokens_details?.cached_tokens ?? 0) >= 1024, 'cached after the first');
    const { entries } = await journal('cache');
    assert.ok(entries.every((e) => e.worker === 0));
  });

  test('with a control token: edges still deliver what they answered, and the control API wants the token', async () => {
    const { child, url } = await serve(['--control-token', 'sesame', '--fixtures', join(dir, 'canned.json')]);
    try {
      const journalUrl = `${url}/_understudy/sessions/default/journal`;
      assert.equal((await fetch(journalUrl)).status, 401, 'no token, no journal (on whichever worker)');
      const deadline = Date.now() + 20_000;
      let workers = new Set<number | undefined>();
      while (workers.size < 2) {
        await Promise.all([0, 1, 2, 3].map(() => ask(client('understudy', url), 'hello')));
        const res = await fetch(journalUrl, { headers: { authorization: 'Bearer sesame' } });
        assert.equal(res.status, 200);
        workers = new Set(((await res.json()) as { entries: { worker?: number }[] }).entries.map((e) => e.worker));
        assert.ok(Date.now() < deadline, `only ${[...workers].join(', ')} answered`);
      }
      assert.deepEqual(workers, new Set([0, 1]));
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });

  test('OpenAI Responses: previous_response_id works whichever worker each request reaches (the store lives with the owner)', async () => {
    const session = await remote.session('responses');
    await session.load({
      scenarios: [
        {
          // One repeating step each: a session edges could answer, but for the Responses store.
          name: 'intro',
          exhausted: 'repeat_last',
          steps: [{ id: 'hi', when: { latestUser: { contains: 'My name is Ada' } }, reply: { text: 'Nice to meet you, Ada.' } }],
        },
        {
          name: 'recall',
          exhausted: 'repeat_last',
          steps: [
            {
              id: 'recall',
              when: {
                latestUser: 'What is my name?',
                historyContains: [
                  { role: 'user', content: 'My name is Ada.' },
                  { role: 'assistant', content: 'Nice to meet you, Ada.' },
                ],
              },
              reply: { text: 'Your name is Ada.' },
            },
          ],
        },
      ],
    });
    const first = await client(session.apiKey).responses.create({ model: 'gpt-4o-mini', input: 'My name is Ada.' });
    assert.equal(first.output_text, 'Nice to meet you, Ada.');
    // Two more fresh connections: node:cluster hands them to the workers in turn.
    for (let i = 0; i < 2; i++) {
      const next = await client(session.apiKey).responses.create({
        model: 'gpt-4o-mini',
        previous_response_id: first.id,
        input: 'What is my name?',
      });
      assert.equal(next.output_text, 'Your name is Ada.');
      assert.equal(next.previous_response_id, first.id);
    }
    const { entries } = await journal('responses');
    assert.deepEqual(
      entries.map((e) => [e.status, e.step, e.worker]),
      [
        [200, 'hi', 0],
        [200, 'recall', 0],
        [200, 'recall', 0],
      ],
    );
  });

  test('a request journalled in zero-config mode stays decoded so after the session turns strict, whichever worker answered it', async () => {
    const canned = { scenarios: [{ name: 'canned', exhausted: 'repeat_last', steps: [{ id: 'say', reply: { text: CANNED } }] }] };
    const created = await fetch(`${baseUrl}/_understudy/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'zero-then-strict', apiKey: 'key-zts', fallback: 'auto', fixture: canned }),
    });
    assert.equal(created.status, 201);
    // No anthropic-version header: a zero-config session accepts that, a strict one answers 400.
    // (The Anthropic SDK always sends the header, so this is a plain request.) A fresh connection
    // each time, so both workers answer some.
    const send = () =>
      fetch(`${baseUrl}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'key-zts', connection: 'close' },
        body: JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }),
      });
    for (let round = 0; round < 10; round++) {
      const answers = await Promise.all([0, 1, 2, 3].map(send));
      assert.deepEqual(
        answers.map((a) => a.status),
        [200, 200, 200, 200],
      );
      const seen = await journal('zero-then-strict');
      if (new Set(seen.entries.map((e) => e.worker)).size === 2) break;
    }
    const turned = await fetch(`${baseUrl}/_understudy/sessions/zero-then-strict/scripts`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ session: { fallback: 'strict' }, ...canned }),
    });
    assert.equal(turned.status, 200);
    assert.equal((await send()).status, 400);
    const { entries } = (await journal('zero-then-strict')) as unknown as {
      entries: { worker?: number; status: number; request?: { messages: unknown[] } }[];
    };
    const answered = entries.filter((e) => e.status === 200);
    assert.ok(answered.length >= 4);
    assert.deepEqual(new Set(answered.map((e) => e.worker)), new Set([0, 1]), 'both workers answered');
    for (const entry of answered) assert.equal(entry.request?.messages.length, 1, `worker ${entry.worker}: the request as decoded then`);
  });

  test('near misses answered by zero-config on either worker reach the owner journal, and verify with failOnNearMiss fails', async () => {
    // One repeating step: edges answer this session themselves, so near misses are found there too.
    const paris = {
      scenarios: [
        {
          name: 'paris',
          exhausted: 'repeat_last',
          steps: [{ id: 'ask', when: { latestUser: { contains: 'Paris' }, hasTool: 'weather' }, reply: { text: 'Paris.' } }],
        },
      ],
    };
    const created = await fetch(`${baseUrl}/_understudy/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'near-miss-workers', apiKey: 'key-nmw', fallback: 'auto', fixture: paris }),
    });
    assert.equal(created.status, 201);
    const weather = { type: 'function' as const, function: { name: 'weather', parameters: { type: 'object', properties: {} } } };
    const lyon = () =>
      client('key-nmw').chat.completions.create({
        model: 'gpt-4o-mini',
        tools: [weather],
        messages: [{ role: 'user', content: 'Weather in Lyon?' }],
      });
    let sent = 0;
    for (let round = 0; round < 10; round++) {
      await Promise.all([0, 1, 2, 3].map(lyon));
      sent += 4;
      const seen = (await journal('near-miss-workers')) as unknown as { entries: { worker?: number }[] };
      if (new Set(seen.entries.map((e) => e.worker)).size === 2) break;
    }
    const { entries, counters } = (await journal('near-miss-workers')) as unknown as {
      entries: { worker?: number; source?: string; nearMisses?: { scenario: string; step: string; failed: { predicate: string }[] }[] }[];
      counters: Record<string, number>;
    };
    assert.equal(entries.length, sent);
    assert.deepEqual(new Set(entries.map((e) => e.worker)), new Set([0, 1]), 'both workers answered');
    for (const entry of entries) {
      assert.equal(entry.source, 'zero_config');
      assert.deepEqual(
        entry.nearMisses?.map((m) => [m.scenario, m.step, m.failed.map((f) => f.predicate)]),
        [['paris', 'ask', ['latestUser']]],
        `worker ${entry.worker}`,
      );
    }
    assert.equal(counters.nearMisses, sent);
    const verify = await fetch(`${baseUrl}/_understudy/sessions/near-miss-workers/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ failOnNearMiss: true }),
    });
    const report = (await verify.json()) as { ok: boolean; problems: { kind: string }[] };
    assert.equal(report.ok, false);
    assert.equal(report.problems.filter((p) => p.kind === 'near_miss').length, sent);
  });

  test('the tool ledger over both workers: a preset call scripted by `preset:`, a result refused with a 409 is not recorded, the answered one is', async () => {
    // One repeating step: edges answer this session themselves and report to the owner.
    const args = { location: 'Paris', unit: 'celsius' };
    const created = await fetch(`${baseUrl}/_understudy/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: 'ledger-workers',
        apiKey: 'key-lw',
        fallback: 'strict',
        fixture: {
          scenarios: [
            {
              name: 'paris',
              exhausted: 'repeat_last',
              steps: [{ when: { latestUser: 'go' }, reply: { toolCalls: [{ preset: 'weather', id: 'call_w', arguments: args }] } }],
            },
          ],
        },
      }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    const weather = {
      type: 'function' as const,
      function: { name: 'weather', parameters: { type: 'object', properties: { location: { type: 'string' }, unit: { type: 'string' } } } },
    };
    const right = { location: 'Paris', temperature: 21, unit: 'celsius', condition: 'sunny' };
    const wrong = { ...right, condition: 'rainy' };
    const history = (user: string, result: unknown): OpenAI.ChatCompletionMessageParam[] => [
      { role: 'user', content: user },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_w', type: 'function', function: { name: 'weather', arguments: JSON.stringify(args) } }],
      },
      { role: 'tool', tool_call_id: 'call_w', content: JSON.stringify(result) },
    ];
    const send = (messages: OpenAI.ChatCompletionMessageParam[]) =>
      client('key-lw').chat.completions.create({ model: 'gpt-4o-mini', tools: [weather], messages });
    const first = await send([{ role: 'user', content: 'go' }]);
    assert.equal(first.choices[0].message.tool_calls?.[0]?.id, 'call_w');
    // Refused (the latest user message is not "go"), on fresh connections so both workers refuse.
    const refused = await Promise.allSettled([0, 1, 2, 3, 4, 5].map(() => send(history('other', wrong))));
    assert.ok(refused.every((r) => r.status === 'rejected' && (r.reason as { status?: number }).status === 409));
    // The control call brings the edges' records to the owner before any result is answered.
    const { entries } = (await journal('ledger-workers')) as unknown as { entries: { worker?: number; status: number }[] };
    assert.deepEqual(new Set(entries.filter((e) => e.status === 409).map((e) => e.worker)), new Set([0, 1]), 'both workers refused');
    await Promise.all([0, 1, 2, 3].map(() => send(history('go', right))));
    const verify = await fetch(`${baseUrl}/_understudy/sessions/ledger-workers/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        toolCalled: [
          { preset: 'weather', id: 'call_w', arguments: args, result: right },
          { preset: 'weather', id: 'call_w', result: wrong, times: 0 },
        ],
      }),
    });
    const report = (await verify.json()) as { problems: { kind: string }[]; report: string };
    assert.deepEqual(
      report.problems.filter((p) => p.kind === 'tool_expectation'),
      [],
      report.report,
    );
  });

  test('[openai-chat.text.stream +] health pacing counts the paced writes of every worker, and a reset clears every worker', async () => {
    const session = await remote.session('paced');
    const chunks = Array.from({ length: 8 }, (_, i) => `p${i} `);
    await session.load({
      name: 'paced',
      exhausted: 'repeat_last',
      steps: [{ id: 'say', reply: { text: chunks.join(''), chunks, pacing: { chunksPerSecond: 200 } } }],
    });
    const stream = async () => {
      const events = await client(session.apiKey).chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'paced' }],
        stream: true,
      });
      let text = '';
      for await (const event of events) text += event.choices[0]?.delta?.content ?? '';
      assert.equal(text, chunks.join(''));
    };
    const pacing = async (method = 'GET') => {
      const res = await fetch(`${baseUrl}/_understudy/${method === 'GET' ? 'health' : 'pacing/reset'}`, { method });
      assert.equal(res.status, 200);
      return ((await res.json()) as { pacing: { writes: number; p99: number } }).pacing;
    };

    assert.equal((await pacing('POST')).writes, 0);
    await stream();
    const perStream = (await pacing()).writes;
    assert.ok(perStream >= chunks.length, `a stream's paced writes are measured (${perStream})`);
    assert.equal((await pacing('POST')).writes, 0);

    // Six streams on six fresh connections: both workers answer some (asserted below).
    await Promise.all(Array.from({ length: 6 }, stream));
    const { entries } = await journal('paced');
    assert.deepEqual(new Set(entries.slice(1).map((e) => e.worker)), new Set([0, 1]), 'both workers streamed');
    assert.equal((await pacing()).writes, 6 * perStream, "every worker's writes are counted");
    // A reset reaches the edge too: nothing of its writes comes back with the next sync.
    assert.equal((await pacing('POST')).writes, 0);
    assert.equal((await pacing()).writes, 0);
  });

  test('video jobs and image URLs live with the owner: made on one connection, read, listed and deleted on others', async () => {
    const session = await remote.session('media-workers');
    // A repeating script makes the session answerable on every worker (as in the embeddings test).
    await session.load({ scenarios: [{ name: 'canned', exhausted: 'repeat_last', replies: [{ text: 'x' }] }] });
    const sdks = Array.from({ length: 4 }, () => client(session.apiKey));
    const made = await Promise.all(sdks.map((sdk, i) => sdk.videos.create({ model: 'sora-2', prompt: `a lighthouse ${i}` })));
    for (const [i, sdk] of sdks.entries()) {
      const job = await sdk.videos.retrieve(made[(i + 1) % 4].id);
      assert.equal(job.id, made[(i + 1) % 4].id);
    }
    const listed = await sdks[2].videos.list({ limit: 10 });
    assert.deepEqual(new Set(listed.data.map((v) => v.id)), new Set(made.map((v) => v.id)));
    await session.advanceClock(60);
    assert.equal((await sdks[3].videos.retrieve(made[0].id)).status, 'completed', 'the clock moved on every worker that asks');
    await sdks[3].videos.delete(made[0].id);
    assert.equal((await sdks[1].videos.list({ limit: 10 })).data.length, 3);
    const image = await sdks[0].images.generate({ model: 'dall-e-3', prompt: 'a lighthouse', response_format: 'url' });
    const url = image.data?.[0].url ?? '';
    for (let i = 0; i < 4; i++) {
      const agent = new Agent({ connections: 1 });
      agents.push(agent);
      const res = await undiciFetch(url, { dispatcher: agent, headers: { authorization: `Bearer ${session.apiKey}` } });
      assert.equal(res.status, 200, `fetch ${i} of ${url}`);
      assert.equal(res.headers.get('content-type'), 'image/png');
      await res.arrayBuffer();
    }
    const { entries } = await journal('media-workers');
    const workers = new Set(entries.filter((e) => /video|image/.test(e.operation ?? '')).map((e) => e.worker ?? 0));
    assert.deepEqual(workers, new Set([0]), 'every media request was answered by the owner');
  });

  test('a bad fixture file under --workers: the problem names the file and path, and every process exits 1', async () => {
    const bad = join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify({ scenarios: [{ name: 'x' }] }));
    const child = spawn(process.execPath, [freshCli(), 'serve', '--port', '0', '--workers', '2', '--fixtures', bad], {
      cwd: CWD,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    assert.equal(code, 1);
    assert.match(out, /bad\.json:1:\d+ +\/scenarios\/0 +expected "steps"/);
  });

  test('--workers must be a positive count', async () => {
    const child = spawn(process.execPath, [freshCli(), 'serve', '--workers', '0'], {
      cwd: CWD,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    assert.equal(code, 2);
    assert.match(stderr, /--workers must be an integer 1-64 or "auto"/);
  });
});

// Issue 19 item 1: cleartext HTTP/2 (prior knowledge) and HTTP/1.1 on the one port, for every route
// and the control API. The HTTP/2 client is node:http2's, through test/support/h2-fetch.ts (a
// `fetch` given to the SDKs: undici 6's `allowH2` speaks HTTP/2 only after TLS ALPN, so it cannot
// reach an http:// URL over HTTP/2) and test/support/h2-raw.ts (pseudo-headers and frames an SDK
// cannot send). Each test also speaks HTTP/1.1 to the same port where the point is that both work.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http2 from 'node:http2';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { createOpenAI } from '@ai-sdk/openai';
import { GoogleGenAI } from '@google/genai';
import { streamText } from 'ai';
import OpenAI from 'openai';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { Http2Side } from '../src/transport/http2-side.js';
import { http2Fetch, type Http2Fetch } from './support/h2-fetch.js';
import { dataOf, framesOf, h2Request, literal, rawH2 } from './support/h2-raw.js';
import { rawRequest } from './support/raw-http.js';
import { freshCli } from './support/fresh-cli.js';

// HPACK static-table entries (RFC 7541 appendix A).
const GET = Buffer.from([0x82]);
const HTTP = Buffer.from([0x86]);
const AUTHORITY = 1;
const PATH = 4;

const MESSAGES = [{ role: 'user' as const, content: 'hi' }];

function openaiOver(h2: Http2Fetch | undefined, session: UnderstudySession, timeout = 5000): OpenAI {
  return new OpenAI({ baseURL: session.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout, ...(h2 && { fetch: h2.fetch }) });
}

async function streamedText(stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
  return text;
}

async function journalWhen(session: UnderstudySession, done: (entries: { event: string }[]) => boolean) {
  let journal = await session.journal();
  for (let i = 0; i < 100 && !done(journal.entries); i++) {
    await new Promise((resolve) => setTimeout(resolve, 30));
    journal = await session.journal();
  }
  return journal;
}

let mock: Understudy;
let port: number;
let h2: Http2Fetch;
before(async () => {
  mock = await startUnderstudy({ headersTimeoutMs: 800, requestTimeoutMs: 1000, bodyLimit: 64 * 1024 });
  port = Number(new URL(mock.baseUrl).port);
  h2 = http2Fetch();
});
after(async () => {
  h2.close();
  await mock.close();
});

describe('one port, both protocols', () => {
  test('Chat JSON and stream over HTTP/2 and over HTTP/1.1 on the same port, one session, one journal', async () => {
    const session = await mock.session();
    session.scenario('both').onExhausted('repeat_last').replies('over either protocol');
    const over2 = openaiOver(h2, session);
    const over1 = openaiOver(undefined, session);
    const json = await over2.chat.completions.create({ model: 'gpt-4o', messages: MESSAGES });
    assert.equal(json.choices[0].message.content, 'over either protocol');
    assert.equal(
      await streamedText(await over2.chat.completions.create({ model: 'gpt-4o', messages: MESSAGES, stream: true })),
      'over either protocol',
    );
    const plain = await over1.chat.completions.create({ model: 'gpt-4o', messages: MESSAGES });
    assert.equal(plain.choices[0].message.content, 'over either protocol');
    assert.equal(
      await streamedText(await over1.chat.completions.create({ model: 'gpt-4o', messages: MESSAGES, stream: true })),
      'over either protocol',
    );
    // Every HTTP/2 request went over one session (the SDK's fetch is h2 only: it cannot fall back).
    assert.equal(h2.opened.filter((s) => !s.destroyed).length, 1);
    const journal = await session.journal();
    assert.deepEqual(
      journal.entries.map((e) => [e.status, e.stream]),
      [
        [200, false],
        [200, true],
        [200, false],
        [200, true],
      ],
    );
  });

  test('a Responses stream, an Anthropic message, a Gemini stream and the AI SDK’s streamText over HTTP/2', async () => {
    const session = await mock.session();
    session.scenario('r').onExhausted('repeat_last').replies('responses and messages');
    const events: string[] = [];
    for await (const event of await openaiOver(h2, session).responses.create({ model: 'gpt-4o', input: 'hi', stream: true }))
      events.push(event.type);
    assert.equal(events.at(-1), 'response.completed');
    assert.ok(events.includes('response.output_text.delta'));
    const anthropic = new Anthropic({
      baseURL: session.url('anthropic'),
      apiKey: session.apiKey,
      maxRetries: 0,
      timeout: 5000,
      fetch: h2.fetch,
    });
    const message = await anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 50, messages: MESSAGES });
    assert.equal(message.content[0].type === 'text' && message.content[0].text, 'responses and messages');
    const gemini = new GoogleGenAI({
      apiKey: session.apiKey,
      httpOptions: { baseUrl: session.url('gemini'), timeout: 5000, fetch: h2.fetch },
    });
    let geminiText = '';
    for await (const chunk of await gemini.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'hi' }))
      geminiText += chunk.text ?? '';
    assert.equal(geminiText, 'responses and messages');
    const aisdk = createOpenAI({ baseURL: session.url('openai'), apiKey: session.apiKey, fetch: h2.fetch });
    const streamed = streamText({ model: aisdk.chat('gpt-4o'), prompt: 'hi', maxRetries: 0 });
    assert.equal(await streamed.text, 'responses and messages');
  });

  test('the control API over HTTP/2: a script loaded, the journal read, verify', async () => {
    const id = `h2-control-${Date.now()}`;
    const base = mock.baseUrl;
    const created = await h2.fetch(`${base}/_understudy/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id, apiKey: `${id}-key` }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    const loaded = await h2.fetch(`${base}/_understudy/sessions/${id}/scripts`, {
      method: 'POST',
      headers: { 'content-type': 'application/yaml' },
      body: 'scenarios:\n  - name: via-h2\n    steps:\n      - reply: { text: scripted over HTTP/2 }\n',
    });
    assert.equal(loaded.status, 200, await loaded.clone().text());
    const openai = new OpenAI({ baseURL: `${base}/v1`, apiKey: `${id}-key`, maxRetries: 0, timeout: 5000, fetch: h2.fetch });
    const completion = await openai.chat.completions.create({ model: 'gpt-4o', messages: MESSAGES });
    assert.equal(completion.choices[0].message.content, 'scripted over HTTP/2');
    const journal = (await (await h2.fetch(`${base}/_understudy/sessions/${id}/journal`)).json()) as {
      entries: { status: number; script?: string }[];
    };
    assert.deepEqual(
      journal.entries.map((e) => [e.status, e.script]),
      [[200, 'via-h2']],
    );
    const verified = (await (await h2.fetch(`${base}/_understudy/sessions/${id}/verify`)).json()) as { ok: boolean };
    assert.equal(verified.ok, true);
    // A control mutation's body must say what it is, on HTTP/2 too (no Content-Length needed to tell a body is there).
    const untyped = await h2.fetch(`${base}/_understudy/sessions/${id}/scripts`, { method: 'POST', body: '{"scenarios":[]}' });
    assert.equal(untyped.status, 415, await untyped.clone().text());
  });

  test('a 409 contract failure over HTTP/2 consumes nothing', async () => {
    const session = await mock.session();
    session.scenario('tool').callsTool('weather', { city: 'Paris' });
    const openai = openaiOver(h2, session);
    const refused = await openai.chat.completions.create({ model: 'gpt-4o', messages: MESSAGES }).catch((e: unknown) => e);
    assert.ok(refused instanceof OpenAI.ConflictError, String(refused));
    const tools = [
      {
        type: 'function' as const,
        function: { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
      },
    ];
    const answered = await openai.chat.completions.create({ model: 'gpt-4o', messages: MESSAGES, tools });
    const call = answered.choices[0].message.tool_calls?.[0];
    assert.equal(call?.type === 'function' && call.function.name, 'weather');
    const journal = await session.journal();
    assert.deepEqual(
      journal.entries.map((e) => [e.status, e.error?.code]),
      [
        [409, 'fixture_mismatch'],
        [200, undefined],
      ],
    );
  });

  test('a connection that sends nothing gets node:http’s 408 after the headers timeout; a split preface is still HTTP/2', async () => {
    const started = Date.now();
    const silent = await rawRequest(port, Buffer.alloc(0), 5000);
    assert.equal(silent.status, 408, JSON.stringify(silent));
    assert.match(silent.body, /request_timeout/);
    assert.ok(Date.now() - started >= 700, `answered after ${Date.now() - started} ms`);
    // The preface in two writes, far apart: the connection waits for the rest, then speaks HTTP/2.
    const health = await rawH2(
      port,
      Buffer.concat([GET, HTTP, literal(PATH, '/_understudy/health'), literal(AUTHORITY, `127.0.0.1:${port}`)]),
      {
        splitAt: 9,
        ms: 800,
      },
    );
    assert.match(dataOf(health), /"status":"ok"|"ok":true|version/);
  });
});

describe('faults, pacing and aborts over HTTP/2', () => {
  test('a paced stream arrives on its schedule over HTTP/2', async () => {
    const session = await mock.session();
    session
      .scenario('paced')
      .replies('one two three four')
      .inChunks(['one ', 'two ', 'three ', 'four'])
      .paced({ ttftMs: 300, chunksPerSecond: 10 });
    const started = performance.now();
    const stream = await openaiOver(h2, session).chat.completions.create({ model: 'gpt-4o', messages: MESSAGES, stream: true });
    const arrivals: number[] = [];
    let text = '';
    for await (const chunk of stream) {
      const piece = chunk.choices[0]?.delta?.content;
      if (piece) {
        text += piece;
        arrivals.push(performance.now() - started);
      }
    }
    assert.equal(text, 'one two three four');
    assert.ok(arrivals[0] >= 250, `first token after ${arrivals[0]} ms`);
    assert.ok(arrivals[3] - arrivals[0] >= 200, `four chunks at 10/s took ${arrivals[3] - arrivals[0]} ms`);
    await session.verify();
  });

  test('a client that resets its stream while the answer is delayed or paced consumes nothing', async () => {
    const session = await mock.session();
    await session.load({
      scenarios: [
        {
          name: 'slow',
          steps: [{ when: { latestUser: { contains: 'paced' } }, reply: { text: 'paced and aborted', pacing: { ttftMs: 1500 } } }],
        },
        { name: 'late', steps: [{ when: { latestUser: { contains: 'delayed' } }, reply: { text: 'delayed and aborted', delayMs: 1500 } }] },
      ],
    });
    for (const content of ['paced', 'delayed']) {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      const openai = openaiOver(h2, session);
      const aborted = await (async () => {
        const messages = [{ role: 'user' as const, content }];
        if (content === 'delayed') return openai.chat.completions.create({ model: 'gpt-4o', messages }, { signal: controller.signal });
        // A paced stream's headers go out at once: the abort comes while its first event is awaited,
        // and the SDK's iteration then ends quietly.
        return streamedText(
          await openai.chat.completions.create({ model: 'gpt-4o', messages, stream: true }, { signal: controller.signal }),
        );
      })().catch((e: unknown) => e);
      if (content === 'paced') assert.equal(aborted, '');
      else assert.ok(aborted instanceof OpenAI.APIUserAbortError, String(aborted));
    }
    const journal = await journalWhen(session, (entries) => entries.length >= 2);
    assert.deepEqual(
      journal.entries.map((e) => e.event),
      ['request_aborted', 'request_aborted'],
    );
    const openai = openaiOver(h2, session);
    const paced = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'paced' }], stream: true });
    assert.equal(await streamedText(paced), 'paced and aborted');
    const late = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'delayed' }] });
    assert.equal(late.choices[0].message.content, 'delayed and aborted');
    await session.verify();
  });
});

/** A streamed Chat request on `session`, as raw HTTP/2. */
function chatOn(session: http2.ClientHttp2Session, apiKey: string, content: string) {
  const body = JSON.stringify({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content }] });
  return h2Request(
    session,
    { ':method': 'POST', ':path': '/v1/chat/completions', 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body,
  );
}

function textOfSse(body: string): string {
  let text = '';
  for (const line of body.split('\n')) {
    if (!line.startsWith('data: {')) continue;
    text += (JSON.parse(line.slice(6)) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta?.content ?? '';
  }
  return text;
}

describe('every fault kind, seen from an HTTP/2 client', () => {
  const CHUNKS = ['one ', 'two ', 'three ', 'four'];

  async function faulted(kind: string, timeout = 5000) {
    const session = await mock.session();
    session
      .scenario('f')
      .replies(CHUNKS.join(''))
      .inChunks(CHUNKS)
      .withFault({ kind, afterChunks: kind === 'stall' ? 0 : 3 } as never);
    let text = '';
    const error = await (async () => {
      for await (const chunk of await openaiOver(h2, session, timeout).chat.completions.create({
        model: 'gpt-4o',
        messages: MESSAGES,
        stream: true,
      }))
        text += chunk.choices[0]?.delta?.content ?? '';
    })().catch((e: unknown) => e);
    return { session, text, error };
  }

  test('error: the dialect’s error event, thrown by the SDK', async () => {
    const { text, error } = await faulted('error');
    assert.ok(error instanceof OpenAI.APIError, String(error));
    assert.equal(text, 'one two ');
  });

  test('malformed: a broken event, a parse error in the SDK', async () => {
    const { error } = await faulted('malformed');
    assert.ok(error instanceof Error && /JSON|Unexpected|Unterminated/i.test(error.message), String(error));
  });

  test('truncate: the stream ends without its terminal event, quietly', async () => {
    const { text, error, session } = await faulted('truncate');
    assert.equal(error, undefined);
    assert.equal(text, 'one two ');
    assert.deepEqual(
      (await session.journal()).entries.map((e) => e.event),
      ['reply_returned'],
    );
  });

  test('stall: nothing, not even headers, until the client’s timeout', async () => {
    const { error } = await faulted('stall', 600);
    assert.ok(error instanceof OpenAI.APIConnectionTimeoutError, String(error));
  });

  test('chaos headers work over HTTP/2: X-Mock-Status, and X-Vidai-Chaos-Disconnect’s cut stream', async () => {
    const session = await mock.session();
    session.scenario('c').onExhausted('repeat_last').replies('not cut').inChunks(['not ', 'cut']);
    const body = JSON.stringify({ model: 'gpt-4o', stream: true, messages: MESSAGES });
    const headers = {
      ':method': 'POST',
      ':path': '/v1/chat/completions',
      'content-type': 'application/json',
      authorization: `Bearer ${session.apiKey}`,
    };
    const limited = await h2Request(mock.baseUrl, { ...headers, 'x-mock-status': '429' }, body);
    assert.equal(limited.status, 429, limited.body);
    const cut = await h2Request(mock.baseUrl, { ...headers, 'x-vidai-chaos-disconnect': '100' }, body);
    assert.equal(cut.rstCode, http2.constants.NGHTTP2_CANCEL);
    assert.doesNotMatch(cut.body, /\[DONE\]/);
  });

  test('reset: RST_STREAM INTERNAL_ERROR on the stream; the session and its other streams go on', async () => {
    const { text, error } = await faulted('reset');
    assert.equal(text, 'one two ');
    assert.match(String(error), /NGHTTP2_INTERNAL_ERROR/);
    const session = await mock.session();
    session
      .scenario('reset')
      .whenLatestUser({ contains: 'reset' })
      .replies(CHUNKS.join(''))
      .inChunks(CHUNKS)
      .withFault({ kind: 'reset', afterChunks: 3 });
    session.scenario('sibling').whenLatestUser({ contains: 'sibling' }).replies('the sibling').paced({ ttftMs: 300 });
    const client = http2.connect(mock.baseUrl);
    client.on('error', () => {});
    try {
      const sibling = chatOn(client, session.apiKey, 'sibling');
      await new Promise((resolve) => setTimeout(resolve, 50));
      const reset = await chatOn(client, session.apiKey, 'reset');
      assert.equal(reset.rstCode, http2.constants.NGHTTP2_INTERNAL_ERROR);
      assert.equal(textOfSse(reset.body), 'one two ');
      assert.equal(textOfSse((await sibling).body), 'the sibling');
      assert.equal(client.closed, false, 'the session was closed');
    } finally {
      client.destroy();
    }
  });

  test('close: GOAWAY, this stream cut (RST_STREAM CANCEL), the streams already open finish; the next request opens a new connection', async () => {
    const session = await mock.session();
    session.scenario('sibling').whenLatestUser({ contains: 'sibling' }).replies('the sibling').paced({ ttftMs: 300 });
    session
      .scenario('close')
      .whenLatestUser({ contains: 'close' })
      .replies(CHUNKS.join(''))
      .inChunks(CHUNKS)
      .withFault({ kind: 'close', afterChunks: 3 });
    const client = http2.connect(mock.baseUrl);
    client.on('error', () => {});
    const goaway = new Promise((resolve) => client.once('goaway', resolve));
    try {
      const sibling = chatOn(client, session.apiKey, 'sibling');
      await new Promise((resolve) => setTimeout(resolve, 50));
      const closed = await chatOn(client, session.apiKey, 'close');
      assert.equal(closed.rstCode, http2.constants.NGHTTP2_CANCEL);
      assert.equal(textOfSse(closed.body), 'one two ');
      await goaway;
      assert.equal(textOfSse((await sibling).body), 'the sibling');
    } finally {
      client.destroy();
    }
    // Through the SDK: the cut is an error (the adapter reports a reset stream as undici would),
    // and the SDK's next request is served on a new session.
    const again = await mock.session();
    again
      .scenario('close')
      .replies(CHUNKS.join(''))
      .inChunks(CHUNKS)
      .withFault({ kind: 'close', afterChunks: 3 })
      .then()
      .replies('after the close');
    const sdk = http2Fetch();
    try {
      const openai = openaiOver(sdk, again);
      let text = '';
      const error = await (async () => {
        for await (const chunk of await openai.chat.completions.create({ model: 'gpt-4o', messages: MESSAGES, stream: true }))
          text += chunk.choices[0]?.delta?.content ?? '';
      })().catch((e: unknown) => e);
      assert.match(String(error), /code 8/);
      assert.equal(text, 'one two ');
      const next = await openai.chat.completions.create({ model: 'gpt-4o', messages: MESSAGES });
      assert.equal(next.choices[0].message.content, 'after the close');
      assert.equal(sdk.opened.length, 2, 'the second request went to a new connection');
      await again.verify();
    } finally {
      sdk.close();
    }
  });
});

describe('what comes before a route, over HTTP/2', () => {
  test('the control API’s loopback rule reads :authority; a Host that disagrees with it, or neither, is refused', async () => {
    const foreign = await h2Request(mock.baseUrl, { ':path': '/_understudy/sessions', ':authority': 'rebound.example:8100' });
    assert.equal(foreign.status, 403, foreign.body);
    assert.match(foreign.body, /host_not_allowed/);
    const loopback = await h2Request(mock.baseUrl, { ':path': '/_understudy/sessions', ':authority': `localhost:${port}` });
    assert.equal(loopback.status, 200, loopback.body);
    const mismatch = await h2Request(mock.baseUrl, {
      ':path': '/_understudy/sessions',
      ':authority': `127.0.0.1:${port}`,
      host: 'rebound.example',
    });
    assert.equal(mismatch.status, 400, mismatch.body);
    assert.match(mismatch.body, /host_mismatch/);
    // Frames written by hand: node:http2's client always sends :authority.
    const hostOnly = dataOf(
      await rawH2(port, Buffer.concat([GET, HTTP, literal(PATH, '/_understudy/sessions'), literal('host', 'rebound.example')]), {
        ms: 800,
      }),
    );
    assert.match(hostOnly, /host_not_allowed/);
    // Neither :authority nor Host: node:http2 resets the stream itself (PROTOCOL_ERROR) before any
    // handler runs; the host's own missing_host answer stands behind it.
    const neither = framesOf(await rawH2(port, Buffer.concat([GET, HTTP, literal(PATH, '/_understudy/sessions')]), { ms: 800 }));
    assert.deepEqual(
      neither.filter((f) => f.stream === 1).map((f) => [f.type, f.payload.readUInt32BE(0)]),
      [[0x3, http2.constants.NGHTTP2_PROTOCOL_ERROR]],
    );
    // A provider route with a page's foreign Origin is refused on HTTP/2 as on HTTP/1.1.
    const page = await h2Request(
      mock.baseUrl,
      { ':method': 'POST', ':path': '/v1/chat/completions', origin: 'http://evil.example', 'content-type': 'application/json' },
      JSON.stringify({ model: 'gpt-4o', messages: MESSAGES }),
    );
    assert.equal(page.status, 403, page.body);
    assert.match(page.body, /origin_not_allowed/);
  });

  test('a body over the limit is a 413, a body that never ends a 408 after requestTimeoutMs, CONNECT a 405, an unknown Expect a 417', async () => {
    const session = await mock.session();
    const big = await openaiOver(h2, session)
      .chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x'.repeat(100 * 1024) }] })
      .catch((e: unknown) => e);
    assert.ok(big instanceof OpenAI.APIError && big.status === 413, String(big));

    const client = http2.connect(mock.baseUrl);
    client.on('error', () => {});
    try {
      const started = Date.now();
      const slow = await new Promise<{ status: number; body: string }>((resolve) => {
        const stream = client.request({
          ':method': 'POST',
          ':path': '/v1/chat/completions',
          'content-type': 'application/json',
          authorization: `Bearer ${session.apiKey}`,
        });
        stream.write('{"model":');
        let status = 0;
        let body = '';
        stream.on('response', (h) => (status = Number(h[':status'])));
        stream.setEncoding('utf8');
        stream.on('data', (c: string) => (body += c));
        stream.on('error', () => {});
        stream.on('close', () => resolve({ status, body }));
        setTimeout(() => resolve({ status: 0, body: `status ${status}, but the stream was not closed within 5 s` }), 5000).unref();
      });
      assert.equal(slow.status, 408, slow.body);
      assert.match(slow.body, /request_timeout/);
      assert.ok(Date.now() - started >= 900, `answered after ${Date.now() - started} ms`);
      const journal = await journalWhen(session, (entries) => entries.length > 1);
      assert.deepEqual(
        journal.entries.map((e) => [e.event, e.status]),
        [
          ['error_returned', 413],
          ['request_aborted', 499],
        ],
      );

      // A client that resets its stream part-way through its body (short of its Content-Length):
      // aborted, not a truncated body decoded.
      const leaving = await mock.session();
      const cut = client.request({
        ':method': 'POST',
        ':path': '/v1/chat/completions',
        'content-type': 'application/json',
        authorization: `Bearer ${leaving.apiKey}`,
        'content-length': '200',
      });
      cut.on('error', () => {});
      cut.write('{"model":"gpt-4o","messages":[');
      await new Promise((resolve) => setTimeout(resolve, 100));
      cut.close(http2.constants.NGHTTP2_CANCEL);
      const left = await journalWhen(leaving, (entries) => entries.length > 0);
      assert.deepEqual(
        left.entries.map((e) => [e.event, e.error?.code]),
        [['request_aborted', 'client_closed_request']],
      );

      const connect = await h2Request(client, { ':method': 'CONNECT', ':authority': 'example.com:443' });
      assert.equal(connect.status, 405, connect.body);
      const expect = await h2Request(
        client,
        { ':method': 'POST', ':path': '/v1/chat/completions', expect: 'fancy', 'content-type': 'application/json' },
        '{}',
      );
      assert.equal(expect.status, 417, expect.body);
      assert.match(expect.body, /expectation_failed/);
    } finally {
      client.destroy();
    }
  });
});

describe('slow readers and shutdown over HTTP/2', () => {
  test('a client that stops reading a large stream holds neither its session’s other streams nor other connections, and is cut after stalledReaderMs', async () => {
    const own = await startUnderstudy({ stalledReaderMs: 3000 });
    const sdk = http2Fetch();
    try {
      const session = await own.session();
      const text = 'word '.repeat(400_000);
      session.scenario('big').whenLatestUser({ contains: 'big' }).replies(text);
      session.scenario('small').whenLatestUser({ contains: 'small' }).onExhausted('repeat_last').replies('small answer');
      const client = http2.connect(own.baseUrl);
      client.on('error', () => {});
      // A wide connection window: what holds the unread stream is its own window, as with a pooled session.
      client.once('connect', () => client.setLocalWindowSize(32 * 1024 * 1024));
      const body = JSON.stringify({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'big' }] });
      const unread = client.request({
        ':method': 'POST',
        ':path': '/v1/chat/completions',
        'content-type': 'application/json',
        authorization: `Bearer ${session.apiKey}`,
      });
      unread.end(body);
      unread.on('error', () => {});
      const cut = new Promise<number>((resolve) => unread.on('close', () => resolve(unread.rstCode ?? 0)));
      await new Promise((resolve) => unread.once('response', resolve));
      const started = performance.now();
      const sameSession = await chatOn(client, session.apiKey, 'small');
      assert.equal(textOfSse(sameSession.body), 'small answer');
      const otherConnection = await openaiOver(undefined, session).chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'small' }],
      });
      assert.equal(otherConnection.choices[0].message.content, 'small answer');
      const otherSession = await streamedText(
        await openaiOver(sdk, session).chat.completions.create({
          model: 'gpt-4o',
          messages: [{ role: 'user', content: 'small' }],
          stream: true,
        }),
      );
      assert.equal(otherSession, 'small answer');
      // Well inside stalledReaderMs: held behind the unread stream, they would wait for its cut.
      assert.ok(performance.now() - started < 1500, `the others waited ${performance.now() - started} ms`);
      assert.equal(await cut, http2.constants.NGHTTP2_CANCEL);
      const journal = await journalWhen(session, (entries) => entries.some((e) => e.event === 'request_aborted'));
      const stalled = journal.entries.find((e) => e.event === 'request_aborted') as { error?: { message: string } } | undefined;
      assert.match(stalled?.error?.message ?? '', /stopped reading its answer for 3000 ms/);
      assert.equal(client.closed || client.destroyed, false, 'the session outlived its stalled stream');
      client.destroy();
      // The step was released: the whole stream goes to the next reader.
      assert.equal(
        await streamedText(
          await openaiOver(sdk, session, 30_000).chat.completions.create({
            model: 'gpt-4o',
            messages: [{ role: 'user', content: 'big' }],
            stream: true,
          }),
        ),
        text,
      );
    } finally {
      sdk.close();
      await own.close();
    }
  });

  test('close() ends idle HTTP/2 sessions at once, and with graceMs lets a stream in flight finish', async () => {
    const own = await startUnderstudy();
    const session = await own.session();
    session.scenario('paced').replies('finished in the grace period').paced({ ttftMs: 300 });
    const idle = http2.connect(own.baseUrl);
    idle.on('error', () => {});
    const idleClosed = new Promise((resolve) => idle.once('close', resolve));
    await h2Request(idle, { ':path': '/_understudy/health' });
    const busy = http2Fetch();
    try {
      const stream = await openaiOver(busy, session).chat.completions.create({ model: 'gpt-4o', messages: MESSAGES, stream: true });
      const started = Date.now();
      const closing = own.close({ graceMs: 5000 });
      assert.equal(await streamedText(stream), 'finished in the grace period');
      await closing;
      await idleClosed;
      assert.ok(Date.now() - started < 3000, `close took ${Date.now() - started} ms`);
    } finally {
      busy.close();
      idle.destroy();
    }
    const quick = await startUnderstudy();
    const open = http2.connect(quick.baseUrl);
    open.on('error', () => {});
    await h2Request(open, { ':path': '/_understudy/health' });
    const started = Date.now();
    await quick.close();
    assert.ok(Date.now() - started < 2000, `close() waited ${Date.now() - started} ms for an idle session`);
    open.destroy();
  });
});

describe('serve --workers 2 over HTTP/2', { timeout: 60_000 }, () => {
  test('an edge worker forwards HTTP/2 requests to the owner over HTTP/1.1 without their pseudo-headers', async () => {
    const child = spawn(process.execPath, [freshCli(), 'serve', '--port', '0', '--workers', '2', '--quiet'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`no "listening" line: ${out}`)), 30_000);
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          const match = /listening on (http:\/\/\S+)/.exec(out);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
      });
      const id = 'h2-workers';
      const workers = new Set<number>();
      // Each connection lands on one worker; fresh ones until both answered (control requests
      // reaching the edge are forwarded to the owner).
      // The second worker may still be starting when the owner prints its line.
      const deadline = Date.now() + 25_000;
      for (let i = 0; Date.now() < deadline && workers.size < 2; i++) {
        const client = http2Fetch();
        try {
          const control = async (method: string, path: string, body?: unknown) => {
            const answer = await client.fetch(`${url}/_understudy${path}`, {
              method,
              ...(body !== undefined && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
            });
            assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${await answer.clone().text()}`);
            return answer.status === 204 ? undefined : ((await answer.json()) as unknown);
          };
          if (i === 0) {
            await control('POST', '/sessions', { id, apiKey: `${id}-key` });
            await control('POST', `/sessions/${id}/scripts`, {
              scenarios: [{ name: 'again', exhausted: 'repeat_last', steps: [{ reply: { text: 'from a worker' } }] }],
            });
          }
          const openai = new OpenAI({ baseURL: `${url}/v1`, apiKey: `${id}-key`, maxRetries: 0, timeout: 5000, fetch: client.fetch });
          const completion = await openai.chat.completions.create({ model: 'gpt-4o', messages: MESSAGES });
          assert.equal(completion.choices[0].message.content, 'from a worker');
          const journal = (await control('GET', `/sessions/${id}/journal`)) as { entries: { worker?: number }[] };
          for (const entry of journal.entries) if (entry.worker !== undefined) workers.add(entry.worker);
        } finally {
          client.close();
        }
      }
      assert.deepEqual([...workers].sort(), [0, 1], 'both workers answered HTTP/2 requests');
      // A session the owner alone answers (two steps), its answers cut by a `close` fault: straight
      // from the owner an HTTP/2 client sees GOAWAY + RST_STREAM CANCEL; through an edge, whose hop
      // to the owner broke off, RST_STREAM INTERNAL_ERROR.
      const cutId = 'h2-workers-cut';
      const create = await h2Request(
        url,
        { ':method': 'POST', ':path': '/_understudy/sessions', 'content-type': 'application/json' },
        JSON.stringify({ id: cutId, apiKey: `${cutId}-key` }),
      );
      assert.equal(create.status, 201, create.body);
      const fault = { text: 'one two three four', chunks: ['one ', 'two ', 'three ', 'four'], fault: { kind: 'close', afterChunks: 3 } };
      const load = await h2Request(
        url,
        { ':method': 'POST', ':path': `/_understudy/sessions/${cutId}/scripts`, 'content-type': 'application/json' },
        JSON.stringify({ scenarios: [{ name: 'cut', exhausted: 'repeat_last', steps: [{ reply: fault }, { reply: fault }] }] }),
      );
      assert.equal(load.status, 200, load.body);
      const codes = new Set<number>();
      const body = JSON.stringify({ model: 'gpt-4o', stream: true, messages: MESSAGES });
      for (let i = 0; i < 20 && codes.size < 2; i++) {
        const answer = await h2Request(
          url,
          { ':method': 'POST', ':path': '/v1/chat/completions', 'content-type': 'application/json', authorization: `Bearer ${cutId}-key` },
          body,
        );
        assert.equal(textOfSse(answer.body), 'one two ', `code ${answer.rstCode}`);
        codes.add(answer.rstCode);
      }
      assert.deepEqual([...codes].sort(), [http2.constants.NGHTTP2_INTERNAL_ERROR, http2.constants.NGHTTP2_CANCEL]);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });
});

describe('the AWS SDK’s default handler', () => {
  test('@aws-sdk/client-bedrock-runtime on its default NodeHttp2Handler reaches the port over h2c and gets an HTTP answer, not “Protocol error”', async () => {
    const { BedrockRuntimeClient, ConverseCommand } = await import('@aws-sdk/client-bedrock-runtime');
    const session = await mock.session();
    const client = new BedrockRuntimeClient({
      endpoint: mock.baseUrl,
      region: 'us-east-1',
      credentials: { accessKeyId: session.apiKey, secretAccessKey: 'not-checked' },
      maxAttempts: 1,
    });
    try {
      const command = new ConverseCommand({
        modelId: 'anthropic.claude-3-haiku-20240307-v1:0',
        messages: [{ role: 'user', content: [{ text: 'hi' }] }],
      });
      const outcome = await client.send(command, { abortSignal: AbortSignal.timeout(5000) }).catch((e: unknown) => e);
      // Before the Bedrock routes exist the answer is a 404; after, a zero-config reply. Either way
      // an HTTP status came back over HTTP/2 (HTTP/1.1-only, the handler fails with "Protocol error").
      const status = (outcome as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      assert.equal(typeof status, 'number', String(outcome));
      assert.doesNotMatch(String(outcome), /Protocol error/);
    } finally {
      client.destroy();
    }
  });
});

describe('the HTTP/2 response (http2-side.ts)', () => {
  test('a session with no traffic for idleTimeoutMs is sent GOAWAY; one with a stream open is not cut', async () => {
    const side = new Http2Side({
      onRequest: (req, res) => {
        if (req.url === '/slow') setTimeout(() => res.end('slow but whole'), 600);
        else res.end('quick');
      },
      refuse: () => {},
      requestTimeoutMs: 1000,
      idleTimeoutMs: 200,
    });
    await new Promise<void>((resolve) => side.server.listen(0, '127.0.0.1', resolve));
    try {
      const { port: sidePort } = side.server.address() as { port: number };
      const idle = http2.connect(`http://127.0.0.1:${sidePort}`);
      idle.on('error', () => {});
      const goaway = new Promise<number>((resolve) => {
        const started = Date.now();
        idle.once('goaway', () => resolve(Date.now() - started));
      });
      assert.equal((await h2Request(idle, { ':path': '/' })).body, 'quick');
      const after = await goaway;
      assert.ok(after >= 150 && after < 2000, `GOAWAY after ${after} ms`);
      // A stream in flight when the timeout passes still gets its whole answer.
      const busy = http2.connect(`http://127.0.0.1:${sidePort}`);
      busy.on('error', () => {});
      const slow = await h2Request(busy, { ':path': '/slow' });
      assert.equal(slow.body, 'slow but whole');
      assert.equal(slow.rstCode, 0);
      idle.destroy();
      busy.destroy();
    } finally {
      side.closeSessions(true);
      await new Promise((resolve) => side.server.close(resolve));
    }
  });

  test('an answer destroyed part-way is reset with INTERNAL_ERROR (node:http2’s own destroy reads as a clean end)', async () => {
    const side = new Http2Side({
      onRequest: (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('part of it');
        setTimeout(() => res.destroy(), 50);
      },
      refuse: () => {},
      requestTimeoutMs: 1000,
      idleTimeoutMs: 5000,
    });
    await new Promise<void>((resolve) => side.server.listen(0, '127.0.0.1', resolve));
    try {
      const { port: sidePort } = side.server.address() as { port: number };
      const answer = await h2Request(`http://127.0.0.1:${sidePort}`, { ':path': '/' });
      assert.equal(answer.body, 'part of it');
      assert.equal(answer.rstCode, http2.constants.NGHTTP2_INTERNAL_ERROR);
    } finally {
      side.closeSessions(true);
      await new Promise((resolve) => side.server.close(resolve));
    }
  });
});

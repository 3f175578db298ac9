// Issue 13 §3 and §8: whatever arrives at the socket — a malformed percent-escape, framing Node's
// parser refuses, an oversized header block, a client too slow to finish its headers, a failure
// inside Understudy — is answered in the shape of the provider whose route it named (or the
// control API's), never as a 500 from the wrong provider or an empty body; and a request whose
// client leaves is journalled as aborted.

import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import fc from 'fast-check';
import OpenAI from 'openai';
import { startUnderstudy, type Understudy } from '../src/client/index.js';
import { anthropicMessages } from '../src/dialects/anthropic-messages/index.js';
import { gemini } from '../src/dialects/gemini/index.js';
import { openaiChat } from '../src/dialects/openai-chat/index.js';
import { providerRoutes } from '../src/transport/routes.js';
import { assertErrorShape, rawRequest, shapeForPath, shapeOf } from './support/raw-http.js';

let mock: Understudy;
let port: number;
before(async () => {
  mock = await startUnderstudy({ headersTimeoutMs: 800, requestTimeoutMs: 1500 });
  port = Number(new URL(mock.baseUrl).port);
  mock.defaultSession.scenario('always').onExhausted('repeat_last').replies('still here');
});
after(async () => {
  await mock.close();
});

// Every provider route with its parameters filled in, and the control API.
const ROUTES = [
  ...providerRoutes().map((route) =>
    route
      .replace(/^POST /, '')
      .replace('{version}', 'v1')
      .replace('{model}', 'gemini-2.5-flash')
      .replace('{location}', 'us-central1')
      .replace(/\{[A-Za-z]+\}/g, 'p'),
  ),
  '/_understudy/sessions',
  '/_understudy/sessions/default/scripts',
];

async function stillServing(): Promise<void> {
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: 'k', maxRetries: 0, timeout: 5000 });
  const completion = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
  assert.equal(completion.choices[0].message.content, 'still here');
}

test('a malformed percent-escape in a session prefix or path parameter is a 400 in the route provider shape, through each SDK', async () => {
  const anthropic = new Anthropic({ baseURL: `${mock.baseUrl}/s/%E0%A4%A`, apiKey: 'k', maxRetries: 0, timeout: 5000 });
  const a = await anthropic.messages
    .create({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
    .catch((e: unknown) => e);
  assert.ok(a instanceof Anthropic.BadRequestError, String(a));
  assert.equal(a.type, 'invalid_request_error');
  assert.match(a.message, /not valid percent-encoding/);

  const openai = new OpenAI({ baseURL: `${mock.baseUrl}/s/%ZZ/v1`, apiKey: 'k', maxRetries: 0, timeout: 5000 });
  const o = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
  assert.ok(o instanceof OpenAI.BadRequestError, String(o));
  assert.equal(o.code, 'invalid_url');

  // v1beta is @google/genai 2's default path and v1 its 3's: both are Gemini's paths.
  for (const apiVersion of ['v1beta', 'v1']) {
    const httpOptions = { baseUrl: `${mock.baseUrl}/s/%E0%A4%A`, apiVersion, timeout: 5000 };
    const google = new GoogleGenAI({ apiKey: 'k', httpOptions });
    const g = await google.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' }).catch((e: unknown) => e);
    assert.ok(g instanceof Error && 'status' in g, String(g));
    assert.equal((g as { status: number }).status, 400);
    assert.match(g.message, /INVALID_ARGUMENT/, apiVersion);
  }

  const model = await fetch(`${mock.baseUrl}/v1beta/models/%ZZ:generateContent`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"contents":[]}',
  });
  assert.equal(model.status, 400);
  assertErrorShape(await model.text(), 'gemini', 'model parameter');

  const control = await fetch(`${mock.baseUrl}/_understudy/sessions/%ZZ/journal`);
  assert.equal(control.status, 400);
  const body = await control.text();
  assertErrorShape(body, 'control', 'control path');
  assert.match(body, /invalid_path/);
  await stillServing();
});

test('framing and header errors from the HTTP parser are answered in the route provider shape', async () => {
  const cases: { name: string; request: (path: string) => string; status: number }[] = [
    {
      name: 'bad chunk size',
      request: (path) =>
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      status: 400,
    },
    {
      name: 'Content-Length with Transfer-Encoding',
      request: (path) =>
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      status: 400,
    },
    {
      name: 'non-numeric Content-Length',
      request: (path) => `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n{}`,
      status: 400,
    },
    {
      name: 'no Host header',
      request: (path) => `POST ${path} HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
      status: 400,
    },
    {
      name: 'a gzip body',
      request: (path) =>
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: 2\r\n\r\n{}`,
      status: 415,
    },
    {
      name: 'CONNECT',
      request: () => `CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n`,
      status: 405,
    },
    {
      name: 'a 20 KB header',
      request: (path) => `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\nContent-Length: 2\r\n\r\n{}`,
      status: 431,
    },
  ];
  for (const path of ROUTES) {
    for (const { name, request, status } of cases) {
      const response = await rawRequest(port, request(path));
      const context = `${name} at ${path}`;
      assert.equal(response.status, status, `${context}: ${response.body.slice(0, 200)}`);
      assertErrorShape(response.body, name === 'CONNECT' ? 'openai' : shapeForPath(path), context);
      // Provider errors carry a request id, as the providers' do; the control API's need none.
      if (shapeForPath(path) !== 'control') assert.match(response.headers['x-request-id'] ?? '', /^req_/, context);
    }
  }
  await stillServing();
});

test('a failure inside Understudy is a 500 in the route provider shape, so each SDK reports a server error', async (t) => {
  const boom = () => {
    throw new Error('decoder exploded');
  };
  for (const dialect of [openaiChat, anthropicMessages, gemini]) t.mock.method(dialect, 'decode', boom);

  // Bodies unlike any sent before, so that no remembered decode stands in for the broken one.
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: 'k', maxRetries: 0, timeout: 5000 });
  const o = await openai.chat.completions
    .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'a failure, please' }] })
    .catch((e: unknown) => e);
  assert.ok(o instanceof OpenAI.InternalServerError, String(o));
  assert.equal(o.code, 'understudy_internal');
  assert.match(o.message, /decoder exploded/);

  const anthropic = new Anthropic({ baseURL: mock.url('anthropic'), apiKey: 'k', maxRetries: 0, timeout: 5000 });
  const a = await anthropic.messages
    .create({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'a failure, please' }] })
    .catch((e: unknown) => e);
  assert.ok(a instanceof Anthropic.InternalServerError, String(a));
  assert.equal(a.type, 'api_error');

  const google = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: mock.url('gemini'), timeout: 5000 } });
  const g = await google.models.generateContent({ model: 'gemini-2.5-flash', contents: 'a failure, please' }).catch((e: unknown) => e);
  assert.equal((g as { status?: number }).status, 500, String(g));
  assert.match((g as Error).message, /INTERNAL/);
  t.mock.restoreAll();
  await stillServing();
});

// Until the headers are complete Node's parser has not handed the request line over, so the route
// is not known: such a 408 comes in OpenAI's shape (docs/security.md).
test('a client that never finishes its headers gets a 408 and its socket is closed; others are served meanwhile', async () => {
  const paths = Array.from({ length: 40 }, (_, i) => ROUTES[i % ROUTES.length]);
  const slow = Promise.all(paths.map((path) => rawRequest(port, `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: `, 6000)));
  const started = Date.now();
  await stillServing();
  assert.ok(Date.now() - started < 500, 'a normal request waited behind the slow ones');
  const answers = await slow;
  answers.forEach((r, i) => {
    assert.equal(r.status, 408, `${paths[i]}: ${JSON.stringify(r)}`);
    assertErrorShape(r.body, 'openai', `slow headers at ${paths[i]}`);
    assert.match(r.body, /request_timeout/);
  });
});

test('a request whose client leaves before the body arrives is journalled as aborted and consumes nothing', async () => {
  const session = await mock.session('aborts', { apiKey: 'abort-key' });
  session.scenario('once').replies('the only reply');
  await new Promise<void>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        'POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer abort-key\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"model":',
      );
      setTimeout(() => {
        socket.destroy();
        resolve();
      }, 100);
    });
  });
  let journal = await session.journal();
  for (let i = 0; i < 50 && journal.entries.length === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    journal = await session.journal();
  }
  assert.equal(journal.entries.length, 1);
  assert.equal(journal.entries[0].event, 'request_aborted');
  assert.equal(journal.entries[0].status, 499);
  assert.equal(journal.entries[0].error?.code, 'client_closed_request');
  assert.equal(journal.counters.aborted, 1);
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 5000 });
  const completion = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
  assert.equal(completion.choices[0].message.content, 'the only reply', 'the aborted request consumed nothing');
});

// Generated request lines, headers and framing at every route: no 5xx, every error in a provider's
// (or the control API's) shape, and the server answers an SDK afterwards.
const segment = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9._~-]{0,12}$/),
  fc.stringMatching(/^(%[0-9A-Fa-f]{0,2}|%[G-Zg-z]{2}|[A-Za-z]){1,6}$/),
  fc.constantFrom('%E0%A4%A', '%', '%%', '%C0%AF', '%00', '..', '.', '%2F', ':generateContent'),
);
const target = fc.oneof(
  fc
    .tuple(fc.constantFrom(...ROUTES), fc.option(segment, { nil: undefined }))
    .map(([route, s]) => (s === undefined ? route : `${route}/${s}`)),
  fc.tuple(segment, fc.constantFrom(...ROUTES)).map(([s, route]) => `/s/${s}${route}`),
  fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => `/${parts.join('/')}`),
  fc.tuple(fc.constantFrom(...ROUTES), segment).map(([route, q]) => `${route}?key=${q}&alt=${q}`),
);
const headerValue = fc.stringMatching(/^[\x21-\x7e]{0,40}$/);
const extraHeaders = fc.array(
  fc.tuple(
    fc.constantFrom(
      'Content-Type',
      'Authorization',
      'X-Api-Key',
      'x-goog-api-key',
      'api-key',
      'x-understudy-session',
      'anthropic-version',
      'anthropic-beta',
      'x-stainless-retry-count',
      'amz-sdk-request',
      'Origin',
      'Accept-Encoding',
      'Expect',
    ),
    headerValue,
  ),
  { maxLength: 4 },
);
const framing = fc.oneof(
  fc.constant({ kind: 'length' as const }),
  fc.constant({ kind: 'chunked' as const }),
  fc.record({ kind: fc.constant('badchunk' as const), size: fc.stringMatching(/^[0-9a-zA-Z;-]{1,6}$/) }),
  fc.constant({ kind: 'none' as const }),
  fc.record({ kind: fc.constant('lengthheader' as const), value: fc.constantFrom('-1', '1e3', '0x10', ' 2', '2, 2', '') }),
);
const method = fc.constantFrom('POST', 'GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS');
const body = fc.constantFrom(
  '{}',
  '{"model":"m","messages":[{"role":"user","content":"hi"}]}',
  '{"contents":[{"parts":[{"text":"hi"}]}]}',
  '',
);

function requestBytes(
  m: string,
  path: string,
  headers: [string, string][],
  frame: { kind: string; size?: string; value?: string },
  text: string,
) {
  let head = `${m} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n`;
  for (const [name, value] of headers) head += `${name}: ${value}\r\n`;
  switch (frame.kind) {
    case 'length':
      return `${head}Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
    case 'chunked':
      return `${head}Transfer-Encoding: chunked\r\n\r\n${text ? `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n` : ''}0\r\n\r\n`;
    case 'badchunk':
      return `${head}Transfer-Encoding: chunked\r\n\r\n${frame.size}\r\n${text}\r\n0\r\n\r\n`;
    case 'lengthheader':
      return `${head}Content-Length: ${frame.value}\r\n\r\n${text}`;
    default:
      return `${head}\r\n`;
  }
}

test('generated URLs, headers and framing at every route: no 5xx, every error in a known shape, the server lives on', async () => {
  let answered = 0;
  await fc.assert(
    fc.asyncProperty(method, target, extraHeaders, framing, body, async (m, path, headers, frame, text) => {
      const response = await rawRequest(port, requestBytes(m, path, headers, frame, text), 6000);
      const context = `${m} ${path} ${JSON.stringify(headers)} ${JSON.stringify(frame)}`;
      if (response.closedSilently) return; // a connection Node's parser dropped before anything could be answered (e.g. a reset)
      answered++;
      assert.ok(response.status >= 200 && response.status < 500, `${context}: ${response.status} ${response.body.slice(0, 200)}`);
      if (response.status >= 400 && response.status !== 405) {
        assert.ok(shapeOf(response.body), `${context}: ${response.status} body in no known shape: ${response.body.slice(0, 200)}`);
      }
    }),
    { numRuns: 400, seed: 20261201 },
  );
  assert.ok(answered > 300, `only ${answered} of 400 generated requests were answered`);
  await stillServing();
});

test('a client that gives up during a scripted delay is journalled as aborted and consumes nothing', async () => {
  const session = await mock.session('delay-aborts', { apiKey: 'delay-key' });
  session.scenario('slow').replies('worth the wait').delayedBy(2000);
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 200 });
  const gaveUp = await openai.chat.completions
    .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })
    .catch((e: unknown) => e);
  assert.ok(gaveUp instanceof OpenAI.APIConnectionTimeoutError, String(gaveUp));
  let journal = await session.journal();
  for (let i = 0; i < 100 && journal.entries.length === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    journal = await session.journal();
  }
  assert.equal(journal.entries.length, 1);
  assert.equal(journal.entries[0].event, 'request_aborted');
  assert.equal(journal.entries[0].script, 'slow', 'the entry says which step it would have been');
  const patient = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const completion = await patient.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
  assert.equal(completion.choices[0].message.content, 'worth the wait');
});

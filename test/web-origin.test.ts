// Issue 13 §2: with no control token, a web page must not be able to script the server — neither
// by a cross-origin simple request (text/plain, no preflight) nor by DNS rebinding (a page whose
// own host name now points at 127.0.0.1, so the request names that host). Control mutations take
// JSON or YAML bodies only. Requests that are not a browser's (no Origin) are unaffected.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import OpenAI from 'openai';
import { startUnderstudy, type Understudy } from '../src/client/index.js';
import { rawRequest } from './support/raw-http.js';

let mock: Understudy;
let port: number;
before(async () => {
  mock = await startUnderstudy();
  port = Number(new URL(mock.baseUrl).port);
  mock.defaultSession.scenario('original').onExhausted('repeat_last').replies('the test script answers');
});
after(async () => {
  await mock.close();
});

const attackerScript = JSON.stringify({ scenarios: [{ name: 'evil', steps: [{ reply: { text: 'the page answers' } }] }] });

async function answerNow(): Promise<string | null> {
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: 'k', maxRetries: 0, timeout: 5000 });
  const completion = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'who answers?' }] });
  return completion.choices[0].message.content;
}

async function errorCode(response: Response): Promise<string> {
  return ((await response.json()) as { error: { code: string } }).error.code;
}

test('a cross-origin simple request cannot add scripts, create sessions or reset; provider routes refuse it too', async () => {
  const evil = { origin: 'http://evil.example', 'content-type': 'text/plain;charset=UTF-8' };
  const scripts = await fetch(`${mock.baseUrl}/_understudy/sessions/default/scripts`, {
    method: 'POST',
    headers: evil,
    body: attackerScript,
  });
  assert.equal(scripts.status, 403);
  assert.equal(await errorCode(scripts), 'origin_not_allowed');
  const sessions = await fetch(`${mock.baseUrl}/_understudy/sessions`, { method: 'POST', headers: evil, body: '{"id":"evil"}' });
  assert.equal(sessions.status, 403);
  const reset = await fetch(`${mock.baseUrl}/_understudy/sessions/default/reset`, {
    method: 'POST',
    headers: { origin: 'http://evil.example' },
  });
  assert.equal(reset.status, 403);
  const chat = await fetch(`${mock.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { origin: 'http://evil.example', 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'who answers?' }] }),
  });
  assert.equal(chat.status, 403);
  assert.equal(await errorCode(chat), 'origin_not_allowed');
  // Even a JSON body from a page (which a browser would have preflighted) is refused.
  const json = await fetch(`${mock.baseUrl}/_understudy/sessions/default/scripts`, {
    method: 'POST',
    headers: { origin: 'http://evil.example', 'content-type': 'application/json' },
    body: attackerScript,
  });
  assert.equal(json.status, 403);
  assert.equal(await answerNow(), 'the test script answers');
  assert.equal((await mock.defaultSession.journal()).counters.requests, 1, 'only the SDK request reached the session');
});

test('control mutations need a JSON or YAML content type, even without an Origin', async () => {
  const plain = await fetch(`${mock.baseUrl}/_understudy/sessions/default/scripts`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: attackerScript,
  });
  assert.equal(plain.status, 415);
  assert.equal(await errorCode(plain), 'unsupported_content_type');
  const form = await fetch(`${mock.baseUrl}/_understudy/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'id=evil',
  });
  assert.equal(form.status, 415);
  const untyped = await rawRequest(
    port,
    `POST /_understudy/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${'{"id":"x"}'.length}\r\n\r\n{"id":"x"}`,
  );
  assert.equal(untyped.status, 415);
  // A body-less POST may leave the type out (curl -X POST …/reset), and YAML scripts are read with positions.
  const reset = await fetch(`${mock.baseUrl}/_understudy/sessions/default/reset`, { method: 'POST' });
  assert.equal(reset.status, 200);
  const yamlSession = await mock.session('yaml-scripts');
  const yaml = await fetch(`${mock.baseUrl}/_understudy/sessions/yaml-scripts/scripts`, {
    method: 'POST',
    headers: { 'content-type': 'application/yaml' },
    body: 'scenarios:\n  - name: from-yaml\n    steps:\n      - reply: { text: "from YAML" }\n',
  });
  assert.equal(yaml.status, 200, await yaml.clone().text());
  const badYaml = await fetch(`${mock.baseUrl}/_understudy/sessions/yaml-scripts/scripts`, {
    method: 'POST',
    headers: { 'content-type': 'application/yaml' },
    body: 'scenarios:\n  - name: broken\n    steps:\n      - reply: { txet: "typo" }\n',
  });
  assert.equal(badYaml.status, 400);
  const problems = ((await badYaml.json()) as { error: { problems: { path: string; line?: number }[] } }).error.problems;
  assert.ok(
    problems.some((p) => p.path.startsWith('/scenarios/0/steps/0/reply') && p.line === 4),
    JSON.stringify(problems),
  );
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: yamlSession.apiKey, maxRetries: 0, timeout: 5000 });
  const completion = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
  assert.equal(completion.choices[0].message.content, 'from YAML');
});

test('DNS rebinding: a control request naming a host that is not loopback is refused, and lists no API keys', async () => {
  for (const request of [
    `GET /_understudy/sessions HTTP/1.1\r\nHost: evil.example:${port}\r\n\r\n`,
    `POST /_understudy/sessions/default/reset HTTP/1.1\r\nHost: evil.example:${port}\r\nContent-Length: 0\r\n\r\n`,
    `GET /_understudy/sessions HTTP/1.1\r\nHost: 127.0.0.1:80@evil.example\r\n\r\n`,
    `POST /_understudy/sessions HTTP/1.1\r\nHost: evil.example:${port}\r\nOrigin: http://evil.example:${port}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
  ]) {
    const response = await rawRequest(port, request);
    assert.equal(response.status, 403, request.split('\r\n')[0]);
    assert.match(response.body, /host_not_allowed/);
    assert.doesNotMatch(response.body, /apiKey/);
  }
  // A page on the rebound host calling a provider route is refused by its Origin.
  const chat = await rawRequest(
    port,
    `POST /v1/chat/completions HTTP/1.1\r\nHost: evil.example:${port}\r\nOrigin: http://evil.example:${port}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
  );
  assert.equal(chat.status, 403);
  assert.match(chat.body, /origin_not_allowed/);
  // Loopback names, *.localhost and the server's own origin under them are fine.
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `app.localhost:${port}`]) {
    const ok = await rawRequest(port, `GET /_understudy/sessions HTTP/1.1\r\nHost: ${host}\r\nOrigin: http://${host}\r\n\r\n`);
    assert.equal(ok.status, 200, host);
  }
});

test('allowed hosts and a control token open the control API to other host names; listed origins are let through', async () => {
  const named = await startUnderstudy({ allowedHosts: ['Understudy'] });
  const guarded = await startUnderstudy({ controlToken: 't0ken' });
  const cors = await startUnderstudy({ corsOrigins: ['http://app.test'] });
  try {
    const namedPort = Number(new URL(named.baseUrl).port);
    assert.equal((await rawRequest(namedPort, `GET /_understudy/sessions HTTP/1.1\r\nHost: understudy:8100\r\n\r\n`)).status, 200);
    assert.equal((await rawRequest(namedPort, `GET /_understudy/sessions HTTP/1.1\r\nHost: other:8100\r\n\r\n`)).status, 403);
    const guardedPort = Number(new URL(guarded.baseUrl).port);
    const withToken = await rawRequest(
      guardedPort,
      `GET /_understudy/sessions HTTP/1.1\r\nHost: understudy:8100\r\nAuthorization: Bearer t0ken\r\n\r\n`,
    );
    assert.equal(withToken.status, 200);
    const noToken = await rawRequest(guardedPort, `GET /_understudy/sessions HTTP/1.1\r\nHost: understudy:8100\r\n\r\n`);
    assert.equal(noToken.status, 401, 'the token is still required');
    const listed = await fetch(`${cors.baseUrl}/_understudy/sessions`, { headers: { origin: 'http://app.test' } });
    assert.equal(listed.status, 200);
    assert.equal(listed.headers.get('access-control-allow-origin'), 'http://app.test');
    const unlisted = await fetch(`${cors.baseUrl}/_understudy/sessions`, { headers: { origin: 'http://other.test' } });
    assert.equal(unlisted.status, 403);
  } finally {
    await named.close();
    await guarded.close();
    await cors.close();
  }
});

// Issue 5 §5: generated malformed bodies at every provider route. Each must get a well-formed
// error in that provider's shape (never a 500, never a hang), the server must stay alive, and
// memory must stay flat.

import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { startUnderstudy, type Understudy } from '../src/client/index.js';
import { providerRoutes } from '../src/transport/routes.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
  const session = await mock.session('fuzz', { apiKey: 'fuzz-key', journalLimit: 50 });
  // Something that could answer, so that a body the dialect accepts is answered rather than 409.
  session.scenario('anything').onExhausted('repeat_last').replies('ok');
});
after(async () => {
  await mock.close();
});

/** Concrete paths for every registered route (path parameters filled in). */
function concretePaths(): string[] {
  return providerRoutes().map((r) =>
    r
      .replace(/^POST /, '')
      .replace('{model}', 'some-model')
      .replace('{project}', 'p')
      .replace('{location}', 'us-central1')
      .replace(/\{[A-Za-z]+\}/g, 'x'),
  );
}

const jsonValue = fc.jsonValue({ maxDepth: 4 });
// Bodies that are objects with plausible keys and wrong values, so the validators are exercised
// beyond the first check.
const plausibleObject = fc.dictionary(
  fc.constantFrom(
    'model',
    'messages',
    'input',
    'contents',
    'tools',
    'tool_choice',
    'stream',
    'max_tokens',
    'system',
    'response_format',
    'text',
    'generationConfig',
    'toolConfig',
    'previous_response_id',
    'n',
  ),
  jsonValue,
  { maxKeys: 6 },
);
const rawText = fc.oneof(fc.string({ maxLength: 200 }), fc.constant(''), fc.constant('{'), fc.constant('[1,2'), fc.constant('null'));

async function send(path: string, body: string, contentType = 'application/json'): Promise<Response> {
  return fetch(`${mock.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': contentType, authorization: 'Bearer fuzz-key', 'x-api-key': 'fuzz-key', 'anthropic-version': '2023-06-01' },
    body,
    signal: AbortSignal.timeout(5000),
  });
}

async function checkAnswer(response: Response, context: string): Promise<void> {
  const text = await response.text();
  assert.ok(response.status < 500, `${context}: status ${response.status}: ${text.slice(0, 300)}`);
  assert.ok(response.headers.get('x-request-id'), `${context}: no x-request-id`);
  if (response.status >= 400) {
    const parsed = JSON.parse(text) as unknown; // the error body is JSON in every provider's shape
    assert.equal(typeof parsed, 'object', context);
    // Ollama's error is the message itself: {"error":"…"}.
    const ollamaMessage = (parsed as { error?: unknown }).error;
    if (typeof ollamaMessage !== 'string' || ollamaMessage === '') assert.match(text, /message/, `${context}: error without a message`);
  }
}

test('generated malformed bodies at every route get well-formed errors, and the server lives on', async () => {
  setFlagsFromString('--expose_gc');
  const gc = runInNewContext('gc') as () => void;
  const paths = concretePaths();
  assert.ok(paths.length >= 2, `routes: ${paths.join(', ')}`);

  const round = async (runs: number) => {
    for (const path of paths) {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            plausibleObject.map((o) => JSON.stringify(o)),
            jsonValue.map((v) => JSON.stringify(v)),
            rawText,
          ),
          async (body) => {
            await checkAnswer(await send(path, body), `POST ${path} ${body.slice(0, 120)}`);
          },
        ),
        { numRuns: runs, seed: 20261130 },
      );
    }
  };
  await round(40);
  gc();
  const before = process.memoryUsage().heapUsed;
  await round(120);
  gc();
  const grown = process.memoryUsage().heapUsed - before;
  assert.ok(grown < 16 * 1024 * 1024, `heap grew by ${grown} bytes`);

  // wrong content type, invalid UTF-8, and a deep nest at every route
  for (const path of paths) {
    await checkAnswer(await send(path, 'model=x', 'application/x-www-form-urlencoded'), `form body at ${path}`);
    await checkAnswer(
      await fetch(`${mock.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
      }),
      `invalid UTF-8 at ${path}`,
    );
    await checkAnswer(await send(path, '['.repeat(5000) + ']'.repeat(5000)), `deep nesting at ${path}`);
  }

  const health = await fetch(`${mock.baseUrl}/_understudy/health`);
  assert.equal(health.status, 200);
});

test('unknown routes answer 404 and wrong methods 405 with Allow, in a provider shape', async () => {
  const unknown = await fetch(`${mock.baseUrl}/v1/not-a-route`, {
    method: 'POST',
    body: '{}',
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(unknown.status, 404);
  assert.match(await unknown.text(), /message/);
  for (const path of concretePaths()) {
    const wrong = await fetch(`${mock.baseUrl}${path}`, { method: 'GET' });
    assert.equal(wrong.status, 405, path);
    assert.match(wrong.headers.get('allow') ?? '', /POST/, path);
  }
});

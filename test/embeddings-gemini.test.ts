// The Gemini API's embedding routes judged by @google/genai over HTTP: `ai.models.embedContent`
// (which the SDK sends as batchEmbedContents) answers scripted and derived vectors, honours
// outputDimensionality, ranks a near-duplicate first; malformed requests get Google's 400 (raw
// HTTP where the SDK cannot send them); the single-content route answers too; each is journalled.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { ApiError, GoogleGenAI } from '@google/genai';

import { cosineSimilarity } from '../src/core/embedding-vectors.js';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const MODEL = 'gemini-embedding-001';

function genai(session: UnderstudySession): GoogleGenAI {
  return new GoogleGenAI({ apiKey: session.apiKey, httpOptions: { baseUrl: mock.url('gemini'), timeout: 10_000 } });
}

async function post(session: UnderstudySession, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${mock.url('gemini')}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': session.apiKey },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, body: await response.json() };
}

test('embedContent answers the scripted vector and derived ones, in order, journalled [gemini.embeddings.json +]', async () => {
  const session = await mock.session('gemini-scripted');
  await session.load({ scenarios: [], embeddings: [{ input: { contains: 'refund' }, vector: [0.5, -0.5, 0.25] }] });
  const answer = await genai(session).models.embedContent({ model: MODEL, contents: ['How do refunds work?', 'Shipping times'] });
  const values = answer.embeddings?.map((e) => e.values ?? []) ?? [];
  assert.deepEqual(values[0], [0.5, -0.5, 0.25]);
  assert.equal(values[1].length, 3072, "gemini-embedding's default size");
  const { entries } = await session.journal();
  assert.equal(entries.length, 1);
  assert.equal(entries[0].operation, 'gemini.batchEmbedContents');
  assert.equal(entries[0].status, 200);
  assert.deepEqual(
    entries[0].request?.messages.map((m) => m.parts.map((p) => ('text' in p ? p.text : ''))),
    [['How do refunds work?'], ['Shipping times']],
  );
  await session.verify();
});

test('derived vectors: outputDimensionality honoured, stable across sessions, a near-duplicate ranked first', async () => {
  const one = genai(await mock.session('gemini-derived-1'));
  const two = genai(await mock.session('gemini-derived-2'));
  const contents = ['How do I reset my account password?', 'The recipe needs two eggs.', 'How can I reset the password of my account?'];
  const a = await one.models.embedContent({
    model: MODEL,
    contents,
    config: { outputDimensionality: 256, taskType: 'RETRIEVAL_DOCUMENT' },
  });
  const b = await two.models.embedContent({
    model: MODEL,
    contents,
    config: { outputDimensionality: 256, taskType: 'RETRIEVAL_DOCUMENT' },
  });
  const [query, unrelated, near] = a.embeddings?.map((e) => e.values ?? []) ?? [];
  assert.deepEqual(a.embeddings, b.embeddings);
  assert.equal(query.length, 256);
  assert.ok(cosineSimilarity(query, near) > cosineSimilarity(query, unrelated));
});

test('the single-content route answers { embedding: { values } }', async () => {
  const session = await mock.session('gemini-single');
  const answer = await post(session, `/v1beta/models/${MODEL}:embedContent`, {
    model: `models/${MODEL}`,
    content: { parts: [{ text: 'hello' }] },
    outputDimensionality: 8,
  });
  assert.equal(answer.status, 200);
  assert.equal(answer.body.embedding.values.length, 8);
  assert.equal((await session.journal()).entries[0].operation, 'gemini.embedContent');
});

test("malformed requests get Google's 400 INVALID_ARGUMENT, journalled as invalid [gemini.embeddings.json -]", async () => {
  const session = await mock.session('gemini-malformed');
  const error = await genai(session)
    .models.embedContent({ model: MODEL, contents: ['a'], config: { outputDimensionality: 0 } })
    .then(
      () => assert.fail('the call succeeded'),
      (e: unknown) => e,
    );
  assert.ok(error instanceof ApiError, String(error));
  assert.equal(error.status, 400);
  assert.match(error.message, /output_dimensionality must be/);
  const batch = `/v1beta/models/${MODEL}:batchEmbedContents`;
  const cases: [unknown, RegExp][] = [
    [[1], /Root element must be a message/],
    [{ requests: [] }, /BatchEmbedContentsRequest\.requests: required field is not set/],
    [{ requests: [{ content: { parts: [{ text: 'a' }] } }], extra: 1 }, /Unknown name "extra"/],
    [{ requests: [{ content: { parts: [] } }] }, /requests\[0\]\.content\.parts: contents\.parts must not be empty/],
    [{ requests: [{}] }, /requests\[0\]\.content: required field is not set/],
    [{ requests: [{ content: { parts: [{ text: 'a' }] }, taskType: 'SEARCH' }] }, /Invalid value at 'requests\[0\]\.task_type'/],
    [{ requests: [{ model: 'models/other', content: { parts: [{ text: 'a' }] } }] }, /differs from the model of the URL/],
    [{ requests: Array.from({ length: 101 }, () => ({ content: { parts: [{ text: 'a' }] } })) }, /at most 100 requests/],
  ];
  for (const [body, message] of cases) {
    const answer = await post(session, batch, body);
    assert.equal(answer.status, 400, JSON.stringify(body).slice(0, 80));
    assert.equal(answer.body.error.status, 'INVALID_ARGUMENT');
    assert.match(answer.body.error.message, message);
  }
  const { counters } = await session.journal();
  assert.equal(counters.invalid, cases.length + 1);
});

test('a scripted vector of another size than outputDimensionality is a 409 fixture_mismatch', async () => {
  const session = await mock.session('gemini-mismatch');
  await session.load({ scenarios: [], embeddings: [{ input: 'a', vector: [1, 0] }] });
  const answer = await post(session, `/v1beta/models/${MODEL}:batchEmbedContents`, {
    requests: [{ content: { parts: [{ text: 'a' }] }, outputDimensionality: 3 }],
  });
  assert.equal(answer.status, 409);
  assert.match(JSON.stringify(answer.body), /fixture_mismatch/);
  assert.deepEqual(
    (await session.check()).problems.map((p) => p.kind),
    ['fixture_mismatch'],
  );
});

test("a scripted error is the SDK's ApiError with Google's status [gemini.embeddings-errors.json +]", async () => {
  const session = await mock.session('gemini-scripted-error');
  await session.load({
    scenarios: [],
    embeddings: [{ input: 'busy', error: { status: 503, message: 'The model is overloaded.' } }],
  });
  const error = await genai(session)
    .models.embedContent({ model: MODEL, contents: ['fine', 'busy'] })
    .then(
      () => assert.fail('the call succeeded'),
      (e: unknown) => e,
    );
  assert.ok(error instanceof ApiError, String(error));
  assert.equal(error.status, 503);
  assert.match(error.message, /UNAVAILABLE/);
  assert.match(error.message, /The model is overloaded\./);
  const { entries } = await session.journal();
  assert.equal(entries[0].status, 503);
  assert.equal(entries[0].request?.messages.length, 2, 'the request is journalled with the error');
});

test('an input no scripted error matches is answered as usual [gemini.embeddings-errors.json -]', async () => {
  const session = await mock.session('gemini-scripted-error-miss');
  await session.load({ scenarios: [], embeddings: [{ input: 'busy', model: 'other-model', error: { status: 503, message: 'x' } }] });
  const answer = await genai(session).models.embedContent({ model: MODEL, contents: ['busy'] });
  assert.equal(answer.embeddings?.[0].values?.length, 3072, 'the error is scripted for another model only');
});

test("Vertex AI's :predict (express mode and project path): scripted and derived vectors, statistics, outputDimensionality [vertex.embeddings.json +]", async () => {
  const session = await mock.session('vertex-embed');
  await session.load({ scenarios: [], embeddings: [{ input: 'pinned', vector: [0.5, 0.25] }] });
  const express = new GoogleGenAI({
    vertexai: true,
    apiKey: session.apiKey,
    httpOptions: { baseUrl: mock.url('vertex'), timeout: 10_000 },
  });
  const answer = await express.models.embedContent({ model: 'text-embedding-005', contents: ['pinned', 'other words here'] });
  assert.deepEqual(answer.embeddings?.[0].values, [0.5, 0.25]);
  assert.equal(answer.embeddings?.[1].values?.length, 768, "text-embedding-005's size");
  assert.equal(answer.embeddings?.[1].statistics?.truncated, false);
  assert.ok((answer.embeddings?.[1].statistics?.tokenCount ?? 0) >= 3);
  const authClient = { getRequestHeaders: async () => new Headers({ authorization: `Bearer ${session.apiKey}` }) };
  const projected = new GoogleGenAI({
    vertexai: true,
    project: 'my-proj',
    location: 'us-central1',
    httpOptions: { baseUrl: mock.url('vertex'), timeout: 10_000 },
    googleAuthOptions: { authClient: authClient as never },
  });
  const small = await projected.models.embedContent({ model: 'text-embedding-005', contents: ['x'], config: { outputDimensionality: 32 } });
  assert.equal(small.embeddings?.[0].values?.length, 32);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.operation, e.route]),
    [
      ['vertex.predict', 'POST /v1beta1/publishers/google/models/text-embedding-005:predict'],
      ['vertex.predict', 'POST /v1beta1/projects/my-proj/locations/us-central1/publishers/google/models/text-embedding-005:predict'],
    ],
  );
});

test("a malformed :predict body is Google's 400 (raw HTTP) [vertex.embeddings.json -]", async () => {
  const session = await mock.session('vertex-embed-refused');
  const path = '/v1beta1/publishers/google/models/text-embedding-005:predict';
  for (const [body, message] of [
    [{ instances: [] }, /instances must not be empty/],
    [{ instances: [{ text: 'a' }] }, /Unknown name "text" at 'instances\[0\]'/],
    [{ instances: [{ content: 'a' }], parameters: { outputDimensionality: 0 } }, /output_dimensionality must be/],
  ] as const) {
    const answer = await post(session, path, body);
    assert.equal(answer.status, 400, JSON.stringify(body));
    assert.equal(answer.body.error.status, 'INVALID_ARGUMENT');
    assert.match(answer.body.error.message, message);
  }
});

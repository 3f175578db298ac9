// Cohere's `/v2/embed` judged by cohere-ai's CohereClientV2 over HTTP: every embedding type asked
// for (float, int8, uint8, binary, ubinary, base64) made from the same vector — scripted or derived
// — billed input tokens, output_dimension honoured, a near-duplicate ranked first; a missing
// input_type is Cohere's 400; each request journalled.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { CohereClient, CohereClientV2 } from 'cohere-ai';

import { cosineSimilarity } from '../src/core/embedding-vectors.js';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const MODEL = 'embed-v4.0';
const client = (session: UnderstudySession) =>
  new CohereClientV2({ token: session.apiKey, environment: mock.url('cohere'), maxRetries: 0, timeoutInSeconds: 10 });

test('embed: each embedding type from the scripted vector, billed tokens, journalled [cohere.embed.json +]', async () => {
  const session = await mock.session('cohere-embed');
  const vector = [0.5, -0.25, 1, -1, 0, 0.75, -0.5, 0.125, 0.9];
  await session.load({ scenarios: [], embeddings: [{ input: 'pinned', vector }] });
  const answer = await client(session).embed({
    model: MODEL,
    texts: ['pinned', 'other'],
    inputType: 'search_document',
    embeddingTypes: ['float', 'int8', 'uint8', 'binary', 'ubinary', 'base64'],
  });
  const e = answer.embeddings;
  assert.equal(answer.responseType, 'embeddings_by_type');
  assert.deepEqual(e.float?.[0], vector);
  // Rounded half up: -0.5 × 127 = -63.5 → -63.
  assert.deepEqual(e.int8?.[0], [64, -32, 127, -127, 0, 95, -63, 16, 114]);
  assert.deepEqual(e.uint8?.[0], [191, 96, 255, 0, 128, 223, 64, 143, 242]);
  // Signs of 9 values: 1 0 1 0 0 1 0 1 | 1 (padded) → 0b10100101, 0b10000000.
  assert.deepEqual(e.ubinary?.[0], [0xa5, 0x80]);
  assert.deepEqual(e.binary?.[0], [0xa5 - 128, 0]);
  const base64 = (e as { base64?: string[] }).base64?.[0] ?? '';
  assert.deepEqual(Array.from(new Float32Array(new Uint8Array(Buffer.from(base64, 'base64')).buffer)), vector.map(Math.fround));
  assert.equal(e.float?.[1].length, 1536, "embed-v4.0's default size");
  assert.deepEqual(answer.texts, ['pinned', 'other']);
  assert.ok((answer.meta?.billedUnits?.inputTokens ?? 0) >= 2);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((x) => [x.operation, x.status]),
    [['cohere.embed', 200]],
  );
});

test('derived vectors: output_dimension honoured, stable across sessions, a near-duplicate ranked first', async () => {
  const texts = ['How do I reset my account password?', 'Two eggs and a cup of flour.', 'How can I reset the password of my account?'];
  const ask = { model: MODEL, texts, inputType: 'search_query' as const, embeddingTypes: ['float' as const], outputDimension: 256 };
  const a = await client(await mock.session('cohere-derived-1')).embed(ask);
  const b = await client(await mock.session('cohere-derived-2')).embed(ask);
  assert.deepEqual(a.embeddings.float, b.embeddings.float);
  const [query, unrelated, near] = a.embeddings.float ?? [];
  assert.equal(query.length, 256);
  assert.ok(cosineSimilarity(query, near) > cosineSimilarity(query, unrelated));
});

test("a request without input_type, or with an unknown embedding type, is Cohere's 400 (raw HTTP: the SDK refuses to send them) [cohere.embed.json -]", async () => {
  const session = await mock.session('cohere-embed-refused');
  const cases: [unknown, RegExp][] = [
    [{ model: MODEL, texts: ['a'] }, /^invalid request: valid input_type must be provided/],
    [{ model: MODEL, texts: ['a'], input_type: 'search_query', embedding_types: ['float16'] }, /embedding_types\.0 must be one of/],
    [{ model: MODEL, texts: [], input_type: 'search_query' }, /texts must have at least 1 items/],
    [{ model: MODEL, texts: Array.from({ length: 97 }, () => 'a'), input_type: 'search_query' }, /texts must have at most 96 items/],
  ];
  for (const [body, message] of cases) {
    const response = await fetch(`${mock.url('cohere')}/v2/embed`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.apiKey}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    assert.equal(response.status, 400, JSON.stringify(body).slice(0, 80));
    const error = (await response.json()) as { id: string; message: string };
    assert.match(error.message, message);
    assert.match(error.id, /\S/);
  }
  assert.equal((await session.journal()).counters.invalid, cases.length);
});

test("v1's embed (CohereClient): a plain float list without embedding_types, the scripted vector, v2 models need no input_type [cohere-v1.embed.json +]", async () => {
  const session = await mock.session('cohere-v1-embed');
  await session.load({ scenarios: [], embeddings: [{ input: 'pinned', vector: [0.5, -0.5] }] });
  const v1 = new CohereClient({ token: session.apiKey, environment: mock.url('cohere'), maxRetries: 0, timeoutInSeconds: 10 });
  const plain = await v1.embed({ texts: ['pinned', 'other'], model: 'embed-english-v2.0' });
  assert.equal(plain.responseType, 'embeddings_floats');
  const floats = plain.embeddings as number[][];
  assert.deepEqual(floats[0], [0.5, -0.5]);
  assert.equal(floats[1].length, 1536);
  const typed = await v1.embed({ texts: ['pinned'], model: 'embed-english-v3.0', inputType: 'search_query', embeddingTypes: ['int8'] });
  assert.equal(typed.responseType, 'embeddings_by_type');
  assert.deepEqual((typed.embeddings as { int8?: number[][] }).int8?.[0], [64, -63]);
  assert.deepEqual(
    (await session.journal()).entries.map((e) => [e.operation, e.route]),
    [
      ['cohere.v1.embed', 'POST /v1/embed'],
      ['cohere.v1.embed', 'POST /v1/embed'],
    ],
  );
});

test("v1's embed: a v3 model without input_type is Cohere's 400 (raw HTTP) [cohere-v1.embed.json -]", async () => {
  const session = await mock.session('cohere-v1-embed-refused');
  const response = await fetch(`${mock.url('cohere')}/v1/embed`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${session.apiKey}` },
    body: JSON.stringify({ model: 'embed-english-v3.0', texts: ['a'] }),
    signal: AbortSignal.timeout(10_000),
  });
  assert.equal(response.status, 400);
  assert.match(((await response.json()) as { message: string }).message, /valid input_type must be provided/);
});

// OpenAI's `POST /v1/embeddings` judged by the real openai SDK over HTTP: its default call (which
// asks for base64 and decodes it) and `encoding_format: 'float'` give the same float32 vectors; a
// scripted vector comes back exactly (float32-rounded); derived vectors are stable across sessions
// and distinct across inputs, and rank a near-duplicate first; malformed requests get OpenAI's 400;
// every request is journalled.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import OpenAI from 'openai';

import { cosineSimilarity } from '../src/core/embedding-vectors.js';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

function clientOf(session: UnderstudySession): OpenAI {
  return new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
}

async function refusal(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof OpenAI.APIError, `expected an APIError, got ${String(error)}`);
    return error;
  }
  assert.fail('the call succeeded');
}

const MODEL = 'text-embedding-3-small';

test("the SDK's default call (base64) decodes to exactly the scripted vector, float32-rounded [openai-embeddings.vectors.json +]", async () => {
  const session = await mock.session('scripted');
  await session.load({
    scenarios: [],
    embeddings: [
      { input: 'alpha', vector: [0.1, 0.2, 0.3, 0.4] },
      { input: { matches: '^beta' }, vector: [-1, 0.5, 0.25, 1e-7] },
    ],
  });
  const openai = clientOf(session);
  const answer = await openai.embeddings.create({ model: MODEL, input: ['alpha', 'beta two', 'gamma'] });
  assert.deepEqual(
    answer.data[0].embedding,
    [0.1, 0.2, 0.3, 0.4].map((x) => Math.fround(x)),
  );
  assert.deepEqual(
    answer.data[1].embedding,
    [-1, 0.5, 0.25, 1e-7].map((x) => Math.fround(x)),
  );
  assert.equal(answer.data[2].embedding.length, 1536, 'an unmatched input gets the derived vector, default dimensions');
  assert.deepEqual(
    answer.data.map((d) => [d.object, d.index]),
    [
      ['embedding', 0],
      ['embedding', 1],
      ['embedding', 2],
    ],
  );
  assert.equal(answer.object, 'list');
  assert.equal(answer.model, MODEL);
  assert.ok(answer.usage.prompt_tokens >= 3 && answer.usage.total_tokens === answer.usage.prompt_tokens, JSON.stringify(answer.usage));

  const float = await openai.embeddings.create({ model: MODEL, input: ['alpha', 'gamma'], encoding_format: 'float' });
  // Floats are printed as the shortest decimal of each float32, as OpenAI prints them: the same
  // float32s as the base64 answer, and a scripted 0.1 reads 0.1.
  assert.deepEqual(float.data[0].embedding, [0.1, 0.2, 0.3, 0.4]);
  assert.deepEqual(float.data[0].embedding.map(Math.fround), answer.data[0].embedding, 'float and base64 agree (scripted)');
  assert.deepEqual(float.data[1].embedding.map(Math.fround), answer.data[2].embedding, 'float and base64 agree (derived)');
  assert.ok(
    float.data[1].embedding.every((x) => String(x).replace(/^-?0\.0*|e.*$|\./g, '').length <= 9),
    'no float has more than 9 significant digits',
  );

  const { entries } = await session.journal();
  assert.equal(entries.length, 2);
  assert.equal(entries[0].operation, 'openai.embeddings');
  assert.equal(entries[0].route, 'POST /v1/embeddings');
  assert.equal(entries[0].status, 200);
  assert.deepEqual(
    entries[0].request?.messages.map((m) => [m.role, m.parts.map((p) => ('text' in p ? p.text : ''))]),
    [
      ['user', ['alpha']],
      ['user', ['beta two']],
      ['user', ['gamma']],
    ],
  );
  assert.equal(entries[0].usage?.inputTokens, answer.usage.prompt_tokens);
  await session.verify();
});

test('a scripted vector whose length differs from the requested dimensions is a 409 fixture_mismatch, and verify() says so [openai-embeddings.vectors.json -]', async () => {
  const session = await mock.session('mismatch');
  await session.load({ scenarios: [], embeddings: [{ input: 'alpha', vector: [0.1, 0.2, 0.3, 0.4] }] });
  const openai = clientOf(session);
  assert.equal((await openai.embeddings.create({ model: MODEL, input: 'alpha', dimensions: 4 })).data[0].embedding.length, 4);
  const error = await refusal(openai.embeddings.create({ model: MODEL, input: 'alpha', dimensions: 8 }));
  assert.equal(error.status, 409);
  assert.equal(error.code, 'fixture_mismatch');
  assert.match(error.message, /4 dimensions, but the request asked for 8/);
  const report = await session.check();
  assert.equal(report.ok, false);
  assert.deepEqual(
    report.problems.map((p) => p.kind),
    ['fixture_mismatch'],
  );
  assert.equal((await session.journal()).counters.mismatched, 1);
});

test('derived vectors: the same in two sessions, distinct across inputs, the requested dimensions', async () => {
  const one = clientOf(await mock.session('derived-1'));
  const two = clientOf(await mock.session('derived-2'));
  const input = ['The cat sat on the mat.', 'Quarterly revenue grew by four percent.'];
  const a = await one.embeddings.create({ model: MODEL, input });
  const b = await two.embeddings.create({ model: MODEL, input });
  assert.deepEqual(a.data, b.data);
  assert.notDeepEqual(a.data[0].embedding, a.data[1].embedding);
  const small = await one.embeddings.create({ model: MODEL, input: input[0], dimensions: 256 });
  assert.equal(small.data[0].embedding.length, 256);
  const length = Math.sqrt(small.data[0].embedding.reduce((s, x) => s + x * x, 0));
  assert.ok(Math.abs(length - 1) < 1e-5, `unit length, got ${length}`);
  assert.equal((await one.embeddings.create({ model: 'text-embedding-3-large', input: 'x' })).data[0].embedding.length, 3072);
});

test('through the SDK, cosine similarity ranks a near-duplicate above an unrelated text', async () => {
  const openai = clientOf(await mock.session('ranking'));
  const query = 'How do I reset my account password?';
  const documents = [
    'Quarterly revenue grew by four percent in the northern region.',
    'How can I reset the password of my account?',
    'The recipe needs two eggs and a cup of flour.',
  ];
  const answer = await openai.embeddings.create({ model: MODEL, input: [query, ...documents] });
  const [q, ...docs] = answer.data.map((d) => d.embedding);
  const scores = docs.map((d) => cosineSimilarity(q, d));
  const best = scores.indexOf(Math.max(...scores));
  assert.equal(best, 1, `scores ${scores.join(', ')}`);
});

test('token arrays are embedded too, and count their ids as tokens [openai-embeddings.validation.json +]', async () => {
  const openai = clientOf(await mock.session('tokens'));
  const answer = await openai.embeddings.create({
    model: MODEL,
    input: [
      [1, 2, 3],
      [4, 5],
    ],
    encoding_format: 'float',
  });
  assert.equal(answer.data.length, 2);
  assert.equal(answer.usage.prompt_tokens, 5);
  assert.notDeepEqual(answer.data[0].embedding, answer.data[1].embedding);
});

test("malformed requests get OpenAI's 400 and are journalled as invalid [openai-embeddings.validation.json -]", async () => {
  const session = await mock.session('malformed');
  const openai = clientOf(session);
  const cases: [Record<string, unknown>, RegExp, string | null][] = [
    [{ model: MODEL, input: '' }, /'\$\.input' is invalid/, null],
    [{ model: MODEL, input: [] }, /'\$\.input' is invalid/, null],
    [{ model: MODEL, input: Array.from({ length: 2049 }, () => 'a') }, /'\$\.input' is invalid/, null],
    [{ model: MODEL, input: { text: 'a' } }, /Invalid type for 'input'/, 'input'],
    [{ model: MODEL, input: ['a', 1] }, /Invalid type for 'input'/, 'input'],
    [{ model: MODEL }, /'input' is a required property/, null],
    [{ input: 'a' }, /you must provide a model parameter/, null],
    [{ model: MODEL, input: 'a', dimensions: 0 }, /integer below minimum value/, 'dimensions'],
    [{ model: MODEL, input: 'a', dimensions: 1.5 }, /Invalid type for 'dimensions'/, 'dimensions'],
    [{ model: MODEL, input: 'a', encoding_format: 'int8' }, /Supported values are: 'float' and 'base64'/, 'encoding_format'],
    [{ model: 'text-embedding-ada-002', input: 'a', dimensions: 8 }, /does not support specifying dimensions/, null],
  ];
  for (const [body, message, param] of cases) {
    const error = await refusal(openai.embeddings.create(body as unknown as OpenAI.EmbeddingCreateParams));
    assert.equal(error.status, 400, JSON.stringify(body).slice(0, 80));
    assert.match(error.message, message);
    assert.equal(error.type, 'invalid_request_error');
    assert.equal(error.param, param, JSON.stringify(body).slice(0, 80));
  }
  const { entries, counters } = await session.journal();
  assert.equal(entries.length, cases.length);
  assert.ok(entries.every((e) => e.status === 400 && e.event === 'error_returned'));
  assert.equal(counters.invalid, cases.length);
  const report = await session.check();
  assert.equal(report.problems.filter((p) => p.kind === 'invalid_request').length, cases.length);
});

test('a body that is not JSON, or not an object, gets the 400 too (raw HTTP)', async () => {
  const session = await mock.session('raw');
  for (const body of ['{not json', '[1,2]']) {
    const response = await fetch(`${mock.url('openai')}/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.apiKey}` },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    assert.equal(response.status, 400);
    const error = ((await response.json()) as { error: { type: string } }).error;
    assert.equal(error.type, 'invalid_request_error');
  }
});

test("a strict model catalogue refuses another model with OpenAI's 404", async () => {
  const session = await mock.session('catalogue', { models: [MODEL] });
  const openai = clientOf(session);
  assert.equal((await openai.embeddings.create({ model: MODEL, input: 'a' })).data.length, 1);
  const error = await refusal(openai.embeddings.create({ model: 'text-embedding-3-large', input: 'a' }));
  assert.equal(error.status, 404);
  assert.equal(error.code, 'model_not_found');
});

test('a fixture with a bad scripted vector is refused whole, naming the entry; reset keeps the list, reset with scripts clears it', async () => {
  const session = await mock.session('fixture-checks');
  await assert.rejects(
    session.load({ scenarios: [], embeddings: [{ input: 'a', vector: [] }] }),
    /\/embeddings\/0\/vector {2}expected a vector with at least one number/,
  );
  await assert.rejects(session.load({ scenarios: [] }), /expected a list of scenarios with at least one entry/);
  await session.load({ scenarios: [], embeddings: [{ input: 'a', vector: [1, 0] }] });
  const openai = clientOf(session);
  const embed = async () => (await openai.embeddings.create({ model: MODEL, input: 'a' })).data[0].embedding;
  assert.deepEqual(await embed(), [1, 0]);
  await session.reset();
  assert.deepEqual(await embed(), [1, 0]);
  await session.reset({ scripts: true });
  assert.equal((await embed()).length, 1536);
});

test('a scripted error for an input is the SDK error of its status; journalled, not a verify problem [openai-embeddings.errors.json +]', async () => {
  const session = await mock.session('scripted-error');
  await session.load({
    scenarios: [],
    embeddings: [
      { input: { contains: 'overload' }, error: { status: 429, code: 'rate_limit_exceeded', message: 'Slow down.' } },
      { input: 'fine', vector: [1, 0] },
    ],
  });
  const openai = clientOf(session);
  const error = await refusal(openai.embeddings.create({ model: MODEL, input: ['fine', 'please overload me'] }));
  assert.ok(error instanceof OpenAI.RateLimitError, String(error));
  assert.equal(error.code, 'rate_limit_exceeded');
  assert.equal(error.message, '429 Slow down.');
  assert.deepEqual((await openai.embeddings.create({ model: MODEL, input: 'fine' })).data[0].embedding, [1, 0]);
  const { entries, counters } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.error?.code ?? null]),
    [
      [429, 'rate_limit_exceeded'],
      [200, null],
    ],
  );
  assert.equal(counters.errorsReturned, 1);
  await session.verify();
});

test('a scripted vector entry holds exactly one of vector and error [openai-embeddings.errors.json -]', async () => {
  const session = await mock.session('scripted-error-checks');
  await assert.rejects(
    session.load({ scenarios: [], embeddings: [{ input: 'a', vector: [1], error: { status: 500, message: 'x' } }] }),
    /\/embeddings\/0\/error {2}expected either "vector" or "error" in a scripted vector, not both/,
  );
  await assert.rejects(session.load({ scenarios: [], embeddings: [{ input: 'a' }] }), /expected "vector" \(a list of numbers\) or "error"/);
  await assert.rejects(
    session.load({ scenarios: [], embeddings: [{ input: 'a', error: { status: 200, message: 'x' } }] }),
    /\/embeddings\/0\/error\/status/,
  );
});

// Over the journal's entry limit, each input within the model's context.
const BIG_INPUT = Array.from({ length: 4 }, () => 'word '.repeat(5_000));

test('a body over the journal entry limit is kept as a preview, and a run of requests keeps the journal within its bounds', async () => {
  const session = await mock.session('journal-bounds', { journalEntryBytes: 64 * 1024, journalLimit: 50 });
  const openai = clientOf(session);
  await openai.embeddings.create({ model: MODEL, input: BIG_INPUT, dimensions: 8 });
  for (let i = 0; i < 60; i++) await openai.embeddings.create({ model: MODEL, input: [`text ${i}`], dimensions: 8 });
  const { entries, counters } = await session.journal();
  assert.equal(counters.requests, 61);
  assert.equal(entries.length, 50);
  assert.equal(counters.evicted, 11);
  const fresh = await mock.session('journal-preview', { journalEntryBytes: 64 * 1024 });
  await clientOf(fresh).embeddings.create({ model: MODEL, input: BIG_INPUT, dimensions: 8 });
  const [big] = (await fresh.journal()).entries;
  assert.equal(big.truncated, true);
  assert.equal(big.request, undefined);
  assert.ok((big.requestPreview?.length ?? 0) <= 4096);
});

// Mistral's embeddings judged by @mistralai/mistralai over HTTP: `embeddings.create` gets
// OpenAI's answer with the `id` the SDK's response schema requires, the scripted vector, the size
// asked for by `outputDimension`; a schema refusal is its 422 HTTPValidationError with detail[].

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Mistral } from '@mistralai/mistralai';
import { HTTPValidationError } from '@mistralai/mistralai/models/errors';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const MODEL = 'mistral-embed';
const client = (session: UnderstudySession) => new Mistral({ apiKey: session.apiKey, serverURL: mock.url('mistral'), timeoutMs: 10_000 });

test('embeddings.create: an id, the scripted vector, outputDimension honoured, journalled [mistral.embeddings.json +]', async () => {
  const session = await mock.session('mistral-embed');
  await session.load({ scenarios: [], embeddings: [{ input: 'a', vector: [0.1, 0.2, 0.3, 0.4] }] });
  const answer = await client(session).embeddings.create({ model: MODEL, inputs: ['a', 'b'] });
  assert.match(answer.id, /^embd-/);
  assert.deepEqual(answer.data[0].embedding, [0.1, 0.2, 0.3, 0.4]);
  assert.equal(answer.data[1].embedding?.length, 1536);
  assert.ok((answer.usage.promptTokens ?? 0) >= 2);
  const small = await client(session).embeddings.create({ model: MODEL, inputs: 'b', outputDimension: 16 });
  assert.equal(small.data[0].embedding?.length, 16);
  assert.deepEqual(
    (await session.journal()).entries.map((e) => [e.operation, e.status]),
    [
      ['mistral.embeddings', 200],
      ['mistral.embeddings', 200],
    ],
  );
});

test("outputDtype int8 and ubinary quantize the float vector as Cohere's types do; base64 with a quantized type is refused [mistral.embeddings.json +]", async () => {
  const session = await mock.session('mistral-dtype');
  await session.load({ scenarios: [], embeddings: [{ input: 'q', vector: [0.5, -0.25, 1, -1, 0.1, 0.2, -0.3, 0.4, 0.9] }] });
  const int8 = await client(session).embeddings.create({ model: MODEL, inputs: 'q', outputDtype: 'int8' });
  assert.deepEqual(int8.data[0].embedding, [64, -32, 127, -127, 13, 25, -38, 51, 114]);
  const bits = await client(session).embeddings.create({ model: MODEL, inputs: 'q', outputDtype: 'ubinary' });
  assert.deepEqual(bits.data[0].embedding, [0b10101101, 0b10000000]);
  const refused = await fetch(`${mock.url('mistral')}/v1/embeddings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: MODEL, input: 'q', output_dtype: 'int8', encoding_format: 'base64' }),
  });
  assert.equal(refused.status, 400);
  assert.match(await refused.text(), /encoding_format \\"base64\\" with output_dtype \\"float\\" only/);
});

test('a schema refusal is the 422 HTTPValidationError with pydantic detail [mistral.embeddings.json -]', async () => {
  const session = await mock.session('mistral-embed-refused');
  const error = await client(session)
    .embeddings.create({ model: MODEL, inputs: 'a', outputDimension: 0 })
    .then(
      () => assert.fail('the call succeeded'),
      (e: unknown) => e,
    );
  assert.ok(error instanceof HTTPValidationError, String(error));
  assert.equal(error.statusCode, 422);
  const detail = (JSON.parse(error.body) as { message: { detail: { type: string; loc: unknown[] }[] } }).message.detail[0];
  assert.equal(detail.type, 'greater_than_equal');
  assert.deepEqual(detail.loc, ['body', 'output_dimension']);
  assert.equal((await session.journal()).counters.invalid, 1);
});

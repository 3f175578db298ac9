// Azure OpenAI's embeddings judged by the openai SDK's AzureOpenAI (deployment routes, dated
// api-version; the model is the deployment) and by OpenAI pointed at the v1 routes: the default
// base64 call decodes to the scripted vector, derived vectors as on OpenAI, Azure's service errors
// for a missing or unknown api-version, OpenAI's 400 for a malformed body; each journalled.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import OpenAI, { AzureOpenAI } from 'openai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const azureFor = (s: UnderstudySession, apiVersion = '2024-10-21') =>
  new AzureOpenAI({ endpoint: mock.url('azure'), apiKey: s.apiKey, apiVersion, deployment: 'emb-deploy', maxRetries: 0, timeout: 10_000 });

async function refusal(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const caught: unknown = await call.then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.ok(caught instanceof OpenAI.APIError, `expected an APIError, got ${String(caught)}`);
  return caught;
}

test('AzureOpenAI embeddings: the deployment is the model, the default base64 call decodes to the scripted vector [azure.embeddings.json +]', async () => {
  const session = await mock.session('azure-embed');
  await session.load({ scenarios: [], embeddings: [{ input: 'x', vector: [0.1, 0.2, 0.3, 0.4] }] });
  const answer = await azureFor(session).embeddings.create({ model: 'ignored-by-azure', input: ['x', 'y'] });
  assert.equal(answer.model, 'emb-deploy');
  assert.deepEqual(answer.data[0].embedding, [0.1, 0.2, 0.3, 0.4].map(Math.fround));
  assert.equal(answer.data[1].embedding.length, 1536);
  const v1 = new OpenAI({ baseURL: mock.url('azure-v1'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const viaV1 = await v1.embeddings.create({ model: 'text-embedding-3-small', input: 'y', encoding_format: 'float' });
  assert.equal(viaV1.data[0].embedding.length, 1536);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.operation, e.route.split('?')[0], e.request?.model]),
    [
      ['azure.embeddings', 'POST /azure/openai/deployments/emb-deploy/embeddings', 'emb-deploy'],
      ['azure-v1.embeddings', 'POST /azure/openai/v1/embeddings', 'text-embedding-3-small'],
    ],
  );
});

test("Azure's service errors for the api-version, OpenAI's 400 for the body [azure.embeddings.json -]", async () => {
  const session = await mock.session('azure-embed-refused');
  const unknown = await refusal(azureFor(session, '2023-01-01').embeddings.create({ model: 'm', input: 'x' }));
  assert.equal(unknown.status, 400);
  assert.match(unknown.message, /API version not supported/);
  const empty = await refusal(azureFor(session).embeddings.create({ model: 'm', input: '' }));
  assert.equal(empty.status, 400);
  assert.match(empty.message, /'\$\.input' is invalid/);
  const response = await fetch(`${mock.url('azure')}/openai/deployments/emb-deploy/embeddings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'api-key': session.apiKey },
    body: JSON.stringify({ input: 'x' }),
    signal: AbortSignal.timeout(10_000),
  });
  assert.equal(response.status, 404, 'no api-version at all is the service 404');
  assert.deepEqual(await response.json(), { error: { code: '404', message: 'Resource not found' } });
  assert.equal((await session.journal()).entries.length, 3);
});

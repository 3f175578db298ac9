// Azure OpenAI's image routes judged by the openai SDK's AzureOpenAI (deployment routes, dated
// api-version; the deployment is the model) and by OpenAI pointed at Azure's v1 routes:
// generations and multipart edits answer PNGs of the requested size; Azure's service errors for a
// missing or unknown api-version; OpenAI's 400 for a malformed body; scripted errors and a
// scripted delay the client leaves; each request journalled under Azure's operations.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import OpenAI, { AzureOpenAI, toFile } from 'openai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { assertPngSize } from './support/png-facts.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const azureFor = (s: UnderstudySession, apiVersion = '2025-04-01-preview', timeout = 10_000) =>
  new AzureOpenAI({ endpoint: mock.url('azure'), apiKey: s.apiKey, apiVersion, deployment: 'my-image-deploy', maxRetries: 0, timeout });

async function refusal(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const caught: unknown = await call.then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.ok(caught instanceof OpenAI.APIError, `expected an APIError, got ${String(caught)}`);
  return caught;
}

test('AzureOpenAI images: the deployment is the model (a GPT image model), generate and edit answer PNGs; the v1 route too [azure-images.generate.json +]', async () => {
  const session = await mock.session('azure-images');
  const azure = azureFor(session);
  const generated = await azure.images.generate({ model: 'gpt-image-1', prompt: 'a harbour', size: '1536x1024' });
  assertPngSize(generated.data?.[0].b64_json, 1536, 1024);
  assert.ok(generated.usage && generated.usage.output_tokens > 0);
  const edited = await azure.images.edit({
    image: await toFile(Buffer.from(generated.data?.[0].b64_json ?? '', 'base64'), 'harbour.png', { type: 'image/png' }),
    prompt: 'a harbour at night',
  });
  assertPngSize(edited.data?.[0].b64_json, 1024, 1024);
  const v1 = new OpenAI({ baseURL: mock.url('azure-v1'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const viaV1 = await v1.images.generate({ model: 'gpt-image-1', prompt: 'a harbour', size: '1024x1536' });
  assertPngSize(viaV1.data?.[0].b64_json, 1024, 1536);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.operation, e.route.split('?')[0], e.status, e.request?.model]),
    [
      ['azure.images.generate', 'POST /azure/openai/deployments/my-image-deploy/images/generations', 200, 'my-image-deploy'],
      ['azure.images.edit', 'POST /azure/openai/deployments/my-image-deploy/images/edits', 200, 'my-image-deploy'],
      ['azure-v1.images.generate', 'POST /azure/openai/v1/images/generations', 200, 'gpt-image-1'],
    ],
  );
  // The deployment's name says no family: the body's dall-e-3 does (a URL and a revised prompt).
  const dalle = await azure.images.generate({ model: 'dall-e-3', prompt: 'a harbour at dawn' });
  assert.equal(dalle.data?.[0].revised_prompt, 'a harbour at dawn');
  const served = await fetch(dalle.data?.[0].url ?? '', { signal: AbortSignal.timeout(10_000) });
  assertPngSize(new Uint8Array(await served.arrayBuffer()), 1024, 1024);
  await session.verify();
});

test("Azure's service errors for the api-version, OpenAI's 400 for the body, a scripted error in Azure's shape [azure-images.generate.json -]", async () => {
  const session = await mock.session('azure-images-refused');
  const unknown = await refusal(azureFor(session, '2023-01-01').images.generate({ prompt: 'x' }));
  assert.equal(unknown.status, 400);
  assert.match(unknown.message, /API version not supported/);
  const response = await fetch(`${mock.url('azure')}/openai/deployments/my-image-deploy/images/generations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'api-key': session.apiKey },
    body: JSON.stringify({ prompt: 'x' }),
    signal: AbortSignal.timeout(10_000),
  });
  assert.equal(response.status, 404, 'no api-version at all is the service 404');
  assert.deepEqual(await response.json(), { error: { code: '404', message: 'Resource not found' } });
  const missing = await refusal(azureFor(session).images.generate({ prompt: '' }));
  assert.equal(missing.status, 400);
  assert.equal(missing.code, 'empty_string');
  const size = await refusal(azureFor(session).images.generate({ prompt: 'x', size: '256x256' }));
  assert.equal(size.param, 'size', 'a deployment of no known family takes the GPT image sizes');

  await session.load({
    scenarios: [],
    images: [{ prompt: 'throttled', model: 'my-image-deploy', error: { status: 429, message: 'Rate limit reached.', code: '429' } }],
  });
  const throttled = await refusal(azureFor(session).images.generate({ prompt: 'throttled' }));
  assert.ok(throttled instanceof OpenAI.RateLimitError);
  assert.equal(throttled.message, '429 Rate limit reached.');
  assert.equal((await session.journal()).entries.length, 5);
});

test('an Azure edit refused without its image; a scripted delay the client leaves is journalled as aborted [azure-images.edit.multipart -]', async () => {
  const session = await mock.session('azure-edit-refused');
  const form = new FormData();
  form.append('prompt', 'x');
  const response = await fetch(`${mock.url('azure')}/openai/deployments/d/images/edits?api-version=2024-10-21`, {
    method: 'POST',
    headers: { 'api-key': session.apiKey },
    body: form,
    signal: AbortSignal.timeout(10_000),
  });
  assert.equal(response.status, 400);
  assert.equal(((await response.json()) as { error: { param: string } }).error.param, 'image');
  await session.load({ scenarios: [], images: [{ prompt: 'slow', delayMs: 1500 }] });
  const left = await refusal(azureFor(session, undefined, 300).images.generate({ prompt: 'slow' }));
  assert.ok(left instanceof OpenAI.APIConnectionTimeoutError, String(left));
  await new Promise((resolve) => setTimeout(resolve, 1700));
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.status),
    [400, 499],
  );
});

test('an Azure multipart edit with a mask and two images [azure-images.edit.multipart +]', async () => {
  const session = await mock.session('azure-edit');
  const azure = azureFor(session);
  const png = (await azure.images.generate({ prompt: 'a', size: '1024x1024' })).data?.[0].b64_json ?? '';
  const file = (name: string) => toFile(Buffer.from(png, 'base64'), name, { type: 'image/png' });
  const edited = await azure.images.edit({
    image: [await file('a.png'), await file('b.png')],
    mask: await file('m.png'),
    prompt: 'b',
    size: '1536x1024',
  });
  assertPngSize(edited.data?.[0].b64_json, 1536, 1024);
  assert.equal(edited.usage?.input_tokens_details.image_tokens, 512);
});

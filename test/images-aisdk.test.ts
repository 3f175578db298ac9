// The Vercel AI SDK's `generateImage` over HTTP with @ai-sdk/openai's image model: generations
// (dall-e-3 asked for b64_json, as the SDK does for models it knows answer URLs by default; GPT
// image models as they are), edits with input images and a mask (multipart), the usage and the
// provider metadata it reads, n split into calls by the model's images per call; a scripted error
// and a malformed size surfacing as APICallError; a delay the caller aborts journalled as aborted.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { createAzure } from '@ai-sdk/azure';
import { createOpenAI } from '@ai-sdk/openai';
import { APICallError, generateImage } from 'ai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { assertPngSize } from './support/png-facts.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const imageModel = (session: UnderstudySession, model: string) =>
  createOpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey }).image(model);
const timed = (ms = 10_000) => ({ maxRetries: 0, abortSignal: AbortSignal.timeout(ms) });

async function failure(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => assert.fail('the call succeeded'),
    (error: unknown) => error,
  );
}

test('generateImage: PNGs of the requested size, usage and metadata, edits with images and a mask [aisdk-openai.images.json +]', async () => {
  const session = await mock.session('aisdk-images');
  const gpt = await generateImage({
    model: imageModel(session, 'gpt-image-1'),
    prompt: 'a mountain lake',
    size: '1536x1024',
    n: 2,
    ...timed(),
  });
  assert.equal(gpt.images.length, 2);
  for (const image of gpt.images) {
    assert.equal(image.mediaType, 'image/png');
    assertPngSize(image.uint8Array, 1536, 1024);
  }
  assert.ok((gpt.usage.outputTokens ?? 0) > 0, JSON.stringify(gpt.usage));
  const metadata = gpt.providerMetadata.openai as unknown as { images: { size: string; outputFormat: string }[] };
  assert.deepEqual([metadata.images[0].size, metadata.images[0].outputFormat], ['1536x1024', 'png']);

  const dalle = await generateImage({
    model: imageModel(session, 'dall-e-3'),
    prompt: 'a mountain lake',
    size: '1024x1792',
    n: 2,
    ...timed(),
  });
  assert.equal(dalle.images.length, 2, 'dall-e-3 takes one image a call: the SDK makes two calls');
  assertPngSize(dalle.images[1].uint8Array, 1024, 1792);

  const edited = await generateImage({
    model: imageModel(session, 'gpt-image-1'),
    prompt: { text: 'the lake at sunset', images: [gpt.images[0].uint8Array], mask: gpt.images[1].uint8Array },
    size: '1536x1024',
    ...timed(),
  });
  assertPngSize(edited.images[0].uint8Array, 1536, 1024);

  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.operation, e.status, e.request?.model]),
    [
      ['openai.images.generate', 200, 'gpt-image-1'],
      ['openai.images.generate', 200, 'dall-e-3'],
      ['openai.images.generate', 200, 'dall-e-3'],
      ['openai.images.edit', 200, 'gpt-image-1'],
    ],
  );
  await session.verify();
});

test('generateImage refused: a size the model does not take, a scripted error, an aborted delay [aisdk-openai.images.json -]', async () => {
  const session = await mock.session('aisdk-images-refused');
  const size = await failure(generateImage({ model: imageModel(session, 'dall-e-3'), prompt: 'x', size: '512x512', ...timed() }));
  assert.ok(APICallError.isInstance(size), String(size));
  assert.equal(size.statusCode, 400);
  assert.match(size.message, /Invalid value: '512x512'/);

  await session.load({
    scenarios: [],
    images: [
      { prompt: 'unsafe', error: { status: 400, code: 'moderation_blocked', message: 'Your request was rejected.' } },
      { prompt: 'slow', delayMs: 1500 },
    ],
  });
  const scripted = await failure(generateImage({ model: imageModel(session, 'gpt-image-1'), prompt: 'unsafe', ...timed() }));
  assert.ok(APICallError.isInstance(scripted), String(scripted));
  assert.equal(scripted.statusCode, 400);
  assert.equal(scripted.message, 'Your request was rejected.');

  const aborted = await failure(generateImage({ model: imageModel(session, 'gpt-image-1'), prompt: 'slow', ...timed(300) }));
  assert.ok(aborted instanceof Error, String(aborted));
  await new Promise((resolve) => setTimeout(resolve, 1700));
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.status),
    [400, 400, 499],
  );
});

const azureImageModel = (session: UnderstudySession, deployment: string) =>
  createAzure({ baseURL: mock.url('azure-v1'), apiKey: session.apiKey }).image(deployment);

test('generateImage with @ai-sdk/azure: a deployment of any name, answered as a GPT image model on the v1 route [aisdk-azure.images.json +]', async () => {
  const session = await mock.session('aisdk-azure-images');
  const answer = await generateImage({
    model: azureImageModel(session, 'my-image-deployment'),
    prompt: 'a fjord',
    size: '1024x1536',
    ...timed(),
  });
  assertPngSize(answer.images[0].uint8Array, 1024, 1536);
  assert.ok((answer.usage.outputTokens ?? 0) > 0);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.operation, e.route, e.request?.model]),
    [['azure-v1.images.generate', 'POST /azure/openai/v1/images/generations', 'my-image-deployment']],
  );
});

test("generateImage with @ai-sdk/azure refused: a size no GPT image model takes, Azure's scripted error [aisdk-azure.images.json -]", async () => {
  const session = await mock.session('aisdk-azure-images-refused');
  const size = await failure(
    generateImage({ model: azureImageModel(session, 'my-image-deployment'), prompt: 'x', size: '512x512', ...timed() }),
  );
  assert.ok(APICallError.isInstance(size), String(size));
  assert.equal(size.statusCode, 400);
  await session.load({ scenarios: [], images: [{ prompt: 'quota', error: { status: 429, message: 'Quota exceeded.', code: '429' } }] });
  const quota = await failure(generateImage({ model: azureImageModel(session, 'my-image-deployment'), prompt: 'quota', ...timed() }));
  assert.ok(APICallError.isInstance(quota), String(quota));
  assert.equal(quota.statusCode, 429);
  // A url answer is still refused for a GPT image deployment: only b64_json is taken.
  const response = await fetch(`${mock.url('azure-v1')}/images/generations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'api-key': session.apiKey },
    body: JSON.stringify({ model: 'my-image-deployment', prompt: 'x', response_format: 'url' }),
    signal: AbortSignal.timeout(10_000),
  });
  assert.equal(response.status, 400);
  assert.equal(((await response.json()) as { error: { param: string } }).error.param, 'response_format');
});

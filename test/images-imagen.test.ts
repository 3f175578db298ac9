// Imagen's `:predict` judged by its clients over HTTP: @google/genai's generateImages on Vertex AI
// (the project path and express mode; the SDK sends generateImages to Vertex only), the AI SDK's
// generateImage with @ai-sdk/google's Imagen model on the Gemini API, and raw HTTP for what
// neither sends. PNGs of the aspect ratio's size (decoded by pngjs), the fixture's scripted
// images, Google's 400s, scripted errors, faults and delays; embeddings on the same Vertex route.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { createGoogleGenerativeAI } from '@ai-sdk/google';
import fc from 'fast-check';
import { ApiError } from '@google/genai';
import { APICallError, generateImage } from 'ai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { vertexClient } from './support/gemini-clients.js';
import { assertPngSize, decodePng } from './support/png-facts.js';
import { AISDK_GOOGLE_SERVES_IMAGEN } from './support/sdk-versions.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const IMAGEN = 'imagen-4.0-generate-001';
const VERTEX_PATH = `/v1/projects/my-proj/locations/us-central1/publishers/google/models/${IMAGEN}:predict`;
// A 1x1 JPEG's first bytes are enough for the fixture's kind check.
const JPEG_B64 = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]).toString('base64');

async function post(session: UnderstudySession, base: 'gemini' | 'vertex', path: string, body: unknown) {
  const response = await fetch(`${mock.url(base)}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': session.apiKey, authorization: `Bearer ${session.apiKey}` },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function failure(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => assert.fail('the call succeeded'),
    (error: unknown) => error,
  );
}

const quiet = <T>(call: () => Promise<T>): Promise<T> => {
  // generateImages warns once that it is deprecated; the warning is not what these tests read.
  const warn = console.warn;
  console.warn = () => {};
  return call().finally(() => (console.warn = warn));
};

test('Vertex generateImages: PNGs of the aspect ratio and size, distinct per image, journalled [vertex.images.imagen.json +]', async () => {
  const session = await mock.session('imagen-vertex');
  const ai = vertexClient(mock, session);
  const wide = await quiet(() =>
    ai.models.generateImages({ model: IMAGEN, prompt: 'a lighthouse at dusk', config: { numberOfImages: 2, aspectRatio: '16:9' } }),
  );
  assert.equal(wide.generatedImages?.length, 2);
  const [first, second] = (wide.generatedImages ?? []).map((g) => g.image);
  assert.equal(first?.mimeType, 'image/png');
  assertPngSize(first?.imageBytes, 1408, 768);
  assertPngSize(second?.imageBytes, 1408, 768);
  assert.notEqual(first?.imageBytes, second?.imageBytes, 'each image of an answer differs');
  const tall = await quiet(() =>
    ai.models.generateImages({
      model: IMAGEN,
      prompt: 'a tower',
      config: { aspectRatio: '9:16', imageSize: '2K', outputMimeType: 'image/png' },
    }),
  );
  assertPngSize(tall.generatedImages?.[0].image?.imageBytes, 1536, 2816);
  const square = await quiet(() => ai.models.generateImages({ model: IMAGEN, prompt: 'a tower' }));
  assertPngSize(square.generatedImages?.[0].image?.imageBytes, 1024, 1024);

  // Express mode (no project) takes the same request.
  const express = await post(session, 'vertex', `/v1/publishers/google/models/${IMAGEN}:predict`, {
    instances: [{ prompt: 'a tower' }],
    parameters: { sampleCount: 1, aspectRatio: '3:4' },
  });
  assert.equal(express.status, 200);
  assertPngSize(express.body.predictions[0].bytesBase64Encoded, 896, 1280);

  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.operation, e.status, e.request?.model]),
    Array.from({ length: 4 }, () => ['vertex.predict.images', 200, IMAGEN]),
  );
  assert.deepEqual(entries[0].request?.messages[0].parts, [{ type: 'text', text: 'a lighthouse at dusk' }]);
  await session.verify();
});

test('Vertex :predict still embeds for embedding models beside Imagen', async () => {
  const session = await mock.session('imagen-vertex-embed');
  const embedded = await vertexClient(mock, session).models.embedContent({ model: 'text-embedding-005', contents: ['hello'] });
  assert.equal(embedded.embeddings?.[0].values?.length, 768);
  const { entries } = await session.journal();
  assert.equal(entries[0].operation, 'vertex.predict');
});

test("Imagen's wire validation is Google's 400 (raw HTTP), and a non-Imagen model on the Gemini API is a 404 [vertex.images.imagen.json -]", async () => {
  const session = await mock.session('imagen-invalid');
  const cases: [unknown, RegExp][] = [
    [{ instances: [{ prompt: 'a' }], parameters: { sampleCount: 5 } }, /sampleCount must be in the range \[1, 4\]/],
    [{ instances: [{ prompt: 'a' }], parameters: { sampleCount: 0 } }, /sampleCount/],
    [{ instances: [{ prompt: 'a' }], parameters: { aspectRatio: '2:1' } }, /aspectRatio "2:1" is not supported/],
    [{ instances: [{ prompt: 'a' }], parameters: { sampleImageSize: '4K' } }, /sampleImageSize "4K"/],
    [{ instances: [{ prompt: 'a' }], parameters: { outputOptions: { mimeType: 'image/gif' } } }, /image\/gif/],
    [{ instances: [{ prompt: 'a' }], parameters: { personGeneration: 'everyone' } }, /personGeneration/],
    [{ instances: [{ prompt: 'a' }], parameters: { colour: 'red' } }, /Unknown name "colour" at 'parameters'/],
    [{ instances: [{ prompt: 'a' }], extra: 1 }, /Unknown name "extra"/],
    [{ instances: [] }, /exactly one instance/],
    [{ instances: [{ prompt: '  ' }] }, /must not be empty/],
    [{ instances: [{ text: 'a' }] }, /Unknown name "text" at 'instances\[0\]'/],
  ];
  for (const [body, message] of cases) {
    const answer = await post(session, 'vertex', VERTEX_PATH, body);
    assert.equal(answer.status, 400, JSON.stringify(body));
    assert.equal(answer.body.error.status, 'INVALID_ARGUMENT');
    assert.equal(answer.body.error.code, 400);
    assert.match(answer.body.error.message, message);
  }
  // Through the SDK: numberOfImages out of range is an ApiError with Google's status.
  const sdk = await failure(
    quiet(() => vertexClient(mock, session).models.generateImages({ model: IMAGEN, prompt: 'a', config: { numberOfImages: 9 } })),
  );
  assert.ok(sdk instanceof ApiError && sdk.status === 400, String(sdk));
  const notImagen = await post(session, 'gemini', '/v1beta/models/gemini-2.5-flash:predict', { instances: [{ prompt: 'a' }] });
  assert.equal(notImagen.status, 404);
  assert.equal(notImagen.body.error.status, 'NOT_FOUND');
  const { counters } = await session.journal();
  assert.equal(counters.invalid, cases.length + 1);
});

const googleImages = (session: UnderstudySession, model: string, settings?: { maxImagesPerCall: number }) =>
  createGoogleGenerativeAI({ baseURL: `${mock.url('gemini')}/v1beta`, apiKey: session.apiKey }).image(model, settings);
const timed = () => ({ maxRetries: 0, abortSignal: AbortSignal.timeout(10_000) });

test('generateImage with @ai-sdk/google on the Gemini API: Imagen PNGs, n and the aspect ratio [gemini.images.imagen.json +]', async () => {
  const session = await mock.session('imagen-aisdk');
  const call = generateImage({
    model: googleImages(session, IMAGEN),
    prompt: 'a red fox in the snow',
    n: 3,
    aspectRatio: '4:3',
    ...timed(),
  });
  if (!AISDK_GOOGLE_SERVES_IMAGEN) {
    await assert.rejects(call, /other than Gemini are no longer supported/);
    assert.equal((await session.journal()).entries.length, 0, '@ai-sdk/google 4 sends nothing for Imagen');
    return;
  }
  const result = await call;
  assert.equal(result.images.length, 3);
  for (const image of result.images) assertPngSize(image.uint8Array, 1280, 896);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.operation, e.status]),
    [['gemini.predict.images', 200]],
  );
});

test('a 400 from the Gemini API surfaces in generateImage as APICallError [gemini.images.imagen.json -]', async () => {
  const session = await mock.session('imagen-aisdk-invalid');
  const error = await failure(
    generateImage({ model: googleImages(session, IMAGEN, { maxImagesPerCall: 8 }), prompt: 'a red fox', n: 8, ...timed() }),
  );
  if (!AISDK_GOOGLE_SERVES_IMAGEN) {
    assert.match(String(error), /other than Gemini are no longer supported/);
    return;
  }
  assert.ok(APICallError.isInstance(error), String(error));
  assert.equal(error.statusCode, 400);
  assert.match(error.message, /sampleCount/);
});

test('scripted images: bytes per prompt, JPEG bytes for image/jpeg, the enhanced prompt; PNG-only default refuses jpeg', async () => {
  const session = await mock.session('imagen-scripted');
  const logo = assertPngSize(
    (await post(session, 'vertex', VERTEX_PATH, { instances: [{ prompt: 'seed' }], parameters: { aspectRatio: '16:9' } })).body
      .predictions[0].bytesBase64Encoded,
    1408,
    768,
  );
  assert.ok(logo);
  const png = (await post(session, 'vertex', VERTEX_PATH, { instances: [{ prompt: 'seed' }] })).body.predictions[0].bytesBase64Encoded;
  await session.load({
    scenarios: [],
    images: [
      { prompt: 'our logo', b64: png, revisedPrompt: 'the logo, centred' },
      { prompt: { contains: 'photo' }, b64: JPEG_B64 },
    ],
  });
  const ai = vertexClient(mock, session);
  const scripted = await quiet(() => ai.models.generateImages({ model: IMAGEN, prompt: 'our logo', config: { numberOfImages: 2 } }));
  assert.deepEqual(
    scripted.generatedImages?.map((g) => [g.image?.imageBytes, g.enhancedPrompt]),
    [
      [png, 'the logo, centred'],
      [png, 'the logo, centred'],
    ],
  );
  const jpeg = await quiet(() => ai.models.generateImages({ model: IMAGEN, prompt: 'a photo', config: { outputMimeType: 'image/jpeg' } }));
  assert.equal(jpeg.generatedImages?.[0].image?.imageBytes, JPEG_B64);
  assert.equal(jpeg.generatedImages?.[0].image?.mimeType, 'image/jpeg');
  assert.equal(decodePng(png).width, 1024);

  const unscripted = await post(session, 'vertex', VERTEX_PATH, {
    instances: [{ prompt: 'a painting' }],
    parameters: { outputOptions: { mimeType: 'image/jpeg' } },
  });
  assert.equal(unscripted.status, 409);
  assert.match(unscripted.body.error.message, /PNG only/);
  const wrongKind = await post(session, 'vertex', VERTEX_PATH, { instances: [{ prompt: 'a photo' }] });
  assert.equal(wrongKind.status, 409);
  assert.match(wrongKind.body.error.message, /is jpeg, but the request asked for outputMimeType "image\/png"/);
  await assert.rejects(session.verify());
});

test('scripted errors in Google shape, a fault, and a delay the client leaves (aborted)', async () => {
  const session = await mock.session('imagen-errors');
  await session.load({
    scenarios: [],
    images: [
      { prompt: 'forbidden', error: { status: 400, message: 'The prompt could not be submitted.', type: 'INVALID_ARGUMENT' } },
      { prompt: 'busy', error: { status: 429, message: 'Quota exceeded.', headers: { 'retry-after': '7' } } },
      { prompt: 'reset me', fault: { kind: 'reset', afterBytes: 10 } },
      { prompt: 'slow', delayMs: 1500 },
    ],
  });
  const ai = vertexClient(mock, session);
  const forbidden = await failure(quiet(() => ai.models.generateImages({ model: IMAGEN, prompt: 'forbidden' })));
  assert.ok(forbidden instanceof ApiError && forbidden.status === 400, String(forbidden));
  assert.match(forbidden.message, /could not be submitted/);
  const busy = await post(session, 'vertex', VERTEX_PATH, { instances: [{ prompt: 'busy' }] });
  assert.equal(busy.status, 429);
  assert.equal(busy.body.error.status, 'RESOURCE_EXHAUSTED');
  assert.deepEqual(busy.body.error.details.at(-1), { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '7s' });
  const reset = await failure(quiet(() => ai.models.generateImages({ model: IMAGEN, prompt: 'reset me' })));
  assert.ok(reset instanceof Error, String(reset));
  const left = await fetch(`${mock.url('vertex')}${VERTEX_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${session.apiKey}` },
    body: JSON.stringify({ instances: [{ prompt: 'slow' }] }),
    signal: AbortSignal.timeout(300),
  }).then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.ok(left instanceof Error);
  await new Promise((resolve) => setTimeout(resolve, 1800));
  const { entries, counters } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.operation, e.status]),
    [
      ['vertex.predict.images', 400],
      ['vertex.predict.images', 429],
      ['vertex.predict.images', 200],
      ['vertex.predict.images', 499],
    ],
  );
  assert.equal(counters.aborted, 1);
});

test('every aspect ratio at 1K and 2K: PNGs of its size; any sampleCount: that many, or a 400 outside 1 to 4 (property)', async () => {
  const session = await mock.session('imagen-property');
  const sizes: Record<string, [number, number]> = {
    '1:1': [1024, 1024],
    '3:4': [896, 1280],
    '4:3': [1280, 896],
    '9:16': [768, 1408],
    '16:9': [1408, 768],
  };
  const predict = (parameters: Record<string, unknown>) =>
    post(session, 'gemini', `/v1beta/models/${IMAGEN}:predict`, { instances: [{ prompt: 'a picture' }], parameters });
  for (const [aspectRatio, [width, height]] of Object.entries(sizes)) {
    for (const [sampleImageSize, scale] of [
      ['1K', 1],
      ['2K', 2],
    ] as const) {
      const answer = await predict({ aspectRatio, sampleImageSize });
      assert.equal(answer.status, 200);
      assertPngSize(answer.body.predictions[0].bytesBase64Encoded, width * scale, height * scale);
    }
  }
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: -50, max: 50 }), async (sampleCount) => {
      const answer = await predict({ sampleCount, aspectRatio: '9:16' });
      if (sampleCount < 1 || sampleCount > 4) {
        assert.equal(answer.status, 400);
        assert.equal(answer.body.error.status, 'INVALID_ARGUMENT');
        return;
      }
      assert.equal(answer.status, 200);
      assert.equal(answer.body.predictions.length, sampleCount);
      assert.ok(answer.body.predictions.every((p: { mimeType: string }) => p.mimeType === 'image/png'));
    }),
    { numRuns: 60, seed: 21 },
  );
});

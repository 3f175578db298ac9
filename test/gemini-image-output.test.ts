// Gemini's native image output judged by its clients over HTTP: generateContent and
// streamGenerateContent with `responseModalities` asking for IMAGE answer `inlineData` parts beside
// the text — a scripted reply's `images` (its bytes, or the default picture at the aspect ratio's
// size) or, in zero-config, the default picture — read by @google/genai and by the AI SDK's
// generateImage with a Gemini image model. A reply with images for a request that does not ask
// for them, on Gemini or any other dialect, is a 409 fixture_mismatch.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { ApiError } from '@google/genai';
import { generateImage } from 'ai';
import OpenAI from 'openai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { geminiClient, vertexClient } from './support/gemini-clients.js';
import { assertPngSize } from './support/png-facts.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const MODEL = 'gemini-2.5-flash-image';

async function scripted(name: string, reply: Record<string, unknown>, prompt = 'draw a cat'): Promise<UnderstudySession> {
  const session = await mock.session(name);
  await session.load({ scenarios: [{ name: 'draw', steps: [{ id: 'one', when: { latestUser: { contains: prompt } }, reply }] }] });
  return session;
}

function inlineImages(parts: { inlineData?: { mimeType?: string; data?: string } }[] | undefined) {
  return (parts ?? []).filter((p) => p.inlineData).map((p) => p.inlineData ?? {});
}

async function png(session: UnderstudySession): Promise<string> {
  const answer = await geminiClient(mock, session).models.generateContent({
    model: MODEL,
    contents: 'seed picture',
    config: { responseModalities: ['IMAGE'] },
  });
  return inlineImages(answer.candidates?.[0].content?.parts)[0].data ?? '';
}

test('generateContent with IMAGE: scripted bytes and the default picture as inlineData beside the text [gemini.image-output.json +]', async () => {
  const zero = await mock.session('image-output-seed', { fallback: 'auto' });
  const logo = await png(zero);
  const session = await scripted('image-output', { text: 'Here is your cat.', images: [{ b64: logo }, {}] });
  const answer = await geminiClient(mock, session).models.generateContent({
    model: MODEL,
    contents: 'draw a cat',
    config: { responseModalities: ['TEXT', 'IMAGE'], imageConfig: { aspectRatio: '16:9' } },
  });
  const parts = answer.candidates?.[0].content?.parts ?? [];
  assert.equal(parts[0].text, 'Here is your cat.');
  const images = inlineImages(parts);
  assert.equal(images.length, 2);
  assert.deepEqual(images[0], { mimeType: 'image/png', data: logo });
  assert.equal(images[1].mimeType, 'image/png');
  assertPngSize(images[1].data, 1344, 768);
  assert.ok((answer.usageMetadata?.candidatesTokenCount ?? 0) >= 2 * 1290, 'each image counts its output tokens');
  const { entries } = await session.journal();
  assert.equal(entries[0].status, 200);

  // Vertex AI answers the same parts.
  const onVertex = await scripted('image-output-vertex', { text: 'Here is your cat.', images: [{}] });
  const vertex = await vertexClient(mock, onVertex).models.generateContent({
    model: MODEL,
    contents: 'draw a cat',
    config: { responseModalities: ['IMAGE', 'TEXT'] },
  });
  assertPngSize(inlineImages(vertex.candidates?.[0].content?.parts)[0].data, 1024, 1024);
});

test('zero-config: a request for IMAGE gets the default picture (and the sentence when it asks for TEXT too)', async () => {
  const session = await mock.session('image-output-zero', { fallback: 'auto' });
  const ai = geminiClient(mock, session);
  const only = await ai.models.generateContent({
    model: MODEL,
    contents: 'a lighthouse',
    config: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '3:4' } },
  });
  const parts = only.candidates?.[0].content?.parts ?? [];
  assert.equal(parts.length, 1);
  assertPngSize(parts[0].inlineData?.data, 864, 1184);
  const both = await ai.models.generateContent({
    model: MODEL,
    contents: 'a lighthouse',
    config: { responseModalities: ['TEXT', 'IMAGE'] },
  });
  const bothParts = both.candidates?.[0].content?.parts ?? [];
  assert.equal(bothParts.length, 2);
  assert.equal(typeof bothParts[0].text, 'string');
  const other = await ai.models.generateContent({ model: MODEL, contents: 'a harbour', config: { responseModalities: ['IMAGE'] } });
  assert.notEqual(
    other.candidates?.[0].content?.parts?.[0].inlineData?.data,
    bothParts[1].inlineData?.data,
    'another prompt, another picture',
  );
  const text = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'a lighthouse' });
  assert.equal(inlineImages(text.candidates?.[0].content?.parts).length, 0, 'no image unless asked');
});

test('streamGenerateContent with IMAGE: the text pieces, then the images in one chunk [gemini.image-output.stream +]', async () => {
  const session = await scripted('image-output-stream', { text: 'A cat, as asked.', chunks: ['A cat, ', 'as asked.'], images: [{}] });
  const stream = await geminiClient(mock, session).models.generateContentStream({
    model: MODEL,
    contents: 'draw a cat',
    config: { responseModalities: ['TEXT', 'IMAGE'] },
  });
  const chunks: { text: string; images: number }[] = [];
  let picture: string | undefined;
  for await (const chunk of stream) {
    const parts = chunk.candidates?.[0].content?.parts ?? [];
    const images = inlineImages(parts);
    if (images.length) picture = images[0].data;
    chunks.push({ text: parts.map((p) => p.text ?? '').join(''), images: images.length });
  }
  assert.deepEqual(chunks, [
    { text: 'A cat, ', images: 0 },
    { text: 'as asked.', images: 0 },
    { text: '', images: 1 },
  ]);
  assertPngSize(picture, 1024, 1024);
});

test('the AI SDK generateImage with a Gemini image model reads the inlineData image', async () => {
  const session = await mock.session('image-output-aisdk', { fallback: 'auto' });
  const google = createGoogleGenerativeAI({ baseURL: `${mock.url('gemini')}/v1beta`, apiKey: session.apiKey });
  const result = await generateImage({
    model: google.image(MODEL),
    prompt: 'a red fox',
    aspectRatio: '9:16',
    maxRetries: 0,
    abortSignal: AbortSignal.timeout(10_000),
  });
  assert.equal(result.images.length, 1);
  assertPngSize(result.images[0].uint8Array, 768, 1344);
  const { entries } = await session.journal();
  assert.equal(entries[0].operation, 'gemini.generateContent');
});

test('a reply with images for a request that does not ask for IMAGE is a 409 fixture_mismatch, on Gemini and elsewhere [gemini.image-output.json -]', async () => {
  const session = await scripted('image-output-mismatch', { text: 'Here.', images: [{}] });
  const error = await geminiClient(mock, session)
    .models.generateContent({ model: MODEL, contents: 'draw a cat', config: { responseModalities: ['TEXT'] } })
    .then(
      () => assert.fail('answered'),
      (e: unknown) => e,
    );
  assert.ok(error instanceof ApiError && error.status === 409, String(error));
  assert.match(error.message, /does not ask for image output/);
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const other = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'draw a cat' }] }).then(
    () => assert.fail('answered'),
    (e: unknown) => e,
  );
  assert.ok(other instanceof OpenAI.APIError && other.status === 409, String(other));
  const { counters } = await session.journal();
  assert.equal(counters.mismatched, 2);
  await assert.rejects(session.verify(), /fixture_mismatch|does not ask for image output/);
});

test('a stream whose reply has images for a text-only request is refused before it starts [gemini.image-output.stream -]', async () => {
  const session = await scripted('image-output-stream-mismatch', { text: 'Here.', images: [{}] });
  const error = await geminiClient(mock, session)
    .models.generateContentStream({ model: MODEL, contents: 'draw a cat' })
    .then(
      () => assert.fail('answered'),
      (e: unknown) => e,
    );
  assert.ok(error instanceof ApiError && error.status === 409, String(error));
});

test('fixture rules: reply images hold PNG, JPEG or WebP bytes; a reply of images alone is a reply; AUDIO output and an unknown aspect ratio are refused', async () => {
  const session = await mock.session('image-output-rules');
  await assert.rejects(
    session.load({ scenarios: [{ name: 's', steps: [{ id: 'a', reply: { images: [{ b64: 'aGVsbG8=' }] } }] }] }),
    /\/scenarios\/0\/steps\/0\/reply\/images\/0\/b64/,
  );
  await session.load({ scenarios: [{ name: 's', steps: [{ id: 'a', reply: { images: [{}] } }] }] });
  const ai = geminiClient(mock, session);
  const onlyImages = await ai.models.generateContent({ model: MODEL, contents: 'x', config: { responseModalities: ['IMAGE'] } });
  assert.equal(onlyImages.candidates?.[0].content?.parts?.length, 1);
  for (const config of [{ responseModalities: ['AUDIO'] }, { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '7:3' } }]) {
    const refused = await ai.models.generateContent({ model: MODEL, contents: 'x', config }).then(
      () => assert.fail('answered'),
      (e: unknown) => e,
    );
    assert.ok(refused instanceof ApiError && refused.status === 400, String(refused));
  }
});

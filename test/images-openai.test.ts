// OpenAI's image routes judged by the real openai SDK over HTTP: `images.generate` answers base64
// PNGs of the requested size for the GPT image models (with usage and the echoed options), URLs
// that Understudy itself serves for DALL·E, a revised prompt for dall-e-3; `images.edit` takes a
// real file sent as multipart (and JSON references by raw fetch); every PNG is decoded by pngjs;
// each request is journalled with its prompt as a user message, and verify() reads the journal.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import OpenAI, { toFile } from 'openai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { assertPngSize, decodePng } from './support/png-facts.js';

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
  const caught: unknown = await call.then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.ok(caught instanceof OpenAI.APIError, `expected an APIError, got ${String(caught)}`);
  return caught;
}

test('images.generate with a GPT image model: base64 PNGs of the requested size, usage, the options echoed [openai-images.generate.json +]', async () => {
  const session = await mock.session('generate-gpt');
  const openai = clientOf(session);
  const answer = await openai.images.generate({
    model: 'gpt-image-1',
    prompt: 'a red fox in the snow',
    size: '1536x1024',
    n: 2,
    quality: 'low',
  });
  assert.equal(answer.created, 1767225600, 'created comes from the session clock');
  assert.equal(answer.data?.length, 2);
  const [one, two] = (answer.data ?? []).map((image) => {
    assert.equal(image.url, undefined, 'GPT image models answer base64 only');
    return assertPngSize(image.b64_json, 1536, 1024);
  });
  assert.notDeepEqual(one.pixel(768, 512), two.pixel(768, 512), 'the images of one answer differ');
  assert.deepEqual([answer.size, answer.quality, answer.background, answer.output_format], ['1536x1024', 'low', 'opaque', 'png']);
  const usage = answer.usage;
  assert.ok(usage && usage.input_tokens_details.text_tokens > 0, JSON.stringify(usage));
  assert.equal(usage.input_tokens_details.image_tokens, 0);
  assert.equal(usage.output_tokens, 2 * 400, 'low quality, 1536x1024: 400 output tokens an image');
  assert.equal(usage.total_tokens, usage.input_tokens + usage.output_tokens);

  const auto = await openai.images.generate({
    model: 'gpt-image-1',
    prompt: 'a red fox in the snow',
    size: 'auto',
    background: 'transparent',
  });
  const png = assertPngSize(auto.data?.[0].b64_json, 1024, 1024);
  assert.equal(png.pixel(0, 0)[3], 0, 'a transparent background is transparent');
  assert.equal(png.pixel(512, 512)[3], 255, 'the square is opaque');
  assert.deepEqual([auto.size, auto.quality, auto.background], ['1024x1024', 'medium', 'transparent']);
  const again = await openai.images.generate({
    model: 'gpt-image-1',
    prompt: 'a red fox in the snow',
    size: '1536x1024',
    n: 2,
    quality: 'low',
  });
  assert.deepEqual(again.data, answer.data, 'the same request gets the same bytes');
  const other = await openai.images.generate({ model: 'gpt-image-1', prompt: 'a blue whale', size: '1536x1024', quality: 'low' });
  assert.notDeepEqual(decodePng(other.data?.[0].b64_json ?? '').pixel(0, 0), one.pixel(0, 0), 'another prompt gets other colours');

  const { entries } = await session.journal();
  assert.equal(entries.length, 4);
  assert.deepEqual(
    entries.map((e) => [e.operation, e.route, e.status, e.request?.model]),
    Array(4).fill(['openai.images.generate', 'POST /v1/images/generations', 200, 'gpt-image-1']),
  );
  assert.deepEqual(
    entries[0].request?.messages.map((m) => [m.role, m.parts.map((p) => ('text' in p ? p.text : ''))]),
    [['user', ['a red fox in the snow']]],
  );
  assert.equal(entries[0].usage?.outputTokens, 800);
  await session.verify();
});

test('DALL·E answers: a URL Understudy serves (dall-e-2 by default), b64_json when asked, a revised prompt from dall-e-3 [openai-images.generate.url +]', async () => {
  const session = await mock.session('generate-dalle');
  const openai = clientOf(session);
  const answer = await openai.images.generate({ prompt: 'a lighthouse', size: '256x256', n: 2 });
  assert.equal(answer.usage, undefined, 'DALL·E answers carry no usage');
  const urls = (answer.data ?? []).map((d) => d.url ?? '');
  assert.equal(urls.length, 2);
  for (const url of urls) {
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/s\/generate-dalle\/v1\/understudy-images\/img-\d{6}\.png$/);
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'image/png');
    assertPngSize(new Uint8Array(await response.arrayBuffer()), 256, 256);
  }
  const b64 = await openai.images.generate({ model: 'dall-e-2', prompt: 'a lighthouse', size: '512x512', response_format: 'b64_json' });
  assertPngSize(b64.data?.[0].b64_json, 512, 512);
  const three = await openai.images.generate({ model: 'dall-e-3', prompt: 'a lighthouse at dusk', size: '1792x1024', quality: 'hd' });
  assert.equal(three.data?.[0].revised_prompt, 'a lighthouse at dusk');
  const served = await fetch(three.data?.[0].url ?? '', { signal: AbortSignal.timeout(10_000) });
  assertPngSize(new Uint8Array(await served.arrayBuffer()), 1792, 1024);
  await session.verify();
});

test('a URL answer is gone after reset, and an unknown image is a 404 [openai-images.generate.url -]', async () => {
  const session = await mock.session('url-reset');
  const openai = clientOf(session);
  const url = (await openai.images.generate({ prompt: 'a lighthouse', size: '256x256' })).data?.[0].url ?? '';
  assert.equal((await fetch(url, { signal: AbortSignal.timeout(10_000) })).status, 200);
  await session.reset();
  const gone = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  assert.equal(gone.status, 404);
  const body = (await gone.json()) as { error: { code: string; message: string } };
  assert.equal(body.error.code, 'image_not_found');
  assert.match(body.error.message, /keeps no image "img-000001\.png"/);

  // An answer delivered after a reset that came during its delay keeps nothing in the new store.
  await session.load({ scenarios: [], images: [{ prompt: 'slow lighthouse', delayMs: 400 }] });
  const pending = openai.images.generate({ prompt: 'slow lighthouse', size: '256x256' });
  await new Promise((resolve) => setTimeout(resolve, 100));
  await session.reset();
  const late = (await pending).data?.[0].url ?? '';
  assert.equal((await fetch(late, { signal: AbortSignal.timeout(10_000) })).status, 404);
});

test('images.edit with a real file (multipart): the edited image, usage counting the input image, journalled as an edit [openai-images.edit.multipart +]', async () => {
  const session = await mock.session('edit');
  const openai = clientOf(session);
  const source = (await openai.images.generate({ model: 'gpt-image-1', prompt: 'a cat', size: '1024x1536' })).data?.[0].b64_json ?? '';
  const image = await toFile(Buffer.from(source, 'base64'), 'cat.png', { type: 'image/png' });
  const edited = await openai.images.edit({
    model: 'gpt-image-1',
    image,
    prompt: 'give the cat a hat',
    size: '1024x1536',
    quality: 'high',
  });
  const png = assertPngSize(edited.data?.[0].b64_json, 1024, 1536);
  assert.notDeepEqual(png.pixel(0, 0), decodePng(source).pixel(0, 0));
  assert.equal(edited.usage?.input_tokens_details.image_tokens, 256, 'one input image');
  assert.equal(edited.usage?.output_tokens, 6240, 'high quality, 1024x1536');

  // Two images (sent as image[]) and a mask; the SDK's default model (gpt-image-1.5).
  const two = await openai.images.edit({
    image: [image, await toFile(Buffer.from(source, 'base64'), 'cat2.png', { type: 'image/png' })],
    mask: await toFile(Buffer.from(source, 'base64'), 'mask.png', { type: 'image/png' }),
    prompt: 'two cats',
  });
  assertPngSize(two.data?.[0].b64_json, 1024, 1024);
  assert.equal(two.usage?.input_tokens_details.image_tokens, 512);
  // dall-e-2 edits take one square PNG and answer a URL.
  const square = (await openai.images.generate({ model: 'dall-e-2', prompt: 'x', size: '256x256', response_format: 'b64_json' })).data?.[0]
    .b64_json;
  const dalle = await openai.images.edit({
    model: 'dall-e-2',
    image: await toFile(Buffer.from(square ?? '', 'base64'), 'sq.png', { type: 'image/png' }),
    prompt: 'add a moon',
    size: '512x512',
  });
  const served = await fetch(dalle.data?.[0].url ?? '', { signal: AbortSignal.timeout(10_000) });
  assertPngSize(new Uint8Array(await served.arrayBuffer()), 512, 512);

  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.operation, e.route, e.status, e.request?.model, e.request?.messages[0].parts[0]]),
    [
      ['openai.images.generate', 'POST /v1/images/generations', 200, 'gpt-image-1', { type: 'text', text: 'a cat' }],
      ['openai.images.edit', 'POST /v1/images/edits', 200, 'gpt-image-1', { type: 'text', text: 'give the cat a hat' }],
      ['openai.images.edit', 'POST /v1/images/edits', 200, 'gpt-image-1.5', { type: 'text', text: 'two cats' }],
      ['openai.images.generate', 'POST /v1/images/generations', 200, 'dall-e-2', { type: 'text', text: 'x' }],
      ['openai.images.edit', 'POST /v1/images/edits', 200, 'dall-e-2', { type: 'text', text: 'add a moon' }],
    ],
  );
  await session.verify();
});

test('images.edit refusals: no image, a file that is no image, a non-square dall-e-2 image [openai-images.edit.multipart -]', async () => {
  const session = await mock.session('edit-refused');
  const openai = clientOf(session);
  const text = await toFile(Buffer.from('not an image at all'), 'notes.txt', { type: 'text/plain' });
  const notImage = await refusal(openai.images.edit({ model: 'gpt-image-1', image: text, prompt: 'x' }));
  assert.equal(notImage.status, 400);
  assert.equal(notImage.code, 'invalid_image_format');
  assert.equal(notImage.param, 'image');
  const tall = (await openai.images.generate({ model: 'gpt-image-1', prompt: 'x', size: '1024x1536' })).data?.[0].b64_json ?? '';
  const notSquare = await refusal(
    openai.images.edit({
      model: 'dall-e-2',
      image: await toFile(Buffer.from(tall, 'base64'), 't.png', { type: 'image/png' }),
      prompt: 'x',
    }),
  );
  assert.match(notSquare.message, /square image; found 1024x1536/);
  const form = new FormData();
  form.append('prompt', 'no image here');
  const response = await fetch(`${mock.url('openai')}/images/edits`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.apiKey}` },
    body: form,
    signal: AbortSignal.timeout(10_000),
  });
  assert.equal(response.status, 400);
  assert.deepEqual(await response.json(), {
    error: {
      message: "Missing required parameter: 'image'.",
      type: 'invalid_request_error',
      param: 'image',
      code: 'missing_required_parameter',
    },
  });
  const { entries, counters } = await session.journal();
  assert.deepEqual(
    entries.filter((e) => e.operation === 'openai.images.edit').map((e) => e.status),
    [400, 400, 400],
  );
  assert.equal(counters.invalid, 3);
});

test('a JSON edit (images by image_url or file_id, as the API description allows)', async () => {
  const session = await mock.session('edit-json');
  const post = (body: unknown) =>
    fetch(`${mock.url('openai')}/images/edits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.apiKey}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
  const response = await post({
    model: 'gpt-image-1.5',
    prompt: 'watercolour',
    images: [{ image_url: 'https://example.com/source.png' }, { file_id: 'file-abc123' }],
    size: '1536x1024',
  });
  assert.equal(response.status, 200);
  const body = (await response.json()) as { data: { b64_json: string }[]; usage: { input_tokens_details: { image_tokens: number } } };
  assertPngSize(body.data[0].b64_json, 1536, 1024);
  assert.equal(body.usage.input_tokens_details.image_tokens, 512);
  const [entry] = (await session.journal()).entries;
  assert.equal(entry.operation, 'openai.images.edit');
});

test('a JSON edit refused: no images, a reference with both keys, dall-e-2', async () => {
  const session = await mock.session('edit-json-refused');
  const post = async (body: unknown) => {
    const response = await fetch(`${mock.url('openai')}/images/edits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.apiKey}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    assert.equal(response.status, 400);
    return ((await response.json()) as { error: { param: string; code: string } }).error;
  };
  assert.deepEqual((await post({ prompt: 'x' })).param, 'images');
  assert.equal((await post({ prompt: 'x', images: [] })).code, 'empty_array');
  assert.equal((await post({ prompt: 'x', images: [{ image_url: 'https://a/b.png', file_id: 'file-1' }] })).param, 'images[0]');
  assert.equal((await post({ prompt: 'x', model: 'dall-e-2', images: [{ file_id: 'file-1' }] })).param, 'model');
});

test("a session model catalogue: another image model is OpenAI's 404 model_not_found on OpenAI's routes", async () => {
  const session = await mock.session('images-catalogue');
  await session.load({ scenarios: [], images: [], session: { models: ['gpt-image-1'] } });
  const openai = clientOf(session);
  assertPngSize((await openai.images.generate({ model: 'gpt-image-1', prompt: 'x' })).data?.[0].b64_json, 1024, 1024);
  const missing = await refusal(openai.images.generate({ model: 'dall-e-3', prompt: 'x' }));
  assert.ok(missing instanceof OpenAI.NotFoundError, String(missing));
  assert.equal(missing.code, 'model_not_found');
});

// Streamed image answers (`stream: true`) through the openai SDK's stream types: for generations
// `image_generation.partial_image` events (`partial_images` of them, indexed) then
// `image_generation.completed` with the final image and the usage; for edits the same as
// `image_edit.*`. Every image is a PNG of the requested size. DALL·E takes no stream; a scripted
// fault of kind `error` part-way is the SDK's APIError.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import OpenAI, { toFile } from 'openai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { assertPngSize } from './support/png-facts.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const clientOf = (session: UnderstudySession) =>
  new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });

test('a streamed generation: indexed partial images, then the completed image with usage [openai-images.generate.stream +]', async () => {
  const session = await mock.session('stream-generate');
  const openai = clientOf(session);
  const stream = await openai.images.generate({
    model: 'gpt-image-1',
    prompt: 'a kite',
    size: '1024x1536',
    stream: true,
    partial_images: 2,
  });
  const events: OpenAI.Images.ImageGenStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  assert.deepEqual(
    events.map((e) => [e.type, e.type === 'image_generation.partial_image' ? e.partial_image_index : null]),
    [
      ['image_generation.partial_image', 0],
      ['image_generation.partial_image', 1],
      ['image_generation.completed', null],
    ],
  );
  for (const event of events) {
    assertPngSize(event.b64_json, 1024, 1536);
    assert.deepEqual(
      [event.size, event.quality, event.background, event.output_format, event.created_at],
      ['1024x1536', 'medium', 'opaque', 'png', 1767225600],
    );
  }
  const completed = events[2] as OpenAI.Images.ImageGenCompletedEvent;
  assert.equal(completed.usage.output_tokens, 1584);
  const plain = await openai.images.generate({ model: 'gpt-image-1', prompt: 'a kite', size: '1024x1536' });
  assert.equal(completed.b64_json, plain.data?.[0].b64_json, 'the streamed final image is the image answered without a stream');
  assert.notEqual(events[0].b64_json, completed.b64_json, 'a partial image is not the final one');

  const none = await openai.images.generate({ model: 'gpt-image-1', prompt: 'a kite', stream: true });
  const types: string[] = [];
  for await (const event of none) types.push(event.type);
  assert.deepEqual(types, ['image_generation.completed'], 'partial_images 0: the image in one event');

  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.operation, e.status, e.usage?.outputTokens, e.request?.stream]),
    [
      ['openai.images.generate', 200, 1584, true],
      ['openai.images.generate', 200, 1584, false],
      ['openai.images.generate', 200, 1056, true],
    ],
  );
  await session.verify();
});

test('a stream is for GPT image models only; a scripted error fault part-way is an APIError [openai-images.generate.stream -]', async () => {
  const session = await mock.session('stream-refused');
  const openai = clientOf(session);
  const refused = await openai.images.generate({ model: 'dall-e-2', prompt: 'x', stream: true }).then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.ok(refused instanceof OpenAI.BadRequestError, String(refused));
  assert.equal(refused.param, 'stream');

  await session.load({
    scenarios: [],
    images: [{ prompt: 'breaks', fault: { kind: 'error', afterChunks: 1, error: { code: 'server_error', message: 'The image broke.' } } }],
  });
  const stream = await openai.images.generate({ model: 'gpt-image-1', prompt: 'breaks', stream: true, partial_images: 3 });
  const seen: string[] = [];
  const failure = await (async () => {
    for await (const event of stream) seen.push(event.type);
  })().then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.deepEqual(seen, ['image_generation.partial_image']);
  assert.ok(failure instanceof OpenAI.APIError, String(failure));
  assert.match(failure.message, /The image broke\./);
});

test('a scripted error with inStream: a stream answers 200 and then the error event; without a stream, the HTTP error', async () => {
  const session = await mock.session('stream-in-stream-error');
  await session.load({
    scenarios: [],
    images: [{ prompt: 'fails inside', error: { status: 500, code: 'server_error', message: 'The generator fell over.', inStream: true } }],
  });
  const openai = clientOf(session);
  const stream = await openai.images.generate({ model: 'gpt-image-1', prompt: 'fails inside', stream: true, partial_images: 2 });
  const seen: string[] = [];
  const failure = await (async () => {
    for await (const event of stream) seen.push(event.type);
  })().then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.deepEqual(seen, []);
  assert.ok(failure instanceof OpenAI.APIError, String(failure));
  assert.match(failure.message, /The generator fell over\./);
  const plain = await openai.images.generate({ model: 'gpt-image-1', prompt: 'fails inside' }).then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.ok(plain instanceof OpenAI.InternalServerError, String(plain));
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.error?.code]),
    [
      [500, 'server_error'],
      [500, 'server_error'],
    ],
  );
});

test('a streamed edit: image_edit.partial_image, then image_edit.completed [openai-images.edit.stream +]', async () => {
  const session = await mock.session('stream-edit');
  const openai = clientOf(session);
  const source = (await openai.images.generate({ model: 'gpt-image-1', prompt: 'a boat' })).data?.[0].b64_json ?? '';
  const stream = await openai.images.edit({
    model: 'gpt-image-1',
    image: await toFile(Buffer.from(source, 'base64'), 'boat.png', { type: 'image/png' }),
    prompt: 'a red boat',
    size: '1536x1024',
    stream: true,
    partial_images: 1,
  });
  const events: OpenAI.Images.ImageEditStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  assert.deepEqual(
    events.map((e) => e.type),
    ['image_edit.partial_image', 'image_edit.completed'],
  );
  for (const event of events) assertPngSize(event.b64_json, 1536, 1024);
  assert.equal((events[1] as OpenAI.Images.ImageEditCompletedEvent).usage.input_tokens_details.image_tokens, 256);
  const { entries } = await session.journal();
  assert.equal(entries[1].operation, 'openai.images.edit');
});

test('a streamed edit refused: partial_images above 3 (sent as a form field) [openai-images.edit.stream -]', async () => {
  const session = await mock.session('stream-edit-refused');
  const openai = clientOf(session);
  const source = (await openai.images.generate({ model: 'gpt-image-1', prompt: 'a boat' })).data?.[0].b64_json ?? '';
  const refused = await openai.images
    .edit({
      model: 'gpt-image-1',
      image: await toFile(Buffer.from(source, 'base64'), 'boat.png', { type: 'image/png' }),
      prompt: 'a red boat',
      stream: true,
      partial_images: 5,
    })
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  assert.ok(refused instanceof OpenAI.BadRequestError, String(refused));
  assert.equal(refused.code, 'integer_above_max_value');
  assert.equal(refused.param, 'partial_images');
});

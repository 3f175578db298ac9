// The fixture's `images` list through the openai SDK: scripted bytes come back exactly (and are
// served from a URL), a revised prompt, entries for one model, scripted errors in OpenAI's shape,
// faults, and a delay the client leaves during (journalled as aborted, nothing answered). The
// default picture is PNG only: another output_format needs scripted bytes of that kind. Problems
// of an entry name its path.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import OpenAI from 'openai';
import { PNG } from 'pngjs';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { decodePng } from './support/png-facts.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const clientOf = (session: UnderstudySession, timeout = 10_000) =>
  new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout });

async function refusal(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const caught: unknown = await call.then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.ok(caught instanceof OpenAI.APIError, `expected an APIError, got ${String(caught)}`);
  return caught;
}

/** A 3x2 PNG of the given pixels, made by pngjs. */
function tinyPng(): Buffer {
  const png = new PNG({ width: 3, height: 2 });
  for (let i = 0; i < 6; i++) png.data.set([i * 40, 255 - i * 40, 7, 255], i * 4);
  return PNG.sync.write(png);
}
/** The first bytes of a JPEG file (what the format's check reads), and a few more. */
const JPEG_BYTES = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);

test('scripted bytes come back exactly, as base64 and from a URL; a revised prompt; an entry for one model [openai-images.scripted.json +]', async () => {
  const session = await mock.session('scripted-bytes');
  const bytes = tinyPng();
  await session.load({
    scenarios: [],
    images: [
      { prompt: 'logo', model: 'dall-e-3', b64: bytes.toString('base64'), revisedPrompt: 'a crisp logo' },
      { prompt: { contains: 'logo' }, b64: bytes.toString('base64') },
      { prompt: 'photo', b64: JPEG_BYTES.toString('base64') },
    ],
  });
  const openai = clientOf(session);
  const gpt = await openai.images.generate({ model: 'gpt-image-1', prompt: 'the logo', n: 2 });
  assert.deepEqual(
    gpt.data?.map((d) => Buffer.from(d.b64_json ?? '', 'base64')),
    [bytes, bytes],
  );
  assert.deepEqual(decodePng(gpt.data?.[0].b64_json ?? '').pixel(2, 1), [200, 55, 7, 255]);
  const three = await openai.images.generate({ model: 'dall-e-3', prompt: 'logo' });
  assert.equal(three.data?.[0].revised_prompt, 'a crisp logo');
  const served = await fetch(three.data?.[0].url ?? '', { signal: AbortSignal.timeout(10_000) });
  assert.deepEqual(Buffer.from(await served.arrayBuffer()), bytes);
  const jpeg = await openai.images.generate({ model: 'gpt-image-1', prompt: 'photo', output_format: 'jpeg' });
  assert.deepEqual(Buffer.from(jpeg.data?.[0].b64_json ?? '', 'base64'), JPEG_BYTES);
  assert.equal(jpeg.output_format, 'jpeg');
  // Streamed, every event (the partial images too) carries the scripted bytes, never a PNG.
  const streamed = await openai.images.generate({
    model: 'gpt-image-1',
    prompt: 'photo',
    output_format: 'jpeg',
    stream: true,
    partial_images: 2,
  });
  const events: string[] = [];
  for await (const event of streamed) events.push(event.b64_json);
  assert.deepEqual(events, Array(3).fill(JPEG_BYTES.toString('base64')));
  const url = await openai.images.generate({ model: 'dall-e-2', prompt: 'photo' });
  const jpegServed = await fetch(url.data?.[0].url ?? '', { signal: AbortSignal.timeout(10_000) });
  assert.equal(jpegServed.headers.get('content-type'), 'image/jpeg');
  assert.match(url.data?.[0].url ?? '', /\.jpg$/);
  await session.verify();
});

test('the default picture is PNG only: jpeg needs scripted bytes, and scripted bytes of another kind are a 409 [openai-images.scripted.json -]', async () => {
  const session = await mock.session('scripted-format');
  await session.load({ scenarios: [], images: [{ prompt: 'png only', b64: tinyPng().toString('base64') }] });
  const openai = clientOf(session);
  const unsupported = await refusal(openai.images.generate({ model: 'gpt-image-1', prompt: 'anything', output_format: 'webp' }));
  assert.equal(unsupported.status, 409);
  assert.equal(unsupported.code, 'fixture_mismatch');
  assert.match(unsupported.message, /PNG only, and the fixture scripts no image for prompt "anything"/);
  const mismatch = await refusal(openai.images.generate({ model: 'gpt-image-1', prompt: 'png only', output_format: 'jpeg' }));
  assert.equal(mismatch.status, 409);
  assert.equal(mismatch.code, 'fixture_mismatch');
  assert.match(mismatch.message, /is png, but the request asked for output_format "jpeg"/);
  const report = await session.check();
  assert.equal(report.ok, false);
  assert.deepEqual(
    report.problems.map((p) => p.kind),
    ['fixture_mismatch', 'fixture_mismatch'],
  );
});

test('a scripted error is the SDK error of its status, in OpenAI shape, journalled [openai-images.errors.json +]', async () => {
  const session = await mock.session('scripted-error');
  await session.load({
    scenarios: [],
    images: [
      {
        prompt: { matches: 'forbidden' },
        error: { status: 400, code: 'content_policy_violation', message: 'Your request was rejected by the safety system.' },
      },
      { prompt: 'busy', error: { status: 429, code: 'rate_limit_exceeded', message: 'Slow down.', headers: { 'retry-after': '1' } } },
    ],
  });
  const openai = clientOf(session);
  const policy = await refusal(openai.images.generate({ model: 'gpt-image-1', prompt: 'something forbidden' }));
  assert.ok(policy instanceof OpenAI.BadRequestError);
  assert.equal(policy.code, 'content_policy_violation');
  const busy = await refusal(openai.images.generate({ model: 'dall-e-3', prompt: 'busy' }));
  assert.ok(busy instanceof OpenAI.RateLimitError);
  assert.equal(busy.headers?.get('retry-after'), '1');
  assert.equal(busy.message, '429 Slow down.');
  const { entries, counters } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.error?.code, e.request?.messages[0].parts[0]]),
    [
      [400, 'content_policy_violation', { type: 'text', text: 'something forbidden' }],
      [429, 'rate_limit_exceeded', { type: 'text', text: 'busy' }],
    ],
  );
  assert.equal(counters.errorsReturned, 2);
  // As for any 400 answered, verify() reports the first as an invalid request; the 429 is no problem.
  assert.deepEqual(
    (await session.check()).problems.map((p) => p.kind),
    ['invalid_request'],
  );
});

test('a scripted image entry is checked on load, naming its path [openai-images.errors.json -]', async () => {
  const session = await mock.session('scripted-checks');
  await assert.rejects(
    session.load({ scenarios: [], images: [{ prompt: 'a', b64: tinyPng().toString('base64'), error: { status: 500, message: 'x' } }] }),
    /\/images\/0\/b64 {2}expected either "error" or "b64" in a scripted image, not both/,
  );
  await assert.rejects(
    session.load({ scenarios: [], images: [{ prompt: 'a', b64: Buffer.from('plain text').toString('base64') }] }),
    /\/images\/0\/b64 {2}expected the base64 of a PNG, JPEG or WebP image/,
  );
  await assert.rejects(
    session.load({ scenarios: [], images: [{ prompt: 'a', b64: 'not base64!' }] }),
    /\/images\/0\/b64 {2}expected base64 image bytes/,
  );
  await assert.rejects(session.load({ scenarios: [], images: [{ b64: 'AAAA' }] } as never), /\/images\/0/);
  await assert.rejects(
    session.load({ scenarios: [], images: [{ prompt: 'a', error: { status: 200, message: 'x' } }] }),
    /\/images\/0\/error\/status/,
  );
});

test('faults: a reset JSON answer is a connection error, a truncated one does not parse; both journalled as played [openai-images.faults.json +]', async () => {
  const session = await mock.session('scripted-fault');
  await session.load({
    scenarios: [],
    images: [
      { prompt: 'reset me', fault: { kind: 'reset', afterBytes: 10 } },
      { prompt: 'cut me', fault: { kind: 'truncate', afterBytes: 30 } },
    ],
  });
  const openai = clientOf(session);
  const reset = await openai.images.generate({ model: 'gpt-image-1', prompt: 'reset me' }).then(
    () => undefined,
    (error: unknown) => error,
  );
  // The status line went out before the reset: the SDK's body read fails (openai 6 and 7 alike).
  assert.ok(reset instanceof Error && /terminated|Connection error/i.test(reset.message), String(reset));
  const cut = await openai.images.generate({ model: 'gpt-image-1', prompt: 'cut me' }).then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.ok(cut instanceof Error, 'a truncated JSON body does not parse');
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.operation, e.status]),
    [
      ['openai.images.generate', 200],
      ['openai.images.generate', 200],
    ],
    'a scripted fault is the answer as scripted',
  );
});

test('a delay the client leaves during: aborted, no URL image kept; a delay waited out answers [openai-images.faults.json -]', async () => {
  const session = await mock.session('scripted-delay');
  await session.load({
    scenarios: [],
    images: [
      { prompt: 'slow', delayMs: 1500 },
      { prompt: 'a little slow', delayMs: 200 },
    ],
  });
  const impatient = clientOf(session, 300);
  const left = await impatient.images.generate({ prompt: 'slow', size: '256x256' }).then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.ok(left instanceof OpenAI.APIConnectionTimeoutError, String(left));
  // Wait out the delay: the server notices the client left when it would have answered.
  await new Promise((resolve) => setTimeout(resolve, 1800));
  const started = Date.now();
  const waited = await clientOf(session).images.generate({ prompt: 'a little slow', size: '256x256' });
  assert.ok(Date.now() - started >= 150, 'the delay was played');
  const { entries, counters } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.error?.code ?? null]),
    [
      [499, 'client_closed_request'],
      [200, null],
    ],
  );
  assert.equal(counters.aborted, 1);
  // The aborted answer kept no image: its name was taken, its bytes never stored.
  assert.match(waited.data?.[0].url ?? '', /img-000002\.png$/);
  const first = (waited.data?.[0].url ?? '').replace('img-000002', 'img-000001');
  assert.equal((await fetch(first, { signal: AbortSignal.timeout(10_000) })).status, 404);
});

// OpenAI's 400s for image generation requests, as its published API description states the rules:
// a missing prompt, a size the model does not take, an `n` out of range, a member the model does
// not take (response_format for GPT image models, the GPT image members for DALL·E), an unknown
// member — through the openai SDK where it can send the request, raw fetch where it cannot. And
// gpt-image-2's free sizes: any size within its limits is answered at that size, the rest refused.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import fc from 'fast-check';
import OpenAI from 'openai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { assertPngSize } from './support/png-facts.js';

let mock: Understudy;
let session: UnderstudySession;
let openai: OpenAI;
before(async () => {
  mock = await startUnderstudy();
  session = await mock.session('images-validation');
  openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
});
after(async () => {
  await mock.close();
});

async function refusal(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const caught: unknown = await call.then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.ok(caught instanceof OpenAI.APIError, `expected an APIError, got ${String(caught)}`);
  assert.equal(caught.status, 400);
  return caught;
}

/** The message of the error body (the SDK's own message adds the status). */
function bodyMessage(error: InstanceType<typeof OpenAI.APIError>): string {
  return (error.error as { message: string }).message;
}

async function raw(
  body: string,
): Promise<{ status: number; error: { message: string; type: string; param: string | null; code: string | null } }> {
  const response = await fetch(`${mock.url('openai')}/images/generations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${session.apiKey}` },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, error: ((await response.json()) as { error: never }).error };
}

test("malformed generations get OpenAI's 400 naming the member [openai-images.generate.json -]", async () => {
  const missing = await raw(JSON.stringify({ model: 'gpt-image-1' }));
  assert.deepEqual(missing, {
    status: 400,
    error: {
      message: "Missing required parameter: 'prompt'.",
      type: 'invalid_request_error',
      param: 'prompt',
      code: 'missing_required_parameter',
    },
  });
  assert.equal((await raw('{"prompt": ')).error.message, 'We could not parse the JSON body of your request.');
  assert.equal((await raw(JSON.stringify({ prompt: 42 }))).error.code, 'invalid_type');
  assert.equal((await raw(JSON.stringify({ prompt: '' }))).error.code, 'empty_string');

  const size = await refusal(openai.images.generate({ model: 'dall-e-2', prompt: 'x', size: '1792x1024' }));
  assert.equal(bodyMessage(size), "Invalid value: '1792x1024'. Supported values are: '256x256', '512x512', and '1024x1024'.");
  assert.equal(size.param, 'size');
  const gptSize = await refusal(openai.images.generate({ model: 'gpt-image-1', prompt: 'x', size: '256x256' }));
  assert.match(bodyMessage(gptSize), /Supported values are: '1024x1024', '1536x1024', '1024x1536', and 'auto'/);
  const many = await refusal(openai.images.generate({ model: 'gpt-image-1', prompt: 'x', n: 11 }));
  assert.equal(bodyMessage(many), "Invalid 'n': integer above maximum value. Expected a value <= 10, but got 11 instead.");
  const none = await refusal(openai.images.generate({ model: 'gpt-image-1', prompt: 'x', n: 0 }));
  assert.equal(none.code, 'integer_below_min_value');
  assert.equal((await refusal(openai.images.generate({ model: 'dall-e-3', prompt: 'x', n: 2 }))).param, 'n');
  const long = await refusal(openai.images.generate({ model: 'dall-e-2', prompt: 'x'.repeat(1001) }));
  assert.equal(long.code, 'string_above_max_length');

  const format = await refusal(openai.images.generate({ model: 'gpt-image-1', prompt: 'x', response_format: 'url' }));
  assert.deepEqual(
    [bodyMessage(format), format.param, format.code],
    ["Unknown parameter: 'response_format'.", 'response_format', 'unknown_parameter'],
  );
  assert.equal((await refusal(openai.images.generate({ model: 'dall-e-3', prompt: 'x', output_format: 'png' }))).param, 'output_format');
  assert.equal((await refusal(openai.images.generate({ model: 'dall-e-2', prompt: 'x', style: 'vivid' }))).param, 'style');
  assert.equal((await refusal(openai.images.generate({ model: 'gpt-image-1', prompt: 'x', quality: 'hd' }))).param, 'quality');
  assert.equal(
    (await refusal(openai.images.generate({ model: 'gpt-image-1', prompt: 'x', background: 'transparent', output_format: 'jpeg' }))).param,
    'background',
  );
  assert.equal((await refusal(openai.images.generate({ model: 'gpt-image-1', prompt: 'x', partial_images: 4 }))).param, 'partial_images');
  assert.equal((await refusal(openai.images.generate({ model: 'midjourney', prompt: 'x' }))).param, 'model');
  const unknown = await raw(JSON.stringify({ prompt: 'x', colour: 'red' }));
  assert.deepEqual([unknown.error.message, unknown.error.param], ["Unknown parameter: 'colour'.", 'colour']);
  // `stream: false` sets no GPT image member: dall-e-2 takes it.
  const quiet = await openai.images.generate({ model: 'dall-e-2', prompt: 'x', size: '256x256', stream: false });
  assert.match(quiet.data?.[0].url ?? '', /understudy-images/);
  // A GPT image member without a model picks a GPT image model (gpt-image-1.5), not dall-e-2.
  const picked = await openai.images.generate({ prompt: 'x', output_format: 'png' });
  assert.ok(picked.data?.[0].b64_json && picked.usage);

  const { entries, counters } = await session.journal();
  const refused = entries.filter((e) => e.status === 400);
  assert.ok(refused.length >= 17, `${refused.length} refusals journalled`);
  assert.ok(refused.every((e) => e.operation === 'openai.images.generate' && e.error?.message));
  assert.equal(counters.invalid, refused.length);
});

test('gpt-image-2 takes any size within its limits, answered at that size; other sizes are refused (property)', async () => {
  const edge = fc.integer({ min: 1, max: 260 }).map((k) => k * 16 - (k % 5 === 0 ? 8 : 0));
  await fc.assert(
    fc.asyncProperty(edge, edge, async (width, height) => {
      const ok =
        width % 16 === 0 &&
        height % 16 === 0 &&
        Math.max(width, height) <= 3840 &&
        Math.min(width, height) <= 2160 &&
        Math.max(width, height) <= 3 * Math.min(width, height);
      const call = openai.images.generate({ model: 'gpt-image-2', prompt: `size ${width}x${height}`, size: `${width}x${height}` });
      if (ok) {
        const answer = await call;
        assertPngSize(answer.data?.[0].b64_json, width, height);
        assert.equal(answer.size, `${width}x${height}`);
      } else {
        assert.equal((await refusal(call)).param, 'size');
      }
    }),
    { numRuns: 40, seed: 21 },
  );
});

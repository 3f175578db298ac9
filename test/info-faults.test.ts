// A fault scripted on an answer that is one body (an image as JSON, speech bytes), judged by the
// openai SDK: without a position it comes before the first byte, so a stall ends in the SDK's own
// timeout instead of hanging; kind `error`, which names an in-stream event, answers that error as
// the route's HTTP error, journalled with its status.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import OpenAI from 'openai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

function clientOf(session: UnderstudySession, timeout = 10_000): OpenAI {
  return new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout });
}

async function failure(call: Promise<unknown>): Promise<Error> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof Error);
    return error;
  }
  assert.fail('the call succeeded');
}

test('a stall without a position on an image or speech answer ends in the SDK timeout, not a hang', async () => {
  const session = await mock.session('one-body-stall');
  await session.load({
    scenarios: [],
    images: [{ prompt: 'stuck', fault: { kind: 'stall' } }],
    speech: [{ input: 'stuck', fault: { kind: 'stall' } }],
  });
  const openai = clientOf(session, 500);
  const image = await failure(openai.images.generate({ model: 'dall-e-2', prompt: 'stuck', size: '256x256', response_format: 'b64_json' }));
  assert.ok(image instanceof OpenAI.APIConnectionTimeoutError, `${image.constructor.name}: ${image.message}`);
  const speech = await failure(openai.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'stuck' }));
  assert.ok(speech instanceof OpenAI.APIConnectionTimeoutError, `${speech.constructor.name}: ${speech.message}`);
});

test("a fault of kind error on a JSON answer is the route's HTTP error, journalled with its status", async () => {
  const session = await mock.session('one-body-error');
  await session.load({
    scenarios: [],
    images: [{ prompt: 'broken', fault: { kind: 'error', error: { status: 503, message: 'The image service is overloaded.' } } }],
  });
  const error = await failure(clientOf(session).images.generate({ model: 'dall-e-2', prompt: 'broken', size: '256x256' }));
  assert.ok(error instanceof OpenAI.InternalServerError, String(error));
  assert.equal(error.status, 503);
  assert.match(error.message, /overloaded/);
  const { entries, counters } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.operation, e.status]),
    [['openai.images.generate', 503]],
  );
  assert.equal(counters.errorsReturned, 1);
});

// Understudy's image answers against OpenAI's own published description of its API (the pinned
// version's structural facts in test/fixtures/openapi/, written by scripts/derive-openapi-facts.mjs):
// every generation and edit answer the openai SDK gets (GPT image models and DALL·E, b64_json and
// url), every stream event, and every refusal conform to the description's schemas; and bodies
// the description forbids for a generation (its enums, ranges and types) are refused with a 400.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import fc from 'fast-check';
import OpenAI, { toFile } from 'openai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { describeErrors, descriptionValidators } from './support/description-facts.js';

const V = descriptionValidators();
const REQUESTS = descriptionValidators(V.facts, { oneOf: 'anyOf' });

let mock: Understudy;
let session: UnderstudySession;
let openai: OpenAI;
before(async () => {
  mock = await startUnderstudy();
  session = await mock.session('images-openapi');
  openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
});
after(async () => {
  await mock.close();
});

function conforms(root: string, value: unknown): void {
  const validate = V.root(root);
  assert.ok(
    validate(value),
    `does not match the description's ${root}:\n${describeErrors(validate.errors)}\n${JSON.stringify(value).slice(0, 400)}`,
  );
}

test("every image answer, stream event and refusal matches the description's schemas", async () => {
  conforms('images.response', await openai.images.generate({ model: 'gpt-image-1', prompt: 'a fox', n: 2, size: '1536x1024' }));
  conforms('images.response', await openai.images.generate({ model: 'dall-e-3', prompt: 'a fox' }));
  conforms(
    'images.response',
    await openai.images.generate({ model: 'dall-e-2', prompt: 'a fox', response_format: 'b64_json', size: '256x256' }),
  );
  const stream = await openai.images.generate({ model: 'gpt-image-1', prompt: 'a fox', stream: true, partial_images: 2 });
  let events = 0;
  for await (const event of stream) {
    conforms('images.generate.event', event);
    events++;
  }
  assert.equal(events, 3);
  const source = (await openai.images.generate({ model: 'gpt-image-1', prompt: 'a' })).data?.[0].b64_json ?? '';
  const image = await toFile(Buffer.from(source, 'base64'), 'a.png', { type: 'image/png' });
  conforms('images.response', await openai.images.edit({ model: 'gpt-image-1', prompt: 'a fox', image }));
  for await (const event of await openai.images.edit({ model: 'gpt-image-1', prompt: 'a fox', image, stream: true, partial_images: 1 }))
    conforms('images.edit.event', event);
  const refused = await openai.images.generate({ model: 'gpt-image-1', prompt: 'x', n: 40 }).then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.ok(refused instanceof OpenAI.APIError);
  conforms('error', { error: refused.error });
});

/** A generation body: members of the description's request, some of them of a wrong kind. */
const member = fc.oneof(
  fc.constantFrom(
    'n',
    'quality',
    'response_format',
    'output_format',
    'output_compression',
    'partial_images',
    'size',
    'moderation',
    'background',
    'style',
    'stream',
  ),
);
const wrongValue = fc.oneof(
  fc.integer({ min: -5, max: 200 }),
  fc.constantFrom('ultra', 'huge', '', 'true', 'hd', 'vivid', 'low'),
  fc.boolean(),
);

test('a generation the description forbids is a 400; every refusal names a member (property)', async () => {
  const forbids = REQUESTS.root('images.generate.request');
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('gpt-image-1', 'dall-e-2', 'dall-e-3'),
      fc.dictionary(member, wrongValue, { minKeys: 1, maxKeys: 3 }),
      async (model, extra) => {
        const body = { model, prompt: 'a property', ...extra };
        if (forbids(body)) return; // allowed by the description: the family's rules may still refuse it
        const response = await fetch(`${mock.url('openai')}/images/generations`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${session.apiKey}` },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(10_000),
        });
        assert.equal(response.status, 400, `${JSON.stringify(body)} is forbidden by the description: ${describeErrors(forbids.errors)}`);
        const refusal = (await response.json()) as { error: { param: string | null } };
        conforms('error', refusal);
        assert.ok(refusal.error.param !== null && refusal.error.param in body, JSON.stringify({ body, refusal }));
      },
    ),
    { numRuns: 250, seed: 21 },
  );
});

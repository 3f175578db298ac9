// Anthropic's `GET /v1/models` and `GET /v1/models/{model_id}` through @anthropic-ai/sdk's
// models.list() (paged by limit / after_id / before_id, which the SDK's Page follows) and
// models.retrieve(): the session's catalogue or the default ids; with a catalogue an unknown id is
// Anthropic's 404; a bad `limit` its 400. The same paths answer OpenAI's SDK in OpenAI's shape.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import Anthropic from '@anthropic-ai/sdk';
import fc from 'fast-check';
import OpenAI from 'openai';

import { startUnderstudy } from '../src/index.js';
import { anthropicClient, anthropicRejection } from './support/anthropic-client.js';
import type { Understudy, UnderstudySession } from '../src/index.js';
import { ANTHROPIC_DEFAULT_MODELS } from '../src/dialects/anthropic-messages/catalogue.js';

let mock: Understudy;

before(async () => {
  mock = await startUnderstudy();
});

after(async () => {
  await mock.close();
});

const CATALOGUE = ['claude-sonnet-4-6', 'claude-haiku-4-5-20251001', 'claude-opus-4-1', 'my-claude', 'claude-3-7-sonnet-latest'];

function client(session: UnderstudySession, base = mock.url('anthropic')): Anthropic {
  return anthropicClient(mock, session, base);
}

const rejection = anthropicRejection;

describe('models', () => {
  test('list pages through the catalogue with limit and after_id; retrieve gives one model [anthropic-messages.models.json +]', async () => {
    const session = await mock.session('anthropic-models', { models: CATALOGUE, clock: 1_767_225_600 });
    const anthropic = client(session);
    const first = await anthropic.models.list({ limit: 2 });
    assert.deepEqual(
      first.data.map((m) => m.id),
      CATALOGUE.slice(0, 2),
    );
    assert.equal(first.has_more, true);
    assert.equal(first.first_id, CATALOGUE[0]);
    assert.equal(first.last_id, CATALOGUE[1]);
    const all: string[] = [];
    for await (const model of anthropic.models.list({ limit: 2 })) all.push(model.id);
    assert.deepEqual(all, CATALOGUE);
    const before = await anthropic.models.list({ before_id: 'my-claude', limit: 2 });
    assert.deepEqual(
      before.data.map((m) => m.id),
      CATALOGUE.slice(1, 3),
    );
    assert.equal(before.has_more, true);
    const model = await anthropic.models.retrieve('claude-haiku-4-5-20251001');
    assert.equal(model.type, 'model');
    assert.equal(model.id, 'claude-haiku-4-5-20251001');
    assert.equal(model.display_name, 'Claude Haiku 4.5');
    assert.equal(model.created_at, '2026-01-01T00:00:00Z');
    assert.equal(model.line, 'haiku');
    assert.equal((await session.journal()).entries.length, 0, 'model lookups are not journalled');
  });

  test('property: for any catalogue and limit, the pages forward hold the catalogue once each, in order, and paging back from the end does too', async () => {
    const id = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(id, { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 5 }), async (catalogue, limit) => {
        const session = await mock.session(`anthropic-models-property-${run++}`, { models: catalogue });
        const anthropic = client(session);
        const forward: string[] = [];
        for await (const model of anthropic.models.list({ limit })) forward.push(model.id);
        assert.deepEqual(forward, catalogue);
        const back: string[] = [];
        let page = await anthropic.models.list({ limit, before_id: catalogue[catalogue.length - 1] });
        back.unshift(...page.data.map((m) => m.id));
        while (page.has_more && page.first_id) {
          page = await anthropic.models.list({ limit, before_id: page.first_id });
          back.unshift(...page.data.map((m) => m.id));
        }
        assert.deepEqual(back, catalogue.slice(0, -1));
      }),
      { numRuns: 25, seed: 21 },
    );
  });

  test('with no catalogue: the default ids; under /anthropic too', async () => {
    const session = await mock.session('anthropic-models-default');
    const page = await client(session, `${mock.url('anthropic')}/anthropic`).models.list();
    assert.deepEqual(
      page.data.map((m) => m.id),
      [...ANTHROPIC_DEFAULT_MODELS],
    );
    assert.equal(page.has_more, false);
    assert.equal((await client(session).models.retrieve('claude-anything')).display_name, 'Claude Anything');
  });

  test('an unknown id is NotFoundError; a limit out of range is BadRequestError [anthropic-messages.models.json -]', async () => {
    const session = await mock.session('anthropic-models-strict', { models: CATALOGUE });
    const anthropic = client(session);
    const missing = await rejection(anthropic.models.retrieve('claude-unknown'));
    assert.ok(missing instanceof Anthropic.NotFoundError);
    assert.equal(missing.type, 'not_found_error');
    assert.match(missing.message, /model: claude-unknown/);
    const limit = await rejection(anthropic.models.list({ limit: 1001 }));
    assert.ok(limit instanceof Anthropic.BadRequestError);
    assert.match(limit.message, /limit: Input should be less than or equal to 1000/);
    const cursor = await rejection(anthropic.models.list({ after_id: 'nope' }));
    assert.ok(cursor instanceof Anthropic.BadRequestError);
  });

  test('the OpenAI SDK on the same /v1/models gets OpenAI shape from the same catalogue', async () => {
    const session = await mock.session('anthropic-models-shared', { models: CATALOGUE });
    const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
    const page = await openai.models.list();
    assert.deepEqual(
      page.data.map((m) => [m.id, m.object]),
      CATALOGUE.map((id) => [id, 'model']),
    );
  });
});

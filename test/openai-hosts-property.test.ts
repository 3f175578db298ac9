// Properties of OpenRouter's and Perplexity's rows, over open-ended inputs. (1) Each host member is
// accepted by the host's decoder exactly when its documented type and range allow, and refused
// naming it otherwise — never anything but a 400. (2) Any script's host fields reach the answer
// the `openai` SDK returns, and never replace a member of the answer itself.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import OpenAI from 'openai';

import { startUnderstudy, type Understudy } from '../src/client/index.js';
import type { NeutralError } from '../src/core/errors.js';
import type { JsonValue } from '../src/core/model.js';
import type { ChatDialect, WireContext } from '../src/dialects/dialect.js';
import { DIALECTS } from '../src/dialects/registry.js';

function dialectOf(operation: string): ChatDialect {
  for (const registration of DIALECTS) for (const route of registration.routes) if (route.operation === operation) return route.dialect;
  throw new Error(`no dialect serves ${operation}`);
}

function wire(operation: string): WireContext {
  const stores = new Map<string, unknown>();
  return {
    operation,
    params: {},
    query: new URLSearchParams(),
    headers: { authorization: 'Bearer property' },
    state: {
      store<T>(name: string, create: () => T): T {
        if (!stores.has(name)) stores.set(name, create());
        return stores.get(name) as T;
      },
      sessionId: 'property',
      zeroConfig: () => true,
    },
  };
}

const number = (v: unknown): v is number => typeof v === 'number';
const within = (min: number, max: number) => (v: unknown) => number(v) && v >= min && v <= max;
const safeInt = (min: number) => (v: unknown) => number(v) && Number.isSafeInteger(v) && v >= min;
const isBool = (v: unknown) => typeof v === 'boolean';
const among =
  (...values: string[]) =>
  (v: unknown) =>
    typeof v === 'string' && values.includes(v);
const date = (v: unknown) => typeof v === 'string' && /^\d{1,2}\/\d{1,2}\/\d{4}$/.test(v);
const shortString = (max: number) => (v: unknown) => typeof v === 'string' && v.length <= max;

interface Host {
  operation: string;
  base: Record<string, unknown>;
  fields: [string, (v: unknown) => boolean][];
}

const HOSTS: Host[] = [
  {
    operation: 'openrouter.chat.completions',
    base: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
    fields: [
      ['top_k', safeInt(0)],
      ['min_p', within(0, 1)],
      ['top_a', within(0, 1)],
      ['repetition_penalty', within(0, 2)],
      ['include_reasoning', isBool],
      ['route', among('fallback', 'sort')],
      ['session_id', shortString(256)],
    ],
  },
  {
    operation: 'openrouter.responses',
    base: { model: 'openai/gpt-4o-mini', input: 'hi' },
    fields: [
      ['top_k', safeInt(0)],
      ['min_p', within(0, 1)],
      ['repetition_penalty', within(0, 2)],
      ['route', among('fallback', 'sort')],
    ],
  },
  {
    operation: 'perplexity.chat.completions',
    base: { model: 'sonar', messages: [{ role: 'user', content: 'hi' }] },
    fields: [
      ['search_mode', among('web', 'academic', 'sec')],
      ['search_recency_filter', among('hour', 'day', 'week', 'month', 'year')],
      ['search_after_date_filter', date],
      ['last_updated_before_filter', date],
      ['return_images', isBool],
      ['return_related_questions', isBool],
      ['disable_search', isBool],
      ['top_k', safeInt(0)],
      ['reasoning_effort', among('minimal', 'low', 'medium', 'high')],
      ['stream_mode', among('full', 'concise')],
    ],
  },
];

/** Open-ended values, biased toward the edges a type or range check gets wrong. */
const VALUES = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.double(),
  fc.integer({ min: -1000, max: 1000 }),
  fc.constantFrom(
    0,
    -0,
    1,
    2,
    2.0000001,
    2 ** 53,
    -1e-9,
    0.5,
    '',
    'web',
    'sec',
    'fallback',
    'month',
    '3/1/2025',
    '2025-03-01',
    true,
    false,
    null,
  ),
  fc.stringMatching(/^\d{1,2}\/\d{1,2}\/\d{2,5}$/),
);

for (const host of HOSTS) {
  const dialect = dialectOf(host.operation);
  for (const [field, accepts] of host.fields) {
    test(`${host.operation} ${field}: accepted exactly when the documented type and range allow`, () => {
      fc.assert(
        fc.property(VALUES, (raw) => {
          // As JSON carries it: NaN and Infinity become null, which reads as not sent.
          const body = JSON.parse(JSON.stringify({ ...host.base, [field]: raw })) as Record<string, unknown>;
          const value = body[field] ?? null;
          const result = dialect.decode(body, wire(host.operation)) as NeutralError | { model: string };
          const refused = 'kind' in result;
          if (value === null || accepts(value)) {
            assert.ok(!refused, `${JSON.stringify(value)} refused: ${refused ? (result as NeutralError).message : ''}`);
          } else {
            assert.ok(refused, `${JSON.stringify(value)} accepted`);
            assert.equal((result as NeutralError).status, 400);
            assert.equal((result as NeutralError).param, field, (result as NeutralError).message);
          }
        }),
        { numRuns: 200, seed: 20261201 },
      );
    });
  }
}

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

/** Members of a Chat Completions answer (OpenAI's and the host's own), which host fields never replace. */
const OWN = ['id', 'object', 'created', 'model', 'choices', 'usage', 'service_tier', 'system_fingerprint', 'provider'];

const HOST_FIELDS = fc.dictionary(
  fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom(...OWN, 'citations', '__proto__', 'constructor')),
  fc.jsonValue({ maxDepth: 3 }),
  {
    maxKeys: 6,
  },
);

for (const provider of ['perplexity', 'openrouter']) {
  test(`${provider}: any script's host fields reach the answer, and never replace the answer's own members`, async () => {
    const session = await mock.session(`host-fields-${provider}`);
    const openai = new OpenAI({ baseURL: mock.url(provider), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000, logLevel: 'off' });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(HOST_FIELDS, async (fields) => {
        const text = `Answer ${run++}.`;
        session
          .scenario(`fields-${run}`)
          .replies(text)
          .withHostFields(fields as Record<string, JsonValue>);
        await session.push();
        const completion = (await openai.chat.completions.create({
          model: 'sonar',
          messages: [{ role: 'user', content: 'hi' }],
        })) as unknown as Record<string, unknown> & { choices: { message: { content: string } }[] };
        assert.equal(completion.choices[0].message.content, text);
        assert.equal(completion.model, 'sonar');
        for (const [key, value] of Object.entries(JSON.parse(JSON.stringify(fields)) as Record<string, unknown>)) {
          if (OWN.includes(key)) continue;
          assert.deepEqual(Object.getOwnPropertyDescriptor(completion, key)?.value, value, `member ${JSON.stringify(key)}`);
        }
        await session.reset({ scripts: true });
      }),
      { numRuns: 40, seed: 20261201 },
    );
  });
}

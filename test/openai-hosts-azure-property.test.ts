// The Azure and Foundry route rules over open-ended input, as raw HTTP (an SDK sends only the
// versions and names it is given): every `api-version` a client could put in the query is
// answered by the route family's rule — an accepted one by the model, any other by Azure's own
// 400 or 404 in its `{error: {code, message}}` body, never a 5xx — and every deployment name a path
// can carry becomes the decoded request's model. And whatever a script streams, Azure's stream
// flavour changes nothing the `openai` SDK's stream helper makes of it.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import OpenAI from 'openai';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

let mock: Understudy;
let session: UnderstudySession;
before(async () => {
  mock = await startUnderstudy();
  session = await mock.session(undefined, { fallback: 'auto', journalLimit: 0 });
});
after(() => mock.close());

const CHAT = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello' }] });
const RESPONSES = JSON.stringify({ model: 'gpt-4o', input: 'Hello' });

async function post(path: string, version: string | undefined, body: string): Promise<{ status: number; body: unknown }> {
  const query = version === undefined ? '' : `?api-version=${encodeURIComponent(version)}`;
  const res = await fetch(`${mock.baseUrl}${path}${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'api-key': session.apiKey },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, body: await res.json() };
}

const NOT_FOUND = { error: { code: '404', message: 'Resource not found' } };
const UNSUPPORTED = { error: { code: 'BadRequest', message: 'API version not supported' } };

/** Versions a client might send: real ones, near misses, and anything at all. */
const VERSION = fc.oneof(
  fc.constantFrom('2024-10-21', '2025-04-01-preview', '2024-05-01-preview', 'v1', 'preview', '2024-10-21 ', 'V1', ''),
  fc.string({ maxLength: 24 }),
  fc
    .tuple(fc.integer({ min: 2022, max: 2026 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }), fc.boolean())
    .map(([y, m, d, preview]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}${preview ? '-preview' : ''}`),
);

type Verdict = 'ok' | 'not_found' | 'unsupported';
const v1Rule = (v: string | undefined): Verdict => (v === undefined || v === 'v1' || v === 'preview' ? 'ok' : 'unsupported');

const FAMILIES: { name: string; path: string; body?: string; answers: (version: string | undefined) => Verdict }[] = [
  {
    name: 'deployment Chat',
    path: '/azure/openai/deployments/my-gpt4o/chat/completions',
    answers: (v) => (v === undefined ? 'not_found' : v === '2024-10-21' || v === '2025-04-01-preview' ? 'ok' : 'unsupported'),
  },
  {
    name: 'v1 Chat',
    path: '/azure/openai/v1/chat/completions',
    answers: v1Rule,
  },
  { name: 'Foundry v1 Chat', path: '/foundry/openai/v1/chat/completions', answers: v1Rule },
  {
    name: 'Foundry inference',
    path: '/models/chat/completions',
    answers: (v) => (v === '2024-05-01-preview' ? 'ok' : 'not_found'),
  },
  {
    name: 'deployment Responses',
    path: '/azure/openai/responses',
    body: RESPONSES,
    answers: (v) => (v === undefined ? 'not_found' : v === '2025-04-01-preview' ? 'ok' : 'unsupported'),
  },
  { name: 'v1 Responses', path: '/azure/openai/v1/responses', body: RESPONSES, answers: v1Rule },
  { name: 'Foundry v1 Responses', path: '/foundry/openai/v1/responses', body: RESPONSES, answers: v1Rule },
];

for (const family of FAMILIES) {
  test(`${family.name}: every api-version is answered by the family's rule, refusals in Azure's body`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.option(VERSION, { nil: undefined }), async (version) => {
        const { status, body } = await post(family.path, version, family.body ?? CHAT);
        const expected = family.answers(version);
        if (expected === 'ok') {
          assert.equal(status, 200, JSON.stringify(body));
          // Chat answers carry Azure's filter results; Responses answers are OpenAI's.
          if (family.body === undefined) assert.ok(Array.isArray((body as { prompt_filter_results?: unknown }).prompt_filter_results));
          else assert.equal((body as { object?: string }).object, 'response');
        } else if (expected === 'not_found') {
          assert.deepEqual([status, body], [404, NOT_FOUND]);
        } else {
          assert.deepEqual([status, body], [400, UNSUPPORTED]);
        }
      }),
      { numRuns: 60, seed: 17 },
    );
  });
}

test('every deployment name a path segment carries is the decoded model and the answer model', async () => {
  const checked = await mock.session(undefined, { fallback: 'auto' });
  await fc.assert(
    // `.` and `..` are dot segments, which the client's URL resolves away.
    fc.asyncProperty(
      fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s !== '.' && s !== '..'),
      async (deployment) => {
        await checked.reset();
        const res = await fetch(
          `${mock.baseUrl}/openai/deployments/${encodeURIComponent(deployment)}/chat/completions?api-version=2024-10-21`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'api-key': checked.apiKey },
            body: JSON.stringify({ messages: [{ role: 'user', content: 'Hello' }] }),
            signal: AbortSignal.timeout(10_000),
          },
        );
        const body = (await res.json()) as { model?: string };
        assert.equal(res.status, 200, JSON.stringify(body));
        assert.equal(body.model, deployment);
        assert.equal((await checked.journal()).entries[0]?.request?.model, deployment);
      },
    ),
    { numRuns: 60, seed: 17 },
  );
});

/** A scripted reply: text in chunks, tool calls, or both. */
const REPLY = fc
  .record({
    chunks: fc.array(fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme' }), { maxLength: 4 }),
    calls: fc.array(fc.record({ city: fc.string({ maxLength: 10 }), days: fc.integer({ min: 0, max: 9 }) }), { maxLength: 2 }),
  })
  .filter((r) => r.chunks.length > 0 || r.calls.length > 0);

test("whatever a script streams, the SDK's stream helper makes the same completion of it in Azure's flavour as without it", async () => {
  const plain = await mock.session(undefined, { journalLimit: 0 });
  const azure = await mock.session(undefined, { journalLimit: 0, streamFlavour: 'azure' });
  const tools = [
    {
      type: 'function' as const,
      function: {
        name: 'weather',
        parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city', 'days'] },
      },
    },
  ];
  const final = async (s: UnderstudySession) => {
    const client = new OpenAI({ baseURL: mock.url('azure-v1'), apiKey: s.apiKey, maxRetries: 0, timeout: 10_000 });
    const completion = await client.chat.completions
      .stream({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello' }], tools, stream: true })
      .finalChatCompletion();
    const choice = completion.choices[0] as (typeof completion.choices)[0] & { content_filter_offsets?: { end_offset: number } };
    return { message: choice.message, finish: choice.finish_reason, end: choice.content_filter_offsets?.end_offset };
  };
  await fc.assert(
    fc.asyncProperty(REPLY, async ({ chunks, calls }) => {
      const text = chunks.join('');
      const reply = {
        ...(chunks.length > 0 && { text, chunks }),
        ...(calls.length > 0 && { toolCalls: calls.map((args, i) => ({ id: `call_${i}`, name: 'weather', arguments: args })) }),
      };
      for (const s of [plain, azure]) await s.load({ scenarios: [{ name: 'r', replies: [reply] }] }, { replace: true });
      const [without, flavoured] = [await final(plain), await final(azure)];
      assert.deepEqual(flavoured.message, without.message);
      assert.equal(flavoured.finish, without.finish);
      assert.equal(without.end, undefined);
      assert.equal(flavoured.end, text.length);
    }),
    { numRuns: 40, seed: 17 },
  );
});

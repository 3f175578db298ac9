// A property of how Anthropic's `messages` are decoded, through the real SDK: a message whose
// content is a string is decoded exactly as the same text given as one text block. Strings with
// something besides whitespace take a shorter path (decode-messages.ts) that names no paths,
// since it cannot fail; this holds it to the general one, including the API's refusals of blank
// text, empty content and a final assistant turn ending in whitespace, which both forms share.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import fc from 'fast-check';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

const RUNS = 60;
const SEED = 20261205;

let mock: Understudy;
let session: UnderstudySession;
let anthropic: Anthropic;

before(async () => {
  mock = await startUnderstudy();
  session = await mock.session('anthropic-text-property', { fallback: 'auto' });
  anthropic = new Anthropic({ baseURL: session.url('anthropic'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
});

after(async () => {
  await mock?.close();
});

type Role = 'user' | 'assistant';

/** Text as people and tools write it: words, blank, empty, whitespace and line ends on either side. */
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('', ' ', '\n', '\t \u00a0', 'hi', ' hi', 'hi ', '\u2028x', '漢字 '),
  fc
    .tuple(fc.constantFrom('', ' ', '\n'), fc.string({ minLength: 1, maxLength: 8 }), fc.constantFrom('', ' ', '\n'))
    .map((p) => p.join('')),
);

const conversation = fc.array(fc.record({ role: fc.constantFrom<Role>('user', 'assistant'), text }), { minLength: 1, maxLength: 8 });

/** The status, and the neutral messages the journal decoded (or the error's message). */
async function send(messages: Anthropic.MessageParam[]): Promise<{ status: number; decoded: unknown }> {
  try {
    await anthropic.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 50, messages });
  } catch (error) {
    assert.ok(error instanceof Anthropic.APIError, String(error));
    return { status: error.status ?? 0, decoded: error.message };
  }
  const { entries } = await session.journal();
  return { status: 200, decoded: entries.at(-1)?.request?.messages };
}

test('a string content is decoded as the same text in one text block, refusals included', { timeout: 60_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(conversation, async (turns) => {
      const asString = await send(turns.map((t) => ({ role: t.role, content: t.text })));
      const asBlock = await send(turns.map((t) => ({ role: t.role, content: [{ type: 'text' as const, text: t.text }] })));
      assert.equal(asString.status, asBlock.status, `${JSON.stringify(asString)} vs ${JSON.stringify(asBlock)}`);
      if (asString.status === 200) assert.deepEqual(asString.decoded, asBlock.decoded);
      else assert.equal(asString.status, 400);
    }),
    { numRuns: RUNS, seed: SEED },
  );
});

test('twenty thousand text messages are decoded in order, roles kept', { timeout: 60_000 }, async () => {
  const messages = Array.from({ length: 20_001 }, (_, i) => ({ role: (i % 2 ? 'assistant' : 'user') as Role, content: `turn ${i}` }));
  await anthropic.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 50, messages });
  const { entries } = await session.journal();
  const decoded = entries.at(-1)?.request?.messages as { role: string; parts: { type: string; text: string }[] }[];
  assert.equal(decoded.length, messages.length);
  decoded.forEach((m, i) => assert.deepEqual(m, { role: messages[i].role, parts: [{ type: 'text', text: messages[i].content }] }));
});

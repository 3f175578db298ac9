// A property of how Gemini's `contents` are decoded, through @google/genai: contents whose parts
// are text only take a shorter path (decode-contents.ts) than contents whose parts carry anything
// else. `thought: false` changes nothing a part means, but sends a part down the general path; so
// the same conversation sent with and without it must be decoded alike, refusals included (an
// empty text, an unknown role, a part or content of another type).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Content } from '@google/genai';
import fc from 'fast-check';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { geminiClient } from './support/gemini-clients.js';

const RUNS = 60;
const SEED = 20261205;

let mock: Understudy;
let session: UnderstudySession;

before(async () => {
  mock = await startUnderstudy();
  session = await mock.session('gemini-text-property', { fallback: 'auto' });
});

after(async () => {
  await mock?.close();
});

const text = fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('', ' ', 'hi', '\n', '漢字'));
/** Roles as sent: the two Gemini knows, none, empty, and ones it refuses. */
const role = fc.constantFrom<string | undefined>('user', 'model', undefined, '', 'assistant', 'system');
const conversation = fc.array(fc.record({ role, texts: fc.array(text, { minLength: 0, maxLength: 3 }) }), { minLength: 1, maxLength: 6 });

type Turn = { role: string | undefined; texts: string[] };

function contents(turns: Turn[], thought: boolean): Content[] {
  return turns.map((t) => ({
    ...(t.role !== undefined && { role: t.role }),
    parts: t.texts.map((value) => (thought ? { text: value, thought: false } : { text: value })),
  }));
}

/** The status, and the neutral messages the journal decoded (or the error's message). */
async function send(list: Content[]): Promise<{ status: number; decoded: unknown }> {
  const gemini = geminiClient(mock, session);
  try {
    await gemini.models.generateContent({ model: 'gemini-2.0-flash', contents: list });
  } catch (error) {
    const status = (error as { status?: number }).status ?? 0;
    return { status, decoded: (error as Error).message };
  }
  const { entries } = await session.journal();
  return { status: 200, decoded: entries.at(-1)?.request?.messages };
}

test('text-only contents decode as the same contents sent down the general path, refusals included', { timeout: 60_000 }, async () => {
  let answered = 0;
  await fc.assert(
    fc.asyncProperty(conversation, async (turns) => {
      const fast = await send(contents(turns, false));
      const general = await send(contents(turns, true));
      assert.equal(fast.status, general.status, `${JSON.stringify(fast)} vs ${JSON.stringify(general)}`);
      if (fast.status === 200) {
        answered++;
        assert.deepEqual(fast.decoded, general.decoded);
      } else {
        assert.equal(fast.status, 400);
        assert.equal(fast.decoded, general.decoded, 'the same refusal');
      }
    }),
    { numRuns: RUNS, seed: SEED },
  );
  assert.ok(answered >= 5, `only ${answered} of ${RUNS} conversations were answered: the property saw too few`);
});

test('a content of another type, or a part that is not an object, is refused as before', { timeout: 30_000 }, async () => {
  // Raw requests: @google/genai turns a string in `contents` into a content itself.
  for (const bad of [['hi'], [{ role: 'user', parts: ['hi'] }], [{ role: 'user', parts: [null] }], [{ role: 'user', parts: [] }]]) {
    const response = await fetch(`${mock.url('gemini')}/v1beta/models/gemini-2.0-flash:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': session.apiKey },
      body: JSON.stringify({ contents: bad }),
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await response.json()) as { error?: { status?: string } };
    assert.equal(response.status, 400, JSON.stringify(bad));
    assert.equal(body.error?.status, 'INVALID_ARGUMENT');
  }
});

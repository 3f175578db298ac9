// Property: any scripted text, cut into any pieces, reaches every dialect's SDK exactly as scripted,
// as JSON and as a stream of one text delta per piece, and the journal records the same text. The
// pieces are drawn from all of Unicode (whole characters, so each piece is valid on its own) and
// from what framing and escaping could trip over: quotes, backslashes, line and paragraph
// separators, control characters, `data:` lines, `[DONE]`, JSON-array punctuation.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import type { Mode } from './support/conformance/driver.js';
import { DRIVERS } from './support/conformance/index.js';

const RUNS = 25;

const tricky = fc.constantFrom(
  '"',
  '\\',
  '\n',
  '\r\n',
  '\n\n',
  '\u2028',
  '\u2029',
  '\u0000',
  '\u001f',
  '\t',
  'data: ',
  'data: [DONE]\n\n',
  'event: error\n',
  '],[',
  '{"error":1}',
  '</script>',
  '\ufeff',
  '🌤️',
  '👩🏽‍💻',
  'é',
);
const piece = fc.oneof(
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
  tricky,
  fc.array(tricky, { minLength: 1, maxLength: 4 }).map((t) => t.join('')),
);
const pieces = fc.array(piece, { minLength: 1, maxLength: 6 });

for (const driver of DRIVERS) {
  describe(`text round trip: ${driver.name}`, () => {
    let mock: Understudy;
    before(async () => {
      mock = await startUnderstudy();
    });
    after(async () => {
      await mock.close();
    });
    for (const mode of ['json', 'stream'] as const satisfies readonly Mode[]) {
      if (driver.operations[mode] === undefined) continue;
      test(`${driver.name}: any text in any pieces arrives as scripted (${mode})`, { timeout: 60_000 }, async () => {
        const session: UnderstudySession = await mock.session(`text-${mode}`);
        const client = driver.connect({ url: (provider) => session.url(provider), apiKey: session.apiKey });
        await fc.assert(
          fc.asyncProperty(pieces, async (chunks) => {
            const text = chunks.join('');
            await session.reset();
            await session.load({ scenarios: [{ name: 'text', replies: [{ text, chunks }] }] }, { replace: true });
            const answer = await client.ask({ prompt: 'Say it.' }, mode);
            assert.equal(answer.text, text);
            if (mode === 'stream') assert.equal(answer.textDeltas, chunks.length, 'one text delta per piece');
            const { entries } = await session.journal();
            assert.deepEqual(
              entries.map((e) => [e.status, e.reply?.content]),
              [[200, text]],
            );
          }),
          { numRuns: RUNS, seed: 20261201 },
        );
      });
    }
  });
}

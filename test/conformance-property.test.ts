// Properties over every conformance driver, JSON and stream:
// - any scripted text, cut into any pieces, reaches the SDK exactly as scripted (a stream as one
//   text delta per piece) and the journal records the same text. The pieces are drawn from all of
//   Unicode (whole characters, so each piece is valid on its own) and from what framing and
//   escaping could trip over: quotes, backslashes, line and paragraph separators, control
//   characters, `data:` lines, `[DONE]`, JSON-array punctuation;
// - any JSON object as a tool call's arguments reaches the SDK as the same value (streams send
//   arguments in fragments, which may cut a character's UTF-16 pair).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import type { JsonValue } from '../src/core/model.js';
import { callAsSeen, type Mode } from './support/conformance/driver.js';
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
const key = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 8 }), tricky);
const argumentsObject = fc
  .dictionary(key, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 })
  .map((value) => value as { [key: string]: JsonValue });
/** Accepts any object, so the contract check passes every generated value. */
const ANY_OBJECT_TOOL = { name: 'echo', description: 'Takes any object', parameters: { type: 'object' } };

for (const driver of DRIVERS) {
  describe(`round trips: ${driver.name}`, () => {
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

      // A provider that refuses function tools (ConformanceDriver.lacks) has no tool arguments to carry.
      if (driver.lacks?.includes('tools')) continue;
      test(`${driver.name}: any JSON object as tool arguments arrives as scripted (${mode})`, { timeout: 60_000 }, async () => {
        const session: UnderstudySession = await mock.session(`arguments-${mode}`);
        const client = driver.connect({ url: (provider) => session.url(provider), apiKey: session.apiKey });
        await fc.assert(
          fc.asyncProperty(argumentsObject, async (args) => {
            // What a JSON round trip keeps (e.g. -0 becomes 0), which is all any wire can carry.
            const expected = JSON.parse(JSON.stringify(args)) as unknown;
            await session.reset();
            const reply = { toolCalls: [{ id: 'call_property', name: ANY_OBJECT_TOOL.name, arguments: args }] };
            await session.load({ scenarios: [{ name: 'call', replies: [reply] }] }, { replace: true });
            const answer = await client.ask({ prompt: 'Call it.', tools: [ANY_OBJECT_TOOL] }, mode);
            assert.deepEqual(answer.toolCalls, [
              callAsSeen(driver, { id: 'call_property', name: ANY_OBJECT_TOOL.name, arguments: expected }),
            ]);
            const { entries } = await session.journal();
            assert.deepEqual(
              entries.map((e) => [e.status, e.reply?.toolCalls.map((c) => JSON.parse(c.argumentsText) as unknown)]),
              [[200, [expected]]],
            );
          }),
          { numRuns: RUNS, seed: 20261201 },
        );
      });
    }
  });
}

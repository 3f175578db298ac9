// The dialect conformance suite: the same cases run over every registered dialect, each through its
// official SDK (a driver in test/support/conformance/), in JSON and in stream form. Every case
// asserts what the SDK returned and what Understudy journalled. A registered operation that no
// driver reaches fails the first test here: a new dialect is checked the moment it is registered.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { connectUnderstudy, startUnderstudy, type Understudy } from '../src/client/index.js';
import { DIALECTS } from '../src/dialects/registry.js';
import { CASES, CHUNKS, PROMPT, TEXT } from './support/conformance/cases.js';
import { DRIVERS } from './support/conformance/index.js';
import type { ConformanceClient, ConformanceDriver } from './support/conformance/driver.js';

// ------------------------------------------------------------------ registry ↔ drivers

function operationsOf(driver: ConformanceDriver): string[] {
  return [driver.operations.json, ...(driver.operations.stream === undefined ? [] : [driver.operations.stream])];
}

const registeredOperations = new Map<string, string>();
for (const registration of DIALECTS) for (const route of registration.routes) registeredOperations.set(route.operation, route.dialect.id);

test('every registered operation has a conformance driver (add one in test/support/conformance/ and list it in index.ts)', () => {
  const driven = new Set(DRIVERS.flatMap((d) => operationsOf(d)));
  const missing = [...registeredOperations]
    .filter(([operation]) => !driven.has(operation))
    .map(([op, dialect]) => `${op} (dialect ${dialect})`);
  assert.deepEqual(missing, [], `registered operations no conformance driver reaches: ${missing.join(', ')}`);
});

test('every conformance driver drives operations that are registered, of the dialect it names', () => {
  const wrong: string[] = [];
  for (const driver of DRIVERS) {
    for (const operation of operationsOf(driver)) {
      const dialect = registeredOperations.get(operation);
      if (dialect !== driver.dialect) wrong.push(`${driver.name}: ${operation} is ${dialect ? `dialect ${dialect}'s` : 'not registered'}`);
    }
  }
  assert.deepEqual(wrong, []);
  assert.equal(new Set(DRIVERS.map((d) => d.name)).size, DRIVERS.length, 'driver names are unique');
});

// ------------------------------------------------------------------ one server per driver

for (const driver of DRIVERS) {
  describe(`conformance: ${driver.name}`, () => {
    let mock: Understudy;
    // Sessions, scripts and journals go through the control API, as from any language.
    let control: Omit<Understudy, 'close'>;
    before(async () => {
      mock = await startUnderstudy();
      control = await connectUnderstudy(mock.baseUrl);
    });
    after(async () => {
      await mock.close();
    });
    for (const conformance of CASES) {
      for (const mode of conformance.modes) {
        if (driver.operations[mode] === undefined || (conformance.tools && driver.noTools)) continue;
        const options = { timeout: 20_000, ...(conformance.todo && { todo: conformance.todo }) };
        test(`${driver.name}: ${conformance.name} (${mode})`, options, async () => {
          const id = `${conformance.name.replace(/[^a-z]+/g, '-')}-${mode}`;
          const session = await control.session(id, conformance.zeroConfig ? { fallback: 'auto' } : {});
          const sdk = driver.connect({ url: (provider) => session.url(provider), apiKey: session.apiKey });
          // Scenarios built in a case are sent before each question.
          const client: ConformanceClient = {
            async ask(question, askMode) {
              await session.push();
              return sdk.ask(question, askMode);
            },
          };
          await conformance.run({ driver, mode, client, session });
        });
      }
    }
  });
}

// In process the journal is read without a round trip, which shows what the control API's round
// trip hides: a reset answer was journalled on the response's 'close' event, a turn of the event
// loop after its client saw the reset. A played fault now settles at once.
test('in process, the journal entry of a reset answer is there when the SDK reports the reset', { timeout: 20_000 }, async () => {
  const mock = await startUnderstudy();
  try {
    const session = await mock.session('reset-in-process');
    session.scenario('cut').replies(TEXT).inChunks(CHUNKS).withFault({ kind: 'reset', afterChunks: 2 });
    const driver = DRIVERS[0];
    const client = driver.connect({ url: (provider) => session.url(provider), apiKey: session.apiKey });
    const error = await client.ask({ prompt: PROMPT }, 'stream').then(
      (answer) => assert.fail(`expected the reset to fail the SDK, got ${JSON.stringify(answer)}`),
      (thrown: unknown) => driver.errorOf(thrown),
    );
    assert.equal(error.api, false, error.message);
    assert.equal((await session.journal()).entries.length, 1);
  } finally {
    await mock.close();
  }
});

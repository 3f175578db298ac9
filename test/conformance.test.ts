// The dialect conformance suite: the same cases run over every registered dialect, each through its
// official SDK (a driver in test/support/conformance/), in JSON and in stream form. Every case
// asserts what the SDK returned and what Understudy journalled. A registered operation that no
// driver reaches fails the first test here: a new dialect is checked the moment it is registered.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { startUnderstudy } from '../src/client/index.js';
import { DIALECTS } from '../src/dialects/registry.js';
import { CHUNKS, PROMPT, TEXT } from './support/conformance/cases.js';
import { CORE_DRIVERS, DRIVERS } from './support/conformance/index.js';
import { conformanceSuites } from './support/conformance/suite.js';
import type { ConformanceDriver } from './support/conformance/driver.js';

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

// ------------------------------------------------------------------ the suites

// The dialects of their own here; the OpenAI hosts' and Bedrock's suites run in
// conformance-hosts.test.ts and conformance-bedrock.test.ts, so each file stays well within its timeout.
conformanceSuites(CORE_DRIVERS);

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

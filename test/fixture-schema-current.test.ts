import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fixtureJsonSchema } from '../src/engine/fixture-json-schema.js';

const committed = new URL('../schema/fixtures.schema.json', import.meta.url);

test('schema/fixtures.schema.json is what the format description generates (npm run build:schema)', async () => {
  const onDisk = JSON.parse(await readFile(committed, 'utf8')) as unknown;
  const generated = fixtureJsonSchema();
  // Key order too: a hand edit that only moves things around is still a hand edit.
  assert.equal(
    JSON.stringify(onDisk, null, 1),
    JSON.stringify(generated, null, 1),
    'schema/fixtures.schema.json differs from the description in src/engine/fixture-schema.ts: run `npm run build:schema`',
  );
});

test('the generated schema carries the descriptions and the rules written beside the fields', () => {
  const schema = fixtureJsonSchema() as { definitions: Record<string, Record<string, unknown>>; properties: Record<string, unknown> };
  assert.equal(schema.definitions.scenario.description?.toString().startsWith('A named script'), true);
  assert.deepEqual(schema.definitions.scenario.oneOf, [{ required: ['steps'] }, { required: ['replies'] }]);
  assert.deepEqual(schema.definitions.fault.not, { required: ['afterChunks', 'afterBytes'] });
  assert.deepEqual(schema.definitions.textMatch.dependencies, { flags: ['matches'] });
  const step = schema.definitions.step as { properties: { id: Record<string, unknown> } };
  assert.deepEqual(step.properties.id.not, { const: 'complete' });
});

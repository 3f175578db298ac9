// schema/fixtures.schema.json, derived from the format's description (fixture-schema.ts).
// scripts/build-fixture-schema.ts writes it; test/fixture-schema-current.test.ts fails when the
// committed file is not what this returns.

import type * as Z from 'zod';
import { createRequire } from 'node:module';
import { fixtureFormat } from './fixture-schema.js';

export const FIXTURE_SCHEMA_ID = 'https://understudy.dev/schema/fixtures.schema.json';

/** The JSON Schema (draft-07) of fixture files, as an object. */
export function fixtureJsonSchema(): Record<string, unknown> {
  const z = createRequire(import.meta.url)('zod') as typeof Z;
  const generated = z.toJSONSchema(fixtureFormat().fixture, {
    target: 'draft-07',
    // JSON values (z.custom) are "any value" in JSON Schema; the checker's JSON rule says the rest.
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  const { $schema, title, description, ...rest } = generated;
  return { $schema, $id: FIXTURE_SCHEMA_ID, title, description, ...rest };
}

/** The file's text: two-space JSON and a final newline, as prettier leaves it. */
export function fixtureJsonSchemaText(): string {
  return JSON.stringify(fixtureJsonSchema(), null, 2) + '\n';
}

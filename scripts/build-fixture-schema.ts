// Writes schema/fixtures.schema.json from the fixture format's description
// (src/engine/fixture-schema.ts): `npm run build:schema`. test/fixture-schema-current.test.ts
// fails when the committed file differs from what this writes.

import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { fixtureJsonSchemaText } from '../src/engine/fixture-json-schema.js';

const target = fileURLToPath(new URL('../schema/fixtures.schema.json', import.meta.url));
// Formatted as `npm run lint` wants it, so the generated file passes prettier --check.
const options = (await resolveConfig(target)) ?? {};
writeFileSync(target, await format(fixtureJsonSchemaText(), { ...options, filepath: target }));
console.log(`wrote ${target}`);

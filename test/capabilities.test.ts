// The capability matrix in docs/capabilities.md is a claim; this test holds it to evidence.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const root = join(import.meta.dirname, '..');

function claimedIds(): string[] {
  const doc = readFileSync(join(root, 'docs/capabilities.md'), 'utf8');
  const ids: string[] = [];
  for (const line of doc.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 8 || !/^[a-z0-9-]+\.[a-z0-9-]+\.[a-z0-9-]+$/.test(cells[1])) continue;
    if (cells[7] === 'yes') ids.push(cells[1]);
  }
  return ids;
}

function testSources(): string {
  return readdirSync(join(root, 'test'))
    .filter((f) => f.endsWith('.test.ts') && f !== 'capabilities.test.ts')
    .map((f) => readFileSync(join(root, 'test', f), 'utf8'))
    .join('\n');
}

test('docs/capabilities.md claims at least the OpenAI Chat rows', () => {
  const ids = claimedIds();
  assert.ok(ids.includes('openai-chat.text.json'), `claimed: ${ids.join(', ')}`);
  assert.ok(ids.length >= 10);
});

test('every claimed capability has a positive and a negative evidence test', () => {
  const sources = testSources();
  const missing: string[] = [];
  for (const id of claimedIds()) {
    for (const sign of ['+', '-']) {
      if (!sources.includes(`[${id} ${sign}]`)) missing.push(`[${id} ${sign}]`);
    }
  }
  assert.deepEqual(missing, [], `claimed rows without evidence tests: ${missing.join(', ')}`);
});

// The capability matrix in docs/capabilities.md is a claim; this test holds it to evidence: every
// claimed row has a positive and a negative test, each SDK version it names is the one package.json
// installs for that lane, and the current-SDK lane's column says exactly which rows that lane runs.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { currentSdkLaneFiles, LATEST_SDKS } from './current-sdks/lane-files.js';

const root = join(import.meta.dirname, '..');

interface Row {
  id: string;
  node20: string;
  current: string;
  claimed: boolean;
}

function rows(): Row[] {
  const doc = readFileSync(join(root, 'docs/capabilities.md'), 'utf8');
  const found: Row[] = [];
  for (const line of doc.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 9 || !/^[a-z0-9-]+\.[a-z0-9-]+\.[a-z0-9-]+$/.test(cells[1])) continue;
    found.push({ id: cells[1], node20: cells[6], current: cells[7], claimed: cells[8] === 'yes' });
  }
  return found;
}

const claimed = rows().filter((row) => row.claimed);

const testFiles = readdirSync(join(root, 'test'))
  .filter((f) => f.endsWith('.test.ts') && f !== 'capabilities.test.ts')
  .map((f) => ({ path: `test/${f}`, source: readFileSync(join(root, 'test', f), 'utf8') }));

function evidenceFiles(id: string, sign: '+' | '-'): string[] {
  return testFiles.filter((f) => f.source.includes(`[${id} ${sign}]`)).map((f) => f.path);
}

const devDependencies: Record<string, string> = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies;

/** Every package name and version a cell names: "ai 6.0.326 + @ai-sdk/openai 3.0.141", "x 1.0.0 and 0.9.0". */
function namedVersions(cell: string): [string, string][] {
  const named: [string, string][] = [];
  for (const [, pkg, first, second] of cell.matchAll(/(@?[a-z0-9-]+(?:\/[a-z0-9-]+)?) (\d+\.\d+\.\d+)(?: and (\d+\.\d+\.\d+))?/g)) {
    named.push([pkg, first]);
    if (second) named.push([pkg, second]);
  }
  return named;
}

/** The package names under which `pkg@version` is installed (itself or an npm: alias). */
function installedAs(pkg: string, version: string): string[] {
  return Object.entries(devDependencies)
    .filter(([name, spec]) => (name === pkg && spec === version) || spec === `npm:${pkg}@${version}`)
    .map(([name]) => name);
}

test('docs/capabilities.md claims at least the OpenAI Chat rows', () => {
  const ids = claimed.map((row) => row.id);
  assert.ok(ids.includes('openai-chat.text.json'), `claimed: ${ids.join(', ')}`);
  assert.ok(ids.length >= 10);
});

test('each capability is one row: no id appears twice', () => {
  const seen = new Set<string>();
  const twice = rows()
    .map((row) => row.id)
    .filter((id) => (seen.has(id) ? true : (seen.add(id), false)));
  assert.deepEqual(twice, [], `rows given twice: ${twice.join(', ')}`);
});

test('every claimed capability has a positive and a negative evidence test in the Node 20 lane', () => {
  const missing: string[] = [];
  for (const { id } of claimed) {
    for (const sign of ['+', '-'] as const) if (evidenceFiles(id, sign).length === 0) missing.push(`[${id} ${sign}]`);
  }
  assert.deepEqual(missing, [], `claimed rows without evidence tests: ${missing.join(', ')}`);
});

const laneAliases = new Set(Object.values(LATEST_SDKS));

/** Loaded in the Node 20 lane: installed under its own name, or an alias the lane does not swap in. */
function loadedWithoutHook(names: string[]): boolean {
  return names.some((name) => name in LATEST_SDKS || !laneAliases.has(name));
}

/** Loaded in the current-SDK lane: the alias the hook swaps in, or an alias a test imports by name. */
function loadedByLane(pkg: string, names: string[]): boolean {
  return names.some((name) => name === LATEST_SDKS[pkg] || (!(name in LATEST_SDKS) && !laneAliases.has(name)));
}

test('the Node 20 column names the versions package.json pins', () => {
  const wrong: string[] = [];
  for (const row of claimed) {
    const named = namedVersions(row.node20);
    if (named.length === 0) wrong.push(`${row.id}: no SDK version in "${row.node20}"`);
    for (const [pkg, version] of named) {
      if (!loadedWithoutHook(installedAs(pkg, version))) wrong.push(`${row.id}: ${pkg} ${version} is not what the Node 20 lane loads`);
    }
  }
  assert.deepEqual(wrong, []);
});

test('the current-SDK column names what that lane loads, for exactly the rows whose evidence it runs', (t) => {
  const lane = new Set(currentSdkLaneFiles(root));
  const wrong: string[] = [];
  const covered: string[] = [];
  for (const row of claimed) {
    const files = [...evidenceFiles(row.id, '+'), ...evidenceFiles(row.id, '-')];
    if (!files.every((f) => lane.has(f))) {
      if (row.current !== '—')
        wrong.push(`${row.id}: the current-SDK lane does not run all of ${files.join(', ')}, so the column must be —`);
      continue;
    }
    covered.push(row.id);
    const named = namedVersions(row.current);
    if (named.length === 0) wrong.push(`${row.id}: the current-SDK lane runs its evidence, so the column must name the SDK versions`);
    for (const [pkg, version] of named) {
      if (!loadedByLane(pkg, installedAs(pkg, version))) wrong.push(`${row.id}: ${pkg} ${version} is not what the current-SDK lane loads`);
    }
  }
  assert.deepEqual(wrong, []);
  const uncovered = claimed.filter((row) => !covered.includes(row.id)).map((row) => row.id);
  t.diagnostic(
    `the current-SDK lane covers ${covered.length} of ${claimed.length} claimed rows; not covered: ${uncovered.join(', ') || 'none'}`,
  );
});

// What `understudy drift` takes from a directory of recordings (src/cli/drift-recordings.ts): the
// steps with a `recorded` member of every .yaml, .yml and .json file below it, in name order,
// subdirectories included but not dot-directories or node_modules; a step without an id is named
// by its place; a file that does not parse is reported by name; a malformed `recorded` member says
// what is wrong with it.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { readRecordings, recordedOf, type RecordedStep } from '../src/cli/drift-recordings.js';
import { runDrift } from '../src/cli/drift.js';

const dirs: string[] = [];
after(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const SHAPE = { contentType: 'application/json', fields: ['$ object'], finishReason: 'stop', tools: [] };
const RECORDED = {
  provider: 'openai',
  operation: 'openai.chat.completions',
  method: 'post',
  path: '/chat/completions',
  headers: { 'content-type': 'application/json' },
  body: { model: 'gpt-4o', messages: [] },
  status: 200,
  shape: SHAPE,
};

test('the recorded steps of every fixture file below the directory, in name order; dot-directories and node_modules skipped', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'understudy-drift-files-'));
  dirs.push(dir);
  const fixture = (scenario: string, steps: object[]) => stringify({ scenarios: [{ name: scenario, steps }] });
  await writeFile(
    join(dir, 'b.yaml'),
    fixture('bee', [
      { reply: { text: 'a' }, recorded: RECORDED },
      { reply: { text: 'b' } },
      { id: 'named', reply: { text: 'c' }, recorded: RECORDED },
    ]),
  );
  await mkdir(join(dir, 'a-sub'));
  await writeFile(
    join(dir, 'a-sub', 'x.json'),
    JSON.stringify({ scenarios: [{ name: 'ex', steps: [{ reply: {}, recorded: RECORDED }] }] }),
  );
  for (const skipped of ['.git', 'node_modules']) {
    await mkdir(join(dir, skipped));
    await writeFile(join(dir, skipped, 'c.yaml'), fixture('skipped', [{ reply: {}, recorded: RECORDED }]));
  }
  await writeFile(join(dir, 'c.yml'), 'scenarios: [ { name: "unclosed"\n');
  await writeFile(join(dir, 'd.txt'), fixture('not-a-fixture-file', [{ reply: {}, recorded: RECORDED }]));
  await writeFile(join(dir, 'e.json'), JSON.stringify({ name: 'a package.json, say' }));

  const items = await readRecordings(dir);
  const steps = items.filter((i): i is RecordedStep => 'recorded' in i);
  assert.deepEqual(
    steps.map((s) => [s.file, s.scenario, s.step]),
    [
      [join(dir, 'a-sub', 'x.json'), 'ex', 'step-1'],
      [join(dir, 'b.yaml'), 'bee', 'step-1'],
      [join(dir, 'b.yaml'), 'bee', 'named'],
    ],
  );
  const unreadable = items.filter((i) => 'reason' in i);
  assert.equal(unreadable.length, 1);
  assert.equal(unreadable[0].file, join(dir, 'c.yml'));
  assert.match((unreadable[0] as { reason: string }).reason, /^not YAML or JSON: /);
  assert.equal(items.indexOf(unreadable[0]), 3, 'reported in file order');
  assert.deepEqual(
    (await readRecordings(join(dir, 'b.yaml'))).map((i) => (i as RecordedStep).step),
    ['step-1', 'named'],
    'one file',
  );
});

test('a recorded member is checked: each missing or mistyped member is named; the method is upper-cased', () => {
  const ok = recordedOf(RECORDED);
  assert.ok(typeof ok !== 'string', ok as string);
  assert.equal(ok.method, 'POST');
  assert.equal(ok.stream, false);
  const broken: [object, RegExp][] = [
    [{ ...RECORDED, provider: undefined }, /recorded\.provider is missing/],
    [{ ...RECORDED, path: 'chat/completions' }, /recorded\.path does not start with \//],
    [{ ...RECORDED, status: '200' }, /recorded\.status is missing or not a number/],
    [{ ...RECORDED, headers: { 'x-n': 1 } }, /recorded\.headers is not a mapping of strings/],
    [{ ...RECORDED, shape: { ...SHAPE, fields: [1] } }, /recorded\.shape is missing or not an answer shape/],
    [{ ...RECORDED, shape: { ...SHAPE, finishReason: 3 } }, /recorded\.shape/],
    [{ ...RECORDED, shape: { ...SHAPE, events: 'data' } }, /recorded\.shape/],
  ];
  for (const [value, message] of broken) assert.match(recordedOf(value) as string, message);
  assert.match(recordedOf('openai') as string, /not a mapping/);
});

test('runDrift over a directory with no recordings says so and exits 0', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'understudy-drift-empty-'));
  dirs.push(dir);
  await writeFile(join(dir, 'plain.yaml'), stringify({ scenarios: [{ name: 's', steps: [{ reply: { text: 'hi' } }] }] }));
  const lines: string[] = [];
  assert.equal(await runDrift({ values: {}, positionals: [dir] }, (line) => lines.push(line), {}), 0);
  assert.deepEqual(lines, [`no recorded steps under ${dir}`]);
});

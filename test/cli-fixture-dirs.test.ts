// Directories of fixtures (decision 0017 item 8): `serve --fixtures DIR` and `validate DIR` load
// every .yaml, .yml and .json file under DIR, subdirectories included, in sorted path order, as
// several files are joined; other files and hidden entries are skipped; a directory with no
// fixture file is an error naming it; scenario names stay unique across all the files.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { CLIS, killChildren, runCli, serveCli, type Cli } from './support/cli-process.js';

const SOURCE = CLIS[0] as Cli;
let root = '';

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'understudy-fixture-dirs-'));
});
after(async () => {
  killChildren();
  await rm(root, { recursive: true, force: true });
});

const answering = (name: string, user: string, text: string, more = '') =>
  `scenarios:\n  - name: ${name}\n    exhausted: repeat_last\n    steps:\n      - when: { latestUser: ${JSON.stringify(user)} }\n        reply: { text: ${JSON.stringify(text)}${more} }\n`;

/** A recording-like tree: sessions in subdirectories, one nested two deep, with files that are not
 * fixtures beside them and a link back up. */
async function recordingTree(dir: string): Promise<void> {
  await mkdir(join(dir, 'b-session'), { recursive: true });
  await mkdir(join(dir, 'a-session', 'nested'), { recursive: true });
  await mkdir(join(dir, '.hidden'), { recursive: true });
  await writeFile(join(dir, 'README.md'), '# recordings\n');
  await writeFile(join(dir, 'a-session', 'picture.png'), 'not an image, not a fixture');
  await writeFile(join(dir, '.hidden', 'broken.yaml'), 'scenarios: [ this is not loaded\n');
  await writeFile(join(dir, 'b-session', 'chat.yaml'), answering('b-chat', 'bee', 'From b.') + 'session:\n  fallback: strict\n');
  await writeFile(join(dir, 'a-session', 'first.yml'), answering('a-first', 'first', 'From a, first.') + 'session:\n  fallback: auto\n');
  const deep = {
    scenarios: [
      {
        name: 'a-deep',
        steps: [
          {
            when: { latestUser: 'deep' },
            reply: { text: 'From deep down.', usage: { inputTokens: 40, outputTokens: 4 } },
            recorded: { provider: 'openai', operation: 'openai.chat.completions', method: 'POST', path: '/chat/completions', status: 200 },
          },
        ],
      },
    ],
  };
  await writeFile(join(dir, 'a-session', 'nested', 'deep.json'), JSON.stringify(deep));
  // A link back up is walked once, not forever.
  await symlink('..', join(dir, 'a-session', 'nested', 'up'));
}

test('serve --fixtures DIR loads every fixture file under it, nested ones too, in sorted path order', async () => {
  const dir = join(root, 'tree');
  await recordingTree(dir);
  const served = await serveCli(SOURCE, ['--port', '0', '--quiet', '--fixtures', dir]);
  try {
    const files = ['a-session/first.yml', 'a-session/nested/deep.json', 'b-session/chat.yaml'].map((f) => join(dir, f));
    assert.ok(served.banner.includes(`fixtures: ${files.join(', ')}; scenarios: a-first, a-deep, b-chat`), served.banner);
    // Joined in that order: the last file's session.fallback is in force.
    assert.match(served.banner, /unmatched requests: strict /);
    assert.ok(served.banner.includes(`set by ${join(dir, 'b-session', 'chat.yaml')}\n`), served.banner);
    const openai = new OpenAI({ baseURL: `${served.url}/v1`, apiKey: 'understudy', maxRetries: 0, timeout: 10_000 });
    const ask = (content: string) => openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content }] });
    assert.equal((await ask('first')).choices[0].message.content, 'From a, first.');
    assert.equal((await ask('bee')).choices[0].message.content, 'From b.');
    const deep = await ask('deep');
    assert.equal(deep.choices[0].message.content, 'From deep down.');
    assert.equal(deep.usage?.prompt_tokens, 40);
    assert.equal(deep.usage?.completion_tokens, 4);
  } finally {
    await served.stop();
  }
});

test('validate DIR checks each fixture file under it, names a nested file with a problem, and skips what is not a fixture', async () => {
  const dir = join(root, 'validate');
  await recordingTree(dir);
  const ok = await runCli(SOURCE, ['validate', dir]);
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  assert.deepEqual(
    ok.stdout.trim().split('\n'),
    ['a-session/first.yml', 'a-session/nested/deep.json', 'b-session/chat.yaml'].map((f) => `ok  ${join(dir, f)} (1 scenario)`),
  );
  await mkdir(join(dir, 'c', 'd'), { recursive: true });
  const bad = join(dir, 'c', 'd', 'bad.yaml');
  await writeFile(bad, 'scenarios:\n  - name: bad\n    replies:\n      - text: hi\n        usage: { inputTokens: -3 }\n');
  const broken = await runCli(SOURCE, ['validate', dir]);
  assert.equal(broken.code, 1);
  assert.ok(broken.stdout.includes(`${bad}:5:`) && broken.stdout.includes('/scenarios/0/replies/0/usage/inputTokens'), broken.stdout);
  assert.match(broken.stdout, /expected a token count \(an integer ≥ 0\); found -3/);
  assert.doesNotMatch(broken.stdout, /README|picture|\.hidden/);
});

test('a directory with no fixture file is an error naming it, for serve and validate', async () => {
  const empty = join(root, 'empty');
  const readmeOnly = join(root, 'readme-only');
  await mkdir(empty, { recursive: true });
  await mkdir(join(readmeOnly, 'sub'), { recursive: true });
  await writeFile(join(readmeOnly, 'README.md'), 'nothing here\n');
  for (const dir of [empty, readmeOnly]) {
    const served = await runCli(SOURCE, ['serve', '--port', '0', '--fixtures', dir]);
    assert.equal(served.code, 1, served.stdout + served.stderr);
    assert.ok(served.stderr.includes(`${dir}  (file)  expected a directory holding fixture files`), served.stderr);
    assert.doesNotMatch(served.stdout, /listening on/);
    const validated = await runCli(SOURCE, ['validate', dir, 'examples/queue.yaml']);
    assert.equal(validated.code, 1);
    assert.ok(validated.stdout.includes(`${dir}  (file)  expected a directory holding fixture files`), validated.stdout);
    assert.match(validated.stdout, /^ok {2}examples\/queue\.yaml/m, 'the other paths are still checked');
  }
});

test('scenario names are unique across the files of a directory and the files given beside it', async () => {
  const dir = join(root, 'clash');
  await mkdir(join(dir, 'one', 'two'), { recursive: true });
  await writeFile(join(dir, 'one', 'a.yaml'), answering('same', 'x', 'A'));
  await writeFile(join(dir, 'one', 'two', 'b.yaml'), answering('same', 'y', 'B'));
  const served = await runCli(SOURCE, ['serve', '--port', '0', '--fixtures', dir]);
  assert.equal(served.code, 1);
  assert.ok(
    served.stderr.includes(`scenario "same" is defined in both ${join(dir, 'one', 'a.yaml')} and ${join(dir, 'one', 'two', 'b.yaml')}`),
    served.stderr,
  );
  const validated = await runCli(SOURCE, ['validate', dir]);
  assert.equal(validated.code, 0);
  assert.match(validated.stdout, /note: scenario "same" is defined in both/);
  const twice = await runCli(SOURCE, ['serve', '--port', '0', '--fixtures', join(dir, 'one', 'a.yaml'), join(dir, 'one')]);
  assert.equal(twice.code, 1);
  assert.ok(twice.stderr.includes(`${join(dir, 'one', 'a.yaml')} is given twice`), twice.stderr);
});

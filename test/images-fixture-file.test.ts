// A fixture file's `images` entries may name their image by `file:` (relative to the fixture
// file): loadFixtureFile reads it into the entry's bytes, and the openai SDK gets exactly those
// bytes. A missing file, a file that holds no image, or `file` beside `b64` is a problem naming the
// fixture file and the entry's path; an entry whose file was never read (sent to a session as a
// value, not loaded from a file) answers a 409 that says so.

import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import OpenAI from 'openai';

import { startUnderstudy, type Understudy } from '../src/client/index.js';
import { loadFixtureFile } from '../src/engine/fixture-file.js';
import { encodePng } from '../src/dialects/images-kit/png.js';

let mock: Understudy;
let dir: string;
before(async () => {
  mock = await startUnderstudy();
  dir = await mkdtemp(join(tmpdir(), 'understudy-images-'));
});
after(async () => {
  await mock.close();
  await rm(dir, { recursive: true, force: true });
});

const PNG = encodePng({ width: 5, height: 3, background: [1, 2, 3], square: [9, 8, 7], transparent: false });

test('an image file named by a fixture file is read into the entry and answered exactly', async () => {
  await writeFile(join(dir, 'logo.png'), PNG);
  const fixture = join(dir, 'images.yaml');
  await writeFile(fixture, "scenarios: []\nimages:\n  - prompt: 'the logo'\n    file: logo.png\n");
  const loaded = await loadFixtureFile(fixture);
  assert.ok(loaded.ok, JSON.stringify(loaded));
  assert.equal(loaded.fixture.images?.[0].b64, PNG.toString('base64'));
  assert.equal(loaded.fixture.images?.[0].file, undefined);
  const session = await mock.session('image-file');
  await session.load(loaded.fixture);
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const answer = await openai.images.generate({ model: 'gpt-image-1', prompt: 'the logo' });
  assert.deepEqual(Buffer.from(answer.data?.[0].b64_json ?? '', 'base64'), PNG);
});

test('image file problems name the fixture file and the entry; an unread file is a 409', async () => {
  await writeFile(join(dir, 'notes.txt'), 'not an image');
  const fixture = join(dir, 'bad.yaml');
  await writeFile(fixture, 'scenarios: []\nimages:\n  - { prompt: a, file: missing.png }\n  - { prompt: b, file: notes.txt }\n');
  const loaded = await loadFixtureFile(fixture);
  assert.ok(!loaded.ok);
  assert.deepEqual(
    loaded.problems.map((p) => [p.file, p.path]),
    [
      [fixture, '/images/0/file'],
      [fixture, '/images/1/file'],
    ],
  );
  assert.match(loaded.problems[0].message, /expected a readable image file at .*missing\.png; no such file/);
  assert.match(loaded.problems[1].message, /expected a PNG, JPEG or WebP image; .*notes\.txt holds none of those/);
  const both = join(dir, 'both.yaml');
  await writeFile(both, `scenarios: []\nimages:\n  - { prompt: a, file: logo.png, b64: ${PNG.toString('base64')} }\n`);
  const twice = await loadFixtureFile(both);
  assert.ok(!twice.ok);
  assert.deepEqual(
    twice.problems.map((p) => [p.path, p.line]),
    [['/images/0/file', 3]],
  );

  const session = await mock.session('image-file-unread');
  await session.load({ scenarios: [], images: [{ prompt: 'a', file: 'logo.png' }] });
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const refused = await openai.images.generate({ model: 'gpt-image-1', prompt: 'a' }).then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.ok(refused instanceof OpenAI.APIError && refused.status === 409, String(refused));
  assert.match(refused.message, /names file "logo\.png", which is read only when a fixture file is loaded/);
});

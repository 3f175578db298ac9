// Every fixture example in the pages of the non-chat operations (docs/embeddings.md, images.md,
// audio.md, videos.md) that scripts one of their lists loads as written: copied into a file, it
// passes the same checks `understudy validate` runs (a `file:` it names is put beside it).

import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';

import { formatProblems, loadFixtureFile } from '../src/engine/fixture-file.js';

const PAGES = ['embeddings', 'images', 'audio', 'videos'];
const LIST = /^(embeddings|images|speech|transcriptions|videos):/m;
// A 1×1 PNG, for an example's `file:`.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==', 'base64');

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'understudy-docs-media-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

for (const page of PAGES) {
  test(`docs/${page}.md: every example that scripts a list loads as written`, async () => {
    const text = await readFile(new URL(`../docs/${page}.md`, import.meta.url), 'utf8');
    const examples = [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]).filter((yaml) => LIST.test(yaml));
    assert.ok(examples.length > 0, `docs/${page}.md has a fixture example`);
    for (const [i, yaml] of examples.entries()) {
      const file = join(dir, page, `example-${i + 1}.yaml`);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, yaml);
      for (const m of yaml.matchAll(/^\s+(?:- )?file: (\S+)/gm)) {
        const named = join(dirname(file), m[1]);
        await mkdir(dirname(named), { recursive: true });
        await writeFile(named, PNG);
      }
      const result = await loadFixtureFile(file);
      assert.ok(result.ok, `example ${i + 1} of docs/${page}.md:\n${result.ok ? '' : formatProblems(result.problems)}\n${yaml}`);
    }
  });
}

// The `understudy` command built from the current source, once per test process, with the release
// build's options (scripts/node-bundle.mjs): one file, npm packages external. Tests spawn it with plain
// node. Under tsx every spawn compiled and loaded the source's modules one by one, several times
// slower; on a loaded CI machine the files that spawn the CLI many times passed their minute.
// dist/ is not used for this: it may be older than the source under test.
//
// The bundle is written inside the package (node_modules/.cache), because the CLI finds its
// package.json, token table and npm packages by walking up from its own file.

import { buildSync } from 'esbuild';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_BUNDLE } from '../../scripts/node-bundle.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let built: string | undefined;

/** The path of a bundle of src/cli/main.ts made from the source as it is now (built on first use). */
export function freshCli(): string {
  if (built) return built;
  const dir = join(ROOT, 'node_modules', '.cache', 'understudy-test-cli', `${process.pid}-${Date.now().toString(36)}`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'main.js');
  buildSync({
    absWorkingDir: ROOT,
    entryPoints: ['src/cli/main.ts'],
    outfile: file,
    ...NODE_BUNDLE,
    logLevel: 'error',
  });
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  built = file;
  return file;
}

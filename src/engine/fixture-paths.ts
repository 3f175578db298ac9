// What the fixture paths a user gives name: a file is itself; a directory is every fixture file
// under it (.yaml, .yml, .json), subdirectories included, in sorted path order, so that a
// recording directory (`serve --record DIR`, one file per session or scenario in subdirectories)
// replays with `--fixtures DIR` as it was written. Other files (a README, an image a fixture
// names) are not fixtures and are skipped, as are hidden entries (.git, editors' files).

import { readdir, realpath, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { FixtureProblem } from './fixture-file.js';

const FIXTURE_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

export interface FixturePaths {
  files: string[];
  /** One for each directory without fixture files. */
  problems: FixtureProblem[];
}

/** The fixture files the paths name, in the order given, each directory's files sorted by path.
 * A path that cannot be read is left as it is (loading it says why). */
export async function fixtureFilesOf(paths: readonly string[]): Promise<FixturePaths> {
  const files: string[] = [];
  const problems: FixtureProblem[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (!info?.isDirectory()) {
      files.push(path);
      continue;
    }
    const found = await filesUnder(path, new Set());
    if (found.length === 0)
      problems.push({
        file: path,
        path: '(file)',
        message: 'expected a directory holding fixture files (.yaml, .yml or .json, in it or its subdirectories); found none',
      });
    // Code-unit order of the whole path, the same on every machine and locale.
    files.push(...found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  }
  return { files, problems };
}

/** `seen` holds the real paths of the directories walked, so a link back up is walked once. */
async function filesUnder(dir: string, seen: Set<string>): Promise<string[]> {
  const real = await realpath(dir);
  if (seen.has(real)) return [];
  seen.add(real);
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    // A symbolic link is followed to what it names.
    const kind = entry.isSymbolicLink() ? await stat(path).catch(() => undefined) : entry;
    if (kind?.isDirectory()) out.push(...(await filesUnder(path, seen)));
    else if (kind?.isFile() && FIXTURE_EXTENSIONS.has(extname(entry.name).toLowerCase())) out.push(path);
  }
  return out;
}

// The package's own root and version, found from wherever a module runs: under tsx it is a file
// in src/, bundled it is dist/index.js, dist/cli/main.js or dist/runners/*.js, so no fixed
// relative path fits all. The root is the nearest directory at or above whose package.json is ours.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_NAME = 'llm-understudy';

interface Manifest {
  root: string;
  version: string;
}

function manifestFrom(from: string): Manifest | undefined {
  const start = dirname(from.startsWith('file:') ? fileURLToPath(from) : from);
  for (let dir = start; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const json = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
      if (json.name === PACKAGE_NAME) return { root: dir, version: typeof json.version === 'string' ? json.version : 'unknown' };
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** The package root at or above `from` (a module URL or path), or undefined. */
export function packageRoot(from: string = import.meta.url): string | undefined {
  return manifestFrom(from)?.root;
}

let version: string | undefined;

/** The version in the package's package.json ('unknown' when none is found). */
export function packageVersion(): string {
  version ??= manifestFrom(import.meta.url)?.version ?? 'unknown';
  return version;
}

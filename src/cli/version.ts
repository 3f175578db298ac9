// `understudy --version`: the version in the package's own package.json.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'llm-understudy';

/** The nearest package.json at or above this module that is ours (src/cli/ under tsx, dist/cli/ bundled). */
export function packageVersion(from: string = import.meta.url): string {
  for (let dir = dirname(fileURLToPath(from)); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const json = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown; version?: unknown };
      if (json.name === PACKAGE_NAME && typeof json.version === 'string') return json.version;
    }
    if (dirname(dir) === dir) return 'unknown';
  }
}

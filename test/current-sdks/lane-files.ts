// Which test files the current-SDK lane runs: every test/*.test.ts that imports one of the SDKs in
// latest-sdks.json, itself or through the test's own modules, and the lane's own version check. The lane script and the capabilities test
// both ask here, so the files run and the rows claimed as covered cannot drift apart.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export const LATEST_SDKS: Record<string, string> = JSON.parse(readFileSync(join(import.meta.dirname, 'latest-sdks.json'), 'utf8'));

const importedSpecifier = /\bfrom\s+'([^']+)'/g;

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function importsCurrentSdk(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  for (const [, specifier] of readFileSync(file, 'utf8').matchAll(importedSpecifier)) {
    if (specifier.startsWith('.')) {
      const local = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
      // A specifier that names no file is code in a string (a program a test writes), not an import.
      if (local.includes('/test/') && existsSync(local) && importsCurrentSdk(local, seen)) return true;
    } else if (packageName(specifier) in LATEST_SDKS) return true;
  }
  return false;
}

export function currentSdkLaneFiles(root: string): string[] {
  const sdkFiles = readdirSync(join(root, 'test'))
    .filter((f) => f.endsWith('.test.ts'))
    .filter((f) => importsCurrentSdk(join(root, 'test', f)))
    .map((f) => `test/${f}`);
  return ['test/current-sdks/versions.test.ts', ...sdkFiles.sort()];
}

if (process.argv[1] === import.meta.filename) {
  process.stdout.write(currentSdkLaneFiles(join(import.meta.dirname, '../..')).join('\n') + '\n');
}

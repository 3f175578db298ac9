// Builds the dashboard (src/ui/, browser TypeScript) into dist/ui/: app.js bundled by esbuild, with
// index.html and dashboard.css copied beside it. `npm run build` runs it after bundle.mjs; the
// browser test calls buildUi() itself so that it never runs against a stale page.
// The control API serves the folder at /_understudy/ui/ (src/control/ui-assets.ts).

import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const COPIED = ['index.html', 'dashboard.css'];

/** Builds dist/ui/ (or `outdir`) and answers with the folder written. Each file is written beside
 * the folder and renamed into it, so a server reading the folder meanwhile (another test file)
 * finds every file whole, old or new. */
export async function buildUi({ outdir = join(ROOT, 'dist', 'ui'), quiet = false } = {}) {
  const started = performance.now();
  const staging = `${outdir}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  mkdirSync(outdir, { recursive: true });
  try {
    await build({
      absWorkingDir: ROOT,
      entryPoints: ['src/ui/app.ts'],
      outfile: join(staging, 'app.js'),
      bundle: true,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      minify: true,
      sourcemap: false,
      legalComments: 'none',
      logLevel: 'warning',
    });
    for (const file of COPIED) copyFileSync(join(ROOT, 'src', 'ui', file), join(staging, file));
    const built = readdirSync(staging);
    for (const file of built) renameSync(join(staging, file), join(outdir, file));
    for (const file of readdirSync(outdir)) if (!built.includes(file)) rmSync(join(outdir, file), { recursive: true, force: true });
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  if (!quiet) console.log(`dist/ui/: app.js, ${COPIED.join(', ')} (${Math.round(performance.now() - started)} ms)`);
  return outdir;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildUi();

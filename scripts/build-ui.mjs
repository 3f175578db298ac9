// Builds the dashboard (src/ui/, browser TypeScript) into dist/ui/: app.js bundled by esbuild, with
// index.html and dashboard.css copied beside it. `npm run build` runs it after bundle.mjs; the
// browser test calls buildUi() itself so that it never runs against a stale page.
// The control API serves the folder at /_understudy/ui/ (src/control/ui-assets.ts).

import { build } from 'esbuild';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const COPIED = ['index.html', 'dashboard.css'];

/** Builds dist/ui/ (or `outdir`) and answers with the folder written. */
export async function buildUi({ outdir = join(ROOT, 'dist', 'ui'), quiet = false } = {}) {
  const started = performance.now();
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  await build({
    absWorkingDir: ROOT,
    entryPoints: ['src/ui/app.ts'],
    outfile: join(outdir, 'app.js'),
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
  });
  for (const file of COPIED) copyFileSync(join(ROOT, 'src', 'ui', file), join(outdir, file));
  if (!quiet) console.log(`dist/ui/: app.js, ${COPIED.join(', ')} (${Math.round(performance.now() - started)} ms)`);
  return outdir;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildUi();

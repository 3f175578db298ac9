// Bundles the package's entry points with esbuild, the last step of `npm run build`:
//   src/index.ts     -> dist/index.js     (the library: `import { startUnderstudy } from 'llm-understudy'`)
//   src/cli/main.ts  -> dist/cli/main.js  (the `understudy` bin: shebang kept, made executable)
//   src/runners/*.ts -> dist/runners/*.js (llm-understudy/vitest, /jest, /node-test)
//   src/presets/index.ts -> dist/presets/index.js (llm-understudy/presets: imports zod, which the
//                           library itself loads only when it checks a script)
//   src/in-process/ai-sdk/index.ts, src/in-process/langchain/index.ts -> dist/ai-sdk/index.js,
//                           dist/langchain/index.js (llm-understudy/ai-sdk, /langchain: the
//                           framework-native models)
//   src/presets/ai-sdk.ts, langchain.ts -> dist/presets/ai-sdk.js, langchain.js (llm-understudy/presets/ai-sdk,
//                           /langchain: presets as framework tools; `ai` and @langchain/core stay
//                           external, optional peer dependencies only these two load)
// `tsc -p tsconfig.build.json` runs before it: it type-checks and writes the .d.ts files the package
// exports (emitDeclarationOnly), so every .js file under dist/ is one of these two.
//
// Why: Node 20 spends ~0.3-0.4 ms resolving, reading and compiling each ES module, and the library
// is ~66 of them; one file each cuts the import by about three quarters (docs/decisions/0004-bundled-dist.md).
//
// - npm packages stay external: ajv, ajv-formats and yaml are loaded lazily through createRequire,
//   resolved from the bundle's own location, as before.
// - No code splitting: a dynamic import (the verifier) is inlined, but esbuild wraps its module in
//   a lazy initialiser, so its top-level code still runs only on the first verify; compiling its
//   ~7 kB with the rest costs ~0.3 ms, less than the extra chunk files splitting would load.
// - Not minified and no source maps: stack traces name our functions, and each module's code in
//   the bundle starts with a `// src/<path>.ts` comment (bench/startup.ts reads those to attribute
//   CPU-profile samples to source folders).
// - Paths relative to import.meta.url now start at dist/ or dist/cli/: src/core/tokens.ts finds the
//   package root by its package.json instead of a fixed `../../`.

import { build } from 'esbuild';
import { NODE_BUNDLE } from './node-bundle.mjs';
import { chmodSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const CLI = join(DIST, 'cli', 'main.js');

/** Removes the .js and .js.map files an earlier build (tsc's, before bundling) left under dist/. */
function removeJavaScript(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) removeJavaScript(path);
    else if (/\.js(\.map)?$/.test(entry.name)) rmSync(path);
  }
}

const started = performance.now();
removeJavaScript(DIST);
// The test-runner entry points (llm-understudy/vitest, /jest, /node-test) and the framework-native
// models (llm-understudy/ai-sdk, /langchain) import the library through its root: kept external, so
// that they share dist/index.js (one copy of the library, its sessions, one VerificationError)
// instead of each bundling its own. Each of them is written one folder below dist/.
// (src/in-process/exchange.ts and errors.ts are the library's own: they never import the root.)
const ROOT_IMPORTERS = [join('src', 'runners'), join('src', 'in-process')];
const libraryRootExternal = {
  name: 'library-root-external',
  setup(b) {
    b.onResolve({ filter: /^(\.\.\/)+index\.js$/ }, (args) =>
      ROOT_IMPORTERS.some((dir) => args.importer.includes(dir)) ? { path: '../index.js', external: true } : undefined,
    );
  },
};

const result = await build({
  absWorkingDir: ROOT,
  entryPoints: {
    index: 'src/index.ts',
    'cli/main': 'src/cli/main.ts',
    'runners/vitest': 'src/runners/vitest.ts',
    'runners/jest': 'src/runners/jest.ts',
    'runners/node-test': 'src/runners/node-test.ts',
    'presets/index': 'src/presets/index.ts',
    'ai-sdk/index': 'src/in-process/ai-sdk/index.ts',
    'langchain/index': 'src/in-process/langchain/index.ts',
    'presets/ai-sdk': 'src/presets/ai-sdk.ts',
    'presets/langchain': 'src/presets/langchain.ts',
  },
  plugins: [libraryRootExternal],
  outdir: DIST,
  ...NODE_BUNDLE,
  splitting: false,
  minify: false,
  sourcemap: false,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
});
chmodSync(CLI, 0o755);

const outputs = Object.entries(result.metafile.outputs).map(
  ([file, { bytes }]) => `${relative(DIST, join(ROOT, file))} ${Math.round(bytes / 1024)} kB`,
);
console.log(`dist/: ${outputs.join(', ')} (${Math.round(performance.now() - started)} ms)`);

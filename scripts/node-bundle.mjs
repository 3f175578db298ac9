// The esbuild options every Node bundle of this package is made with: the release build
// (scripts/bundle.mjs), the benchmark children (bench/harness.ts) and the CLI the tests spawn
// (test/support/fresh-cli.ts), so that what is measured and tested is bundled as what ships.
// npm packages stay external: they are resolved from the bundle's own location.

export const NODE_BUNDLE = Object.freeze({
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
});

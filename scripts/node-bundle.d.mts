/** The esbuild options every Node bundle of this package is made with. */
export const NODE_BUNDLE: {
  readonly bundle: true;
  readonly platform: 'node';
  readonly format: 'esm';
  readonly target: 'node20';
  readonly packages: 'external';
};

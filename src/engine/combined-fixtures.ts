// Several fixture files given at start (`serve --fixtures a.yaml b.yaml`, `startUnderstudy({
// fixtures })`) are one configuration: their scenarios and every scripted list are joined in file
// order (within a list the first matching entry wins, so an earlier file's entry comes first), and
// a later file's session options override an earlier's, field by field. Loaded one after another,
// a later file's list would replace an earlier's without a word.

import type { FixtureSpec } from './spec.js';

const LISTS = ['embeddings', 'images', 'speech', 'transcriptions', 'videos'] as const;

export function combinedFixtures(fixtures: readonly FixtureSpec[]): FixtureSpec | undefined {
  if (fixtures.length <= 1) return fixtures[0];
  const combined: FixtureSpec = { scenarios: fixtures.flatMap((f) => f.scenarios) };
  for (const list of LISTS) {
    const entries = fixtures.flatMap((f) => (f[list] ?? []) as never[]);
    if (fixtures.some((f) => f[list] !== undefined)) (combined as Record<string, unknown>)[list] = entries;
  }
  const sessions = fixtures.map((f) => f.session).filter((s) => s !== undefined);
  if (sessions.length > 0) combined.session = Object.assign({}, ...sessions) as FixtureSpec['session'];
  return combined;
}

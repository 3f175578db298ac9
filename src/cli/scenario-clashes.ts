// Scenario names are unique in a session: two fixture files loaded together may not share one
// (loading the second would replace the first's scenario without a word).

import type { LoadedFixture } from './banner.js';

export interface Clash {
  name: string;
  first: string;
  second: string;
}

/** Every scenario name a later file defines again, with the file that defined it first. */
export function scenarioClashes(loaded: readonly LoadedFixture[]): Clash[] {
  const fileOf = new Map<string, string>();
  const clashes: Clash[] = [];
  for (const { file, fixture } of loaded) {
    for (const { name } of fixture.scenarios) {
      const first = fileOf.get(name);
      if (first !== undefined) clashes.push({ name, first, second: file });
      else fileOf.set(name, file);
    }
  }
  return clashes;
}

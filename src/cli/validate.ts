// `understudy validate FILE|DIR...`: checks fixture files (a directory: every fixture file under
// it) and prints one line per file or problem.

import { formatProblems, loadFixtureFile } from '../engine/fixture-file.js';
import { fixtureFilesOf } from '../engine/fixture-paths.js';
import type { ReplyLimits } from '../engine/reply-limits.js';
import type { LoadedFixture } from './banner.js';
import { scenarioClashes } from './scenario-clashes.js';

/** Exit code: 0 when every file is valid, 1 when any has problems, 2 when no file was given. */
export async function runValidate(files: string[], out: (line: string) => void, limits?: Partial<ReplyLimits>): Promise<number> {
  if (files.length === 0) {
    out(
      'usage: understudy validate FILE|DIR [FILE|DIR...] [--max-reply-bytes N] [--max-stream-chunks N]   (YAML or JSON fixture files; a directory: every one under it)',
    );
    return 2;
  }
  const paths = await fixtureFilesOf(files);
  // A directory without fixture files is a problem; the files found elsewhere are still checked.
  for (const problem of paths.problems) out(formatProblems([problem]));
  let failed = paths.problems.length > 0;
  const valid: LoadedFixture[] = [];
  for (const file of paths.files) {
    const result = await loadFixtureFile(file, limits);
    if (result.ok) {
      valid.push({ file, fixture: result.fixture });
      const n = result.fixture.scenarios.length;
      out(`ok  ${file} (${n} ${n === 1 ? 'scenario' : 'scenarios'})`);
    } else {
      failed = true;
      for (const line of formatProblems(result.problems).split('\n')) out(line);
    }
  }
  // Files validated together may be meant for different servers, so this is a note, not a failure.
  const notes = scenarioClashes(valid).map(({ name, first, second }) =>
    first === second
      ? `note: ${first} is given twice`
      : `note: scenario "${name}" is defined in both ${first} and ${second}; serve --fixtures refuses the two together`,
  );
  for (const note of new Set(notes)) out(note);
  return failed ? 1 : 0;
}

// `understudy validate FILE...`: checks fixture files and prints one line per file or problem.

import { formatProblems, loadFixtureFile } from '../engine/fixture-file.js';
import type { ReplyLimits } from '../engine/reply-limits.js';

/** Exit code: 0 when every file is valid, 1 when any has problems, 2 when no file was given. */
export async function runValidate(files: string[], out: (line: string) => void, limits?: Partial<ReplyLimits>): Promise<number> {
  if (files.length === 0) {
    out('usage: understudy validate FILE [FILE...] [--max-reply-bytes N] [--max-stream-chunks N]   (YAML or JSON fixture files)');
    return 2;
  }
  let failed = false;
  for (const file of files) {
    const result = await loadFixtureFile(file, limits);
    if (result.ok) {
      const n = result.fixture.scenarios.length;
      out(`ok  ${file} (${n} ${n === 1 ? 'scenario' : 'scenarios'})`);
    } else {
      failed = true;
      for (const line of formatProblems(result.problems).split('\n')) out(line);
    }
  }
  return failed ? 1 : 0;
}

// A session's recordings as it starts (docs/record-replay.md): what `--record DIR` wrote for a
// session named S — DIR/S.yaml, or the files under DIR/S/ (layout `scenario`) — loaded into the
// session S when it is made, so a test that names its session replays its own recording.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { combinedFixtures } from './combined-fixtures.js';
import { formatProblems, parseFixtureText } from './fixture-file.js';
import type { ReplyLimits } from './reply-limits.js';
import { fileSafe, sessionFileOf, sessionFolderOf } from './recording-book.js';
import type { FixtureSpec } from './spec.js';

const FIXTURE_FILE = /\.(ya?ml|json)$/i;

/** The files of the session's recordings in DIR, in sorted path order. */
export function recordingFiles(dir: string, sessionId: string): string[] {
  const files: string[] = [];
  if (!fileSafe(sessionId)) return files;
  const single = sessionFileOf(dir, sessionId);
  if (existsSync(single)) files.push(single);
  const folder = sessionFolderOf(dir, sessionId);
  if (existsSync(folder) && statSync(folder).isDirectory()) files.push(...filesUnder(folder));
  return files;
}

function filesUnder(folder: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(folder).sort()) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else if (FIXTURE_FILE.test(name)) out.push(path);
  }
  return out;
}

/** The session's recordings as one fixture, undefined when there are none; a file with a problem
 * throws, naming the file, the path in it and what was expected. */
export function sessionRecordings(dir: string, sessionId: string, limits?: Partial<ReplyLimits>): FixtureSpec | undefined {
  const fixtures: FixtureSpec[] = [];
  for (const file of recordingFiles(dir, sessionId)) {
    const result = parseFixtureText(readFileSync(file, 'utf8'), file, limits);
    if (!result.ok) throw new Error(formatProblems(result.problems));
    fixtures.push(result.fixture);
  }
  return combinedFixtures(fixtures);
}

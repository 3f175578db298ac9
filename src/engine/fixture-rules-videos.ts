// The rule of the fixture's `videos` entries (fixture-schema-videos.ts) that one field cannot say
// alone: an entry with `error` answers the create with it, so it says nothing of the job.

import { has, type Obj, type Path, type RuleContext } from './fixture-words.js';

const JOB_FIELDS = ['queuedSeconds', 'runSeconds', 'outcome', 'failure', 'content', 'download', 'fault'];

export function scriptedVideoRule(entry: Obj, path: Path, ctx: RuleContext): void {
  if (has(entry, 'error')) {
    for (const key of JOB_FIELDS) {
      if (has(entry, key))
        ctx.report([...path, key], `expected only prompt, model, error and delayMs in a scripted video with "error"; found "${key}"`);
    }
    return;
  }
  const download = entry.download;
  if (download && typeof download === 'object' && has(download as Obj, 'error') && has(download as Obj, 'fault')) {
    ctx.report([...path, 'download', 'fault'], 'expected either "error" or "fault" in a download script, not both; found both');
  }
  if (has(entry, 'failure') && entry.outcome !== 'failed') {
    ctx.report([...path, 'failure'], 'expected "failure" only with outcome "failed"; found it without');
  }
}

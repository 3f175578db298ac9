// The fixture's `videos` list and `session.videoCapacity` as the format checks them: what each
// field takes, what an entry may hold together, and where a problem is reported.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { validateFixtureValue } from '../src/engine/fixture-file.js';

function problems(fixture: unknown): string[] {
  const checked = validateFixtureValue(fixture, 'test');
  return checked.ok ? [] : checked.problems.map((p) => `${p.path}  ${p.message}`);
}

test('a fixture of only videos (and a video capacity) is valid', () => {
  assert.deepEqual(
    problems({
      scenarios: [],
      session: { videoCapacity: { maxJobs: 3, maxBytes: 0 } },
      videos: [
        { prompt: 'a', queuedSeconds: 0, runSeconds: 5, content: { video: 'AAAA', thumbnail: 'UklGRg==' } },
        { prompt: { contains: 'b' }, model: 'sora-2', outcome: 'failed', failure: { message: 'no' } },
        { prompt: 'c', error: { status: 429, message: 'slow down' }, delayMs: 10 },
        { prompt: 'd', fault: { kind: 'reset' }, download: { delayMs: 5, fault: { kind: 'close', afterBytes: 3 } } },
      ],
    }),
    [],
  );
});

test('the problems of a bad videos entry, each at its path', () => {
  const found = problems({
    scenarios: [],
    session: { videoCapacity: { maxJobs: -1 } },
    videos: [
      { prompt: 'a', error: { status: 500, message: 'x' }, runSeconds: 3 },
      { prompt: 'b', failure: { message: 'no' } },
      { prompt: 'c', content: { video: 'not base64!' } },
      { prompt: 'd', queuedSeconds: 1.5, outcome: 'done' },
      { model: 'sora-2' },
      { prompt: 'e', download: { error: { status: 500, message: 'x' }, fault: { kind: 'reset' } } },
    ],
  });
  const at = (path: string) => found.filter((p) => p.startsWith(`${path} `));
  assert.equal(at('/session/videoCapacity/maxJobs').length, 1, found.join('\n'));
  assert.match(at('/videos/0/runSeconds')[0] ?? '', /only prompt, model, error and delayMs/);
  assert.match(at('/videos/1/failure')[0] ?? '', /only with outcome "failed"/);
  assert.match(at('/videos/2/content/video')[0] ?? '', /base64/);
  assert.equal(at('/videos/3/queuedSeconds').length, 1, found.join('\n'));
  assert.match(at('/videos/3/outcome')[0] ?? '', /completed, failed/);
  assert.match(found.find((p) => p.startsWith('/videos/4')) ?? '', /prompt/);
  assert.match(at('/videos/5/download/fault')[0] ?? '', /not both/);
});

test('scenarios may be empty only when the file scripts embeddings or videos', () => {
  assert.match(problems({ scenarios: [] })[0] ?? '', /at least one entry/);
  assert.deepEqual(problems({ scenarios: [], videos: [] }), []);
});

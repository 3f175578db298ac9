// Property: any sequence of video creates (with input references of any size), deletes and resets
// against small bounds, sent through the openai SDK, keeps the session's store within its bounds
// and matches a simple model — which creates are refused with 409 video_capacity_exceeded, which
// ids the stored ones get (refusals never advance them), what the list holds. And the store alone:
// reservations held by answers on their way count against the bounds, and a released one gives
// its id back, in any interleaving.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import fc from 'fast-check';
import OpenAI from 'openai';

import { startUnderstudy, type Understudy } from '../src/client/index.js';
import { VideoJobStore, videoStateAt, type VideoReservation } from '../src/core/video-jobs.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

type Op = { kind: 'create'; bytes: number } | { kind: 'delete'; pick: number } | { kind: 'reset' };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('create' as const), bytes: fc.integer({ min: 0, max: 60 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat(10) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reset' as const) }) },
);

let run = 0;

test('any sequence of create, delete and reset keeps the store within its bounds and matches the model [openai-videos.capacity.json +]', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: 4 }),
      fc.integer({ min: 0, max: 100 }),
      fc.array(op, { maxLength: 12 }),
      async (maxJobs, maxBytes, ops) => {
        const seed = `property-${run++}`;
        const session = await mock.session(undefined, { seed, videoCapacity: { maxJobs, maxBytes } });
        // The ids of a session of this seed, in order, as it gives them when nothing fails.
        const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
        let model: { id: string; bytes: number }[] = [];
        let counter = 0;
        const idNumber = (id: string) => parseInt(id.slice(-10), 36);
        try {
          for (const step of ops) {
            if (step.kind === 'create') {
              const used = model.reduce((n, j) => n + j.bytes, 0);
              const fits = model.length + 1 <= maxJobs && used + step.bytes <= maxBytes;
              const input_reference =
                step.bytes > 0 ? await OpenAI.toFile(Buffer.alloc(step.bytes), 'r.png', { type: 'image/png' }) : undefined;
              try {
                const job = await openai.videos.create({ prompt: 'p', ...(input_reference && { input_reference }) });
                assert.ok(fits, `the model refuses a create of ${step.bytes} bytes with ${model.length} jobs, ${used} bytes`);
                counter++;
                assert.equal(idNumber(job.id), counter, 'ids advance only for stored jobs');
                model.push({ id: job.id, bytes: step.bytes });
              } catch (error) {
                assert.ok(error instanceof OpenAI.APIError && error.status === 409, String(error));
                assert.equal(error.code, 'video_capacity_exceeded');
                assert.ok(!fits, `the model stores a create of ${step.bytes} bytes with ${model.length} jobs, ${used} bytes`);
              }
            } else if (step.kind === 'delete') {
              if (model.length === 0) continue;
              const [gone] = model.splice(step.pick % model.length, 1);
              await session.advanceClock(10);
              await openai.videos.delete(gone.id);
            } else {
              await session.reset();
              model = [];
              counter = 0;
            }
            assert.ok(model.length <= maxJobs && model.reduce((n, j) => n + j.bytes, 0) <= maxBytes);
          }
          const listed = (await openai.videos.list({ order: 'asc', limit: 100 })).data.map((v) => v.id);
          assert.deepEqual(
            listed,
            model.map((j) => j.id),
          );
        } finally {
          await session.delete();
        }
      },
    ),
    { numRuns: 30 },
  );
});

test('the store alone: held reservations count against the bounds, a release gives its id back, a cleared store ignores late ones [openai-videos.capacity.json -]', () => {
  type Action =
    | { kind: 'reserve'; bytes: number }
    | { kind: 'commit' | 'release'; pick: number }
    | { kind: 'delete'; pick: number }
    | { kind: 'clear' };
  const action: fc.Arbitrary<Action> = fc.oneof(
    fc.record({ kind: fc.constant('reserve' as const), bytes: fc.integer({ min: 0, max: 30 }) }),
    fc.record({ kind: fc.constantFrom('commit' as const, 'release' as const), pick: fc.nat(5) }),
    fc.record({ kind: fc.constant('delete' as const), pick: fc.nat(5) }),
    fc.record({ kind: fc.constant('clear' as const) }),
  );
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 3 }),
      fc.integer({ min: 0, max: 60 }),
      fc.array(action, { maxLength: 30 }),
      (maxJobs, maxBytes, actions) => {
        const store = new VideoJobStore((_api, n) => `v${n}`, { maxJobs, maxBytes });
        let open: { r: VideoReservation; bytes: number }[] = [];
        const stored = new Map<string, number>();
        const held = () => open.reduce((n, o) => n + o.bytes, 0) + [...stored.values()].reduce((n, b) => n + b, 0);
        for (const a of actions) {
          if (a.kind === 'reserve') {
            const fits = stored.size + open.length + 1 <= maxJobs && held() + a.bytes <= maxBytes;
            const r = store.reserve('openai', a.bytes);
            assert.equal('commit' in r, fits);
            if ('commit' in r) {
              const numbers = new Set([...stored.keys(), ...open.map((o) => o.r.id)]);
              assert.ok(!numbers.has(r.id), `a fresh id (${r.id})`);
              open.push({ r, bytes: a.bytes });
            }
          } else if (a.kind === 'commit' || a.kind === 'release') {
            if (open.length === 0) continue;
            const [o] = open.splice(a.pick % open.length, 1);
            if (a.kind === 'commit') {
              o.r.commit({
                api: 'openai',
                createdAt: 0,
                prompt: '',
                model: 'm',
                seconds: 4,
                width: 1,
                height: 1,
                timeline: { queuedSeconds: 0, runSeconds: 0, outcome: 'completed' },
                payloadBytes: 0,
              });
              stored.set(o.r.id, o.bytes);
            } else o.r.release();
          } else if (a.kind === 'delete') {
            const ids = [...stored.keys()];
            if (ids.length === 0) continue;
            const id = ids[a.pick % ids.length];
            assert.equal(store.delete(id), true);
            stored.delete(id);
          } else {
            store.clear();
            for (const o of open)
              o.r.commit({
                api: 'openai',
                createdAt: 0,
                prompt: '',
                model: 'm',
                seconds: 4,
                width: 1,
                height: 1,
                timeline: { queuedSeconds: 0, runSeconds: 0, outcome: 'completed' },
                payloadBytes: 0,
              });
            open = [];
            stored.clear();
          }
          const counts = store.counts();
          assert.deepEqual(counts, { jobs: stored.size, bytes: [...stored.values()].reduce((n, b) => n + b, 0) });
          assert.ok(counts.jobs <= maxJobs && counts.bytes <= maxBytes);
        }
        if (open.length === 0 && stored.size === 0 && maxJobs > 0) {
          // Nothing held: the next id is one past the highest ever stored since the last clear.
          const r = store.reserve('openai', 0);
          assert.ok('commit' in r);
        }
      },
    ),
    { numRuns: 300 },
  );
  const job = {
    api: 'openai' as const,
    createdAt: 100,
    prompt: '',
    model: 'm',
    seconds: 4,
    width: 1,
    height: 1,
    timeline: { queuedSeconds: 2, runSeconds: 4, outcome: 'completed' as const },
    payloadBytes: 0,
    id: 'x',
    number: 1,
  };
  assert.deepEqual(videoStateAt(job, 101), { status: 'queued', progress: 0, finishedAt: undefined });
  assert.deepEqual(videoStateAt(job, 104), { status: 'in_progress', progress: 50, finishedAt: undefined });
  assert.deepEqual(videoStateAt(job, 106), { status: 'completed', progress: 100, finishedAt: 106 });
});

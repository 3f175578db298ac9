// The video capacity budget (seed 000's WithVideoCapacity), through the openai SDK's videos API:
// fill to the job bound and to the byte bound, 409 video_capacity_exceeded for the next while the
// stored jobs stay available, delete one and succeed, reset (and a replacing load, and setting the
// capacity) empties the store, zero jobs disables storage, and a store that failed — refused, cut
// by a fault, or left by its client during a delay — leaves the next id unchanged.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import OpenAI from 'openai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

function clientOf(session: UnderstudySession, timeout = 10_000): OpenAI {
  return new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout });
}

async function refusal(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof OpenAI.APIError, `expected an APIError, got ${String(error)}`);
    return error;
  }
  assert.fail('the call succeeded');
}

/** The ids a session of this seed gives its first `n` jobs when nothing fails. */
async function cleanIds(seed: string, n: number): Promise<string[]> {
  const session = await mock.session(undefined, { seed });
  const openai = clientOf(session);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await openai.videos.create({ prompt: `clean ${i}` })).id);
  await session.delete();
  return ids;
}

const upload = (bytes: number) => OpenAI.toFile(Buffer.alloc(bytes, 7), 'ref.png', { type: 'image/png' });

test('fill to the job bound: the next create is a 409 video_capacity_exceeded, the stored jobs stay, delete one and the next succeeds with the next id [openai-videos.capacity.json +]', async () => {
  const seed = 'capacity-jobs';
  const expected = await cleanIds(seed, 4);
  const session = await mock.session('videos-cap-jobs', { seed, videoCapacity: { maxJobs: 3 } });
  const openai = clientOf(session);
  const made: string[] = [];
  for (let i = 0; i < 3; i++) made.push((await openai.videos.create({ prompt: `job ${i}` })).id);
  assert.deepEqual(made, expected.slice(0, 3));
  const full = await refusal(openai.videos.create({ prompt: 'one too many' }));
  assert.equal(full.status, 409);
  assert.equal(full.code, 'video_capacity_exceeded');
  assert.equal(full.type, 'invalid_request_error');
  assert.match(full.message, /3 of 3 jobs/);
  for (const id of made) assert.equal((await openai.videos.retrieve(id)).id, id, 'existing jobs stay available');
  await session.advanceClock(10);
  await openai.videos.delete(made[1]);
  const next = await openai.videos.create({ prompt: 'fits again' });
  assert.equal(next.id, expected[3], 'the refused create did not advance the ids');
  const refusedEntry = (await session.journal()).entries.find((e) => e.status === 409);
  assert.equal(refusedEntry?.operation, 'openai.videos.create');
  assert.equal(refusedEntry?.error?.code, 'video_capacity_exceeded');
});

test('fill to the byte bound with uploads: a job that would pass it is refused, a smaller one fits, delete gives the bytes back [openai-videos.capacity.json +]', async () => {
  const session = await mock.session('videos-cap-bytes', { videoCapacity: { maxBytes: 1000 } });
  const openai = clientOf(session);
  const a = await openai.videos.create({ prompt: 'a', input_reference: await upload(600) });
  const b = await openai.videos.create({ prompt: 'b', input_reference: await upload(400) });
  const over = await refusal(openai.videos.create({ prompt: 'c', input_reference: await upload(1) }));
  assert.equal(over.status, 409);
  assert.equal(over.code, 'video_capacity_exceeded');
  assert.match(over.message, /1000 bytes/);
  const free = await openai.videos.create({ prompt: 'no reference' });
  assert.equal(free.status, 'queued', 'a job of no payload bytes still fits');
  await session.advanceClock(10);
  await openai.videos.delete(a.id);
  const c = await openai.videos.create({ prompt: 'c', input_reference: await upload(600) });
  assert.ok(c.id > b.id);
  const big = await refusal(openai.videos.create({ prompt: 'd', input_reference: await upload(1) }));
  assert.equal(big.status, 409);
});

test('scripted content counts against the byte bound [openai-videos.capacity.json +]', async () => {
  const session = await mock.session('videos-cap-content', { videoCapacity: { maxBytes: 10 } });
  await session.load({ scenarios: [], videos: [{ prompt: 'heavy', content: { video: Buffer.alloc(8).toString('base64') } }] });
  const openai = clientOf(session);
  await openai.videos.create({ prompt: 'heavy' });
  const second = await refusal(openai.videos.create({ prompt: 'heavy' }));
  assert.equal(second.code, 'video_capacity_exceeded');
});

test('reset, a replacing load and setting the capacity each empty the store and its accounting [openai-videos.capacity.json +]', async () => {
  const seed = 'capacity-reset';
  const expected = await cleanIds(seed, 1);
  const session = await mock.session('videos-cap-reset', { seed, videoCapacity: { maxJobs: 2, maxBytes: 100 } });
  const openai = clientOf(session);
  await openai.videos.create({ prompt: 'x', input_reference: await upload(100) });
  await openai.videos.create({ prompt: 'y' });
  assert.equal((await refusal(openai.videos.create({ prompt: 'z' }))).status, 409);
  await session.reset();
  assert.deepEqual((await openai.videos.list()).data, []);
  const first = await openai.videos.create({ prompt: 'after reset', input_reference: await upload(100) });
  assert.equal(first.id, expected[0], 'ids start again');
  await session.load({ scenarios: [], videos: [] }, { replace: true });
  assert.deepEqual((await openai.videos.list()).data, [], 'a replacing load empties it');
  await openai.videos.create({ prompt: 'a', input_reference: await upload(100) });
  await session.load({ scenarios: [], videos: [], session: { videoCapacity: { maxJobs: 1 } } });
  assert.deepEqual((await openai.videos.list()).data, [], 'setting the capacity empties it');
  await openai.videos.create({ prompt: 'b', input_reference: await upload(100) });
  assert.equal((await refusal(openai.videos.create({ prompt: 'c' }))).code, 'video_capacity_exceeded', 'the new bound holds (1 job)');
});

test('zero jobs disables storage: every create is refused [openai-videos.capacity.json -]', async () => {
  const session = await mock.session('videos-cap-zero', { videoCapacity: { maxJobs: 0 } });
  const openai = clientOf(session);
  const refused = await refusal(openai.videos.create({ prompt: 'anything' }));
  assert.equal(refused.status, 409);
  assert.equal(refused.code, 'video_capacity_exceeded');
  assert.match(refused.message, /disabled/);
  assert.deepEqual((await openai.videos.list()).data, []);
});

test('a create whose answer a fault cuts short stores nothing and leaves the next id unchanged [openai-videos.capacity.json -]', async () => {
  const seed = 'capacity-fault';
  const expected = await cleanIds(seed, 1);
  const session = await mock.session('videos-cap-fault', { seed, videoCapacity: { maxJobs: 1 } });
  await session.load({ scenarios: [], videos: [{ prompt: 'cut', fault: { kind: 'reset', afterBytes: 10 } }] });
  const openai = clientOf(session);
  // The headers went out; the body breaks off (the SDK surfaces the broken read as it comes).
  await assert.rejects(openai.videos.create({ prompt: 'cut' }));
  assert.deepEqual((await openai.videos.list()).data, []);
  const next = await openai.videos.create({ prompt: 'whole' });
  assert.equal(next.id, expected[0]);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.operation),
    ['openai.videos.create', 'openai.videos.list', 'openai.videos.create'],
  );
});

test('a create its client leaves during a scripted delay stores nothing and frees its place [openai-videos.capacity.json -]', async () => {
  const seed = 'capacity-delay';
  const expected = await cleanIds(seed, 1);
  const session = await mock.session('videos-cap-delay', { seed, videoCapacity: { maxJobs: 1 } });
  await session.load({ scenarios: [], videos: [{ prompt: 'slow', delayMs: 1500 }] });
  await assert.rejects(
    clientOf(session, 200).videos.create({ prompt: 'slow' }),
    (error: unknown) => error instanceof OpenAI.APIConnectionTimeoutError,
  );
  // While the abandoned create's delay runs out, its place is held; once it has, it is free.
  await new Promise((resolve) => setTimeout(resolve, 1800));
  const openai = clientOf(session);
  assert.deepEqual((await openai.videos.list()).data, []);
  const next = await openai.videos.create({ prompt: 'quick' });
  assert.equal(next.id, expected[0]);
});

test('creates answered at once hold their places while their answers wait: distinct ids, and no bound passed together [openai-videos.capacity.json +]', async () => {
  const session = await mock.session('videos-cap-overlap', { videoCapacity: { maxJobs: 2 } });
  await session.load({ scenarios: [], videos: [{ prompt: { contains: 'slow' }, delayMs: 300 }] });
  const openai = clientOf(session);
  const results = await Promise.allSettled([1, 2, 3].map((i) => openai.videos.create({ prompt: `slow ${i}` })));
  const made = results.filter((r): r is PromiseFulfilledResult<OpenAI.Videos.Video> => r.status === 'fulfilled').map((r) => r.value.id);
  const refused = results.filter((r) => r.status === 'rejected');
  assert.equal(made.length, 2);
  assert.equal(new Set(made).size, 2, 'two creates in flight never share an id');
  assert.equal(refused.length, 1);
  assert.equal(((refused[0] as PromiseRejectedResult).reason as InstanceType<typeof OpenAI.APIError>).code, 'video_capacity_exceeded');
  assert.deepEqual((await openai.videos.list({ order: 'asc' })).data.map((v) => v.id).sort(), [...made].sort());
});

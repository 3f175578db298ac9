// Azure's video routes: the v1 `/videos` routes that mirror OpenAI's, driven by the openai SDK at
// Azure's v1 base, and the video generation jobs (`…/video/generations/jobs`, no SDK has them:
// plain HTTP, as Azure's reference describes them) — progress on the session clock, content,
// Azure's refusals, and the capacity budget (fill to each bound, 409, delete, reset, a failed
// store keeping the next id), which both share with every other video route of the session.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { parseBuffer } from 'music-metadata';
import OpenAI from 'openai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const v1 = (session: UnderstudySession) =>
  new OpenAI({ baseURL: mock.url('azure-v1'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });

async function refusal(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof OpenAI.APIError, `expected an APIError, got ${String(error)}`);
    return error;
  }
  assert.fail('the call succeeded');
}

/** A request to Azure's jobs API with the session's key, as `api-key` (Azure's header). */
async function jobs(session: UnderstudySession, method: string, path: string, body?: unknown, version = 'preview') {
  const url = `${mock.url('azure')}/openai/v1/video/generations${path}${path.includes('?') ? '&' : '?'}api-version=${version}`;
  const response = await fetch(url, {
    method,
    headers: { 'api-key': session.apiKey, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const type = response.headers.get('content-type') ?? '';
  const payload = type.startsWith('application/json')
    ? ((await response.json()) as Record<string, any>)
    : Buffer.from(await response.arrayBuffer());
  return { status: response.status, type, body: payload as any };
}

test("Azure's v1 videos through the openai SDK: create, progress, content, list, delete [azure-videos.v1.json +]", async () => {
  const session = await mock.session('azure-v1-videos');
  const openai = v1(session);
  const job = await openai.videos.create({ prompt: 'a lighthouse', seconds: '4', size: '1280x720' });
  assert.equal(job.status, 'queued');
  await session.advanceClock(5);
  assert.equal((await openai.videos.retrieve(job.id)).progress, 44);
  await session.advanceClock(5);
  const mp4 = Buffer.from(await (await openai.videos.downloadContent(job.id)).arrayBuffer());
  assert.equal((await parseBuffer(mp4, { mimeType: 'video/mp4' })).format.duration, 4);
  assert.deepEqual(
    (await openai.videos.list()).data.map((v) => v.id),
    [job.id],
  );
  assert.equal((await openai.videos.delete(job.id)).deleted, true);
  const { entries } = await session.journal();
  assert.deepEqual(
    [...new Set(entries.map((e) => e.operation))],
    ['azure-v1.videos.create', 'azure-v1.videos.retrieve', 'azure-v1.videos.content', 'azure-v1.videos.list', 'azure-v1.videos.delete'],
  );
  assert.equal(entries[0].route, 'POST /azure/openai/v1/videos');
});

test("Azure's v1 videos: Azure's own 400 for an api-version, OpenAI's 400 for the body, Azure's 404 for an unknown job [azure-videos.v1.json -]", async () => {
  const session = await mock.session('azure-v1-videos-bad');
  const dated = new OpenAI({
    baseURL: mock.url('azure-v1'),
    apiKey: session.apiKey,
    maxRetries: 0,
    timeout: 10_000,
    defaultQuery: { 'api-version': '2024-10-21' },
  });
  const version = await refusal(dated.videos.create({ prompt: 'x' }));
  assert.equal(version.status, 400);
  assert.equal(version.code, 'BadRequest');
  const seconds = await refusal(v1(session).videos.create({ prompt: 'x', seconds: '7' as '4' }));
  assert.deepEqual([seconds.status, seconds.param, seconds.code], [400, 'seconds', 'invalid_value']);
  const missing = await refusal(v1(session).videos.retrieve('video_none'));
  assert.equal(missing.status, 404);
  assert.equal(missing.code, '404');
});

test('Azure video generation jobs: queued, running, succeeded with generations; the generation and its video and thumbnail [azure-videos.jobs.json +]', async () => {
  const session = await mock.session('azure-jobs');
  const created = await jobs(session, 'POST', '/jobs', {
    model: 'sora',
    prompt: 'a koi pond',
    width: 480,
    height: 480,
    n_seconds: 6,
    n_variants: 2,
  });
  assert.equal(created.status, 200);
  const job = created.body;
  assert.match(job.id, /^task_/);
  assert.deepEqual(
    [
      job.object,
      job.status,
      job.model,
      job.width,
      job.height,
      job.n_seconds,
      job.n_variants,
      job.generations,
      job.finished_at,
      job.failure_reason,
    ],
    ['video.generation.job', 'queued', 'sora', 480, 480, 6, 2, [], null, null],
  );
  await session.advanceClock(2);
  assert.equal((await jobs(session, 'GET', `/jobs/${job.id}`)).body.status, 'running');
  await session.advanceClock(8);
  const done = (await jobs(session, 'GET', `/jobs/${job.id}`)).body;
  assert.equal(done.status, 'succeeded');
  assert.equal(done.finished_at, job.created_at + 10);
  assert.equal(done.generations.length, 2);
  const generation = done.generations[1];
  assert.deepEqual(
    [generation.object, generation.job_id, generation.n_seconds, generation.prompt],
    ['video.generation', job.id, 6, 'a koi pond'],
  );
  assert.deepEqual((await jobs(session, 'GET', `/${generation.id}`)).body, generation);
  const video = await jobs(session, 'GET', `/${generation.id}/content/video`);
  assert.equal(video.type, 'video/mp4');
  assert.equal((await parseBuffer(video.body, { mimeType: 'video/mp4' })).format.duration, 6);
  const thumbnail = await jobs(session, 'GET', `/${generation.id}/content/thumbnail`);
  assert.equal(thumbnail.type, 'image/webp');
  const listed = await jobs(session, 'GET', '/jobs?limit=10');
  assert.deepEqual(
    listed.body.data.map((j: { id: string }) => j.id),
    [job.id],
  );
  assert.equal((await jobs(session, 'DELETE', `/jobs/${job.id}`)).status, 204);
  assert.equal((await jobs(session, 'GET', `/jobs/${job.id}`)).status, 404);
  const { entries } = await session.journal();
  assert.equal(entries[0].operation, 'azure.video.jobs.create');
  assert.equal(entries[0].request?.model, 'sora');
  assert.ok(entries.some((e) => e.operation === 'azure.video.generations.content'));
});

test('Azure video generation jobs: the 400s for a size Azure does not make, n_seconds past 20, a missing prompt, an api-version; 404 for content not ready [azure-videos.jobs.json -]', async () => {
  const session = await mock.session('azure-jobs-bad');
  const size = await jobs(session, 'POST', '/jobs', { model: 'sora', prompt: 'x', width: 500, height: 500 });
  assert.equal(size.status, 400);
  assert.match(size.body.error.message, /480x480/);
  const long = await jobs(session, 'POST', '/jobs', { model: 'sora', prompt: 'x', width: 480, height: 480, n_seconds: 21 });
  assert.deepEqual([long.status, long.body.error.param], [400, 'n_seconds']);
  const prompt = await jobs(session, 'POST', '/jobs', { model: 'sora', width: 480, height: 480 });
  assert.deepEqual([prompt.status, prompt.body.error.code], [400, 'missing_required_parameter']);
  const version = await jobs(session, 'POST', '/jobs', { model: 'sora', prompt: 'x', width: 480, height: 480 }, '2099-01-01');
  assert.deepEqual([version.status, version.body.error.code], [400, 'BadRequest']);
  const job = (await jobs(session, 'POST', '/jobs', { model: 'sora', prompt: 'x', width: 480, height: 480 })).body;
  const early = await jobs(session, 'GET', `/gen_${job.id.slice(5)}_0/content/video`);
  assert.equal(early.status, 404);
  assert.deepEqual(Object.keys(early.body.error).sort(), ['code', 'message']);
  await session.load({ scenarios: [], videos: [{ prompt: 'cut', download: { fault: { kind: 'close', afterBytes: 64 } } }] });
  const cut = (await jobs(session, 'POST', '/jobs', { model: 'sora', prompt: 'cut', width: 480, height: 480 })).body;
  await session.advanceClock(10);
  await assert.rejects(jobs(session, 'GET', `/gen_${cut.id.slice(5)}_0/content/video`), 'the download breaks off');
});

test("the capacity budget on Azure's jobs: fill to the job bound, 409, delete, the next id as if nothing failed, reset empties [azure-videos.capacity.json +]", async () => {
  const seed = 'azure-capacity';
  const clean = await mock.session(undefined, { seed });
  const expected: string[] = [];
  for (let i = 0; i < 3; i++)
    expected.push((await jobs(clean, 'POST', '/jobs', { model: 'sora', prompt: `c${i}`, width: 480, height: 480 })).body.id);
  const session = await mock.session('azure-cap', { seed, videoCapacity: { maxJobs: 2 } });
  const a = (await jobs(session, 'POST', '/jobs', { model: 'sora', prompt: 'a', width: 480, height: 480 })).body;
  const b = (await jobs(session, 'POST', '/jobs', { model: 'sora', prompt: 'b', width: 480, height: 480 })).body;
  assert.deepEqual([a.id, b.id], expected.slice(0, 2));
  const full = await jobs(session, 'POST', '/jobs', { model: 'sora', prompt: 'c', width: 480, height: 480 });
  assert.equal(full.status, 409);
  assert.equal(full.body.error.code, 'video_capacity_exceeded');
  assert.equal((await jobs(session, 'GET', `/jobs/${a.id}`)).status, 200, 'existing jobs stay available');
  // The store is shared: an OpenAI-shaped create on Azure's v1 routes is refused as well.
  const shared = await refusal(v1(session).videos.create({ prompt: 'also full' }));
  assert.deepEqual([shared.status, shared.code], [409, 'video_capacity_exceeded']);
  assert.equal((await jobs(session, 'DELETE', `/jobs/${a.id}`)).status, 204);
  const c = (await jobs(session, 'POST', '/jobs', { model: 'sora', prompt: 'c', width: 480, height: 480 })).body;
  assert.equal(c.id, expected[2], 'the refused creates did not advance the ids');
  await session.reset();
  assert.deepEqual((await jobs(session, 'GET', '/jobs')).body.data, []);
  assert.equal((await jobs(session, 'POST', '/jobs', { model: 'sora', prompt: 'again', width: 480, height: 480 })).body.id, expected[0]);
});

test("the capacity budget through Azure's v1 videos and the SDK: the byte bound, 409, delete frees, zero jobs disables [azure-videos.capacity.json -]", async () => {
  const session = await mock.session('azure-cap-bytes', { videoCapacity: { maxBytes: 500 } });
  const openai = v1(session);
  const file = (n: number) => OpenAI.toFile(Buffer.alloc(n), 'ref.png', { type: 'image/png' });
  const first = await openai.videos.create({ prompt: 'a', input_reference: await file(500) });
  const over = await refusal(openai.videos.create({ prompt: 'b', input_reference: await file(1) }));
  assert.deepEqual([over.status, over.code], [409, 'video_capacity_exceeded']);
  await session.advanceClock(10);
  await openai.videos.delete(first.id);
  await openai.videos.create({ prompt: 'b', input_reference: await file(500) });
  // A create cut short by a scripted fault stores nothing, on either Azure API.
  const cut = await mock.session('azure-cap-fault', { videoCapacity: { maxJobs: 1 } });
  await cut.load({ scenarios: [], videos: [{ prompt: 'cut', fault: { kind: 'reset', afterBytes: 5 } }] });
  await assert.rejects(jobs(cut, 'POST', '/jobs', { model: 'sora', prompt: 'cut', width: 480, height: 480 }));
  await assert.rejects(v1(cut).videos.create({ prompt: 'cut' }));
  assert.deepEqual((await jobs(cut, 'GET', '/jobs')).body.data, []);
  assert.equal(
    (await jobs(cut, 'POST', '/jobs', { model: 'sora', prompt: 'whole', width: 480, height: 480 })).status,
    200,
    'its place was given back',
  );
  const zero = await mock.session('azure-cap-zero', { videoCapacity: { maxJobs: 0 } });
  const refused = await jobs(zero, 'POST', '/jobs', { model: 'sora', prompt: 'x', width: 480, height: 480 });
  assert.deepEqual([refused.status, refused.body.error.code], [409, 'video_capacity_exceeded']);
});

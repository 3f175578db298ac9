// OpenAI's `/v1/videos` judged by the real openai SDK over HTTP: a job queued, in progress and
// completed as the session clock moves; its content (an MP4 that music-metadata reads with the
// job's duration, a WebP thumbnail, a JPEG spritesheet); list order, limit and the SDK's
// auto-paging; delete; remix; scripted timelines, failures and errors; OpenAI's 400s and 404s;
// every request journalled.

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

async function bytesOf(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

test('a job is queued, then in progress with its percent, then completed, as the session clock moves [openai-videos.create.json +]', async () => {
  const session = await mock.session('videos-progress');
  const openai = clientOf(session);
  const created = await openai.videos.create({ prompt: 'a calico cat playing a piano', seconds: '8', size: '1280x720' });
  assert.match(created.id, /^video_[A-Za-z0-9]{24}$/);
  assert.equal(created.object, 'video');
  assert.equal(created.status, 'queued');
  assert.equal(created.progress, 0);
  assert.equal(created.model, 'sora-2', 'the default model');
  assert.equal(created.seconds, '8');
  assert.equal(created.size, '1280x720');
  assert.equal(created.prompt, 'a calico cat playing a piano');
  assert.equal(created.completed_at, null);
  assert.equal(created.expires_at, null);
  assert.equal(created.remixed_from_video_id, null);
  assert.equal(created.error, null);

  // The default timeline: queued for 1 s, then 9 s in progress.
  await session.advanceClock(1);
  let now = await openai.videos.retrieve(created.id);
  assert.deepEqual([now.status, now.progress], ['in_progress', 0]);
  await session.advanceClock(3);
  now = await openai.videos.retrieve(created.id);
  assert.deepEqual([now.status, now.progress], ['in_progress', 33]);
  await session.advanceClock(6);
  now = await openai.videos.retrieve(created.id);
  assert.deepEqual([now.status, now.progress], ['completed', 100]);
  assert.equal(now.completed_at, created.created_at + 10);
  assert.equal(now.expires_at, created.created_at + 10 + 86400);

  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.operation),
    ['openai.videos.create', 'openai.videos.retrieve', 'openai.videos.retrieve', 'openai.videos.retrieve'],
  );
  assert.equal(
    entries[0].request?.messages[0].parts[0].type === 'text' && entries[0].request.messages[0].parts[0].text,
    'a calico cat playing a piano',
  );
  await session.verify();
});

test('the content: an MP4 of the job’s duration and size, a WebP thumbnail, a JPEG spritesheet [openai-videos.content.json +]', async () => {
  const session = await mock.session('videos-content');
  const openai = clientOf(session);
  const job = await openai.videos.create({ prompt: 'waves', seconds: '12', size: '720x1280', model: 'sora-2-pro' });
  await session.advanceClock(10);
  const video = await openai.videos.downloadContent(job.id);
  assert.equal(video.headers.get('content-type'), 'video/mp4');
  const mp4 = await bytesOf(video);
  const metadata = await parseBuffer(mp4, { mimeType: 'video/mp4' });
  assert.equal(metadata.format.duration, 12);
  assert.equal(metadata.format.hasVideo, true);
  assert.equal(mp4.subarray(4, 8).toString('latin1'), 'ftyp');

  const thumbnail = await openai.videos.downloadContent(job.id, { variant: 'thumbnail' });
  assert.equal(thumbnail.headers.get('content-type'), 'image/webp');
  const webp = await bytesOf(thumbnail);
  assert.equal(webp.subarray(0, 4).toString('latin1'), 'RIFF');
  assert.equal(webp.subarray(8, 16).toString('latin1'), 'WEBPVP8L');
  assert.equal(webp.readUInt32LE(4), webp.length - 8, 'the RIFF size covers the file');
  // VP8L header: 14 bits of width - 1, then 14 of height - 1.
  const dims = webp.readUInt32LE(21);
  assert.deepEqual([(dims & 0x3fff) + 1, ((dims >> 14) & 0x3fff) + 1], [720, 1280]);

  const sprites = await openai.videos.downloadContent(job.id, { variant: 'spritesheet' });
  assert.equal(sprites.headers.get('content-type'), 'image/jpeg');
  const jpeg = await bytesOf(sprites);
  assert.deepEqual([...jpeg.subarray(0, 2)], [0xff, 0xd8]);
  assert.deepEqual([...jpeg.subarray(-2)], [0xff, 0xd9]);
});

test('content before the job completed is a 404, an unknown variant a 400 [openai-videos.content.json -]', async () => {
  const session = await mock.session('videos-content-early');
  const openai = clientOf(session);
  const job = await openai.videos.create({ prompt: 'slow' });
  const early = await refusal(openai.videos.downloadContent(job.id));
  assert.equal(early.status, 404);
  assert.match(early.message, /not ready yet/);
  await session.advanceClock(10);
  const variant = await refusal(openai.videos.downloadContent(job.id, { variant: 'poster' as 'video' }));
  assert.equal(variant.status, 400);
  assert.equal(variant.param, 'variant');
  assert.equal(variant.code, 'invalid_value');
  const missing = await refusal(openai.videos.downloadContent('video_nope'));
  assert.equal(missing.status, 404);
  const { entries } = await session.journal();
  assert.equal(entries.filter((e) => e.operation === 'openai.videos.content').length, 3);
});

test("OpenAI's 400s for a malformed create: seconds, size, model, prompt; none stores a job [openai-videos.create.json -]", async () => {
  const session = await mock.session('videos-malformed');
  const openai = clientOf(session);
  const seconds = await refusal(openai.videos.create({ prompt: 'x', seconds: '5' as '4' }));
  assert.equal(seconds.status, 400);
  assert.equal(seconds.param, 'seconds');
  assert.equal(seconds.code, 'invalid_value');
  assert.match(seconds.message, /Supported values are: '4', '8', and '12'/);
  const size = await refusal(openai.videos.create({ prompt: 'x', size: '640x480' as '720x1280' }));
  assert.equal(size.param, 'size');
  const model = await refusal(openai.videos.create({ prompt: 'x', model: 'veo-3' }));
  assert.equal(model.param, 'model');
  const empty = await refusal(openai.videos.create({ prompt: '' }));
  assert.equal(empty.param, 'prompt');
  assert.equal(empty.code, 'empty_string');
  // What the SDK's types do not let through.
  const response = await fetch(`${mock.url('openai')}/videos`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'sora-2' }),
  });
  assert.equal(response.status, 400);
  const body = (await response.json()) as { error: { code: string; param: string; type: string } };
  assert.deepEqual([body.error.code, body.error.param, body.error.type], ['missing_required_parameter', 'prompt', 'invalid_request_error']);
  assert.equal((await openai.videos.list()).data.length, 0);
  const { entries, counters } = await session.journal();
  const creates = entries.filter((e) => e.operation === 'openai.videos.create');
  assert.equal(creates.length, 5);
  assert.ok(creates.every((e) => e.status === 400));
  assert.ok(counters.invalid >= 5);
});

test('a JSON create with an input reference object, and a multipart upload [openai-videos.create.json +]', async () => {
  const session = await mock.session('videos-reference');
  const openai = clientOf(session);
  const upload = await openai.videos.create({
    prompt: 'from a picture',
    input_reference: await OpenAI.toFile(Buffer.alloc(64, 1), 'ref.png', { type: 'image/png' }),
  });
  assert.equal(upload.status, 'queued');
  const response = await fetch(`${mock.url('openai')}/videos`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'from a url', input_reference: { image_url: 'https://example.com/a.png' } }),
  });
  assert.equal(response.status, 200);
  const both = await fetch(`${mock.url('openai')}/videos`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'x', input_reference: { image_url: 'https://example.com/a.png', file_id: 'file-1' } }),
  });
  assert.equal(both.status, 400);
  assert.equal((await openai.videos.list()).data.length, 2);
});

test('list: newest first by default, asc on request, limit, and the SDK’s auto-paging over `after` [openai-videos.list.json +]', async () => {
  const session = await mock.session('videos-list');
  const openai = clientOf(session);
  const ids: string[] = [];
  for (let i = 0; i < 7; i++) ids.push((await openai.videos.create({ prompt: `clip ${i}` })).id);
  const desc = await openai.videos.list({ limit: 3 });
  assert.deepEqual(
    desc.data.map((v) => v.id),
    [ids[6], ids[5], ids[4]],
  );
  assert.equal(desc.has_more, true);
  assert.equal(desc.last_id, ids[4]);
  const next = await desc.getNextPage();
  assert.deepEqual(
    next.data.map((v) => v.id),
    [ids[3], ids[2], ids[1]],
  );
  const seen: string[] = [];
  for await (const video of openai.videos.list({ order: 'asc', limit: 2 })) seen.push(video.id);
  assert.deepEqual(seen, ids, 'auto-paging visits every job once, oldest first');
  const all = await openai.videos.list({ order: 'asc' });
  assert.equal(all.data.length, 7);
  assert.equal(all.has_more, false);
  const listed = (await session.journal()).entries.filter((e) => e.operation === 'openai.videos.list');
  assert.equal(listed.length, 1 + 1 + 4 + 1, 'two pages, four auto-paged pages, one whole list');
});

test("list's 400s: an unknown order, a limit past 100, a cursor that names no job [openai-videos.list.json -]", async () => {
  const session = await mock.session('videos-list-bad');
  const openai = clientOf(session);
  const order = await refusal(openai.videos.list({ order: 'newest' as 'asc' }));
  assert.equal(order.status, 400);
  assert.equal(order.param, 'order');
  const limit = await refusal(openai.videos.list({ limit: 101 }));
  assert.equal(limit.status, 400);
  assert.equal(limit.param, 'limit');
  const cursor = await refusal(openai.videos.list({ after: 'video_gone' }));
  assert.equal(cursor.status, 404);
});

test('delete answers the deleted object and frees the id; retrieve then 404s [openai-videos.delete.json +]', async () => {
  const session = await mock.session('videos-delete');
  const openai = clientOf(session);
  const job = await openai.videos.create({ prompt: 'to delete' });
  await session.advanceClock(10);
  const deleted = await openai.videos.delete(job.id);
  assert.deepEqual(deleted, { id: job.id, object: 'video.deleted', deleted: true });
  const gone = await refusal(openai.videos.retrieve(job.id));
  assert.equal(gone.status, 404);
  assert.equal(gone.type, 'invalid_request_error');
  assert.equal((await openai.videos.list()).data.length, 0);
});

test('delete of a job still running is a 400, of an unknown id a 404 [openai-videos.delete.json -]', async () => {
  const session = await mock.session('videos-delete-bad');
  const openai = clientOf(session);
  const job = await openai.videos.create({ prompt: 'running' });
  const running = await refusal(openai.videos.delete(job.id));
  assert.equal(running.status, 400);
  assert.match(running.message, /queued/);
  const unknown = await refusal(openai.videos.delete('video_unknown'));
  assert.equal(unknown.status, 404);
  assert.equal((await openai.videos.retrieve(job.id)).id, job.id, 'the job is still there');
});

test('remix makes a new job from a completed one, with remixed_from_video_id [openai-videos.remix.json +]', async () => {
  const session = await mock.session('videos-remix');
  const openai = clientOf(session);
  const source = await openai.videos.create({ prompt: 'a fox', seconds: '8', size: '1792x1024', model: 'sora-2-pro' });
  await session.advanceClock(10);
  const remix = await openai.videos.remix(source.id, { prompt: 'a fox, in snow' });
  assert.notEqual(remix.id, source.id);
  assert.equal(remix.remixed_from_video_id, source.id);
  assert.deepEqual(
    [remix.status, remix.prompt, remix.model, remix.seconds, remix.size],
    ['queued', 'a fox, in snow', 'sora-2-pro', '8', '1792x1024'],
  );
  const last = (await session.journal()).entries.at(-1);
  assert.equal(last?.operation, 'openai.videos.remix');
  assert.equal((await openai.videos.list()).data.length, 2);
});

test('remix of a job not completed is a 400, of an unknown one a 404, without a prompt a 400 [openai-videos.remix.json -]', async () => {
  const session = await mock.session('videos-remix-bad');
  const openai = clientOf(session);
  const source = await openai.videos.create({ prompt: 'unfinished' });
  const early = await refusal(openai.videos.remix(source.id, { prompt: 'again' }));
  assert.equal(early.status, 400);
  const unknown = await refusal(openai.videos.remix('video_none', { prompt: 'again' }));
  assert.equal(unknown.status, 404);
  await session.advanceClock(10);
  const empty = await refusal(openai.videos.remix(source.id, { prompt: '' }));
  assert.equal(empty.status, 400);
  assert.equal(empty.param, 'prompt');
  assert.equal((await openai.videos.list()).data.length, 1);
});

test('a scripted timeline and bytes per prompt (and model); a scripted failure reports its error [openai-videos.scripted.json +]', async () => {
  const session = await mock.session('videos-scripted');
  await session.load({
    scenarios: [],
    videos: [
      {
        prompt: { contains: 'fails' },
        queuedSeconds: 0,
        runSeconds: 4,
        outcome: 'failed',
        failure: { code: 'moderation_blocked', message: 'blocked' },
      },
      {
        prompt: 'custom',
        model: 'sora-2-pro',
        queuedSeconds: 5,
        runSeconds: 20,
        content: { video: Buffer.from('VIDEO').toString('base64') },
      },
    ],
  });
  const openai = clientOf(session);
  const failing = await openai.videos.create({ prompt: 'this one fails' });
  assert.equal(failing.status, 'in_progress', 'no queue time');
  const custom = await openai.videos.create({ prompt: 'custom', model: 'sora-2-pro' });
  const other = await openai.videos.create({ prompt: 'custom' });
  await session.advanceClock(10);
  const failed = await openai.videos.retrieve(failing.id);
  assert.deepEqual([failed.status, failed.error], ['failed', { code: 'moderation_blocked', message: 'blocked' }]);
  assert.equal(failed.completed_at, null);
  const noContent = await openai.videos.downloadContent(failing.id).then(
    () => assert.fail('a failed video has content'),
    (error: unknown) => error,
  );
  assert.ok(noContent instanceof OpenAI.NotFoundError, String(noContent));
  assert.match(noContent.message, /failed: it has no content/);
  const half = await openai.videos.retrieve(custom.id);
  assert.deepEqual([half.status, half.progress], ['in_progress', 25]);
  assert.equal((await openai.videos.retrieve(other.id)).status, 'completed', 'the model differs: the default timeline');
  await session.advanceClock(15);
  const content = await openai.videos.downloadContent(custom.id);
  assert.equal((await bytesOf(content)).toString(), 'VIDEO');
});

test("a scripted error answers the create in OpenAI's shape and stores nothing [openai-videos.scripted.json -]", async () => {
  const session = await mock.session('videos-scripted-error');
  await session.load({
    scenarios: [],
    videos: [{ prompt: 'limited', error: { status: 429, message: 'Rate limit reached', code: 'rate_limit_exceeded', type: 'requests' } }],
  });
  const openai = clientOf(session);
  const limited = await refusal(openai.videos.create({ prompt: 'limited' }));
  assert.equal(limited.status, 429);
  assert.equal(limited.code, 'rate_limit_exceeded');
  assert.equal(limited.type, 'requests');
  assert.equal((await openai.videos.list()).data.length, 0);
  const entry = (await session.journal()).entries[0];
  assert.equal(entry.operation, 'openai.videos.create');
  assert.equal(entry.status, 429);
  const report = await session.check();
  assert.equal(report.ok, true, `a scripted error is the script, not a problem: ${report.report}`);
});

test('scripted downloads: an error instead of the bytes, a fault part-way, a delay the client outwaits [openai-videos.scripted.json -]', async () => {
  const session = await mock.session('videos-download-script');
  await session.load({
    scenarios: [],
    videos: [
      { prompt: 'gone', download: { error: { status: 503, message: 'Storage is unavailable', code: 'storage_unavailable' } } },
      { prompt: 'broken', download: { fault: { kind: 'reset', afterBytes: 100 } } },
      { prompt: 'slow', download: { delayMs: 1500 } },
    ],
  });
  const openai = clientOf(session);
  const [gone, broken, slow] = [
    await openai.videos.create({ prompt: 'gone' }),
    await openai.videos.create({ prompt: 'broken' }),
    await openai.videos.create({ prompt: 'slow' }),
  ];
  await session.advanceClock(10);
  const unavailable = await refusal(openai.videos.downloadContent(gone.id));
  assert.deepEqual([unavailable.status, unavailable.code], [503, 'storage_unavailable']);
  await assert.rejects(async () => bytesOf(await openai.videos.downloadContent(broken.id)));
  await assert.rejects(
    clientOf(session, 300).videos.downloadContent(slow.id),
    (e: unknown) => e instanceof OpenAI.APIConnectionTimeoutError,
  );
  assert.equal((await openai.videos.retrieve(gone.id)).status, 'completed', 'the job itself is unharmed');
  const downloads = (await session.journal()).entries.filter((e) => e.operation === 'openai.videos.content');
  assert.equal(downloads[0].status, 503);
});

// The Gemini API's Veo video generation judged by @google/genai over HTTP: generateVideos starts an
// operation (with @google/genai 3, which keeps generateVideos for Vertex AI, the test sends that
// request itself, as the SDK 2 sends it), getVideosOperation polls it until it is done as the
// session clock moves, and files.download writes the sample's MP4 (music-metadata reads the asked
// duration). Google's 400s
// for a malformed request, a scripted failure as the operation's error, a scripted create error,
// and the capacity budget's 409 in Google's shape (the store is the session's, shared with
// OpenAI's and Azure's video routes).

import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { ApiError, GenerateVideosOperation, GoogleGenAI, type GenerateVideosParameters } from '@google/genai';
import { parseBuffer } from 'music-metadata';
import OpenAI from 'openai';

import { startUnderstudy, type Understudy } from '../src/client/index.js';
import { geminiClient, vertexClient } from './support/gemini-clients.js';
import { GENAI_DEFAULT_API_VERSION, GENAI_GENERATES_VIDEOS_ON_GEMINI_API } from './support/sdk-versions.js';

let mock: Understudy;
let dir: string;
before(async () => {
  mock = await startUnderstudy();
  dir = await mkdtemp(join(tmpdir(), 'understudy-veo-'));
});
after(async () => {
  await mock.close();
  await rm(dir, { recursive: true, force: true });
});

const MODEL = 'veo-3.0-generate-001';

/** generateVideos with the SDK where it calls the Gemini API (2); else the body SDK 2 sends, and
 * the operation as the SDK would hold it. */
async function generateVideos(
  ai: GoogleGenAI,
  apiKey: string,
  params: GenerateVideosParameters,
  timeoutMs = 10_000,
): Promise<GenerateVideosOperation> {
  if (GENAI_GENERATES_VIDEOS_ON_GEMINI_API) return ai.models.generateVideos(params);
  await assert.rejects(ai.models.generateVideos(params), /only supported by the Gemini Enterprise Agent Platform/);
  const config = params.config ?? {};
  const parameters = {
    ...(config.numberOfVideos !== undefined && { sampleCount: config.numberOfVideos }),
    ...(config.durationSeconds !== undefined && { durationSeconds: config.durationSeconds }),
    ...(config.aspectRatio !== undefined && { aspectRatio: config.aspectRatio }),
  };
  const response = await fetch(`${mock.url('gemini')}/${GENAI_DEFAULT_API_VERSION}/models/${params.model}:predictLongRunning`, {
    method: 'POST',
    headers: { 'x-goog-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ instances: [{ prompt: params.source?.prompt }], ...(Object.keys(parameters).length > 0 && { parameters }) }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await response.json()) as { name?: string; error?: { code: number; message: string; status: string } };
  if (!response.ok) throw new ApiError({ message: JSON.stringify(body), status: response.status });
  return Object.assign(new GenerateVideosOperation(), { name: body.name });
}

async function refusal(call: Promise<unknown>): Promise<ApiError> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
    return error;
  }
  assert.fail('the call succeeded');
}

test('generateVideos → getVideosOperation until done → files.download writes the MP4 [gemini.videos.json +]', async () => {
  const session = await mock.session('veo');
  const ai = geminiClient(mock, session);
  let operation = await generateVideos(ai, session.apiKey, {
    model: MODEL,
    source: { prompt: 'a paper boat on a river' },
    config: { numberOfVideos: 2, durationSeconds: 6, aspectRatio: '9:16' },
  });
  assert.match(operation.name ?? '', new RegExp(`^models/${MODEL}/operations/[a-z0-9]+$`));
  assert.ok(!operation.done);
  operation = await ai.operations.getVideosOperation({ operation });
  assert.ok(!operation.done, 'not done before the clock moves');
  await session.advanceClock(10);
  operation = await ai.operations.getVideosOperation({ operation });
  assert.equal(operation.done, true);
  const videos = operation.response?.generatedVideos ?? [];
  assert.equal(videos.length, 2);
  assert.match(videos[0].video?.uri ?? '', /\/files\/[a-z0-9]+:download\?alt=media$/);
  const downloadPath = join(dir, 'boat.mp4');
  await ai.files.download({ file: videos[1], downloadPath });
  const mp4 = await readFile(downloadPath);
  const metadata = await parseBuffer(mp4, { mimeType: 'video/mp4' });
  assert.equal(metadata.format.duration, 6);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.operation),
    ['gemini.predictLongRunning', 'gemini.operations.get', 'gemini.operations.get', 'gemini.files.download'],
  );
  assert.equal(entries[0].route, `POST /${GENAI_DEFAULT_API_VERSION}/models/${MODEL}:predictLongRunning`);
  assert.equal(entries[0].request?.model, MODEL);
});

test("Google's 400s for a malformed request, 404s for an unknown operation and a file not ready [gemini.videos.json -]", async () => {
  const session = await mock.session('veo-bad');
  const ai = geminiClient(mock, session);
  const duration = await refusal(
    generateVideos(ai, session.apiKey, { model: MODEL, source: { prompt: 'x' }, config: { durationSeconds: 30 } }),
  );
  assert.equal(duration.status, 400);
  assert.match(duration.message, /duration_seconds/);
  const aspect = await refusal(
    generateVideos(ai, session.apiKey, { model: MODEL, source: { prompt: 'x' }, config: { aspectRatio: '4:3' } }),
  );
  assert.equal(aspect.status, 400);
  assert.match(aspect.message, /INVALID_ARGUMENT/);
  const unknown = await fetch(`${mock.url('gemini')}/v1beta/models/${MODEL}:predictLongRunning`, {
    method: 'POST',
    headers: { 'x-goog-api-key': session.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ instances: [{ prompt: 'x' }], parameters: { fps: 24 } }),
  });
  assert.equal(unknown.status, 400);
  const body = (await unknown.json()) as { error: { status: string; message: string } };
  assert.equal(body.error.status, 'INVALID_ARGUMENT');
  assert.match(body.error.message, /Unknown name "fps"/);
  const missing = await refusal(
    ai.operations.getVideosOperation({ operation: Object.assign(Object.create(null), { name: `models/${MODEL}/operations/nope` }) }),
  );
  assert.equal(missing.status, 404);
  const started = await generateVideos(ai, session.apiKey, { model: MODEL, source: { prompt: 'early' } });
  const early = await fetch(`${mock.url('gemini')}/v1beta/files/${started.name?.split('/').pop()}v0:download?alt=media`, {
    headers: { 'x-goog-api-key': session.apiKey },
  });
  assert.equal(early.status, 404);
});

test('a scripted failure is the done operation’s error; a scripted create error is Google’s error [gemini.videos.json -]', async () => {
  const session = await mock.session('veo-scripted');
  await session.load({
    scenarios: [],
    videos: [
      { prompt: 'blocked', outcome: 'failed', failure: { code: 'SAFETY', message: 'The prompt was blocked.' } },
      { prompt: 'busy', error: { status: 429, message: 'Resource has been exhausted', code: 'RESOURCE_EXHAUSTED' } },
      {
        prompt: 'no file',
        download: { error: { status: 403, message: 'The caller does not have permission', code: 'PERMISSION_DENIED' } },
      },
    ],
  });
  const ai = geminiClient(mock, session);
  let operation = await generateVideos(ai, session.apiKey, { model: MODEL, source: { prompt: 'blocked' } });
  await session.advanceClock(10);
  operation = await ai.operations.getVideosOperation({ operation });
  assert.equal(operation.done, true);
  assert.equal((operation.error as { message?: string } | undefined)?.message, 'The prompt was blocked.');
  assert.equal(operation.response, undefined);
  const busy = await refusal(generateVideos(ai, session.apiKey, { model: MODEL, source: { prompt: 'busy' } }));
  assert.equal(busy.status, 429);
  assert.match(busy.message, /RESOURCE_EXHAUSTED/);
  let denied = await generateVideos(ai, session.apiKey, { model: MODEL, source: { prompt: 'no file' } });
  await session.advanceClock(10);
  denied = await ai.operations.getVideosOperation({ operation: denied });
  const video = denied.response?.generatedVideos?.[0];
  assert.ok(video, 'the operation is done');
  const forbidden = await refusal(ai.files.download({ file: video, downloadPath: join(dir, 'denied.mp4') }));
  assert.equal(forbidden.status, 403);
});

test('the capacity budget: a full store answers Google’s 409 with reason video_capacity_exceeded; it is shared with OpenAI’s routes [gemini.videos.json +]', async () => {
  const session = await mock.session('veo-capacity', { videoCapacity: { maxJobs: 1 } });
  const ai = geminiClient(mock, session);
  const first = await generateVideos(ai, session.apiKey, { model: MODEL, source: { prompt: 'one' } });
  const full = await fetch(`${mock.url('gemini')}/v1beta/models/${MODEL}:predictLongRunning`, {
    method: 'POST',
    headers: { 'x-goog-api-key': session.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ instances: [{ prompt: 'two' }] }),
  });
  assert.equal(full.status, 409);
  const body = (await full.json()) as { error: { code: number; status: string; details: { reason: string }[] } };
  assert.deepEqual(
    [body.error.code, body.error.status, body.error.details[0].reason],
    [409, 'RESOURCE_EXHAUSTED', 'video_capacity_exceeded'],
  );
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  await assert.rejects(openai.videos.create({ prompt: 'three' }), (e: unknown) => e instanceof OpenAI.APIError && e.status === 409);
  assert.equal((await ai.operations.getVideosOperation({ operation: first })).name, first.name, 'the stored operation stays');
  await session.reset();
  await generateVideos(ai, session.apiKey, { model: MODEL, source: { prompt: 'after reset' } });
});

test('a create its client leaves during a scripted delay stores nothing and frees its place [gemini.videos.json -]', async () => {
  const session = await mock.session('veo-delay', { videoCapacity: { maxJobs: 1 } });
  await session.load({ scenarios: [], videos: [{ prompt: 'slow', delayMs: 1500 }] });
  const hasty = new GoogleGenAI({ apiKey: session.apiKey, httpOptions: { baseUrl: mock.url('gemini'), timeout: 200 } });
  await assert.rejects(generateVideos(hasty, session.apiKey, { model: MODEL, source: { prompt: 'slow' } }, 200));
  await new Promise((resolve) => setTimeout(resolve, 1800));
  const ai = geminiClient(mock, session);
  const next = await generateVideos(ai, session.apiKey, { model: MODEL, source: { prompt: 'quick' } });
  assert.match(next.name ?? '', /operations\/[a-z0-9]+0001$/, 'the first id: the abandoned create took none');
});

test('Vertex AI: generateVideos → getVideosOperation (fetchPredictOperation) → the MP4 inline, or a Cloud Storage URI [vertex.videos.json +]', async () => {
  const session = await mock.session('veo-vertex');
  const ai = vertexClient(mock, session);
  let operation = await ai.models.generateVideos({
    model: MODEL,
    source: { prompt: 'a heron' },
    config: { durationSeconds: 4, generateAudio: true },
  });
  assert.match(
    operation.name ?? '',
    new RegExp(`^projects/my-proj/locations/us-central1/publishers/google/models/${MODEL}/operations/[a-z0-9]+$`),
  );
  operation = await ai.operations.getVideosOperation({ operation });
  assert.ok(!operation.done);
  await session.advanceClock(10);
  operation = await ai.operations.getVideosOperation({ operation });
  assert.equal(operation.done, true);
  const bytes = operation.response?.generatedVideos?.[0]?.video?.videoBytes;
  assert.equal(typeof bytes, 'string');
  const metadata = await parseBuffer(Buffer.from(bytes as string, 'base64'), { mimeType: 'video/mp4' });
  assert.equal(metadata.format.duration, 4);
  let stored = await ai.models.generateVideos({
    model: MODEL,
    source: { prompt: 'to storage' },
    config: { outputGcsUri: 'gs://bucket/out/' },
  });
  await session.advanceClock(10);
  stored = await ai.operations.getVideosOperation({ operation: stored });
  assert.match(stored.response?.generatedVideos?.[0]?.video?.uri ?? '', /^gs:\/\/bucket\/out\/[a-z0-9]+\/sample_0\.mp4$/);
  const { entries } = await session.journal();
  assert.deepEqual([...new Set(entries.map((e) => e.operation))], ['vertex.predictLongRunning', 'vertex.fetchPredictOperation']);
});

test("Vertex AI: Google's 400 for an unknown field, 404 for an operation it never made [vertex.videos.json -]", async () => {
  const session = await mock.session('veo-vertex-bad');
  const ai = vertexClient(mock, session);
  const base = `${mock.url('vertex')}/v1beta1/projects/my-proj/locations/us-central1/publishers/google/models/${MODEL}`;
  const headers = { authorization: `Bearer ${session.apiKey}`, 'content-type': 'application/json' };
  const unknown = await fetch(`${base}:predictLongRunning`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ instances: [{ prompt: 'x' }], parameters: { frames: 3 } }),
  });
  assert.equal(unknown.status, 400);
  const missing = await refusal(
    ai.operations.getVideosOperation({
      operation: Object.assign(new GenerateVideosOperation(), {
        name: `projects/my-proj/locations/us-central1/publishers/google/models/${MODEL}/operations/nope`,
      }),
    }),
  );
  assert.equal(missing.status, 404);
  const short = await refusal(ai.models.generateVideos({ model: MODEL, source: { prompt: 'x' }, config: { durationSeconds: 2 } }));
  assert.equal(short.status, 400);
});

// Azure OpenAI's audio routes judged by the openai SDK's AzureOpenAI (deployment routes, a dated
// api-version: the deployment is the model) and by the openai client on Azure's v1 routes: speech
// read by music-metadata, a transcription scripted per file; the service's api-version errors in
// Azure's shape, and a scripted error.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import OpenAI, { AzureOpenAI, toFile } from 'openai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { assertDuration } from './support/audio-checks.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const azureFor = (s: UnderstudySession, deployment: string, apiVersion = '2024-10-21') =>
  new AzureOpenAI({ endpoint: mock.url('azure'), apiKey: s.apiKey, apiVersion, deployment, maxRetries: 0, timeout: 10_000 });
const v1For = (s: UnderstudySession) => new OpenAI({ baseURL: mock.url('azure-v1'), apiKey: s.apiKey, maxRetries: 0, timeout: 10_000 });

async function refusal(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof OpenAI.APIError, `expected an APIError, got ${String(error)}`);
    return error;
  }
  assert.fail('the call succeeded');
}

test('AzureOpenAI speech and transcription on deployment routes, and the v1 routes [azure.audio.json +]', async () => {
  const session = await mock.session('azure-audio');
  await session.load({ scenarios: [], transcriptions: [{ model: 'whisper-deploy', text: 'Scripted for the deployment.' }] });
  const speech = await azureFor(session, 'tts-deploy').audio.speech.create({
    model: 'tts-1',
    input: 'five words in this input',
    voice: 'alloy',
    response_format: 'flac',
  });
  assert.equal(speech.headers.get('content-type'), 'audio/flac');
  await assertDuration(new Uint8Array(await speech.arrayBuffer()), 'audio/flac', 2, 0.01);
  const transcript = await azureFor(session, 'whisper-deploy').audio.transcriptions.create({
    file: await toFile(Buffer.from('a'), 'call.wav'),
    model: 'whisper-1',
  });
  assert.equal(transcript.text, 'Scripted for the deployment.', 'the deployment is the model the script matches');
  const translated = await azureFor(session, 'other').audio.translations.create({
    file: await toFile(Buffer.from('a'), 'call.wav'),
    model: 'whisper-1',
  });
  assert.equal(translated.text, 'Understudy transcript of call.wav.');
  const v1 = await v1For(session).audio.transcriptions.create({
    file: await toFile(Buffer.from('a'), 'call.wav'),
    model: 'gpt-4o-transcribe',
    response_format: 'text',
  });
  assert.equal(v1, 'Understudy transcript of call.wav.\n');
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.operation, e.route.split('?')[0], e.request?.model, e.status]),
    [
      ['azure.audio.speech', 'POST /azure/openai/deployments/tts-deploy/audio/speech', 'tts-deploy', 200],
      ['azure.audio.transcriptions', 'POST /azure/openai/deployments/whisper-deploy/audio/transcriptions', 'whisper-deploy', 200],
      ['azure.audio.translations', 'POST /azure/openai/deployments/other/audio/translations', 'other', 200],
      ['azure-v1.audio.transcriptions', 'POST /azure/openai/v1/audio/transcriptions', 'gpt-4o-transcribe', 200],
    ],
  );
});

test("Azure's api-version errors, OpenAI's 400 for the body, a scripted error [azure.audio.json -]", async () => {
  const session = await mock.session('azure-audio-refused');
  const unknown = await refusal(
    azureFor(session, 'tts-deploy', '2023-01-01').audio.speech.create({ model: 'tts-1', input: 'x', voice: 'alloy' }),
  );
  assert.equal(unknown.status, 400);
  assert.match(unknown.message, /API version not supported/);
  const response = await fetch(`${mock.url('azure')}/openai/deployments/tts-deploy/audio/speech`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'api-key': session.apiKey },
    body: JSON.stringify({ input: 'x', voice: 'alloy' }),
    signal: AbortSignal.timeout(10_000),
  });
  assert.equal(response.status, 404, 'no api-version at all is the service 404');
  assert.deepEqual(await response.json(), { error: { code: '404', message: 'Resource not found' } });
  const badVoice = await refusal(azureFor(session, 'tts-deploy').audio.speech.create({ model: 'tts-1', input: 'x', voice: 'nobody' }));
  assert.equal(badVoice.status, 400);
  assert.equal(badVoice.param, 'voice');
  await session.load({
    scenarios: [],
    transcriptions: [{ fileName: 'call.wav', error: { status: 429, message: 'Rate limit.', code: '429' } }],
  });
  const limited = await refusal(
    azureFor(session, 'whisper-deploy').audio.transcriptions.create({
      file: await toFile(Buffer.from('a'), 'call.wav'),
      model: 'whisper-1',
    }),
  );
  assert.ok(limited instanceof OpenAI.RateLimitError);
  assert.equal((await session.journal()).entries.length, 4);
});

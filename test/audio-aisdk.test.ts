// The Vercel AI SDK's `experimental_generateSpeech` and `experimental_transcribe` with
// @ai-sdk/openai over HTTP: the speech it gets is a WAV music-metadata reads at the implied
// duration; that WAV, uploaded back, gets the transcript scripted for its SHA-256 with the
// segments, language and duration the SDK reads from verbose_json; a scripted error is the SDK's
// APICallError and an empty transcript ai 6's NoTranscriptGeneratedError (ai 7 returns it).

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, test } from 'node:test';

import { createOpenAI } from '@ai-sdk/openai';
import {
  APICallError,
  experimental_generateSpeech as generateSpeech,
  experimental_transcribe as transcribe,
  NoTranscriptGeneratedError,
} from 'ai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { assertDuration } from './support/audio-checks.js';
import { AI_REFUSES_EMPTY_TRANSCRIPTS } from './support/sdk-versions.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const provider = (session: UnderstudySession) => createOpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey });
const timed = () => ({ maxRetries: 0, abortSignal: AbortSignal.timeout(10_000) });

test('generateSpeech gets a WAV of the implied duration [aisdk-openai.speech.json +]', async () => {
  const session = await mock.session('aisdk-speech');
  const { audio } = await generateSpeech({
    model: provider(session).speech('gpt-4o-mini-tts'),
    text: 'one two three four five',
    voice: 'nova',
    outputFormat: 'wav',
    speed: 0.5,
    ...timed(),
  });
  assert.equal(audio.mediaType, 'audio/wav');
  await assertDuration(audio.uint8Array, 'audio/wav', 4, 0.01);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.operation, e.status, e.request?.messages[0].parts]),
    [['openai.audio.speech', 200, [{ type: 'text', text: 'one two three four five' }]]],
  );
});

test("a scripted speech error is the SDK's APICallError with its status [aisdk-openai.speech.json -]", async () => {
  const session = await mock.session('aisdk-speech-error');
  await session.load({
    scenarios: [],
    speech: [{ voice: 'nova', error: { status: 429, message: 'Slow down.', code: 'rate_limit_exceeded' } }],
  });
  const error = await generateSpeech({ model: provider(session).speech('tts-1'), text: 'hi', voice: 'nova', ...timed() }).then(
    () => assert.fail('the call succeeded'),
    (e: unknown) => e,
  );
  assert.ok(APICallError.isInstance(error), String(error));
  assert.equal(error.statusCode, 429);
  assert.match(error.message, /Slow down/);
});

test('transcribe: the WAV it made gets the transcript scripted for its SHA-256, with segments [aisdk-openai.transcription.json +]', async () => {
  const session = await mock.session('aisdk-transcribe');
  const { audio } = await generateSpeech({
    model: provider(session).speech('tts-1'),
    text: 'a b c d e',
    voice: 'alloy',
    outputFormat: 'wav',
    ...timed(),
  });
  const sha256 = createHash('sha256').update(audio.uint8Array).digest('hex');
  await session.load({
    scenarios: [],
    transcriptions: [
      {
        sha256,
        segments: [
          { start: 0, end: 1.5, text: 'A b c.' },
          { start: 1.5, end: 2, text: 'D e.' },
        ],
      },
    ],
  });
  const result = await transcribe({
    model: provider(session).transcription('whisper-1'),
    audio: audio.uint8Array,
    providerOptions: { openai: { timestampGranularities: ['segment'] } },
    ...timed(),
  });
  assert.equal(result.text, 'A b c. D e.');
  assert.deepEqual(result.segments, [
    { text: ' A b c.', startSecond: 0, endSecond: 1.5 },
    { text: ' D e.', startSecond: 1.5, endSecond: 2 },
  ]);
  assert.equal(result.language, 'en');
  assert.equal(result.durationInSeconds, 2);
  const plain = await transcribe({ model: provider(session).transcription('gpt-4o-transcribe'), audio: audio.uint8Array, ...timed() });
  assert.equal(plain.text, 'A b c. D e.');
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.operation, e.status]),
    [
      ['openai.audio.speech', 200],
      ['openai.audio.transcriptions', 200],
      ['openai.audio.transcriptions', 200],
    ],
  );
  assert.deepEqual(entries[1].request?.messages[0].parts, [{ type: 'text', text: `audio.wav (sha256 ${sha256})` }]);
});

test('an empty transcript is NoTranscriptGeneratedError (ai 6); a scripted 400 is APICallError [aisdk-openai.transcription.json -]', async () => {
  const session = await mock.session('aisdk-transcribe-refused');
  await session.load({
    scenarios: [],
    transcriptions: [
      { model: 'whisper-1', text: '' },
      {
        model: 'gpt-4o-transcribe',
        error: { status: 400, message: 'Audio file might be corrupted or unsupported', type: 'invalid_request_error' },
      },
    ],
  });
  const audio = new Uint8Array([1, 2, 3]);
  const empty = transcribe({ model: provider(session).transcription('whisper-1'), audio, ...timed() });
  if (AI_REFUSES_EMPTY_TRANSCRIPTS) await assert.rejects(empty, (e: unknown) => NoTranscriptGeneratedError.isInstance(e));
  else assert.equal((await empty).text, '', 'ai 7 hands an empty transcript back');
  const error = await transcribe({ model: provider(session).transcription('gpt-4o-transcribe'), audio, ...timed() }).then(
    () => assert.fail('the call succeeded'),
    (e: unknown) => e,
  );
  assert.ok(APICallError.isInstance(error), String(error));
  assert.equal(error.statusCode, 400);
  assert.match(error.message, /might be corrupted/);
});

// Groq's audio on its OpenAI-compatible base judged by groq-sdk over HTTP: speech in its formats
// and sample rates (read by music-metadata), transcriptions and translations with its Whisper
// models (json with `x_groq`, verbose_json, text; no usage), journalled as groq.audio.*; its
// refusals (srt, mulaw, a url) as the SDK's BadRequestError.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import Groq, { toFile } from 'groq-sdk';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { assertDuration, audioFormat } from './support/audio-checks.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const client = (session: UnderstudySession) =>
  new Groq({ baseURL: mock.url('groq'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });

async function refused(call: Promise<unknown>): Promise<InstanceType<typeof Groq.APIError>> {
  const error = await call.then(
    () => assert.fail('the call succeeded'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof Groq.APIError, String(error));
  return error;
}

test('speech in wav (its default, at the asked sample rate), mp3, flac and ogg; Whisper transcripts and translations [groq.audio.json +]', async () => {
  const session = await mock.session('groq-audio');
  await session.load({ scenarios: [], transcriptions: [{ fileName: 'memo.m4a', text: 'Hola. Adiós.', language: 'spanish' }] });
  const groq = client(session);
  const input = 'five words for groq here';
  const wav = await groq.audio.speech.create({ model: 'playai-tts', voice: 'Fritz-PlayAI', input, sample_rate: 16000 });
  assert.equal(wav.headers.get('content-type'), 'audio/wav');
  const wavBytes = new Uint8Array(await wav.arrayBuffer());
  assert.equal((await audioFormat(wavBytes, 'audio/wav')).sampleRate, 16_000);
  await assertDuration(wavBytes, 'audio/wav', 2, 0.01);
  for (const [format, mime] of [
    ['mp3', 'audio/mpeg'],
    ['flac', 'audio/flac'],
    ['ogg', 'audio/ogg'],
  ] as const) {
    const response = await groq.audio.speech.create({ model: 'playai-tts', voice: 'Fritz-PlayAI', input, response_format: format });
    assert.equal(response.headers.get('content-type'), mime);
    await assertDuration(new Uint8Array(await response.arrayBuffer()), mime, 2, 0.05);
  }

  const file = () => toFile(Buffer.from('m4a bytes'), 'memo.m4a');
  const json = (await groq.audio.transcriptions.create({ file: await file(), model: 'whisper-large-v3-turbo' })) as unknown as Record<
    string,
    unknown
  >;
  assert.equal(json.text, 'Hola. Adiós.');
  assert.equal(json.usage, undefined, 'Groq answers no usage');
  assert.match((json.x_groq as { id: string }).id, /^req_(?!req_)/, 'one req_ prefix');
  const verbose = (await groq.audio.transcriptions.create({
    file: await file(),
    model: 'whisper-large-v3',
    response_format: 'verbose_json',
    timestamp_granularities: ['word', 'segment'],
  })) as unknown as { language: string; segments: { text: string }[]; words: unknown[]; duration: number };
  assert.equal(verbose.language, 'spanish');
  assert.deepEqual(
    verbose.segments.map((s) => s.text),
    [' Hola.', ' Adiós.'],
  );
  assert.equal(verbose.words.length, 2);
  assert.equal(verbose.duration, 0.8);
  const text = await groq.audio.transcriptions.create({ file: await file(), model: 'whisper-large-v3', response_format: 'text' });
  assert.equal(text as unknown, 'Hola. Adiós.\n');
  const english = await groq.audio.translations.create({ file: await toFile(Buffer.from('x'), 'other.wav'), model: 'whisper-large-v3' });
  assert.equal(english.text, 'Understudy transcript of other.wav.');
  const { entries } = await session.journal();
  assert.deepEqual(
    [...new Set(entries.map((e) => `${e.operation} ${e.route} ${e.status}`))],
    [
      'groq.audio.speech POST /groq/openai/v1/audio/speech 200',
      'groq.audio.transcriptions POST /groq/openai/v1/audio/transcriptions 200',
      'groq.audio.translations POST /groq/openai/v1/audio/translations 200',
    ],
  );
});

test("srt, mulaw and a url are refused as Groq's BadRequestError; a scripted error [groq.audio.json -]", async () => {
  const session = await mock.session('groq-audio-refused');
  const groq = client(session);
  const srt = await refused(
    groq.audio.transcriptions.create({
      file: await toFile(Buffer.from('a'), 'a.wav'),
      model: 'whisper-large-v3',
      response_format: 'srt' as 'json',
    }),
  );
  assert.ok(srt instanceof Groq.BadRequestError);
  assert.match(srt.message, /response_format 'srt' is not supported/);
  const mulaw = await refused(
    groq.audio.speech.create({ model: 'playai-tts', voice: 'Fritz-PlayAI', input: 'x', response_format: 'mulaw' }),
  );
  assert.ok(mulaw instanceof Groq.BadRequestError);
  assert.match(mulaw.message, /does not answer response_format 'mulaw'/);
  const url = await refused(groq.audio.transcriptions.create({ url: 'https://example.com/a.wav', model: 'whisper-large-v3' }));
  assert.match(url.message, /nothing leaves the machine/);
  await session.load({
    scenarios: [],
    speech: [{ input: 'quota', error: { status: 429, message: 'Rate limit reached.', code: 'rate_limit_exceeded' } }],
  });
  const limited = await refused(groq.audio.speech.create({ model: 'playai-tts', voice: 'Fritz-PlayAI', input: 'quota' }));
  assert.ok(limited instanceof Groq.RateLimitError);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.status),
    [400, 400, 400, 429],
  );
});

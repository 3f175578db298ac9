// OpenAI's `POST /v1/audio/speech` judged by the real openai SDK over HTTP: every format it claims
// is read by music-metadata (a real parser of those containers) with the duration the input text
// implies; scripted audio comes back byte for byte; `stream_format: sse` carries the same audio as
// base64 deltas and a usage event; malformed requests get OpenAI's 400; scripted errors, faults and
// delays play out; every request is journalled.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import OpenAI, { toFile } from 'openai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { assertDuration, audioFormat, SPEECH_MIME, sseData } from './support/audio-checks.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const clientOf = (session: UnderstudySession, timeout = 10_000) =>
  new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout });

async function refusal(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof OpenAI.APIError, `expected an APIError, got ${String(error)}`);
    return error;
  }
  assert.fail('the call succeeded');
}

// Ten words: four seconds at 2.5 words a second.
const TEN_WORDS = 'one two three four five six seven eight nine ten';
const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer());

test('every format is a container music-metadata reads, as long as the input takes to read [openai-audio.speech.json +]', async () => {
  const session = await mock.session('speech-formats');
  const openai = clientOf(session);
  for (const format of ['mp3', 'opus', 'flac', 'wav'] as const) {
    const response = await openai.audio.speech.create({ model: 'tts-1', input: TEN_WORDS, voice: 'alloy', response_format: format });
    assert.equal(response.headers.get('content-type'), SPEECH_MIME[format]);
    const bytes = await bytesOf(response);
    await assertDuration(bytes, SPEECH_MIME[format], 4, 0.05);
    const read = await audioFormat(bytes, SPEECH_MIME[format]);
    assert.equal(read.sampleRate, 24_000, format);
    assert.equal(read.numberOfChannels, 1, format);
  }
  // ADTS AAC: music-metadata skips the frames it syncs on, so it reads a little under four seconds.
  const aac = await bytesOf(await openai.audio.speech.create({ model: 'tts-1', input: TEN_WORDS, voice: 'alloy', response_format: 'aac' }));
  const aacFormat = await audioFormat(aac, 'audio/aac');
  assert.equal(aacFormat.codec, 'AAC');
  assert.equal(aacFormat.sampleRate, 24_000);
  await assertDuration(aac, 'audio/aac', 4, 1);
  // pcm: raw 16-bit mono samples at 24 kHz, no header.
  const pcm = await openai.audio.speech.create({ model: 'tts-1', input: TEN_WORDS, voice: 'alloy', response_format: 'pcm' });
  assert.equal(pcm.headers.get('content-type'), 'audio/pcm');
  assert.equal((await bytesOf(pcm)).length, 4 * 24_000 * 2);
  // speed 2 halves it; the default format is mp3.
  const fast = await openai.audio.speech.create({
    model: 'gpt-4o-mini-tts',
    input: TEN_WORDS,
    voice: { id: 'voice_123' },
    speed: 2,
    instructions: 'Cheerful.',
  });
  assert.equal(fast.headers.get('content-type'), 'audio/mpeg');
  await assertDuration(await bytesOf(fast), 'audio/mpeg', 2, 0.05);

  const { entries } = await session.journal();
  assert.equal(entries.length, 7);
  assert.deepEqual(
    [...new Set(entries.map((e) => [e.operation, e.route, e.status].join(' ')))],
    ['openai.audio.speech POST /v1/audio/speech 200'],
  );
  const last = entries[6];
  assert.deepEqual(
    last.request?.messages.map((m) => [m.role, m.parts.map((p) => ('text' in p ? p.text : ''))]),
    [
      ['system', ['Cheerful.']],
      ['user', [TEN_WORDS]],
    ],
  );
  assert.ok((last.usage?.inputTokens ?? 0) > 0 && last.usage?.outputTokens === 20, JSON.stringify(last.usage));
  await session.verify();
});

test('scripted audio by input, voice and model comes back byte for byte', async () => {
  const session = await mock.session('speech-scripted');
  const pinned = Buffer.from('scripted audio bytes');
  await session.load({
    scenarios: [],
    speech: [
      { input: { contains: 'pinned' }, voice: 'nova', audio: pinned.toString('base64') },
      { model: 'tts-1-hd', audio: Buffer.from('hd').toString('base64') },
    ],
  });
  const openai = clientOf(session);
  const one = await openai.audio.speech.create({ model: 'tts-1', input: 'a pinned phrase', voice: 'nova', response_format: 'wav' });
  assert.deepEqual(Buffer.from(await bytesOf(one)), pinned);
  assert.equal(one.headers.get('content-type'), 'audio/wav', "the requested format's content type");
  const other = await openai.audio.speech.create({ model: 'tts-1', input: 'a pinned phrase', voice: 'alloy', response_format: 'wav' });
  assert.equal((await audioFormat(await bytesOf(other), 'audio/wav')).container, 'WAVE', 'another voice gets the derived silence');
  const hd = await openai.audio.speech.create({ model: 'tts-1-hd', input: 'x', voice: 'alloy' });
  assert.equal(Buffer.from(await bytesOf(hd)).toString(), 'hd');
});

test("malformed speech requests get OpenAI's 400, and journal it [openai-audio.speech.json -]", async () => {
  const session = await mock.session('speech-malformed');
  const openai = clientOf(session);
  const cases: [Record<string, unknown>, RegExp, string | null][] = [
    [{ model: 'tts-1', input: 'hi' }, /Missing required parameter: 'voice'/, 'voice'],
    [{ model: 'tts-1', input: 'hi', voice: 'robot' }, /Invalid value: 'robot'\. Supported values are: 'alloy'/, 'voice'],
    [{ model: 'tts-1', input: 'hi', voice: 'alloy', response_format: 'ogg' }, /Invalid value: 'ogg'/, 'response_format'],
    [{ model: 'tts-1', input: 'hi', voice: 'alloy', speed: 4.5 }, /above maximum value/, 'speed'],
    [{ model: 'tts-1', input: 'x'.repeat(4097), voice: 'alloy' }, /string too long/, 'input'],
    [{ model: 'tts-1', input: 'hi', voice: 'alloy', volume: 3 }, /Unrecognized request argument supplied: volume/, null],
  ];
  for (const [body, message, param] of cases) {
    const error = await refusal(openai.audio.speech.create(body as never));
    assert.equal(error.status, 400, JSON.stringify(body).slice(0, 80));
    assert.match(error.message, message);
    assert.equal(error.param, param);
    assert.equal(error.type, 'invalid_request_error');
  }
  const raw = await fetch(`${mock.url('openai')}/audio/speech`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.apiKey}`, 'content-type': 'application/json' },
    body: '{not json',
  });
  assert.equal(raw.status, 400);
  assert.match(((await raw.json()) as { error: { message: string } }).error.message, /could not parse the JSON body/);
  const { entries, counters } = await session.journal();
  assert.equal(entries.length, cases.length + 1);
  assert.ok(entries.every((e) => e.status === 400 && e.operation === 'openai.audio.speech'));
  assert.equal(counters.invalid, cases.length + 1);
});

test('a scripted error is the SDK error of its status, with its headers', async () => {
  const session = await mock.session('speech-error');
  await session.load({
    scenarios: [],
    speech: [
      { input: 'busy', error: { status: 429, message: 'Slow down.', code: 'rate_limit_exceeded', headers: { 'retry-after': '7' } } },
    ],
  });
  const error = await refusal(clientOf(session).audio.speech.create({ model: 'tts-1', input: 'busy', voice: 'alloy' }));
  assert.ok(error instanceof OpenAI.RateLimitError);
  assert.equal(error.message, '429 Slow down.');
  assert.equal(error.headers?.get('retry-after'), '7');
  const { entries } = await session.journal();
  assert.equal(entries[0].status, 429);
  assert.deepEqual(entries[0].request?.messages[0].parts, [{ type: 'text', text: 'busy' }]);
});

test('a scripted fault cuts the audio; a delay the client gives up on leaves an aborted entry', async () => {
  const session = await mock.session('speech-fault');
  await session.load({
    scenarios: [],
    speech: [
      { input: 'reset', fault: { kind: 'reset', afterBytes: 100 } },
      { input: 'slow', delayMs: 3_000 },
    ],
  });
  const openai = clientOf(session);
  await assert.rejects(
    (async () => bytesOf(await openai.audio.speech.create({ model: 'tts-1', input: 'reset', voice: 'alloy', response_format: 'wav' })))(),
    'a reset connection fails the read',
  );
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 200);
  await assert.rejects(
    openai.audio.speech.create({ model: 'tts-1', input: 'slow', voice: 'alloy' }, { signal: controller.signal }),
    (e: unknown) => e instanceof OpenAI.APIUserAbortError,
  );
  let aborted;
  for (let i = 0; i < 100 && !aborted; i++) {
    aborted = (await session.journal()).entries.find((e) => e.status === 499);
    if (!aborted) await new Promise((r) => setTimeout(r, 50));
  }
  assert.ok(aborted, 'the delayed request is journalled as aborted once the client left');
  assert.equal(aborted.error?.code, 'client_closed_request');
});

test('stream_format sse: speech.audio.delta events carry the audio, speech.audio.done the usage [openai-audio.speech.stream +]', async () => {
  const session = await mock.session('speech-sse');
  const response = await clientOf(session).audio.speech.create({
    model: 'gpt-4o-mini-tts',
    input: TEN_WORDS,
    voice: 'coral',
    response_format: 'wav',
    stream_format: 'sse',
  });
  assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
  const events = sseData(await response.text());
  const deltas = events.slice(0, -1);
  assert.ok(deltas.length > 1, 'the audio comes in several deltas');
  assert.ok(deltas.every((e) => e.type === 'speech.audio.delta' && typeof e.audio === 'string'));
  const audio = Buffer.concat(deltas.map((e) => Buffer.from(e.audio as string, 'base64')));
  await assertDuration(audio, 'audio/wav', 4, 0.01);
  const done = events[events.length - 1] as { type: string; usage: { input_tokens: number; output_tokens: number; total_tokens: number } };
  assert.equal(done.type, 'speech.audio.done');
  assert.equal(done.usage.output_tokens, 40);
  assert.equal(done.usage.total_tokens, done.usage.input_tokens + done.usage.output_tokens);
  const { entries } = await session.journal();
  assert.equal(entries[0].usage?.outputTokens, 40);
});

test('sse is refused for tts-1; a scripted in-stream error ends the stream with an error event [openai-audio.speech.stream -]', async () => {
  const session = await mock.session('speech-sse-refused');
  const openai = clientOf(session);
  const error = await refusal(openai.audio.speech.create({ model: 'tts-1', input: 'hi', voice: 'alloy', stream_format: 'sse' }));
  assert.equal(error.status, 400);
  assert.equal(error.param, 'stream_format');
  await session.load({
    scenarios: [],
    speech: [{ input: TEN_WORDS, fault: { kind: 'error', afterChunks: 1, error: { status: 500, message: 'synthesis failed' } } }],
  });
  const response = await openai.audio.speech.create({
    model: 'gpt-4o-mini-tts',
    input: TEN_WORDS,
    voice: 'alloy',
    response_format: 'wav',
    stream_format: 'sse',
  });
  const events = sseData(await response.text());
  assert.equal(events.length, 2);
  assert.equal(events[0].type, 'speech.audio.delta');
  assert.deepEqual((events[1] as { error: { message: string } }).error.message, 'synthesis failed');
});

test("a strict model catalogue refuses other models with OpenAI's 404 on speech and transcriptions", async () => {
  const session = await mock.session('speech-catalogue');
  await session.load({ scenarios: [], session: { models: ['tts-1', 'whisper-1'] }, speech: [] });
  const openai = clientOf(session);
  assert.equal((await openai.audio.speech.create({ model: 'tts-1', input: 'fine', voice: 'alloy' })).status, 200);
  const speech = await refusal(openai.audio.speech.create({ model: 'tts-2', input: 'no', voice: 'alloy' }));
  assert.ok(speech instanceof OpenAI.NotFoundError);
  assert.equal(speech.code, 'model_not_found');
  const transcript = await refusal(
    openai.audio.transcriptions.create({ file: await toFile(Buffer.from('a'), 'a.wav'), model: 'gpt-4o-transcribe' }),
  );
  assert.ok(transcript instanceof OpenAI.NotFoundError);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.status),
    [200, 404, 404],
  );
});

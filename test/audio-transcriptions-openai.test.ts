// OpenAI's `POST /v1/audio/transcriptions` and `/v1/audio/translations` judged by the real openai
// SDK over HTTP (uploads made with its `toFile`): a transcript scripted per file (by SHA-256 or
// name) in every response format — json with the usage each model family reports, text, srt and
// vtt that parse as subtitles, verbose_json with segments and words — the gpt-4o models' streamed
// deltas, translations; multipart requests the SDK cannot send malformed go by raw fetch.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, test } from 'node:test';

import OpenAI, { toFile } from 'openai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { parseSrt, parseVtt } from './support/audio-checks.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const clientOf = (session: UnderstudySession) =>
  new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });

async function refusal(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof OpenAI.APIError, `expected an APIError, got ${String(error)}`);
    return error;
  }
  assert.fail('the call succeeded');
}

const MEETING = Buffer.from('pretend these are the bytes of meeting audio');
const MEETING_SHA = createHash('sha256').update(MEETING).digest('hex');
const SEGMENTS = [
  { start: 0, end: 2.5, text: 'Good morning, everyone.' },
  { start: 2.5, end: 61.25, text: 'Let us begin with the budget.' },
];

async function scripted(name: string): Promise<UnderstudySession> {
  const session = await mock.session(name);
  await session.load({
    scenarios: [],
    transcriptions: [
      { sha256: MEETING_SHA, segments: SEGMENTS, language: 'english' },
      { fileName: 'note.mp3', text: 'Buy milk. Call Sam!' },
    ],
  });
  return session;
}

test('a transcript scripted by SHA-256 in every response format; usage as whisper-1 reports it [openai-audio.transcriptions.json +]', async () => {
  const session = await scripted('transcripts');
  const openai = clientOf(session);
  const file = () => toFile(MEETING, 'whatever-name.wav', { type: 'audio/wav' });
  const text = 'Good morning, everyone. Let us begin with the budget.';

  const json = await openai.audio.transcriptions.create({ file: await file(), model: 'whisper-1' });
  assert.equal(json.text, text);
  assert.deepEqual(json.usage, { type: 'duration', seconds: 62 });

  const plain = await openai.audio.transcriptions.create({ file: await file(), model: 'whisper-1', response_format: 'text' });
  assert.equal(plain, `${text}\n`);

  const srt = parseSrt(await openai.audio.transcriptions.create({ file: await file(), model: 'whisper-1', response_format: 'srt' }));
  assert.deepEqual(srt, [
    { index: 1, start: 0, end: 2.5, text: 'Good morning, everyone.' },
    { index: 2, start: 2.5, end: 61.25, text: 'Let us begin with the budget.' },
  ]);
  const vtt = parseVtt(await openai.audio.transcriptions.create({ file: await file(), model: 'whisper-1', response_format: 'vtt' }));
  assert.deepEqual(
    vtt.map((cue) => [cue.start, cue.end, cue.text]),
    SEGMENTS.map((s) => [s.start, s.end, s.text]),
  );

  const verbose = await openai.audio.transcriptions.create({
    file: await file(),
    model: 'whisper-1',
    response_format: 'verbose_json',
    timestamp_granularities: ['word', 'segment'],
  });
  assert.equal(verbose.text, text);
  assert.equal(verbose.duration, 61.25);
  assert.equal(verbose.language, 'english');
  assert.deepEqual(
    verbose.segments?.map((s) => [s.id, s.start, s.end, s.text.trim()]),
    SEGMENTS.map((s, i) => [i, s.start, s.end, s.text]),
  );
  assert.equal(verbose.words?.length, 9);
  assert.deepEqual(verbose.words?.[0], { word: 'Good', start: 0, end: 0.833 });
  assert.ok(verbose.words?.every((w, i, all) => w.start < w.end && (i === 0 || all[i - 1].end <= w.start + 1e-9)));
  assert.deepEqual(verbose.usage, { type: 'duration', seconds: 62 });
  const wordsOnly = await openai.audio.transcriptions.create({
    file: await file(),
    model: 'whisper-1',
    response_format: 'verbose_json',
    timestamp_granularities: ['word'],
  });
  assert.equal(wordsOnly.segments, undefined, 'segments only when asked for (the default granularity)');

  // By file name; the default derives segments from sentences.
  const note = await openai.audio.transcriptions.create({
    file: await toFile(Buffer.from('x'), 'note.mp3'),
    model: 'whisper-1',
    response_format: 'srt',
  });
  assert.deepEqual(
    parseSrt(note).map((cue) => cue.text),
    ['Buy milk.', 'Call Sam!'],
  );
  // Anything else: the default transcript, naming the file.
  const other = await openai.audio.transcriptions.create({ file: await toFile(Buffer.from('y'), 'memo.ogg'), model: 'whisper-1' });
  assert.equal(other.text, 'Understudy transcript of memo.ogg.');

  const { entries } = await session.journal();
  assert.equal(entries.length, 8);
  assert.ok(
    entries.every((e) => e.operation === 'openai.audio.transcriptions' && e.route === 'POST /v1/audio/transcriptions' && e.status === 200),
  );
  assert.deepEqual(entries[0].request?.messages[0].parts, [{ type: 'text', text: `whatever-name.wav (sha256 ${MEETING_SHA})` }]);
  await session.verify();
});

test('gpt-4o-transcribe: json and text only, usage in tokens; a prompt is journalled', async () => {
  const session = await scripted('transcripts-4o');
  const openai = clientOf(session);
  const answer = await openai.audio.transcriptions.create({
    file: await toFile(Buffer.from('x'), 'note.mp3'),
    model: 'gpt-4o-transcribe',
    prompt: 'A shopping list.',
  });
  assert.equal(answer.text, 'Buy milk. Call Sam!');
  const usage = answer.usage as {
    type: string;
    input_tokens: number;
    input_token_details: { text_tokens: number; audio_tokens: number };
    output_tokens: number;
    total_tokens: number;
  };
  assert.equal(usage.type, 'tokens');
  assert.ok(usage.input_token_details.text_tokens > 0 && usage.input_token_details.audio_tokens > 0);
  assert.equal(usage.input_tokens, usage.input_token_details.text_tokens + usage.input_token_details.audio_tokens);
  assert.equal(usage.total_tokens, usage.input_tokens + usage.output_tokens);
  const text = await openai.audio.transcriptions.create({
    file: await toFile(Buffer.from('x'), 'note.mp3'),
    model: 'gpt-4o-mini-transcribe',
    response_format: 'text',
  });
  assert.equal(text, 'Buy milk. Call Sam!\n');
  const error = await refusal(
    openai.audio.transcriptions.create({
      file: await toFile(Buffer.from('x'), 'note.mp3'),
      model: 'gpt-4o-transcribe',
      response_format: 'verbose_json',
    }),
  );
  assert.equal(error.status, 400);
  assert.equal(
    error.message,
    "400 response_format 'verbose_json' is not compatible with model 'gpt-4o-transcribe'. Use 'json' or 'text' instead.",
  );
  assert.equal(error.param, 'response_format');
  const { entries } = await session.journal();
  assert.deepEqual(
    entries[0].request?.messages.map((m) => m.parts.map((p) => ('text' in p ? p.text : ''))),
    [[`note.mp3 (sha256 ${createHash('sha256').update('x').digest('hex')})`], ['A shopping list.']],
  );
  assert.equal(entries[0].usage?.inputTokens, usage.input_tokens);
  assert.equal(entries[0].usage?.outputTokens, usage.output_tokens);
});

function form(fields: Record<string, string | Blob>, name = 'audio.wav'): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (value instanceof Blob) data.append(key, value, name);
    else data.append(key, value);
  }
  return data;
}

async function rawPost(session: UnderstudySession, path: string, body: FormData | string, contentType?: string) {
  const response = await fetch(`${mock.url('openai')}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.apiKey}`, ...(contentType && { 'content-type': contentType }) },
    body,
  });
  return { status: response.status, error: ((await response.json()) as { error: { message: string; param: string | null } }).error };
}

test("malformed uploads get OpenAI's 400, journalled as invalid [openai-audio.transcriptions.json -]", async () => {
  const session = await mock.session('transcripts-malformed');
  const audio = new Blob([Buffer.from('abc')], { type: 'audio/wav' });
  const cases: [FormData | string, string | undefined, RegExp, string | null][] = [
    [form({ model: 'whisper-1' }), undefined, /Missing required parameter: 'file'/, 'file'],
    [form({ file: audio }), undefined, /Missing required parameter: 'model'/, 'model'],
    [
      '--nope\r\n\r\n',
      'multipart/form-data; boundary=other',
      /Could not parse the multipart form: the body is not a multipart\/form-data body of the boundary/,
      null,
    ],
    ['--nope\r\n\r\n', 'multipart/form-data', /needs its boundary \(multipart\/form-data; boundary=…\)/, null],
    [
      JSON.stringify({ model: 'whisper-1' }),
      'application/json',
      /Invalid Content-Type header \(application\/json\), expected multipart\/form-data/,
      null,
    ],
    [
      form({ file: audio, model: 'whisper-1', response_format: 'xml' }),
      undefined,
      /Invalid value: 'xml'\. Supported values are: 'json', 'text', 'srt', 'verbose_json', and 'vtt'/,
      'response_format',
    ],
    [
      form({ file: audio, model: 'whisper-1', response_format: 'json', 'timestamp_granularities[]': 'word' }),
      undefined,
      /only supported with response_format verbose_json/,
      'timestamp_granularities',
    ],
    [form({ file: audio, model: 'whisper-1', temperature: '1.5' }), undefined, /above maximum value/, 'temperature'],
    [form({ file: audio, model: 'whisper-1', colour: 'red' }), undefined, /Unrecognized request argument supplied: colour/, null],
    [form({ file: audio, model: 'whisper-1' }, 'audio.txt'), undefined, /Invalid file format\. Supported formats: \['flac', 'm4a'/, 'file'],
  ];
  for (const [body, type, message, param] of cases) {
    const { status, error } = await rawPost(session, '/audio/transcriptions', body, type);
    assert.equal(status, 400, String(message));
    assert.match(error.message, message);
    assert.equal(error.param, param);
  }
  const { entries, counters } = await session.journal();
  assert.equal(entries.length, cases.length);
  assert.ok(entries.every((e) => e.status === 400 && e.operation === 'openai.audio.transcriptions'));
  assert.equal(counters.invalid, cases.length);
});

test('scripted errors, faults and delays per file', async () => {
  const session = await mock.session('transcripts-acts');
  await session.load({
    scenarios: [],
    transcriptions: [
      { fileName: 'busy.wav', error: { status: 503, message: 'Try later.', type: 'server_error' } },
      { fileName: 'cut.wav', text: 'never whole', fault: { kind: 'close', afterBytes: 5 } },
      { fileName: 'slow.wav', text: 'late', delayMs: 3_000 },
    ],
  });
  const openai = clientOf(session);
  const error = await refusal(openai.audio.transcriptions.create({ file: await toFile(Buffer.from('a'), 'busy.wav'), model: 'whisper-1' }));
  assert.ok(error instanceof OpenAI.InternalServerError);
  assert.equal(error.status, 503);
  await assert.rejects(openai.audio.transcriptions.create({ file: await toFile(Buffer.from('a'), 'cut.wav'), model: 'whisper-1' }));
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 200);
  await assert.rejects(
    openai.audio.transcriptions.create(
      { file: await toFile(Buffer.from('a'), 'slow.wav'), model: 'whisper-1' },
      { signal: controller.signal },
    ),
    (e: unknown) => e instanceof OpenAI.APIUserAbortError,
  );
  let statuses: (number | undefined)[] = [];
  for (let i = 0; i < 100 && !statuses.includes(499); i++) {
    statuses = (await session.journal()).entries.map((e) => e.status);
    if (!statuses.includes(499)) await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(statuses[0], 503);
  assert.ok(statuses.includes(499), `the delayed request left early: ${JSON.stringify(statuses)}`);
});

test('stream: transcript.text.delta events add up to the text, transcript.text.done carries usage [openai-audio.transcriptions.stream +]', async () => {
  const session = await scripted('transcripts-stream');
  const stream = await clientOf(session).audio.transcriptions.create({
    file: await toFile(MEETING, 'meeting.wav'),
    model: 'gpt-4o-mini-transcribe',
    stream: true,
  });
  const events: { type: string; delta?: string; text?: string; usage?: { type: string; total_tokens: number } }[] = [];
  for await (const event of stream) events.push(event as never);
  const deltas = events.filter((e) => e.type === 'transcript.text.delta');
  assert.ok(deltas.length > 3);
  assert.equal(deltas.map((e) => e.delta).join(''), 'Good morning, everyone. Let us begin with the budget.');
  const done = events[events.length - 1];
  assert.equal(done.type, 'transcript.text.done');
  assert.equal(done.text, 'Good morning, everyone. Let us begin with the budget.');
  assert.equal(done.usage?.type, 'tokens');
  assert.ok((done.usage?.total_tokens ?? 0) > 0);
});

test("a scripted in-stream error fails the SDK's stream; whisper-1 ignores stream [openai-audio.transcriptions.stream -]", async () => {
  const session = await mock.session('transcripts-stream-error');
  await session.load({
    scenarios: [],
    transcriptions: [
      { fileName: 'a.wav', text: 'one two three four', fault: { kind: 'error', afterChunks: 2, error: { message: 'decoder crashed' } } },
    ],
  });
  const openai = clientOf(session);
  const stream = await openai.audio.transcriptions.create({
    file: await toFile(Buffer.from('a'), 'a.wav'),
    model: 'gpt-4o-transcribe',
    stream: true,
  });
  const seen: string[] = [];
  await assert.rejects(
    (async () => {
      for await (const event of stream) seen.push((event as { delta?: string }).delta ?? '');
    })(),
    (e: unknown) => e instanceof OpenAI.APIError && /decoder crashed/.test(e.message),
  );
  assert.deepEqual(seen, ['one', ' two']);
  const whisper = await fetch(`${mock.url('openai')}/audio/transcriptions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.apiKey}` },
    body: form({ file: new Blob([Buffer.from('b')]), model: 'whisper-1', stream: 'true' }, 'b.wav'),
  });
  assert.equal(whisper.headers.get('content-type'), 'application/json');
  assert.equal(((await whisper.json()) as { text: string }).text, 'Understudy transcript of b.wav.');
});

test('translations: the scripted text in json, text, srt and verbose_json, journalled [openai-audio.translations.json +]', async () => {
  const session = await scripted('translations');
  const openai = clientOf(session);
  const file = () => toFile(Buffer.from('x'), 'note.mp3');
  const json = await openai.audio.translations.create({ file: await file(), model: 'whisper-1' });
  assert.deepEqual({ ...json }, { text: 'Buy milk. Call Sam!' });
  assert.equal(
    await openai.audio.translations.create({ file: await file(), model: 'whisper-1', response_format: 'text' }),
    'Buy milk. Call Sam!\n',
  );
  assert.equal(
    // The SDK types a translation as an object whatever the format; srt arrives as text.
    parseSrt(
      (await openai.audio.translations.create({ file: await file(), model: 'whisper-1', response_format: 'srt' })) as unknown as string,
    ).length,
    2,
  );
  const verbose = (await openai.audio.translations.create({
    file: await file(),
    model: 'whisper-1',
    response_format: 'verbose_json',
  })) as unknown as {
    task: string;
    language: string;
    segments: unknown[];
  };
  assert.equal(verbose.task, 'translate');
  assert.equal(verbose.language, 'english');
  assert.equal(verbose.segments.length, 2);
  const { entries } = await session.journal();
  assert.deepEqual(
    [...new Set(entries.map((e) => `${e.operation} ${e.route} ${e.status}`))],
    ['openai.audio.translations POST /v1/audio/translations 200'],
  );
});

test('translations refuse what transcriptions alone take, and scripted errors apply [openai-audio.translations.json -]', async () => {
  const session = await mock.session('translations-refused');
  const { status, error } = await rawPost(
    session,
    '/audio/translations',
    form({ file: new Blob(['a']), model: 'whisper-1', language: 'de' }),
  );
  assert.equal(status, 400);
  assert.match(error.message, /Unrecognized request argument supplied: language/);
  await session.load({ scenarios: [], transcriptions: [{ fileName: 'audio.wav', error: { status: 429, message: 'Too many.' } }] });
  const refused = await refusal(
    clientOf(session).audio.translations.create({ file: await toFile(Buffer.from('a'), 'audio.wav'), model: 'whisper-1' }),
  );
  assert.ok(refused instanceof OpenAI.RateLimitError);
});

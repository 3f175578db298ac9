// The fixture's audio lists, `speech` and `transcriptions`, as a file states them: a valid file
// with no scenarios loads; each problem names the file, the path inside it, the line, and what
// was expected; the JSON Schema (for editors) agrees with the checks on the same documents.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';

import { Ajv } from 'ajv';
import { parse as parseYaml } from 'yaml';

import { formatProblems, parseFixtureText, type FixtureProblem } from '../src/engine/fixture-file.js';

const lines = (...l: string[]): string => l.join('\n') + '\n';
const SHA = 'a'.repeat(64);

function problemsOf(text: string): FixtureProblem[] {
  const result = parseFixtureText(text, 'audio.yaml');
  assert.equal(result.ok, false, `expected problems for:\n${text}`);
  return result.ok ? [] : result.problems;
}

const VALID = lines(
  'scenarios: []',
  'speech:',
  '  - { input: { contains: welcome }, voice: nova, audio: UklGRg== }',
  '  - { model: tts-1, error: { status: 429, message: busy }, delayMs: 10 }',
  '  - { input: cut, fault: { kind: reset, afterBytes: 10 } }',
  'transcriptions:',
  `  - { sha256: ${SHA}, segments: [{ start: 0, end: 1, text: Hi. }], language: english, duration: 1 }`,
  '  - { fileName: a.wav, model: whisper-1, text: Hello }',
  '  - { fileName: b.wav, error: { status: 503, message: down } }',
);

const schema = async () => JSON.parse(await readFile(new URL('../schema/fixtures.schema.json', import.meta.url), 'utf8'));

test('a file of audio lists alone loads, and the JSON Schema accepts it', async () => {
  const result = parseFixtureText(VALID, 'audio.yaml');
  assert.ok(result.ok, result.ok ? '' : formatProblems(result.problems));
  assert.equal(result.fixture.speech?.length, 3);
  assert.equal(result.fixture.transcriptions?.[0].segments?.[0].text, 'Hi.');
  const validate = new Ajv({ strict: false, allErrors: true }).compile(await schema());
  assert.ok(validate(parseYaml(VALID)), JSON.stringify(validate.errors));
});

test('problems in the audio lists name the file, the path, the line and what was expected', async () => {
  const cases: [string[], string, RegExp, number][] = [
    [['scenarios: []', 'speech:', '  - { input: a, audio: "abc" }'], '/speech/0/audio', /multiple of 4/, 3],
    [['scenarios: []', 'speech:', '  - { input: a, audio: "@@@@" }'], '/speech/0/audio', /characters base64 does not use/, 3],
    [
      ['scenarios: []', 'speech:', '  - { audio: QUJD, error: { status: 500, message: x } }'],
      '/speech/0/error',
      /either "audio" or "error"/,
      3,
    ],
    [
      ['scenarios: []', 'speech:', '  - { input: a, volume: 3 }'],
      '/speech/0/volume',
      /unknown key "volume"; expected one of input, voice, model, audio, delayMs, fault, error/,
      3,
    ],
    [['scenarios: []', 'transcriptions:', '  - { sha256: ABC, text: x }'], '/transcriptions/0/sha256', /64 lowercase hex digits/, 3],
    [['scenarios: []', 'transcriptions:', '  - { fileName: a.wav }'], '/transcriptions/0', /found none of them/, 3],
    [['scenarios: []', 'transcriptions:', '  - { text: x, error: { status: 400, message: m } }'], '/transcriptions/0/error', /not both/, 3],
    [
      ['scenarios: []', 'transcriptions:', '  - { segments: [{ start: 0, text: x }] }'],
      '/transcriptions/0/segments/0',
      /missing required key "end" in a transcript segment/,
      3,
    ],
    [['scenarios: []', 'transcriptions:', '  - { text: x, duration: -1 }'], '/transcriptions/0/duration', /≥ 0/, 3],
    [
      ['scenarios: []', 'transcriptions:', '  - { segments: [{ start: 2, end: 1, text: x }] }'],
      '/transcriptions/0/segments/0/end',
      /no earlier than the segment's start \(2\); found 1/,
      3,
    ],
    [
      ['scenarios: []', 'transcriptions:', '  - { segments: [{ start: 0, end: 2, text: x }, { start: 1, end: 3, text: y }] }'],
      '/transcriptions/0/segments/1/start',
      /in order of time, this one starting at or after 2; found 1/,
      3,
    ],
  ];
  const validate = new Ajv({ strict: false, allErrors: true }).compile(await schema());
  for (const [text, path, message, line] of cases) {
    const problems = problemsOf(lines(...text));
    const hit = problems.find((p) => p.path === path && message.test(p.message));
    assert.ok(hit, `no problem at ${path} matching ${message}; got:\n${formatProblems(problems)}`);
    assert.equal(hit.file, 'audio.yaml');
    assert.equal(hit.line, line, formatProblems([hit]));
    assert.match(formatProblems([hit]), /^audio\.yaml:3:\d+/);
    // The rules that only code states (one of audio/error, base64 length) are not in the schema.
    if (!/either|not both|none of them|multiple of 4|no earlier|order of time/.test(hit.message))
      assert.equal(validate(parseYaml(lines(...text))), false, `the JSON Schema refuses ${path}`);
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import {
  formatProblems,
  loadFixtureFile,
  parseFixtureText,
  validateFixture,
  validateFixtureValue,
  type FixtureProblem,
} from '../src/engine/fixture-file.js';
import { runValidate } from '../src/cli/validate.js';
import type { FixtureSpec } from '../src/engine/spec.js';

const root = new URL('..', import.meta.url);
const repoPath = (p: string): string => new URL(p, root).pathname;

const lines = (...l: string[]): string => l.join('\n') + '\n';

function problemsOf(text: string, file = 'test.yaml'): FixtureProblem[] {
  const result = parseFixtureText(text, file);
  assert.equal(result.ok, false, `expected problems for:\n${text}`);
  return result.ok ? [] : result.problems;
}

function expectProblem(problems: FixtureProblem[], path: string, message: RegExp, line?: number): FixtureProblem {
  const hit = problems.find((p) => p.path === path && message.test(p.message));
  assert.ok(hit, `no problem at ${path} matching ${message}; got:\n${formatProblems(problems)}`);
  if (line !== undefined) assert.equal(hit.line, line, `line of ${path}: ${formatProblems([hit])}`);
  return hit;
}

const VALID_YAML = lines(
  'session:',
  '  fallback: strict',
  'scenarios:',
  '  - name: weather',
  '    exhausted: restart',
  '    maxReplies: 4',
  '    steps:',
  '      - id: ask',
  '        when:',
  '          model: { matches: "^gpt-4", flags: i }',
  '          latestUser: { contains: "weather" }',
  '          hasTool: weather',
  '        reply:',
  '          toolCalls:',
  '            - { id: call_1, name: weather, arguments: { city: Paris } }',
  '        next: [answer, fallback]',
  '      - id: answer',
  '        when:',
  '          toolResult: { name: weather, id: call_1 }',
  '          toolArguments: { name: weather, equals: { city: Paris } }',
  '          jsonPath: { path: "$.temp", equals: 21, in: toolResult }',
  '        reply: { text: "Sunny.", chunks: ["Sun", "ny."], finishReason: stop }',
  '        next: complete',
  '      - id: fallback',
  '        when:',
  '          historyContains:',
  '            - { role: user, content: "weather?" }',
  '            - { role: assistant, toolCalls: [{ name: weather }] }',
  '            - { role: tool, toolCallId: call_1 }',
  '        reply:',
  '          error: { status: 429, message: slow down, code: rate_limit_exceeded, headers: { retry-after: "1" } }',
  '          delayMs: 5',
  '  - name: queue',
  '    exhausted: repeat_last',
  '    replies:',
  '      - text: first',
  '      - json: { ok: true }',
  '        reasoning: thinking',
  '        reasoningTokens: 12',
  '      - toolCalls: [{ name: lookup, arguments: "raw text" }]',
);

const VALID_SPEC: FixtureSpec = {
  session: { fallback: 'strict' },
  scenarios: [
    {
      name: 'weather',
      exhausted: 'restart',
      maxReplies: 4,
      steps: [
        {
          id: 'ask',
          when: { model: { matches: '^gpt-4', flags: 'i' }, latestUser: { contains: 'weather' }, hasTool: 'weather' },
          reply: { toolCalls: [{ id: 'call_1', name: 'weather', arguments: { city: 'Paris' } }] },
          next: ['answer', 'fallback'],
        },
        {
          id: 'answer',
          when: {
            toolResult: { name: 'weather', id: 'call_1' },
            toolArguments: { name: 'weather', equals: { city: 'Paris' } },
            jsonPath: { path: '$.temp', equals: 21, in: 'toolResult' },
          },
          reply: { text: 'Sunny.', chunks: ['Sun', 'ny.'], finishReason: 'stop' },
          next: 'complete',
        },
        {
          id: 'fallback',
          when: {
            historyContains: [
              { role: 'user', content: 'weather?' },
              { role: 'assistant', toolCalls: [{ name: 'weather' }] },
              { role: 'tool', toolCallId: 'call_1' },
            ],
          },
          reply: {
            error: { status: 429, message: 'slow down', code: 'rate_limit_exceeded', headers: { 'retry-after': '1' } },
            delayMs: 5,
          },
        },
      ],
    },
    {
      name: 'queue',
      exhausted: 'repeat_last',
      replies: [
        { text: 'first' },
        { json: { ok: true }, reasoning: 'thinking', reasoningTokens: 12 },
        { toolCalls: [{ name: 'lookup', arguments: 'raw text' }] },
      ],
    },
  ],
};

test('a valid YAML file with steps, next lists and a queue parses to the expected FixtureSpec', () => {
  const result = parseFixtureText(VALID_YAML, 'valid.yaml');
  assert.ok(result.ok, result.ok ? '' : formatProblems(result.problems));
  assert.deepEqual(result.fixture, VALID_SPEC);
});

test('a valid JSON file parses to the expected FixtureSpec; $schema is accepted and dropped', () => {
  const text = JSON.stringify({ $schema: '../schema/fixtures.schema.json', ...VALID_SPEC }, null, 2);
  const result = parseFixtureText(text, 'valid.json');
  assert.ok(result.ok, result.ok ? '' : formatProblems(result.problems));
  assert.deepEqual(result.fixture, VALID_SPEC);
  assert.equal('$schema' in result.fixture, false);
});

test('.json files are parsed as JSON: YAML-only syntax is a syntax error there', () => {
  const problems = problemsOf('scenarios:\n  - name: a\n', 'x.json');
  assert.equal(problems.length, 1);
  assert.equal(problems[0].path, '(syntax)');
  assert.match(problems[0].message, /^invalid JSON: expected a JSON value/);
  assert.equal(problems[0].line, 1);
  assert.equal(problems[0].column, 1);
});

test('the example files are valid', async () => {
  const weather = await loadFixtureFile(repoPath('examples/weather.yaml'));
  assert.ok(weather.ok, weather.ok ? '' : formatProblems(weather.problems));
  const steps = weather.fixture.scenarios[0].steps ?? [];
  assert.equal(steps.length, 2);
  assert.deepEqual(steps[0].reply.toolCalls, [{ id: 'call_paris', name: 'weather', arguments: { city: 'Paris' } }]);
  assert.deepEqual(steps[0].when?.latestUser, { contains: 'weather in Paris' });
  assert.deepEqual(steps[1].when?.toolResult, { name: 'weather', id: 'call_paris' });
  assert.equal(steps[1].reply.text, 'Paris is sunny, 21 °C.');

  const queue = await loadFixtureFile(repoPath('examples/queue.yaml'));
  assert.ok(queue.ok, queue.ok ? '' : formatProblems(queue.problems));
  const greeting = queue.fixture.scenarios[0];
  assert.equal(greeting.name, 'greeting');
  assert.equal(greeting.exhausted, 'repeat_last');
  assert.equal(greeting.steps?.[0].reply.text, 'Hello from Understudy!');
  // Every step is constrained so the scenario does not swallow unrelated requests.
  for (const step of greeting.steps ?? []) assert.ok(step.when?.latestUser, 'each greeting step has a latestUser condition');

  for (const file of ['examples/weather.yaml', 'examples/queue.yaml']) {
    const text = await readFile(repoPath(file), 'utf8');
    assert.match(text.split('\n')[0], /^# yaml-language-server: \$schema=\.\.\/schema\/fixtures\.schema\.json$/);
  }
});

test('YAML syntax errors are reported with line and column', () => {
  const problems = problemsOf(lines('scenarios:', '  - name: a', '    replies: [ { text: x }', '  - name: b'));
  assert.ok(problems.length >= 1);
  assert.equal(problems[0].path, '(syntax)');
  assert.match(problems[0].message, /^invalid YAML: /);
  assert.equal(typeof problems[0].line, 'number');
  assert.ok((problems[0].line ?? 0) >= 3, `line ${problems[0].line}`);

  const dup = problemsOf(lines('scenarios:', '  - name: a', '    name: b', '    replies: [{ text: x }]'));
  assert.equal(dup[0].path, '(syntax)');
  assert.match(dup[0].message, /unique/i);
  assert.equal(dup[0].line, 3);
});

test('an empty YAML file is reported as such', () => {
  for (const text of ['', '# only a comment\n']) {
    const problems = problemsOf(text);
    assert.deepEqual(problems, [
      {
        file: 'test.yaml',
        path: '/',
        line: 1,
        column: 1,
        message:
          'expected a fixture (an object with keys scenarios, session, embeddings, images, speech, transcriptions, videos); found an empty document',
      },
    ]);
  }
});

test('JSON syntax errors say what was expected, with line and column', () => {
  const text = '{\n  "scenarios": [\n    { "name": "x", "replies": [ { "text": 1, } ] }\n  ]\n}\n';
  const problems = problemsOf(text, 'bad.json');
  assert.equal(problems.length, 1);
  assert.equal(problems[0].path, '(syntax)');
  assert.equal(problems[0].message, 'invalid JSON: expected a property name in double quotes; found "}"');
  assert.equal(problems[0].line, 3);
  assert.equal(problems[0].column, 46);

  const truncated = problemsOf('{"scenarios": [', 'cut.json');
  assert.match(truncated[0].message, /found end of file/);
  assert.equal(truncated[0].line, 1);
});

test('JSON syntax errors V8 gives no position for are located too (bad values, unfinished words)', () => {
  const cases: [string, string, number, number][] = [
    ['{\n  "a": x\n}', 'expected a JSON value (object, array, string, number, true, false or null); found "x"', 2, 8],
    ['{"a": tru}', 'expected "true"; found "}"', 1, 10],
    ['[1,]', 'expected a JSON value (object, array, string, number, true, false or null); found "]"', 1, 4],
    // V8: "Unexpected string", without a word about the colon.
    ['{"a": 1, "b""c"}', 'expected ":" after the property name; found "\\""', 1, 13],
    ['{"a": 1} x', 'expected end of file after the JSON value; found "x"', 1, 10],
    ['', 'expected a JSON value (object, array, string, number, true, false or null); found end of file', 1, 1],
  ];
  for (const [text, message, line, column] of cases) {
    const [problem] = problemsOf(text, 'bad.json');
    assert.deepEqual(
      { message: problem.message, line: problem.line, column: problem.column },
      { message: `invalid JSON: ${message}`, line, column },
      text,
    );
  }
});

test('property: a JSON syntax error is never placed before the corruption, and a cut document ends at end of file', () => {
  fc.assert(
    fc.property(
      fc.jsonValue({ maxDepth: 3 }),
      fc.nat(),
      fc.constantFrom('}', ']', ',', ':', '"', 'x', '\\', '-', '.', '{', "'"),
      (value, at, ch) => {
        const valid = JSON.stringify({ scenarios: value });
        const i = at % (valid.length + 1);
        const text = valid.slice(0, i) + ch + valid.slice(i);
        let isJson = true;
        try {
          JSON.parse(text);
        } catch {
          isJson = false;
        }
        if (!isJson) {
          const [problem] = problemsOf(text, 'p.json');
          assert.match(problem.message, /^invalid JSON: expected .+; found /);
          assert.equal(problem.line, 1);
          assert.ok((problem.column ?? 0) >= i + 1, `column ${problem.column} before the corruption at ${i + 1}: ${text}`);
        }
        const cut = valid.slice(0, Math.max(1, i));
        if (cut !== valid && i < valid.length) {
          let cutIsJson = true;
          try {
            JSON.parse(cut);
          } catch {
            cutIsJson = false;
          }
          if (!cutIsJson) {
            const [problem] = problemsOf(cut, 'cut.json');
            assert.match(problem.message, /found end of file$/, cut);
            assert.equal(problem.column, cut.length + 1);
          }
        }
      },
    ),
    { numRuns: 300 },
  );
});

test('one problem per field: a wrong type is not also reported as a wrong length, a missing key not also as a wrong value', () => {
  const list = problemsOf(lines('scenarios: ""'));
  assert.deepEqual(
    list.map((p) => p.message),
    ['expected a list of scenarios (a list); found ""'],
  );
  const role = problemsOf(withWhen('historyExact:', '  - { content: hi }'));
  assert.deepEqual(
    role.map((p) => [p.path, p.message]),
    [[`${W}/historyExact/0`, 'missing required key "role" in a message']],
  );
  const name = problemsOf(lines('scenarios:', '  - name: ""', '    replies: [{ text: x }]'));
  assert.deepEqual(
    name.map((p) => p.message),
    ['expected a scenario name (a non-empty string); found ""'],
  );
});

test('an unreadable file is a problem at (file)', async () => {
  const result = await loadFixtureFile('/nonexistent/understudy/fixture.yaml');
  assert.equal(result.ok, false);
  if (result.ok) return;
  assert.deepEqual(result.problems, [
    { file: '/nonexistent/understudy/fixture.yaml', path: '(file)', message: 'expected a readable fixture file; no such file' },
  ]);
});

test('problems in JSON files also carry line numbers', () => {
  const text = '{\n  "scenarios": [\n    {\n      "name": "x",\n      "replies": [ { "txt": "a" } ]\n    }\n  ]\n}\n';
  const problems = problemsOf(text, 'typo.json');
  expectProblem(problems, '/scenarios/0/replies/0/txt', /^unknown key "txt"; did you mean "text"\?$/, 5);
});

// ------------------------------------------------------------------ error classes
// Each case: YAML text, where the problem is, what the message says, the line; `schema` marks
// structural errors the JSON Schema must reject too (semantic ones are only in the validator).

interface Case {
  name: string;
  text: string;
  path: string;
  message: RegExp;
  line: number;
  schema: boolean;
}

/** A scenario with one step whose reply is `reply` (lines indented under `reply:`; first on line 5). */
const withReply = (...reply: string[]): string =>
  lines('scenarios:', '  - name: s', '    steps:', '      - reply:', ...reply.map((l) => '          ' + l));
/** A scenario with one step whose `when` is `when` (first line on line 5). */
const withWhen = (...when: string[]): string =>
  lines('scenarios:', '  - name: s', '    steps:', '      - when:', ...when.map((l) => '          ' + l), '        reply: { text: ok }');

const R = '/scenarios/0/steps/0/reply';
const W = '/scenarios/0/steps/0/when';

const CASES: Case[] = [
  {
    name: 'root not an object',
    text: '- a\n- b\n',
    path: '/',
    message:
      /^expected a fixture \(an object with keys scenarios, session, embeddings, images, speech, transcriptions, videos\); found a list$/,
    line: 1,
    schema: true,
  },
  {
    name: 'missing scenarios',
    text: 'session: { fallback: auto }\n',
    path: '/',
    message: /^missing required key "scenarios"/,
    line: 1,
    schema: true,
  },
  {
    name: 'empty scenarios',
    text: 'scenarios: []\n',
    path: '/scenarios',
    message: /at least one entry; found an empty list/,
    line: 1,
    schema: true,
  },
  {
    name: 'unknown top-level key',
    text: lines('scenario:', '  - name: a'),
    path: '/scenario',
    message: /^unknown key "scenario"; did you mean "scenarios"\?$/,
    line: 1,
    schema: true,
  },
  {
    name: 'session fallback enum',
    text: lines('session:', '  fallback: lenient', 'scenarios: [{ name: a, replies: [{ text: x }] }]'),
    path: '/session/fallback',
    message: /^expected one of strict, auto; found "lenient"$/,
    line: 2,
    schema: true,
  },
  {
    name: 'exhausted enum',
    text: lines('scenarios:', '  - name: a', '    exhausted: repeat', '    replies: [{ text: x }]'),
    path: '/scenarios/0/exhausted',
    message: /^expected one of reject, repeat_last, restart; found "repeat"/,
    line: 3,
    schema: true,
  },
  {
    name: 'maxReplies not positive',
    text: lines('scenarios:', '  - name: a', '    maxReplies: 0', '    replies: [{ text: x }]'),
    path: '/scenarios/0/maxReplies',
    message: /^expected a positive integer; found 0$/,
    line: 3,
    schema: true,
  },
  {
    name: 'maxReplies fractional',
    text: lines('scenarios:', '  - name: a', '    maxReplies: 1.5', '    replies: [{ text: x }]'),
    path: '/scenarios/0/maxReplies',
    message: /^expected a positive integer; found 1.5$/,
    line: 3,
    schema: true,
  },
  {
    name: 'maxReplies beyond the exact integers',
    text: lines('scenarios:', '  - name: a', '    maxReplies: 100000000000000000000', '    replies: [{ text: x }]'),
    path: '/scenarios/0/maxReplies',
    message: /^expected a positive integer; found 100000000000000000000$/,
    line: 3,
    schema: true,
  },
  {
    name: 'scenario without name',
    text: lines('scenarios:', '  - replies: [{ text: x }]'),
    path: '/scenarios/0',
    message: /^missing required key "name"/,
    line: 2,
    schema: true,
  },
  {
    name: 'scenario name not a string',
    text: lines('scenarios:', '  - name: [a]', '    replies: [{ text: x }]'),
    path: '/scenarios/0/name',
    message: /^expected a scenario name \(a non-empty string\); found a list$/,
    line: 2,
    schema: true,
  },
  {
    name: 'both steps and replies',
    text: lines('scenarios:', '  - name: a', '    steps: [{ reply: { text: x } }]', '    replies: [{ text: y }]'),
    path: '/scenarios/0/replies',
    message: /either "steps" or "replies".*not both/,
    line: 4,
    schema: true,
  },
  {
    name: 'neither steps nor replies',
    text: lines('scenarios:', '  - name: a', '    exhausted: reject'),
    path: '/scenarios/0',
    message: /expected "steps".*or "replies".*found neither/,
    line: 2,
    schema: true,
  },
  {
    name: 'empty steps',
    text: lines('scenarios:', '  - name: a', '    steps: []'),
    path: '/scenarios/0/steps',
    message: /at least one entry; found an empty list/,
    line: 3,
    schema: true,
  },
  {
    name: 'duplicate scenario names',
    text: lines('scenarios:', '  - name: a', '    replies: [{ text: x }]', '  - name: a', '    replies: [{ text: y }]'),
    path: '/scenarios/1/name',
    message: /unique in the file; found "a" again \(first at \/scenarios\/0\/name\)/,
    line: 4,
    schema: false,
  },
  {
    name: 'step without reply',
    text: lines('scenarios:', '  - name: a', '    steps:', '      - id: one'),
    path: '/scenarios/0/steps/0',
    message: /^missing required key "reply"/,
    line: 4,
    schema: true,
  },
  {
    name: 'unknown step key',
    text: lines('scenarios:', '  - name: a', '    steps:', '      - reply: { text: x }', '        nxt: complete'),
    path: '/scenarios/0/steps/0/nxt',
    message: /^unknown key "nxt"; did you mean "next"\?$/,
    line: 5,
    schema: true,
  },
  {
    name: 'duplicate step ids',
    text: lines(
      'scenarios:',
      '  - name: a',
      '    steps:',
      '      - id: one',
      '        reply: { text: x }',
      '      - id: one',
      '        reply: { text: y }',
    ),
    path: '/scenarios/0/steps/1/id',
    message: /unique in the scenario; found "one" again/,
    line: 6,
    schema: false,
  },
  {
    name: 'explicit id colliding with a default id',
    text: lines(
      'scenarios:',
      '  - name: a',
      '    steps:',
      '      - id: step-2',
      '        reply: { text: x }',
      '      - reply: { text: y }',
    ),
    path: '/scenarios/0/steps/1',
    message: /found "step-2" again \(the default id of this step\)/,
    line: 6,
    schema: false,
  },
  {
    name: 'step id "complete" is reserved',
    text: lines('scenarios:', '  - name: a', '    steps:', '      - id: complete', '        reply: { text: x }'),
    path: '/scenarios/0/steps/0/id',
    message: /other than "complete"/,
    line: 4,
    schema: true,
  },
  {
    name: 'next names a missing step',
    text: lines(
      'scenarios:',
      '  - name: a',
      '    steps:',
      '      - id: ask',
      '        reply: { text: x }',
      '        next: answr',
      '      - id: answer',
      '        reply: { text: y }',
    ),
    path: '/scenarios/0/steps/0/next',
    message: /expected the id of a step in this scenario \(ask, answer\) or "complete"; found "answr" \(did you mean "answer"\?\)/,
    line: 6,
    schema: false,
  },
  {
    name: 'next list names a missing step',
    text: lines('scenarios:', '  - name: a', '    steps:', '      - reply: { text: x }', '        next: [step-1, nope]'),
    path: '/scenarios/0/steps/0/next/1',
    message: /found "nope"/,
    line: 5,
    schema: false,
  },
  {
    name: 'next empty list',
    text: lines('scenarios:', '  - name: a', '    steps:', '      - reply: { text: x }', '        next: []'),
    path: '/scenarios/0/steps/0/next',
    message: /non-empty list of step ids; found an empty list/,
    line: 5,
    schema: true,
  },
  {
    name: 'next an empty string',
    text: lines('scenarios:', '  - name: a', '    steps:', '      - reply: { text: x }', '        next: ""'),
    path: '/scenarios/0/steps/0/next',
    message: /^expected the id of a step in this scenario \(step-1\) or "complete"; found ""$/,
    line: 5,
    schema: true,
  },
  {
    name: 'next not a string',
    text: lines('scenarios:', '  - name: a', '    steps:', '      - reply: { text: x }', '        next: 2'),
    path: '/scenarios/0/steps/0/next',
    message: /expected a step id, "complete" or a list of step ids; found 2/,
    line: 5,
    schema: true,
  },

  // replies
  {
    name: 'reply without content',
    text: withReply('reasoning: hmm'),
    path: R,
    message: /at least one of text, json, toolCalls, images, error; found only reasoning/,
    line: 5,
    schema: true,
  },
  {
    name: 'reply not an object',
    text: lines('scenarios:', '  - name: a', '    replies: ["hi"]'),
    path: '/scenarios/0/replies/0',
    message: /^expected a reply \(an object with keys text, json, .*\); found "hi"$/,
    line: 3,
    schema: true,
  },
  {
    name: 'text and json together',
    text: withReply('text: hi', 'json: { a: 1 }'),
    path: `${R}/json`,
    message: /either "text" or "json".*not both/,
    line: 6,
    schema: true,
  },
  {
    name: 'text not a string',
    text: withReply('text: 42'),
    path: `${R}/text`,
    message: /^expected the reply text \(a string\); found 42$/,
    line: 5,
    schema: true,
  },
  {
    name: 'chunks without content',
    text: withReply('toolCalls: [{ name: t }]', 'chunks: [a, b]'),
    path: `${R}/chunks`,
    message: /only together with "text" or "json"/,
    line: 6,
    schema: true,
  },
  {
    name: 'chunks not joining to text',
    text: withReply('text: Hello', 'chunks: [Hel, lo!]'),
    path: `${R}/chunks`,
    message: /concatenate to the text "Hello"; they join to "Hello!"/,
    line: 6,
    schema: false,
  },
  {
    name: 'chunks not joining to json',
    text: withReply('json: { a: 1 }', 'chunks: ["{\\"a\\": 1}"]'),
    path: `${R}/chunks`,
    message: /concatenate to the compact JSON "\{\\"a\\":1\}"/,
    line: 6,
    schema: false,
  },
  {
    name: 'chunk not a string',
    text: withReply('text: "12"', 'chunks: [1, "2"]'),
    path: `${R}/chunks/0`,
    message: /expected a chunk \(a string\); found 1/,
    line: 6,
    schema: true,
  },
  {
    name: 'negative delay',
    text: withReply('text: x', 'delayMs: -5'),
    path: `${R}/delayMs`,
    message: /a number ≥ 0\); found -5/,
    line: 6,
    schema: true,
  },
  {
    name: 'delay not a number',
    text: withReply('text: x', 'delayMs: soon'),
    path: `${R}/delayMs`,
    message: /found "soon"/,
    line: 6,
    schema: true,
  },
  {
    name: 'finishReason enum',
    text: withReply('text: x', 'finishReason: done'),
    path: `${R}/finishReason`,
    message: /^expected one of stop, length, tool_calls, content_filter; found "done"$/,
    line: 6,
    schema: true,
  },
  {
    name: 'reasoningTokens negative',
    text: withReply('text: x', 'reasoningTokens: -1'),
    path: `${R}/reasoningTokens`,
    message: /^expected an integer ≥ 0; found -1$/,
    line: 6,
    schema: true,
  },
  {
    name: 'unknown reply key',
    text: withReply('txt: hi'),
    path: `${R}/txt`,
    message: /^unknown key "txt"; did you mean "text"\?$/,
    line: 5,
    schema: true,
  },
  {
    name: 'error with content',
    text: withReply('error: { status: 500, message: boom }', 'text: x'),
    path: `${R}/text`,
    message: /nothing but "delayMs" beside "error".*found "text"/,
    line: 6,
    schema: true,
  },
  {
    name: 'error status out of range',
    text: withReply('error: { status: 200, message: boom }'),
    path: `${R}/error/status`,
    message: /an integer from 400 to 599\); found 200/,
    line: 5,
    schema: true,
  },
  {
    name: 'error without message',
    text: withReply('error:', '  status: 503'),
    path: `${R}/error`,
    message: /^missing required key "message" in an error$/,
    line: 6,
    schema: true,
  },
  {
    name: 'error unknown key',
    text: withReply('error: { status: 503, message: x, retryAfter: 2 }'),
    path: `${R}/error/retryAfter`,
    message: /^unknown key "retryAfter"/,
    line: 5,
    schema: true,
  },
  {
    name: 'error header value not a string',
    text: withReply('error:', '  status: 429', '  message: x', '  headers:', '    retry-after: 1'),
    path: `${R}/error/headers/retry-after`,
    message: /expected a header value \(a string\); found 1/,
    line: 9,
    schema: true,
  },
  {
    name: 'error header name invalid',
    text: withReply('error:', '  status: 429', '  message: x', '  headers:', '    "retry after": "1"'),
    path: `${R}/error/headers/retry after`,
    message: /expected an HTTP header name/,
    line: 9,
    schema: true,
  },
  {
    name: 'empty toolCalls',
    text: withReply('toolCalls: []'),
    path: `${R}/toolCalls`,
    message: /at least one entry; found an empty list/,
    line: 5,
    schema: true,
  },
  {
    name: 'tool call without name',
    text: withReply('toolCalls:', '  - id: c1'),
    path: `${R}/toolCalls/0`,
    message: /^missing required key "name" in a tool call \(or "preset", to call a preset\)$/,
    line: 6,
    schema: true,
  },
  {
    name: 'tool call name empty',
    text: withReply('toolCalls:', '  - name: ""'),
    path: `${R}/toolCalls/0/name`,
    message: /^expected a tool name \(a non-empty string\); found ""$/,
    line: 6,
    schema: true,
  },
  {
    name: 'tool call id blank',
    text: withReply('toolCalls:', '  - name: t', '    id: "   "'),
    path: `${R}/toolCalls/0/id`,
    message: /non-blank string\); found "   "/,
    line: 7,
    schema: true,
  },
  {
    name: 'tool call id too long',
    text: withReply('toolCalls:', '  - name: t', `    id: ${'x'.repeat(129)}`),
    path: `${R}/toolCalls/0/id`,
    message: /at most 128 characters; found 129 characters/,
    line: 7,
    schema: true,
  },
  {
    name: 'duplicate tool call ids',
    text: withReply('toolCalls:', '  - { name: t, id: c1 }', '  - { name: u, id: c1 }'),
    path: `${R}/toolCalls/1/id`,
    message: /unique in a reply; found "c1" again/,
    line: 7,
    schema: false,
  },
  {
    name: 'tool call arguments not JSON',
    text: withReply('toolCalls:', '  - name: t', '    arguments: { n: .inf }'),
    path: `${R}/toolCalls/0/arguments/n`,
    message: /expected a JSON value; found Infinity/,
    line: 7,
    schema: false,
  },

  // when
  {
    name: 'unknown when key',
    text: withWhen('lastUser: hi'),
    path: `${W}/lastUser`,
    message: /^unknown key "lastUser"; did you mean "latestUser"\?$/,
    line: 5,
    schema: true,
  },
  {
    name: 'when not an object',
    text: withWhen('- a'),
    path: W,
    message: /^expected match conditions .*found a list$/,
    line: 5,
    schema: true,
  },
  {
    name: 'text match with two modes',
    text: withWhen('latestUser: { equals: a, contains: b }'),
    path: `${W}/latestUser`,
    message: /^expected exactly one of equals, contains, matches; found equals, contains$/,
    line: 5,
    schema: true,
  },
  {
    name: 'text match with no mode',
    text: withWhen('model: {}'),
    path: `${W}/model`,
    message: /^expected exactly one of equals, contains, matches; found none$/,
    line: 5,
    schema: true,
  },
  {
    name: 'text match unknown key',
    text: withWhen('latestUser: { contain: hi }'),
    path: `${W}/latestUser/contain`,
    message: /did you mean "contains"\?/,
    line: 5,
    schema: true,
  },
  {
    name: 'text match not string/object',
    text: withWhen('latestUser: 3'),
    path: `${W}/latestUser`,
    message: /^expected a string or an object with one of equals, contains, matches; found 3$/,
    line: 5,
    schema: true,
  },
  {
    name: 'regex does not compile',
    text: withWhen('latestUser:', '  matches: "weather ("'),
    path: `${W}/latestUser/matches`,
    message: /^expected a valid JavaScript regular expression; .*Unterminated group/,
    line: 6,
    schema: false,
  },
  {
    name: 'regex flags invalid',
    text: withWhen('latestUser: { matches: a, flags: q }'),
    path: `${W}/latestUser/flags`,
    message: /^expected a valid JavaScript regular expression; .*flags/i,
    line: 5,
    schema: true,
  },
  {
    name: 'regex flag g refused',
    text: withWhen('latestUser: { matches: a, flags: gi }'),
    path: `${W}/latestUser/flags`,
    message: /expected flags among d, i, m, s, u, v .*found "gi"/,
    line: 5,
    schema: true,
  },
  {
    name: 'flags without matches',
    text: withWhen('latestUser: { contains: a, flags: i }'),
    path: `${W}/latestUser/flags`,
    message: /only together with "matches"/,
    line: 5,
    schema: true,
  },
  {
    name: 'toolResult without name or id',
    text: withWhen('toolResult: { content: done }'),
    path: `${W}/toolResult`,
    message: /at least one of "name", "id", "preset" in toolResult; found only content/,
    line: 5,
    schema: true,
  },
  {
    name: 'toolArguments without equals',
    text: withWhen('toolArguments: { name: weather }'),
    path: `${W}/toolArguments`,
    message: /^missing required key "equals"/,
    line: 5,
    schema: true,
  },
  {
    name: 'jsonPath not starting with $',
    text: withWhen('jsonPath: { path: city, equals: Paris }'),
    path: `${W}/jsonPath/path`,
    message: /starting with "\$".*found "city"/,
    line: 5,
    schema: true,
  },
  {
    name: 'jsonPath bad segment',
    text: withWhen('jsonPath: { path: "$.a..b", equals: 1 }'),
    path: `${W}/jsonPath/path`,
    message: /found "\.\.b" at character 4/,
    line: 5,
    schema: false,
  },
  {
    name: 'jsonPath in enum',
    text: withWhen('jsonPath: { path: $.a, equals: 1, in: last }'),
    path: `${W}/jsonPath/in`,
    message: /^expected one of latest, toolResult; found "last"/,
    line: 5,
    schema: true,
  },
  {
    name: 'jsonPath without equals',
    text: withWhen('jsonPath: { path: $.a }'),
    path: `${W}/jsonPath`,
    message: /^missing required key "equals"/,
    line: 5,
    schema: true,
  },
  {
    name: 'history message role',
    text: withWhen('historyExact:', '  - { role: human, content: hi }'),
    path: `${W}/historyExact/0/role`,
    message: /^expected one of system, developer, user, assistant, tool; found "human"/,
    line: 6,
    schema: true,
  },
  {
    name: 'history message unknown key',
    text: withWhen('historyContains:', '  - role: tool', '    tool_call_id: c1'),
    path: `${W}/historyContains/0/tool_call_id`,
    message: /did you mean "toolCallId"\?/,
    line: 7,
    schema: true,
  },
  {
    name: 'history toolCalls on a user message',
    text: withWhen('historyContains:', '  - role: user', '    toolCalls: [{ name: t }]'),
    path: `${W}/historyContains/0/toolCalls`,
    message: /only on a message with role assistant; found role user/,
    line: 7,
    schema: true,
  },
  {
    name: 'history toolCallId on an assistant message',
    text: withWhen('historyContains:', '  - role: assistant', '    toolCallId: c1'),
    path: `${W}/historyContains/0/toolCallId`,
    message: /only on a message with role tool; found role assistant/,
    line: 7,
    schema: true,
  },
  {
    name: 'empty historyExact',
    text: withWhen('historyExact: []'),
    path: `${W}/historyExact`,
    message: /at least one entry/,
    line: 5,
    schema: true,
  },
  {
    name: 'preset call: an unknown preset, with a did-you-mean',
    text: withReply('toolCalls:', '  - { preset: wether, arguments: { location: Paris } }'),
    path: `${R}/toolCalls/0/preset`,
    message: /^expected one of calculator, current_time, weather, .*, apply_patch; found "wether" \(did you mean "weather"\?\)$/,
    line: 6,
    schema: true,
  },
  {
    name: "preset call: arguments the preset's parameters schema refuses",
    text: withReply('toolCalls:', '  - { preset: weather, id: call_paris, arguments: { location: Paris, unit: kelvin } }'),
    path: `${R}/toolCalls/0/arguments`,
    message:
      /^expected arguments the "weather" preset's parameters schema accepts; at \/unit: must be equal to one of the allowed values: celsius, fahrenheit$/,
    line: 6,
    schema: true,
  },
  {
    name: 'preset call: an unknown argument',
    text: withReply('toolCalls:', '  - preset: calculator', '    arguments: { expression: "6 * 7", precision: 2 }'),
    path: `${R}/toolCalls/0/arguments`,
    message:
      /^expected arguments the "calculator" preset's parameters schema accepts; at \(root\): must NOT have additional properties \('precision'\)$/,
    line: 7,
    schema: true,
  },
  {
    name: 'preset call without arguments',
    text: withReply('toolCalls:', '  - { preset: weather, id: call_paris }'),
    path: `${R}/toolCalls/0`,
    message: /^missing required key "arguments" in a tool call to the preset "weather"$/,
    line: 6,
    schema: true,
  },
  {
    name: 'preset call with a name too',
    text: withReply('toolCalls:', '  - { name: weather, preset: weather, arguments: { location: Paris } }'),
    path: `${R}/toolCalls/0/preset`,
    message: /^expected either "name" or "preset" in a tool call, not both; found both$/,
    line: 6,
    schema: true,
  },
  {
    name: 'preset result: an unknown preset',
    text: withWhen('toolResult: { preset: calculater, result: { value: 42 } }'),
    path: `${W}/toolResult/preset`,
    message: /found "calculater" \(did you mean "calculator"\?\)$/,
    line: 5,
    schema: true,
  },
  {
    name: "preset result: a result the preset's result schema refuses",
    text: withWhen(
      'toolResult:',
      '  preset: weather',
      '  id: call_paris',
      '  result: { location: Paris, temperature: warm, unit: celsius, condition: sunny }',
    ),
    path: `${W}/toolResult/result`,
    message: /^expected a result the "weather" preset's result schema accepts; at \/temperature: must be number$/,
    line: 8,
    schema: true,
  },
  {
    name: 'preset result: an error the error schema refuses',
    text: withWhen('toolResult: { preset: read_file, error: { code: not_found, message: gone, retryable: "no" } }'),
    path: `${W}/toolResult/error`,
    message: /^expected an error the "read_file" preset's error schema accepts; at \/error\/retryable: must be boolean$/,
    line: 5,
    schema: true,
  },
  {
    name: 'preset result: call arguments the parameters schema refuses',
    text: withWhen('toolResult: { preset: read_file, arguments: { path: a.txt, offset: -1 }, result: { content: "", truncated: false } }'),
    path: `${W}/toolResult/arguments`,
    message: /^expected arguments the "read_file" preset's parameters schema accepts; at \/offset: must be >= 0$/,
    line: 5,
    schema: true,
  },
  {
    name: 'preset result: result without preset',
    text: withWhen('toolResult: { name: weather, result: { temperature: 21 } }'),
    path: `${W}/toolResult/result`,
    message: /^expected "result" only together with "preset" \(use "content" for any tool\); found no "preset"$/,
    line: 5,
    schema: true,
  },
  {
    name: 'preset result: result and error',
    text: withWhen('toolResult: { preset: calculator, result: { value: 1 }, error: { code: x, message: y, retryable: false } }'),
    path: `${W}/toolResult/error`,
    message: /^expected either "result" or "error" in toolResult, not both; found both$/,
    line: 5,
    schema: true,
  },
  {
    name: 'preset result: content and result',
    text: withWhen('toolResult: { preset: calculator, content: "42", result: { value: 42 } }'),
    path: `${W}/toolResult/result`,
    message: /^expected either "content" or "result" in toolResult, not both; found both$/,
    line: 5,
    schema: true,
  },
  {
    name: 'preset result: name and preset',
    text: withWhen('toolResult: { name: calculator, preset: calculator }'),
    path: `${W}/toolResult/preset`,
    message: /^expected either "name" or "preset" in toolResult, not both; found both$/,
    line: 5,
    schema: true,
  },
  {
    name: 'hasTool empty',
    text: withWhen('hasTool: ""'),
    path: `${W}/hasTool`,
    message: /^expected a tool name \(a non-empty string\); found ""$/,
    line: 5,
    schema: true,
  },
];

for (const c of CASES) {
  test(`error: ${c.name}`, () => {
    const problems = problemsOf(c.text);
    const hit = expectProblem(problems, c.path, c.message, c.line);
    assert.equal(hit.file, 'test.yaml');
    assert.match(hit.message, /expected|missing|unknown key/, 'the message says what was expected');
    assert.equal(typeof hit.column, 'number');
  });
}

test('validateFixture and validateFixtureValue work on plain values, without positions', () => {
  const bad = { scenarios: [{ name: 'a', replies: [{ text: 'x', json: 1 }] }] };
  for (const [fn, source] of [
    [validateFixture, 'in-memory'],
    [validateFixtureValue, 'control:POST /_understudy/sessions/x/scripts'],
  ] as const) {
    const result = fn(bad, source);
    assert.equal(result.ok, false);
    if (result.ok) continue;
    assert.deepEqual(result.problems, [
      { file: source, path: '/scenarios/0/replies/0/json', message: 'expected either "text" or "json" in a reply, not both; found both' },
    ]);
  }
  const good = validateFixtureValue(VALID_SPEC, 'control');
  assert.ok(good.ok);
  assert.deepEqual(good.fixture, VALID_SPEC);
  assert.notEqual(good.fixture, VALID_SPEC, 'the result is a copy');
});

test('a value built in code that contains itself is a problem, not a stack overflow', () => {
  const args: Record<string, unknown> = { city: 'Paris' };
  args.self = args;
  const result = validateFixtureValue({ scenarios: [{ name: 'a', replies: [{ toolCalls: [{ name: 't', arguments: args }] }] }] }, 'code');
  assert.equal(result.ok, false);
  if (result.ok) return;
  assert.deepEqual(result.problems, [
    {
      file: 'code',
      path: '/scenarios/0/replies/0/toolCalls/0/arguments/self',
      message: 'expected a JSON value; found a value that contains itself',
    },
  ]);
});

test('several problems are all reported, in file order', () => {
  const problems = problemsOf(
    lines('scenarios:', '  - name: a', '    exhausted: never', '    steps:', '      - reply: { text: 1 }', '        next: zzz'),
  );
  assert.deepEqual(
    problems.map((p) => [p.line, p.path]),
    [
      [3, '/scenarios/0/exhausted'],
      [5, '/scenarios/0/steps/0/reply/text'],
      [6, '/scenarios/0/steps/0/next'],
    ],
  );
});

test('formatProblems prints file:line:col, the path and the message', () => {
  const text = formatProblems([
    {
      file: 'a.yaml',
      path: '/scenarios/0/exhausted',
      line: 3,
      column: 16,
      message: 'expected one of reject, repeat_last, restart; found "repeat"',
    },
    { file: 'control', path: '/scenarios', message: 'expected a list of scenarios (a list); found 3' },
  ]);
  assert.equal(
    text,
    [
      'a.yaml:3:16  /scenarios/0/exhausted  expected one of reject, repeat_last, restart; found "repeat"',
      'control  /scenarios  expected a list of scenarios (a list); found 3',
    ].join('\n'),
  );
});

test('runValidate: 0 for valid files, 1 with problems, 2 without files', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'understudy-validate-'));
  try {
    const bad = join(dir, 'bad.yaml');
    await writeFile(bad, lines('scenarios:', '  - name: a', '    exhausted: repeat', '    replies: [{ text: x }]'));
    const weather = repoPath('examples/weather.yaml');

    let out: string[] = [];
    assert.equal(await runValidate([weather, repoPath('examples/queue.yaml')], (l) => out.push(l)), 0);
    assert.deepEqual(out, [`ok  ${weather} (1 scenario)`, `ok  ${repoPath('examples/queue.yaml')} (1 scenario)`]);

    out = [];
    assert.equal(await runValidate([weather, bad], (l) => out.push(l)), 1);
    assert.equal(out[0], `ok  ${weather} (1 scenario)`);
    assert.equal(
      out[1],
      `${bad}:3:16  /scenarios/0/exhausted  expected one of reject, repeat_last, restart; found "repeat" (did you mean "repeat_last"?)`,
    );

    out = [];
    assert.equal(await runValidate([join(dir, 'missing.yaml')], (l) => out.push(l)), 1);
    assert.match(out[0], /missing\.yaml {2}\(file\) {2}expected a readable fixture file/);

    out = [];
    assert.equal(await runValidate([], (l) => out.push(l)), 2);
    assert.match(out[0], /^usage: /);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

// ------------------------------------------------------------------ the JSON Schema

async function compiledSchema() {
  const schema = JSON.parse(await readFile(repoPath('schema/fixtures.schema.json'), 'utf8')) as Record<string, unknown>;
  const warnings: unknown[] = [];
  const logger = { log: () => {}, warn: (...a: unknown[]) => warnings.push(a), error: (...a: unknown[]) => warnings.push(a) };
  // Ajv's default strictness (unknown keywords and formats are errors; type issues are logged).
  const ajv = new Ajv({ allErrors: true, logger });
  return { schema, validate: ajv.compile(schema), warnings };
}

test('the JSON Schema is draft-07, compiles with ajv (strict defaults, no warnings) and documents every property', async () => {
  const { schema, warnings } = await compiledSchema();
  assert.equal(schema.$schema, 'http://json-schema.org/draft-07/schema#');
  assert.equal(schema.$id, 'https://understudy.dev/schema/fixtures.schema.json');
  assert.deepEqual(warnings, []);
  // Every object schema is closed and every property has a description.
  let objects = 0;
  const walk = (node: unknown, where: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}/${i}`));
    if (typeof node !== 'object' || node === null) return;
    const n = node as Record<string, unknown>;
    if (n.properties) {
      objects++;
      assert.ok('additionalProperties' in n, `${where} has additionalProperties`);
      if (where !== '/definitions/error/properties/headers') assert.equal(n.additionalProperties, false, `${where} is closed`);
      for (const [key, prop] of Object.entries(n.properties as Record<string, Record<string, unknown>>)) {
        assert.equal(typeof prop.description, 'string', `${where}/properties/${key} has a description`);
      }
    }
    // `if`/`then`/`not`/`dependencies` only constrain properties declared elsewhere.
    for (const [k, v] of Object.entries(n)) if (!['if', 'then', 'not', 'dependencies'].includes(k)) walk(v, `${where}/${k}`);
  };
  walk(schema, '');
  assert.ok(objects >= 12, `found ${objects} object schemas`);
});

test('the JSON Schema accepts the valid examples', async () => {
  const { validate } = await compiledSchema();
  const samples: [string, unknown][] = [
    ['VALID_YAML', parseYaml(VALID_YAML)],
    ['VALID_SPEC + $schema', { $schema: 'x', ...VALID_SPEC }],
    ['examples/weather.yaml', parseYaml(await readFile(repoPath('examples/weather.yaml'), 'utf8'))],
    ['examples/queue.yaml', parseYaml(await readFile(repoPath('examples/queue.yaml'), 'utf8'))],
    ['examples/presets.yaml', parseYaml(await readFile(repoPath('examples/presets.yaml'), 'utf8'))],
  ];
  for (const [name, value] of samples) {
    assert.equal(validate(value), true, `${name}: ${JSON.stringify(validate.errors)}`);
  }
});

test('the JSON Schema rejects what the validator rejects structurally', async () => {
  const { validate } = await compiledSchema();
  let checked = 0;
  for (const c of CASES.filter((x) => x.schema)) {
    const value = parseYaml(c.text) as unknown;
    assert.equal(validate(value), false, `schema accepted "${c.name}"`);
    checked++;
  }
  assert.ok(checked > 40);
  // And a hand-made invalid file, with the error where expected.
  assert.equal(validate({ scenarios: [{ name: 'a', exhausted: 'repeat', replies: [{ text: 'x' }] }] }), false);
  assert.ok(validate.errors?.some((e) => e.instancePath === '/scenarios/0/exhausted' && e.keyword === 'enum'));
});

test('the package exports loadFixtureFile and formatProblems for loading a file in process, as docs/fixtures.md shows', async () => {
  const pkg = await import('../src/index.js');
  const loaded = await pkg.loadFixtureFile(join(import.meta.dirname, '..', 'examples', 'bedrock.yaml'));
  assert.ok(loaded.ok);
  assert.deepEqual(
    loaded.fixture.scenarios.map((s) => s.name),
    ['flight-status', 'busy'],
  );
  const dir = await mkdtemp(join(tmpdir(), 'understudy-export-'));
  try {
    const file = join(dir, 'bad.yaml');
    await writeFile(file, 'scenarios:\n  - name: x\n    replies: [{ txt: hi }]\n');
    const bad = await pkg.loadFixtureFile(file);
    assert.ok(!bad.ok);
    assert.match(pkg.formatProblems(bad.problems), /bad\.yaml:3:\d+ {2}\/scenarios\/0\/replies\/0/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

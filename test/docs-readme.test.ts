// The README's "In a test" snippet, run as written (its import pointed at this checkout) as the
// body of a node:test test: with nothing under test it fails verification, and the test process
// still exits by itself, since the server is closed in `finally` (node:test waits for an open
// server forever); with the application's two calls put where the snippet says the application
// runs, it passes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTsProgram, type ProgramRun } from './support/child-program.js';
import { ROOT } from './support/cli-process.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const SNIPPET = /## In a test\n+```ts\n([\s\S]*?)```/.exec(README)?.[1] ?? '';
const APP_LINE = '  // … the application under test runs …';

// What the application under test does: the weather round the snippet scripts.
const APP = `
  const tools = [{ type: 'function' as const, function: { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
  const messages: any[] = [{ role: 'user', content: "What's the weather in Paris?" }];
  const first = await openai.chat.completions.create({ model: 'gpt-4o', messages, tools });
  const call = first.choices[0].message.tool_calls![0];
  messages.push(first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: '21' });
  const second = await openai.chat.completions.create({ model: 'gpt-4o', messages, tools });
  console.log(second.choices[0].message.content);
`;

async function runSnippet(name: string, source: string): Promise<ProgramRun> {
  // Imports stay at the top; the rest becomes a test's body.
  const lines = source.split('\n');
  const imports = lines.filter((l) => l.startsWith('import '));
  const body = lines.filter((l) => !l.startsWith('import '));
  const program = [`import { test } from 'node:test';`, ...imports, `test('readme', async () => {`, ...body, '});', ''].join('\n');
  // Not as a child of this test run (which would make it speak the runner's binary protocol).
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  return runTsProgram(`readme-${name}`, program, { args: ['--test-reporter=tap'], env });
}

test('the README snippet, with nothing under test: verify() fails with its report and the process exits by itself', async () => {
  assert.ok(SNIPPET.includes(APP_LINE), 'the snippet marks where the application runs');
  const run = await runSnippet('idle', SNIPPET);
  assert.notEqual(run.code, null, 'exited by itself (was killed after 20 s)');
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.match(run.stdout, /not ok 1 - readme/);
  assert.match(run.stdout, /Understudy session "session-\d+" failed verification/);
  assert.match(run.stdout, /scenario "weather" step "step-1" was never used/);
});

test('the README snippet with the application in place passes', async () => {
  const run = await runSnippet('app', SNIPPET.replace(APP_LINE, APP));
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /^Paris is sunny, 21 °C\.$/m);
  assert.match(run.stdout, /^ok 1 - readme/m);
});

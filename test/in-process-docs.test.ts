// The in-process examples run as written (imports pointed at this checkout), each as a program of
// its own: the README's, and docs/in-process.md's AI SDK loop after its createUnderstudy() lines.
// Each prints the scripted answer and exits by itself (nothing listens, nothing keeps it alive); a
// changed script makes verify() fail it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTsProgram, type ProgramRun } from './support/child-program.js';
import { ROOT } from './support/cli-process.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const README_SNIPPET = /## In process, with no HTTP\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(README)?.[1] ?? '';
const DOC = readFileSync(join(ROOT, 'docs', 'in-process.md'), 'utf8');
const DOC_BLOCKS = [...DOC.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);

function run(name: string, source: string): Promise<ProgramRun> {
  return runTsProgram(`in-process-doc-${name}`, source);
}

test('the README in-process snippet prints the scripted answer and exits by itself', { timeout: 30_000 }, async () => {
  assert.match(README_SNIPPET, /createUnderstudy\(\)/);
  const ran = await run('readme', README_SNIPPET);
  assert.equal(ran.code, 0, ran.output);
  assert.equal(ran.output, 'Hello from the script.\n');
  const changed = await run('readme-changed', README_SNIPPET.replace(".scenario('hi')", ".scenario('hi').whenLatestUser('Bye')"));
  assert.notEqual(changed.code, 0, 'a script the call does not match fails the program');
  assert.match(changed.output, /no_match/);
});

test("docs/in-process.md's AI SDK loop runs as written: two steps, the final text, verify() passes", { timeout: 30_000 }, async () => {
  const [setup, loop] = [DOC_BLOCKS[0], DOC_BLOCKS.find((b) => b.includes('llm-understudy/ai-sdk'))];
  assert.ok(setup?.includes('createUnderstudy()') && loop, 'the page has its setup and its AI SDK example');
  const program = `${setup}\n${loop}\nconsole.log(result.steps.length, result.text);\n`;
  const ran = await run('loop', program);
  assert.equal(ran.code, 0, ran.output);
  assert.equal(ran.output, '2 Paris is 21 °C.\n');
  const unused = await run(
    'loop-unused',
    program.replace('await session.verify();', "session.scenario('extra').replies('Never asked.');\nawait session.verify();"),
  );
  assert.notEqual(unused.code, 0);
  assert.match(unused.output, /scenario "extra" step "step-1" was never used/);
});

// docs/in-process.md's LangChain example runs as written (imports pointed at this checkout) after
// the page's createUnderstudy() setup, as a program of its own: createAgent's two-tool loop prints
// the final text, verify() passes, and the program exits by itself; a step nobody asks for makes
// verify() fail it.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from './support/cli-process.js';
import { runTsProgram, type ProgramRun } from './support/child-program.js';

const DOC = readFileSync(join(ROOT, 'docs', 'in-process.md'), 'utf8');
const BLOCKS = [...DOC.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);

function run(name: string, source: string): Promise<ProgramRun> {
  return runTsProgram(`in-process-langchain-doc-${name}`, source);
}

test("docs/in-process.md's LangChain loop runs as written: the final text, verify() passes", { timeout: 30_000 }, async () => {
  const [setup, loop] = [BLOCKS[0], BLOCKS.find((b) => b.includes('llm-understudy/langchain'))];
  assert.ok(setup?.includes('createUnderstudy()') && loop, 'the page has its setup and its LangChain example');
  // Imports first: the setup's, then the example's.
  const lines = `${setup}\n${loop}`.split('\n');
  const imports = lines.filter((l) => l.startsWith('import '));
  const body = lines.filter((l) => !l.startsWith('import '));
  const program = [...imports, ...body, 'console.log(result.messages.at(-1).text);', ''].join('\n');
  const ran = await run('loop', program);
  assert.equal(ran.code, 0, ran.output);
  assert.equal(ran.output, 'Lyon is sunny, 24 °C.\n');
  const unused = await run(
    'loop-unused',
    program.replace(
      "await session.verify({ toolOrder: ['geocode', 'forecast'] });",
      "session.scenario('extra').replies('Never asked.');\nawait session.verify({ toolOrder: ['geocode', 'forecast'] });",
    ),
  );
  assert.notEqual(unused.code, 0);
  assert.match(unused.output, /scenario "extra" step "step-1" was never used/);
});

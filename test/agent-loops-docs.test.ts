// docs/agent-loops.md's zero-config example, run as written (its import pointed at this checkout):
// the AI SDK loop calls the tool once with the smallest valid arguments and ends with the sentence
// after two steps. With a tool whose schema no value satisfies, the same program fails with the 409.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runTsProgram, type ProgramRun } from './support/child-program.js';
import { ROOT } from './support/cli-process.js';

const DOC = readFileSync(join(ROOT, 'docs', 'agent-loops.md'), 'utf8');
const SNIPPET = /```ts\n(import \{ createOpenAI \}[\s\S]*?)```/.exec(DOC)?.[1] ?? '';

function run(name: string, source: string): Promise<ProgramRun> {
  return runTsProgram(`agent-loops-doc-${name}`, source);
}

test('the docs/agent-loops.md zero-config loop ends with the sentence after one schema-valid call', async () => {
  const { code, output } = await run('zc', SNIPPET);
  assert.equal(code, 0, output);
  assert.match(output, /^\{"city":"","days":1,"unit":"celsius"\} 2 This is a scripted answer from Understudy\.$/m);
});

test('the same program with a tool no value satisfies fails with zero_config_unsatisfiable', async () => {
  const unsatisfiable = SNIPPET.replace('z.number().int().min(1)', 'z.number().int().min(5).max(3)');
  assert.notEqual(unsatisfiable, SNIPPET);
  const { code, output } = await run('zc-unsatisfiable', unsatisfiable);
  assert.equal(code, 1, output);
  assert.match(output, /zero_config_unsatisfiable/);
});

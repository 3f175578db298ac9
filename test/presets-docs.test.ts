// docs/presets.md's examples, run as written (their imports pointed at this checkout). The first:
// with nothing where it says the application runs, verify() fails (the call was never made); with
// the application's two requests there, the round passes and the process exits by itself. The AI
// SDK one passes as written, and fails verification when the loop is offered no tools.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTsProgram, type ProgramRun } from './support/child-program.js';
import { ROOT } from './support/cli-process.js';

const DOC = readFileSync(join(ROOT, 'docs', 'presets.md'), 'utf8');
const SNIPPET = /```ts\n(import OpenAI[\s\S]*?)```/.exec(DOC)?.[1] ?? '';
const APP_LINE = /^ {2}\/\/ … the application runs.*$/m;
const AI_SDK_SNIPPET = /```ts\n(import \{ createOpenAI \}[\s\S]*?)```/.exec(DOC)?.[1] ?? '';

// What the application does: ask, run the tool (here: answer with the scripted result), ask again.
const APP = `
  const messages: any[] = [{ role: 'user', content: 'What is the weather in Paris?' }];
  const first = await openai.chat.completions.create({ model: 'gpt-4o', messages, tools });
  const call = first.choices[0].message.tool_calls![0] as any;
  messages.push(first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: JSON.stringify(weather.result) });
  const second = await openai.chat.completions.create({ model: 'gpt-4o', messages, tools });
  console.log(call.id, call.function.arguments, second.choices[0].message.content);
`;

function run(name: string, source: string): Promise<ProgramRun> {
  return runTsProgram(`presets-doc-${name}`, source);
}

test('the docs/presets.md example with nothing under test fails verification and exits', async () => {
  assert.match(SNIPPET, APP_LINE, 'the example marks where the application runs');
  const { code, output } = await run('idle', SNIPPET);
  assert.equal(code, 1, output);
  assert.match(output, /scenario "weather" step "step-1" was never used/);
});

test('the docs/presets.md example with the application in place passes', async () => {
  const { code, output } = await run('app', SNIPPET.replace(APP_LINE, APP));
  assert.equal(code, 0, output);
  assert.match(output, /^call_paris \{"location":"Paris","unit":"celsius"\} Paris is sunny, 21 °C\.$/m);
});

test('the docs/presets.md AI SDK example runs its loop to the answer, as written', async () => {
  const { code, output } = await run('ai-sdk', AI_SDK_SNIPPET);
  assert.equal(code, 0, output);
  assert.match(output, /^It is 42\. 2$/m);
});

test('the docs/presets.md AI SDK example offered no tools fails verification', async () => {
  assert.match(AI_SDK_SNIPPET, /tools: aiSdkTools\(sum\),/);
  const { code, output } = await run('ai-sdk-no-tools', AI_SDK_SNIPPET.replace('tools: aiSdkTools(sum),', 'tools: {},'));
  assert.equal(code, 1, output);
  assert.match(output, /fixture_mismatch|never used/);
});

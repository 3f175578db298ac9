// The package as a consumer gets it (issue 20): packed as npm would publish it, unpacked into a
// temporary project's node_modules (its dependencies, the openai SDK and the frameworks linked from
// ours: nothing is fetched). There a calculator round runs with the real openai SDK through
// `llm-understudy/presets`, the same round through the AI SDK with `llm-understudy/presets/ai-sdk`
// and the LangChain tool of `llm-understudy/presets/langchain`, and the in-process models of
// `llm-understudy/ai-sdk` and `llm-understudy/langchain` answer from a createUnderstudy() session
// (their bundles share the library root's sessions and error classes); and TypeScript resolves the
// exports' types (wrong arguments are type errors; @ts-expect-error lines fail the check if the
// types went loose). Skipped when dist/ has not been built (`npm run build`).

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
// `ai` and @langchain/core are the framework entries' optional peers; @ai-sdk/openai drives the round.
const LINKED = ['ajv', 'ajv-formats', 'yaml', 'zod', 'openai', '@types/node', 'ai', '@ai-sdk/openai', '@langchain/core'];
const notBuilt = !existsSync(join(ROOT, 'dist', 'presets', 'index.js')) ? 'dist/presets/ is not built (npm run build)' : false;

const ROUND = `
import OpenAI from 'openai';
import { startUnderstudy } from 'llm-understudy';
import { presets } from 'llm-understudy/presets';

const sum = presets.calculator.success({ expression: '6 * 7' }, { value: 42 });
const mock = await startUnderstudy();
try {
  const session = await mock.session('consumer');
  await session.scenario('sum').callsTools([sum.call]).thenWhenToolResult('calculator', sum.call.id, sum.result).replies('It is 42.');
  const { name, description, parameters } = sum.definition;
  const tools = [{ type: 'function', function: { name, description, parameters } }];
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10000 });
  const messages = [{ role: 'user', content: 'What is 6 * 7?' }];
  const first = await openai.chat.completions.create({ model: 'gpt-4o', messages, tools });
  const call = first.choices[0].message.tool_calls[0];
  messages.push(first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: JSON.stringify(sum.result) });
  const second = await openai.chat.completions.create({ model: 'gpt-4o', messages, tools });
  await session.verify({ toolCalled: [{ name: 'calculator', id: call.id, arguments: { expression: '6 * 7' }, result: { value: 42 } }] });
  console.log(JSON.stringify({ id: call.id, arguments: call.function.arguments, answer: second.choices[0].message.content }));
} finally {
  await mock.close();
}
`;

const FRAMEWORKS = `
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs } from 'ai';
import { startUnderstudy } from 'llm-understudy';
import { presets } from 'llm-understudy/presets';
import { aiSdkTools } from 'llm-understudy/presets/ai-sdk';
import { langchainTool } from 'llm-understudy/presets/langchain';

const sum = presets.calculator.success({ expression: '6 * 7' }, { value: 42 });
const mock = await startUnderstudy();
try {
  const session = await mock.session('consumer-frameworks');
  await session.scenario('sum').callsTools([sum.call]).thenWhenToolResult('calculator', sum.call.id, sum.result).replies('It is 42.');
  const model = createOpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey }).chat('gpt-4o');
  const result = await generateText({ model, tools: aiSdkTools(sum), stopWhen: stepCountIs(3), maxRetries: 0, prompt: 'What is 6 * 7?' });
  await session.verify();
  const message = await langchainTool(sum).invoke({ id: 'call_1', name: 'calculator', args: sum.call.arguments, type: 'tool_call' });
  console.log(JSON.stringify({ answer: result.text, steps: result.steps.length, content: message.content }));
} finally {
  await mock.close();
}
`;

// The in-process models from the packed entries: an AI SDK loop with a preset tool, a LangChain
// tool round, and a refusal whose class is the root's.
const IN_PROCESS = `
import { generateText, stepCountIs } from 'ai';
import { createUnderstudy, UnderstudyModelError } from 'llm-understudy';
import { understudyModel, UnderstudyModelError as AiSdkModelError } from 'llm-understudy/ai-sdk';
import { UnderstudyChatModel, UnderstudyModelError as LangChainModelError } from 'llm-understudy/langchain';
import { presets } from 'llm-understudy/presets';
import { aiSdkTools } from 'llm-understudy/presets/ai-sdk';
import { langchainTool } from 'llm-understudy/presets/langchain';

const sum = presets.calculator.success({ expression: '6 * 7' }, { value: 42 });
const mock = await createUnderstudy();
const session = await mock.session('in-process');
session.scenario('sum').whenLatestUser({ contains: '6 * 7' }).callsPreset(sum).thenWhenPresetResult(sum).replies('It is 42.');
const result = await generateText({ model: understudyModel(session), tools: aiSdkTools(sum), stopWhen: stepCountIs(3), prompt: 'What is 6 * 7?' });
const lc = await mock.session('langchain');
lc.scenario('sum').callsPreset(sum);
const message = await new UnderstudyChatModel({ session: lc, maxRetries: 0 }).bindTools([langchainTool(sum)]).invoke('What is 6 * 7?');
let refused;
try {
  await generateText({ model: understudyModel(session), prompt: 'Anything else?', maxRetries: 0 });
} catch (error) {
  refused = [error instanceof UnderstudyModelError, AiSdkModelError === UnderstudyModelError, LangChainModelError === UnderstudyModelError, error.code];
}
await session.check().then((report) => console.log(JSON.stringify({
  answer: result.text,
  steps: result.steps.length,
  call: message.tool_calls?.[0]?.args,
  refused,
  problems: report.problems.map((p) => p.kind),
})));
`;

const TYPED = `
import { ScenarioBuilder } from 'llm-understudy';
import { presets, PRESET_NAMES, type CalculatorArguments, type WeatherResult, type PresetDefinition } from 'llm-understudy/presets';
import { aiSdkTool, aiSdkTools } from 'llm-understudy/presets/ai-sdk';
import { langchainTool, langchainTools } from 'llm-understudy/presets/langchain';
import { createUnderstudy } from 'llm-understudy';
import { understudyModel, type UnderstudyLanguageModel } from 'llm-understudy/ai-sdk';
import { UnderstudyChatModel } from 'llm-understudy/langchain';

const args: CalculatorArguments = { expression: '1 + 1' };
const call: { id: string; name: 'calculator' } = presets.calculator.call(args);
const definition: PresetDefinition<'weather'> = presets.weather.definition();
const parameters: Record<string, unknown> = definition.parameters;
const result: WeatherResult = { location: 'Paris', temperature: 21, unit: 'fahrenheit', condition: 'sunny' };
const name: 'apply_patch' = PRESET_NAMES.apply_patch;
// Fixtures go straight into the scenario builder, and a result spreads into a changed one.
const weather = presets.weather.success({ location: 'Paris' }, result, { delayMs: 5 });
new ScenarioBuilder('w').callsTools([weather.call]).thenWhenToolResult(weather.call.name, weather.call.id, weather.result).replies('ok');
const changed: WeatherResult = { ...weather.result, temperature: 22 };
// @ts-expect-error: the unit is celsius or fahrenheit
presets.weather.call({ location: 'Paris', unit: 'kelvin' });
// @ts-expect-error: read_file needs its offset
presets.read_file.call({ path: 'a' });
// @ts-expect-error: a calculator result is a number
presets.calculator.result({ value: '42' });
// @ts-expect-error: no such preset
void presets.clock;
// The framework tools are keyed and named by the presets they offer, and execute to their results.
const sum = presets.calculator.success({ expression: '6 * 7' }, { value: 42 });
const tools = aiSdkTools(weather, sum);
const both = [tools.weather, tools.calculator];
// @ts-expect-error: no such tool among these
void tools.shell;
aiSdkTool(weather, (args) => ({ ...result, location: args.location }));
// @ts-expect-error: a weather tool gives back a weather result (or the error envelope)
aiSdkTool(weather, () => ({ value: 42 }));
const lc: { name: 'weather' } = langchainTool(weather);
const [first, second]: [{ name: 'weather' }, { name: 'calculator' }] = langchainTools(weather, sum);
// The in-process models take a session; a model id is a string.
const inProcess = await createUnderstudy();
const model: UnderstudyLanguageModel = understudyModel(await inProcess.session(), { modelId: 'm' });
new UnderstudyChatModel({ session: await inProcess.session(), model: 'm' });
// @ts-expect-error: the AI SDK model takes a session, not a URL
understudyModel('http://127.0.0.1');
export { call, parameters, result, name, changed, both, lc, first, second, model };
`;

let project: string;

before(() => {
  if (notBuilt) return;
  project = mkdtempSync(join(tmpdir(), 'understudy-presets-'));
  const packed = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', project], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const tarball = join(project, (JSON.parse(packed) as { filename: string }[])[0]?.filename as string);
  const modules = join(project, 'node_modules');
  mkdirSync(join(modules, '@types'), { recursive: true });
  execFileSync('tar', ['xzf', tarball, '-C', project]);
  renameSync(join(project, 'package'), join(modules, 'llm-understudy'));
  for (const name of LINKED) {
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', name), join(modules, name));
  }
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'presets-consumer', type: 'module', private: true }));
  writeFileSync(join(project, 'round.mjs'), ROUND);
  writeFileSync(join(project, 'frameworks.mjs'), FRAMEWORKS);
  writeFileSync(join(project, 'in-process.mjs'), IN_PROCESS);
  writeFileSync(join(project, 'typed.ts'), TYPED);
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
      },
      files: ['typed.ts'],
    }),
  );
});

after(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

function run(args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, args, { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

test('a consumer project runs a calculator round through llm-understudy/presets and the openai SDK', { skip: notBuilt }, async () => {
  const { code, output } = await run(['round.mjs']);
  assert.equal(code, 0, output);
  assert.deepEqual(JSON.parse(output.trim().split('\n').at(-1) as string), {
    id: 'call_calculator',
    arguments: '{"expression":"6 * 7"}',
    answer: 'It is 42.',
  });
});

test(
  'a consumer project runs the round through llm-understudy/presets/ai-sdk and the LangChain tool of /langchain',
  { skip: notBuilt },
  async () => {
    const { code, output } = await run(['frameworks.mjs']);
    assert.equal(code, 0, output);
    assert.deepEqual(JSON.parse(output.trim().split('\n').at(-1) as string), { answer: 'It is 42.', steps: 2, content: '{"value":42}' });
  },
);

test(
  'a consumer project runs the in-process models of llm-understudy/ai-sdk and /langchain with no server, sharing the root error class',
  { skip: notBuilt },
  async () => {
    const { code, output } = await run(['in-process.mjs']);
    assert.equal(code, 0, output);
    assert.deepEqual(JSON.parse(output.trim().split('\n').at(-1) as string), {
      answer: 'It is 42.',
      steps: 2,
      call: { expression: '6 * 7' },
      refused: [true, true, true, 'no_match'],
      // Every step used; the one request no step took is what verify() reports.
      problems: ['no_match'],
    });
  },
);

test(
  'TypeScript resolves the types of llm-understudy/presets and its framework entries in a consumer project',
  { skip: notBuilt },
  async () => {
    const { code, output } = await run([join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.']);
    assert.equal(code, 0, output);
  },
);

// llm-understudy/presets/ai-sdk and /langchain: a preset as an AI SDK tool() and as a LangChain
// tool, each offered with the real framework over HTTP. The schema Understudy decoded from the
// request is the catalogue's; the default execute gives back the fixture's scripted result, which
// the next step accepts; any other result is refused there. Neither framework is loaded by the
// main entry or by llm-understudy/presets.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { createOpenAI } from '@ai-sdk/openai';
import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { APICallError, generateText, stepCountIs } from 'ai';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { aiSdkTool, aiSdkTools } from '../src/presets/ai-sdk.js';
import { PRESET_CATALOGUE, PRESET_DESCRIPTORS, presets } from '../src/presets/index.js';
import { ZERO_CONFIG_TEXT } from '../src/engine/zero-config.js';
import { langchainTool, langchainTools } from '../src/presets/langchain.js';
import { ROOT } from './support/cli-process.js';
import { createAgent } from './support/langchain-agent.js';

const SUM = presets.calculator.success({ expression: '6 * 7' }, { value: 42 });
const WEATHER = presets.weather.success(
  { location: 'Paris' },
  { location: 'Paris', temperature: 21, unit: 'celsius', condition: 'sunny' },
  { id: 'call_paris' },
);

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

/** A round of one fixture: its call, then, on exactly its result, an answer. */
async function scriptRound(session: UnderstudySession, fixture: typeof SUM | typeof WEATHER, answer: string) {
  await session
    .scenario(fixture.call.name)
    .callsTools([fixture.call])
    .thenWhenToolResult(fixture.call.name, fixture.call.id, fixture.result)
    .replies(answer);
}

/** The parameters of each tool Understudy decoded from the session's first request. */
async function offeredSchemas(session: UnderstudySession) {
  const { entries } = await session.journal();
  return Object.fromEntries((entries[0]?.request?.tools ?? []).map((t) => [t.name, t.parameters]));
}

describe('aiSdkTool / aiSdkTools', () => {
  function model(session: UnderstudySession) {
    return createOpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey }).chat('gpt-4o');
  }

  test('generateText offers the catalogue schemas and the default executes answer the scripted results [aisdk-openai-chat.presets.json +]', async () => {
    const session = await mock.session('fw-aisdk');
    await scriptRound(session, SUM, 'It is 42.');
    const result = await generateText({
      model: model(session),
      tools: aiSdkTools(SUM, WEATHER),
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(10_000),
      prompt: 'What is 6 * 7?',
    });
    assert.equal(result.text, 'It is 42.');
    assert.deepEqual(result.steps[0]?.toolResults[0]?.output, { value: 42 });
    assert.deepEqual(await offeredSchemas(session), {
      calculator: PRESET_CATALOGUE.calculator.parameters,
      weather: PRESET_CATALOGUE.weather.parameters,
    });
    await session.verify({ toolCalled: [{ name: 'calculator', id: SUM.call.id, arguments: SUM.call.arguments, result: SUM.result }] });
  });

  test('a definition with no execute offers the tool and the SDK stops at the call', async () => {
    const session = await mock.session('fw-aisdk-definition');
    await session.scenario('call').callsTools([SUM.call]);
    const result = await generateText({
      model: model(session),
      tools: { calculator: aiSdkTool(presets.calculator.definition()) },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(10_000),
      prompt: 'What is 6 * 7?',
    });
    assert.deepEqual(
      result.steps.map((s) => [s.finishReason, s.toolCalls.map((c) => c.input)]),
      [['tool-calls', [SUM.call.arguments]]],
    );
    await session.verify();
  });

  test('an execute giving back another result is refused by the next step, which stays unused [aisdk-openai-chat.presets.json -]', async () => {
    const session = await mock.session('fw-aisdk-other');
    await scriptRound(session, SUM, 'It is 42.');
    const error = await generateText({
      model: model(session),
      tools: { calculator: aiSdkTool(SUM, () => ({ value: 41 })) },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(10_000),
      prompt: 'What is 6 * 7?',
    }).catch((e: unknown) => e);
    assert.ok(APICallError.isInstance(error), String(error));
    assert.equal(error.statusCode, 409);
    assert.match(error.responseBody ?? '', /no_match/);
    await assert.rejects(session.verify(), /step "step-2" was never used/);
  });

  test("a failure fixture's tool gives back the error envelope, which the script's next step expects", async () => {
    const session = await mock.session('fw-aisdk-failure');
    const down = presets.fetch_url.failure(
      { url: 'https://example.com/' },
      { code: 'unavailable', message: 'The site did not answer.', retryable: true },
    );
    await session
      .scenario('down')
      .callsTools([down.call])
      .thenWhenToolResult(down.call.name, down.call.id, down.result)
      .replies('The site is down.');
    const result = await generateText({
      model: model(session),
      tools: aiSdkTools(down),
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(10_000),
      prompt: 'Fetch example.com',
    });
    assert.equal(result.text, 'The site is down.');
    assert.deepEqual(result.steps[0]?.toolResults[0]?.output, down.result);
    await session.verify({ toolCalled: [{ name: 'fetch_url', result: down.result }] });
  });

  test('aiSdkTools refuses two fixtures of one preset, and the tools do not share the fixture', () => {
    const other = presets.calculator.success({ expression: '1 + 1' }, { value: 2 }, { id: 'call_two' });
    assert.throws(() => aiSdkTools(SUM, other), /two fixtures of preset "calculator"/);
    const { calculator } = aiSdkTools(SUM);
    assert.notEqual((calculator.inputSchema as { jsonSchema: unknown }).jsonSchema, SUM.definition.parameters);
  });
});

describe('langchainTool / langchainTools', () => {
  function chatModel(session: UnderstudySession) {
    return new ChatOpenAI({
      model: 'gpt-4o',
      apiKey: session.apiKey,
      configuration: { baseURL: mock.url('openai') },
      maxRetries: 0,
      timeout: 10_000,
    });
  }

  test('bindTools offers the catalogue schemas; the tool answers the scripted result as JSON text [langchain-openai-chat.presets.json +]', async () => {
    const session = await mock.session('fw-lc');
    await scriptRound(session, WEATHER, 'Paris is sunny, 21 °C.');
    const tools = langchainTools(WEATHER, SUM);
    const model = chatModel(session).bindTools(tools);
    const question = new HumanMessage('What is the weather in Paris?');
    const first = await model.invoke([question]);
    const call = first.tool_calls?.[0];
    assert.ok(call);
    assert.deepEqual([call.name, call.args, call.id], ['weather', WEATHER.call.arguments, WEATHER.call.id]);
    const message: unknown = await tools[0].invoke(call);
    assert.ok(message instanceof ToolMessage);
    assert.equal(message.content, JSON.stringify(WEATHER.result));
    const second = await model.invoke([question, first, message]);
    assert.equal(second.content, 'Paris is sunny, 21 °C.');
    assert.deepEqual(await offeredSchemas(session), {
      weather: PRESET_CATALOGUE.weather.parameters,
      calculator: PRESET_CATALOGUE.calculator.parameters,
    });
    await session.verify({ toolCalled: [{ name: 'weather', id: WEATHER.call.id, result: WEATHER.result }] });
  });

  test('a result other than the scripted one is refused by the next step [langchain-openai-chat.presets.json -]', async () => {
    const session = await mock.session('fw-lc-other');
    await scriptRound(session, WEATHER, 'Paris is sunny, 21 °C.');
    const weather = langchainTool(WEATHER, () => ({ ...WEATHER.result, condition: 'rain' }));
    const model = chatModel(session).bindTools([weather]);
    const question = new HumanMessage('What is the weather in Paris?');
    const first = await model.invoke([question]);
    const message = await weather.invoke(first.tool_calls?.[0] as never);
    const error = await model.invoke([question, first, message]).catch((e: unknown) => e);
    assert.equal((error as { status?: number }).status, 409, String(error));
    assert.equal((error as { code?: string }).code, 'no_match');
    await assert.rejects(session.verify(), /step "step-2" was never used/);
  });

  test("LangChain checks arguments against the catalogue's schema before the execute runs", async () => {
    let ran = false;
    const weather = langchainTool(WEATHER, () => {
      ran = true;
      return WEATHER.result;
    });
    await assert.rejects(weather.invoke({ location: 'Paris', unit: 'kelvin' } as never), /schema/i);
    assert.equal(ran, false);
    assert.throws(() => langchainTool(presets.weather.definition()), /a definition needs an execute/);
  });
});

describe('every preset in a zero-config loop', () => {
  // Zero-config calls the offered tool with the smallest arguments its schema accepts; the preset's
  // own builder checks them against the catalogue (presets[name].call throws on a bad one), and the
  // loop ends with the sentence after the result.
  test('as a LangChain tool in createAgent and as an AI SDK tool in generateText', async () => {
    for (const { name } of PRESET_DESCRIPTORS) {
      const session = await mock.session(`fw-zc-${name}`, { fallback: 'auto' });
      const got: unknown[] = [];
      const execute = (args: unknown) => {
        got.push(presets[name].call(args as never).arguments);
        return presets.calculator.result({ value: 1 }) as never;
      };
      const model = new ChatOpenAI({
        model: 'gpt-4o',
        apiKey: session.apiKey,
        configuration: { baseURL: mock.url('openai') },
        maxRetries: 0,
        timeout: 10_000,
      });
      const { messages } = await createAgent({ model, tools: [langchainTool(presets[name].definition(), execute)] }).invoke(
        { messages: [{ role: 'user', content: `Use ${name}.` }] },
        { signal: AbortSignal.timeout(10_000) },
      );
      assert.equal(messages.at(-1)?.content, ZERO_CONFIG_TEXT, name);
      const result = await generateText({
        model: createOpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey }).chat('gpt-4o'),
        tools: { [name]: aiSdkTool(presets[name].definition(), execute) },
        stopWhen: stepCountIs(3),
        maxRetries: 0,
        abortSignal: AbortSignal.timeout(10_000),
        prompt: `Use ${name}.`,
      });
      assert.equal(result.text, ZERO_CONFIG_TEXT, name);
      assert.equal(got.length, 2, name);
      await session.verify();
    }
  });
});

describe('entries', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'understudy-fw-entries-'));
    // A resolve hook that fails any import of `ai` or @langchain/*, so loading either is an error.
    writeFileSync(
      join(dir, 'hook.mjs'),
      `export async function resolve(specifier, context, next) {
  if (/^(ai|@langchain\\/[^/]+)(\\/|$)/.test(specifier)) throw new Error('loaded ' + specifier);
  return next(specifier, context);
}`,
    );
    writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister('./hook.mjs', import.meta.url);\n`);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  function load(entry: string): Promise<{ code: number | null; output: string }> {
    const source = `await import(${JSON.stringify(pathToFileURL(join(ROOT, entry)).href)}); console.log('ok');`;
    const child = spawn(
      process.execPath,
      ['--import', pathToFileURL(join(dir, 'register.mjs')).href, '--import', 'tsx', '--input-type=module', '-e', source],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
    return new Promise((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      child.once('close', (code) => {
        clearTimeout(timer);
        resolve({ code, output });
      });
    });
  }

  test('the main entry and llm-understudy/presets load neither ai nor @langchain/core; the framework entries do', async () => {
    for (const entry of ['src/index.ts', 'src/presets/index.ts']) {
      const { code, output } = await load(entry);
      assert.equal(code, 0, `${entry}: ${output}`);
    }
    const aiSdk = await load('src/presets/ai-sdk.ts');
    assert.match(aiSdk.output, /loaded ai/);
    const langchain = await load('src/presets/langchain.ts');
    assert.match(langchain.output, /loaded @langchain\/core\/tools/);
  });

  test(
    'so do the bundles the package ships',
    { skip: !existsSync(join(ROOT, 'dist', 'presets', 'ai-sdk.js')) && 'dist/ is not built' },
    async () => {
      for (const entry of ['dist/index.js', 'dist/presets/index.js']) {
        const { code, output } = await load(entry);
        assert.equal(code, 0, `${entry}: ${output}`);
      }
      assert.match((await load('dist/presets/ai-sdk.js')).output, /loaded ai/);
      assert.match((await load('dist/presets/langchain.js')).output, /loaded @langchain\/core\/tools/);
    },
  );
});

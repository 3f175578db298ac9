// The built package as users run it: dist/index.js and dist/cli/main.js are esbuild bundles
// (scripts/bundle.mjs), run here by plain node, no tsx. What a bundle can break is checked: the
// o200k_base table found from dist/ and dist/cli/ (usage counts), ajv and yaml loaded lazily from
// node_modules (a tool-argument schema, a YAML fixture file), the verifier loaded on first use,
// the bin's shebang and mode, `validate`. Skipped when dist/ has not been built (`npm run build`; `npm ci` does).
// tableFile() itself is checked for the source and both bundle layouts.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tableFile } from '../src/core/tokens.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST_INDEX = join(ROOT, 'dist', 'index.js');
const DIST_CLI = join(ROOT, 'dist', 'cli', 'main.js');
const TABLE = join(ROOT, 'data', 'o200k_base.bin');
const notBuilt = !existsSync(DIST_INDEX) || !existsSync(DIST_CLI) ? 'dist/ is not built (npm run build)' : false;

const children = new Set<ChildProcess>();
after(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

const WEATHER_TOOL = {
  type: 'function',
  function: {
    name: 'weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  },
};

function weatherRequest(port: number, path: string): Promise<{ status: number; body: any }> {
  const body = JSON.stringify({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
    tools: [WEATHER_TOOL],
  });
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function run(args: string[], until?: RegExp): Promise<{ code: number | null; stdout: string; stderr: string; child: ChildProcess }> {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stdout = '';
  let stderr = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`node ${args.join(' ')}: no answer in 20 s\n${stdout}${stderr}`)), 20_000);
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
      if (until?.test(stdout)) {
        clearTimeout(timer);
        resolve({ code: null, stdout, stderr, child });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, child });
    });
  });
}

test('tableFile() finds data/o200k_base.bin from src/core/, dist/ and dist/cli/', () => {
  assert.equal(tableFile(), TABLE);
  for (const module of ['src/core/tokens.ts', 'dist/index.js', 'dist/cli/main.js', 'dist/core/tokens.js']) {
    assert.equal(tableFile(pathToFileURL(join(ROOT, module)).href), TABLE, module);
  }
  assert.throws(() => tableFile('/'), /no package\.json of llm-understudy at or above/);
});

test(
  'dist/index.js, imported by plain node, answers with counted usage, checks tool arguments and verifies',
  { skip: notBuilt },
  async () => {
    // The child prints its port, then waits for one line on stdin (sent once the request is answered)
    // before it verifies its default session and prints the report's outcome.
    const program = `
    const { startUnderstudy } = await import(${JSON.stringify(pathToFileURL(DIST_INDEX).href)});
    const mock = await startUnderstudy({
      fixtures: [{ scenarios: [{ name: 'w', steps: [{ reply: { toolCalls: [{ id: 'call_1', name: 'weather', arguments: { city: 'Paris' } }] } }] }] }],
    });
    console.log(JSON.stringify({ port: Number(new URL(mock.baseUrl).port) }));
    process.stdin.once('data', async () => {
      const report = await mock.defaultSession.check();
      console.log(JSON.stringify({ verified: report.ok }));
      await mock.close();
    });
  `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', program], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    /** The child's n-th line of output (0-based), as JSON. */
    const line = async (n: number): Promise<any> => {
      const deadline = Date.now() + 20_000;
      while (stdout.split('\n').length <= n + 1) {
        if (child.exitCode !== null || Date.now() > deadline) assert.fail(`no line ${n} from the child: ${stdout}${stderr}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return JSON.parse(stdout.split('\n')[n]);
    };
    const { port } = await line(0);
    const answer = await weatherRequest(port, '/v1/chat/completions');
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.choices[0].message.tool_calls[0].function.name, 'weather');
    assert.ok(answer.body.usage.prompt_tokens > 0, 'usage counted with the o200k_base table');
    child.stdin.end('verify\n');
    assert.deepEqual(await line(1), { verified: true }, stderr);
    assert.equal(await exited, 0, stderr);
  },
);

test('dist/cli/main.js is executable, keeps its shebang and serves a YAML fixture file', { skip: notBuilt }, async () => {
  assert.match(readFileSync(DIST_CLI, 'utf8'), /^#!\/usr\/bin\/env node\n/);
  accessSync(DIST_CLI, constants.X_OK);
  const served = await run(
    [DIST_CLI, 'serve', '--host', '127.0.0.1', '--port', '0', '--fixtures', 'examples/weather.yaml'],
    /listening on/,
  );
  try {
    const port = Number(/listening on http:\/\/[^:\s]+:(\d+)/.exec(served.stdout)?.[1]);
    assert.ok(port, served.stdout);
    const answer = await weatherRequest(port, '/v1/chat/completions');
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const call = answer.body.choices[0].message.tool_calls[0];
    assert.deepEqual([call.id, call.function.name, JSON.parse(call.function.arguments)], ['call_paris', 'weather', { city: 'Paris' }]);
    assert.ok(answer.body.usage.prompt_tokens > 0, 'usage counted with the o200k_base table');
  } finally {
    served.child.kill('SIGTERM');
  }
  const validated = await run([DIST_CLI, 'validate', 'examples/weather.yaml']);
  assert.equal(validated.code, 0, validated.stderr);
  assert.match(validated.stdout, /ok {2}examples\/weather\.yaml/);
});

const DIST_PRESETS = join(ROOT, 'dist', 'presets', 'index.js');
const presetsNotBuilt = notBuilt || (!existsSync(DIST_PRESETS) ? 'dist/presets/ is not built (npm run build)' : false);

test('the build bundles llm-understudy/presets and package.json exports it', () => {
  assert.match(readFileSync(join(ROOT, 'scripts', 'bundle.mjs'), 'utf8'), /'presets\/index': 'src\/presets\/index\.ts'/);
  const exported = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports;
  assert.deepEqual(exported['./presets'], { types: './dist/presets/index.d.ts', default: './dist/presets/index.js' });
});

test(
  'llm-understudy/presets, resolved through package.json "exports" by plain node, scripts a checked calculator round',
  { skip: presetsNotBuilt },
  async () => {
    assert.ok(existsSync(join(ROOT, 'dist', 'presets', 'index.d.ts')), 'the declarations are built');
    // The package imports itself by name: what resolves is what a consumer's import resolves to.
    const program = `
    const { presets, PRESET_DESCRIPTORS, PresetValueError } = await import('llm-understudy/presets');
    const { startUnderstudy } = await import('llm-understudy');
    let refused = '';
    try { presets.calculator.call({ expression: '' }); } catch (e) { refused = (e instanceof PresetValueError) + ' ' + e.message; }
    const round = presets.calculator.success({ expression: '6 * 7' }, { value: 42 });
    const mock = await startUnderstudy();
    const session = await mock.session('presets-dist');
    await session.scenario('calc').callsTools([round.call]).then().whenToolResult('calculator', round.call.id, round.result).replies('42');
    const { name, description, parameters } = round.definition;
    const ask = (messages) => fetch(mock.url('openai') + '/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer ' + session.apiKey },
      body: JSON.stringify({ model: 'gpt-4o', messages, tools: [{ type: 'function', function: { name, description, parameters } }] }),
    }).then((r) => r.json());
    const messages = [{ role: 'user', content: 'What is 6 * 7?' }];
    const first = await ask(messages);
    const message = first.choices[0].message;
    messages.push(message, { role: 'tool', tool_call_id: message.tool_calls[0].id, content: JSON.stringify(round.result) });
    const second = await ask(messages);
    const report = await session.check();
    await mock.close();
    console.log(JSON.stringify({ count: PRESET_DESCRIPTORS.length, refused, call: message.tool_calls[0], answer: second.choices[0].message.content, ok: report.ok }));
  `;
    const done = await run(['--input-type=module', '-e', program]);
    assert.equal(done.code, 0, done.stderr);
    const out = JSON.parse(done.stdout.trim().split('\n').at(-1) as string);
    assert.equal(out.count, 12);
    assert.match(out.refused, /^true preset calculator: invalid arguments: at \/expression/);
    assert.deepEqual(out.call, {
      id: 'call_calculator',
      type: 'function',
      function: { name: 'calculator', arguments: '{"expression":"6 * 7"}' },
    });
    assert.equal(out.answer, '42');
    assert.equal(out.ok, true);
  },
);

test(
  'starting a server from the bundle loads none of the CommonJS packages kept lazy (yaml, ajv): a static import of one shows here',
  { skip: notBuilt },
  async () => {
    const program = [
      `import { createRequire } from 'node:module';`,
      `const { startUnderstudy } = await import(${JSON.stringify(pathToFileURL(DIST_INDEX).href)});`,
      `const mock = await startUnderstudy({ fixtures: [{ scenarios: [{ name: 'hi', replies: [{ text: 'Hi.' }] }] }] });`,
      `const loaded = Object.keys(createRequire(import.meta.url).cache).filter((f) => /node_modules\\/(yaml|ajv)\\//.test(f));`,
      `await mock.close();`,
      `console.log(JSON.stringify(loaded));`,
    ].join('\n');
    const result = await run(['--input-type=module', '-e', program]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), []);
  },
);

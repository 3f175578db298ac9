// src/core/preset-catalogue.generated.ts, the engine's copy of the preset catalogue (decision
// 0013): what `npm run build:schema` writes from src/presets/descriptions.ts, checking values with
// the same verdicts as the builders; and a script using presets is loaded, answered and verified
// without zod ever loading (the catalogue copy is plain data).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { format, resolveConfig } from 'prettier';
import { PRESET_COPIES, PRESET_ERROR_SCHEMA_COPY, PRESET_NAME_LIST, presetValueProblems } from '../src/core/preset-copy.js';
import { presetCatalogueCopyText } from '../src/presets/catalogue-copy.js';
import { PRESET_CATALOGUE, PRESET_ERROR_SCHEMA, PresetValueError, presets, type PresetName } from '../src/presets/index.js';
import { ROOT } from './support/cli-process.js';
import { PRESET_EXAMPLES } from './support/preset-examples.js';

const GENERATED = join(ROOT, 'src', 'core', 'preset-catalogue.generated.ts');

test('src/core/preset-catalogue.generated.ts is what npm run build:schema writes from the descriptions', async () => {
  const target = GENERATED;
  const options = (await resolveConfig(target)) ?? {};
  const expected = await format(presetCatalogueCopyText(), { ...options, filepath: target });
  assert.equal(
    await readFile(target, 'utf8'),
    expected,
    'src/core/preset-catalogue.generated.ts differs from src/presets/descriptions.ts: run `npm run build:schema`',
  );
});

test('the copy holds every preset of the catalogue, its description and schemas member for member', () => {
  assert.deepEqual([...PRESET_NAME_LIST], Object.keys(PRESET_CATALOGUE));
  for (const name of PRESET_NAME_LIST) {
    const { description, parameters, resultSchema } = PRESET_CATALOGUE[name];
    assert.equal(JSON.stringify(PRESET_COPIES[name]), JSON.stringify({ description, parameters, result: resultSchema }), name);
  }
  assert.equal(JSON.stringify(PRESET_ERROR_SCHEMA_COPY), JSON.stringify(PRESET_ERROR_SCHEMA));
});

test('property: the engine refuses exactly the arguments and results the builders refuse', () => {
  const names = Object.keys(PRESET_EXAMPLES) as PresetName[];
  const leaf = fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: -3, max: 200 }), fc.boolean(), fc.constant(null), fc.double());
  fc.assert(
    fc.property(
      fc.constantFrom(...names),
      fc.constantFrom('args', 'result'),
      fc.oneof(fc.constant(undefined), fc.string({ maxLength: 12 })),
      leaf,
      (name, part, key, value) => {
        const example = structuredClone(PRESET_EXAMPLES[name][part]) as Record<string, unknown>;
        // Change one member (or add one) to an arbitrary JSON leaf.
        const keys = Object.keys(example);
        const member = key === undefined ? keys[0] : key;
        if (!Number.isFinite(value) && typeof value === 'number') return;
        example[member] = value;
        const builder = presets[name] as (typeof presets)['calculator'];
        let builderRefused = false;
        try {
          if (part === 'args') builder.call(example as never);
          else builder.result(example as never);
        } catch (error) {
          assert.ok(error instanceof PresetValueError);
          builderRefused = true;
        }
        const engineProblems = presetValueProblems(name, part === 'args' ? 'arguments' : 'result', example);
        assert.equal(engineProblems.length > 0, builderRefused, `${name} ${part} ${JSON.stringify(example)}: ${engineProblems.join('; ')}`);
      },
    ),
    { numRuns: 500 },
  );
});

test('loading, answering and verifying a script with preset calls and results loads no zod', async () => {
  const child = `
    import { startUnderstudy } from './src/client/index.js';
    const mock = await startUnderstudy();
    const session = await mock.session('no-zod');
    await session.load({ scenarios: [{ name: 'w', steps: [
      { reply: { toolCalls: [{ preset: 'calculator', id: 'call_calc', arguments: { expression: '6 * 7' } }] } },
      { when: { toolResult: { preset: 'calculator', id: 'call_calc', arguments: { expression: '6 * 7' }, result: { value: 42 } } }, reply: { text: '42' } },
    ] }] });
    const ask = (messages) => fetch(mock.url('openai') + '/chat/completions', {
      method: 'POST',
      headers: { authorization: 'Bearer ' + session.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages, tools: [{ type: 'function', function: { name: 'calculator', parameters: ${JSON.stringify(PRESET_COPIES.calculator.parameters)} } }] }),
    }).then((r) => r.json());
    const first = await ask([{ role: 'user', content: 'six times seven?' }]);
    const call = first.choices[0].message.tool_calls[0];
    const second = await ask([
      { role: 'user', content: 'six times seven?' },
      first.choices[0].message,
      { role: 'tool', tool_call_id: call.id, content: '{ "value" : 42 }' },
    ]);
    await session.verify({ toolCalled: [{ preset: 'calculator', id: 'call_calc', result: { value: 42 } }] });
    console.log(JSON.stringify({ answer: second.choices[0].message.content, zod: '__zod_globalConfig' in globalThis }));
    await mock.close();
  `;
  const output = await new Promise<string>((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', child], { cwd: ROOT, timeout: 30_000 });
    let out = '';
    let err = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
    proc.on('error', reject);
    proc.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${err}`))));
  });
  assert.deepEqual(JSON.parse(output.trim().split('\n').pop() ?? ''), { answer: '42', zod: false });
});

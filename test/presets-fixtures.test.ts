// Presets in fixture files and scripts (issue 20 §3's last part and §4), judged by the real `openai`
// SDK over real HTTP: for each of the twelve presets a YAML fixture file with `preset:` calls and
// results is loaded from disk and runs a success and an error round (the application's tool
// message reordered and re-spaced, matched structurally); verify() names the preset. Then the
// boundary cases (linear exhaustion, an argument the offered schema refuses, an exact match and a
// changed argument or result rejected without consuming), the lifecycle (repeat_last with a
// stable call id, a delayed step cancelled by the client), the tool ledger's rule, the builder's
// preset helpers, and the control API (a YAML body with presets, verify naming a preset).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { ChatCompletionFunctionTool, ChatCompletionMessageParam } from 'openai/resources/chat/completions';

import { connectUnderstudy, startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { ScenarioBuilder } from '../src/client/builder.js';
import { loadFixtureFile } from '../src/engine/fixture-file.js';
import type { FixtureInput } from '../src/index.js';
import { presets, type PresetDefinition, type PresetName } from '../src/presets/index.js';
import { PRESET_EXAMPLES } from './support/preset-examples.js';

const NAMES = Object.keys(PRESET_EXAMPLES) as PresetName[];
const ANSWER = 'Done, as scripted.';
const FAILURE = { code: 'fixture_unavailable', message: 'Scripted failure', retryable: false };

let mock: Understudy;
let dir: string;
before(async () => {
  mock = await startUnderstudy();
  dir = await mkdtemp(join(tmpdir(), 'understudy-presets-'));
});
after(async () => {
  await mock.close();
  await rm(dir, { recursive: true, force: true });
});

function sdk(session: UnderstudySession): OpenAI {
  return new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
}

function offered({ name, description, parameters }: PresetDefinition): ChatCompletionFunctionTool {
  return { type: 'function', function: { name, description, parameters } };
}

/** The value with every object's members in reverse order (the same JSON, structurally). */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reversed(v)]),
  );
}

/** A fixture file (YAML; the values in JSON's flow style, which is YAML) with a success and a failure
 * scenario for one preset, each a call step then a step waiting for the preset's result. */
function presetYaml(name: PresetName): string {
  const { args, result } = PRESET_EXAMPLES[name];
  const j = (value: unknown) => JSON.stringify(value);
  const scenario = (label: string, outcome: string) => [
    `  - name: ${name}-${label}`,
    '    steps:',
    `      - when: { latestUser: { contains: "use ${name} for ${label}" } }`,
    '        reply:',
    '          toolCalls:',
    `            - preset: ${name}`,
    `              id: call_${name}_${label}`,
    `              arguments: ${j(args)}`,
    '          delayMs: 5',
    '      - when:',
    '          toolResult:',
    `            preset: ${name}`,
    `            id: call_${name}_${label}`,
    `            arguments: ${j(args)}`,
    `            ${outcome}`,
    `        reply: { text: "${ANSWER}" }`,
  ];
  return [
    '# yaml-language-server: $schema=../schema/fixtures.schema.json',
    'scenarios:',
    ...scenario('success', `result: ${j(result)}`),
    ...scenario('failure', `error: ${j(FAILURE)}`),
    '',
  ].join('\n');
}

async function fileSession(name: string, yaml: string): Promise<UnderstudySession> {
  const file = join(dir, `${name}.yaml`);
  await writeFile(file, yaml);
  const loaded = await loadFixtureFile(file);
  assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.problems));
  const session = await mock.session(`fixture-${name}`, { fallback: 'strict' });
  await session.load(loaded.fixture);
  return session;
}

async function conflict(promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.ConflictError>> {
  const error = await promise.then(
    () => assert.fail('expected a 409'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof OpenAI.ConflictError, String(error));
  return error;
}

describe('every preset from a fixture file, over real HTTP with the openai SDK', () => {
  for (const name of NAMES) {
    test(`${name}: a success round and an error round from \`preset:\` calls and results`, async () => {
      const session = await fileSession(name, presetYaml(name));
      const client = sdk(session);
      const tools = [offered(presets[name].definition())];
      const { args, result } = PRESET_EXAMPLES[name];
      for (const [label, content] of [
        ['success', result],
        ['failure', { error: FAILURE }],
      ] as const) {
        const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: `Please use ${name} for ${label}.` }];
        const first = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
        const call = first.choices[0].message.tool_calls?.[0];
        assert.ok(call?.type === 'function');
        assert.equal(call.id, `call_${name}_${label}`);
        assert.equal(call.function.name, name);
        assert.deepEqual(JSON.parse(call.function.arguments), args);
        // The application's JSON: other member order, other whitespace.
        messages.push(first.choices[0].message, {
          role: 'tool',
          tool_call_id: call.id,
          content: JSON.stringify(reversed(content), null, 3),
        });
        const second = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
        assert.equal(second.choices[0].message.content, ANSWER, label);
      }
      const tool = presets[name] as (typeof presets)['calculator'];
      await session.verify({
        toolCalled: [
          { preset: name, id: `call_${name}_success`, arguments: args, result, times: 1 },
          { preset: name, id: `call_${name}_failure`, result: { error: FAILURE }, times: 1 },
          // A builder's fixture names the same call and result.
          tool.success(args as never, result as never, { id: `call_${name}_success` }),
          tool.failure(args as never, FAILURE, { id: `call_${name}_failure` }),
        ],
      });
    });
  }
});

// One weather round, scripted by file: the call step, then the step waiting for the result.
const PARIS = PRESET_EXAMPLES.weather;
const WEATHER_YAML = (exhausted = 'reject', delayMs = 0) => `
scenarios:
  - name: paris
    exhausted: ${exhausted}
    steps:
      - reply:
          toolCalls: [{ preset: weather, id: call_paris, arguments: ${JSON.stringify(PARIS.args)} }]
          delayMs: ${delayMs}
      - when:
          toolResult: { preset: weather, id: call_paris, arguments: ${JSON.stringify(PARIS.args)}, result: ${JSON.stringify(PARIS.result)} }
        reply: { text: "${ANSWER}" }
`;

function parisMessages(result: unknown, args: unknown = PARIS.args): ChatCompletionMessageParam[] {
  return [
    { role: 'user', content: 'Weather in Paris?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_paris', type: 'function', function: { name: 'weather', arguments: JSON.stringify(args) } }],
    },
    { role: 'tool', tool_call_id: 'call_paris', content: JSON.stringify(result) },
  ];
}

const WEATHER_TOOLS = [offered(presets.weather.definition())];

test('startUnderstudy({ fixtures }) takes preset calls and results, checked before the server starts', async () => {
  // Typed as what a fixture file holds: `preset` in place of `name`.
  const value: FixtureInput = {
    scenarios: [
      {
        name: 'sum',
        steps: [
          { reply: { toolCalls: [{ preset: 'calculator', id: 'call_sum', arguments: { expression: '6 * 7' } }] } },
          { when: { toolResult: { preset: 'calculator', id: 'call_sum', result: { value: 42 } } }, reply: { text: '42.' } },
        ],
      },
    ],
  };
  const own = await startUnderstudy({ fixtures: [structuredClone(value)] });
  try {
    const client = new OpenAI({ baseURL: own.url('openai'), apiKey: own.defaultSession.apiKey, maxRetries: 0, timeout: 10_000 });
    const tools = [offered(presets.calculator.definition())];
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'six times seven' }];
    const first = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
    messages.push(first.choices[0].message, { role: 'tool', tool_call_id: 'call_sum', content: '{"value":42}' });
    assert.equal((await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools })).choices[0].message.content, '42.');
  } finally {
    await own.close();
  }
  const bad = structuredClone(value) as unknown as { scenarios: { steps: { when?: { toolResult: { result: unknown } } }[] }[] };
  bad.scenarios[0].steps[1].when!.toolResult.result = { value: 'forty-two' };
  await assert.rejects(
    startUnderstudy({ fixtures: [bad as FixtureInput] }),
    /startUnderstudy\(\) fixtures\[0\] {2}\/scenarios\/0\/steps\/1\/when\/toolResult\/result {2}expected a result the "calculator" preset's result schema accepts; at \/value: must be number/,
  );
});

describe('boundary cases', () => {
  test('linear exhaustion: a queue of preset calls, used up, answers 409 scenario_exhausted (policy reject)', async () => {
    const session = await fileSession(
      'queue',
      `
scenarios:
  - name: sums
    replies:
      - toolCalls: [{ preset: calculator, id: call_1, arguments: { expression: "1 + 1" } }]
      - toolCalls: [{ preset: calculator, id: call_2, arguments: { expression: "2 + 2" } }]
`,
    );
    const client = sdk(session);
    const ask = () =>
      client.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'sum' }],
        tools: [offered(presets.calculator.definition())],
      });
    assert.equal((await ask()).choices[0].message.tool_calls?.[0]?.id, 'call_1');
    assert.equal((await ask()).choices[0].message.tool_calls?.[0]?.id, 'call_2');
    const error = await conflict(ask());
    assert.equal(error.code, 'scenario_exhausted');
    assert.match(error.message, /scenario "sums" is complete \(all 2 steps used, policy reject\)/);
    const report = await session.check({ toolCalled: [{ preset: 'calculator', times: 2 }] });
    assert.deepEqual(
      report.problems.map((p) => p.kind),
      ['scenario_exhausted'],
      report.report,
    );
  });

  test('an argument the offered schema refuses is answered 409 fixture_mismatch without consuming the step', async () => {
    const session = await fileSession('offered-schema', WEATHER_YAML());
    const client = sdk(session);
    // The application offers weather with a narrower unit than the catalogue's.
    const narrower = structuredClone(presets.weather.definition());
    (narrower.parameters.properties as { unit: { enum: string[] } }).unit.enum = ['fahrenheit'];
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const error = await conflict(client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools: [offered(narrower)] }));
    assert.equal(error.code, 'fixture_mismatch');
    assert.match(error.message, /scenario "paris" step "step-1"/);
    assert.match(error.message, /unit/);
    const first = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools: WEATHER_TOOLS });
    assert.equal(first.choices[0].message.tool_calls?.[0]?.id, 'call_paris');
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.step]),
      [
        [409, 'step-1'],
        [200, 'step-1'],
      ],
    );
  });

  test('an exact argument and result match; a changed result or argument is rejected (409 no_match, naming what differed) and consumes nothing', async () => {
    const session = await fileSession('exact', WEATHER_YAML());
    const client = sdk(session);
    const ask = (messages: ChatCompletionMessageParam[]) =>
      client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools: WEATHER_TOOLS });
    await ask([{ role: 'user', content: 'Weather in Paris?' }]);

    const changedResult = await conflict(ask(parisMessages({ ...PARIS.result, temperature: 22 })));
    assert.equal(changedResult.code, 'no_match');
    assert.match(
      changedResult.message,
      /step "step-2" — toolResult: expected a tool result after the latest user message with preset "weather", id "call_paris"/,
    );
    assert.match(changedResult.message, /weather\/call_paris: result differs at \/temperature: expected 21, found 22/);

    const changedArgs = await conflict(ask(parisMessages(PARIS.result, { ...PARIS.args, unit: 'fahrenheit' })));
    assert.equal(changedArgs.code, 'no_match');
    assert.match(changedArgs.message, /weather\/call_paris: the call's arguments differ at \/unit: expected "celsius", found "fahrenheit"/);

    const extraMember = await conflict(ask(parisMessages({ ...PARIS.result, humidity: 40 })));
    assert.match(extraMember.message, /result differs at \/humidity: found 40, expected nothing/);
    const notJson = await conflict(
      ask([...parisMessages(PARIS.result).slice(0, 2), { role: 'tool', tool_call_id: 'call_paris', content: 'sunny' }]),
    );
    assert.match(notJson.message, /result is not JSON: "sunny"/);

    const exact = await ask(parisMessages(PARIS.result));
    assert.equal(exact.choices[0].message.content, ANSWER);
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.error?.code ?? e.step]),
      [
        [200, 'step-1'],
        [409, 'no_match'],
        [409, 'no_match'],
        [409, 'no_match'],
        [409, 'no_match'],
        [200, 'step-2'],
      ],
    );
    assert.deepEqual(
      entries[1].nearMisses?.map((m) => [m.scenario, m.step, m.failed.map((f) => f.predicate)]),
      [['paris', 'step-2', ['toolResult']]],
    );
  });
});

describe('lifecycle', () => {
  test('repeat_last with a preset step: the same call, with the same id, every time after the script completed', async () => {
    const session = await fileSession(
      'repeat',
      `
scenarios:
  - name: clock
    exhausted: repeat_last
    steps:
      - reply: { toolCalls: [{ preset: current_time, id: call_clock, arguments: { time_zone: UTC } }] }
`,
    );
    const client = sdk(session);
    const tools = [offered(presets.current_time.definition())];
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'What time is it?' }];
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
      const call = answer.choices[0].message.tool_calls?.[0];
      assert.ok(call?.type === 'function');
      assert.deepEqual(JSON.parse(call.function.arguments), { time_zone: 'UTC' });
      ids.push(call.id);
    }
    assert.deepEqual(ids, ['call_clock', 'call_clock', 'call_clock']);
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => e.source),
      ['script', 'repeat_last', 'repeat_last'],
    );
    await session.verify({ toolCalled: [{ preset: 'current_time', id: 'call_clock', arguments: { time_zone: 'UTC' }, times: 3 }] });
  });

  test('a graph: one call step, then the result or the error envelope picks the next step; restart and maxReplies hold', async () => {
    const session = await fileSession(
      'graph',
      `
scenarios:
  - name: notes
    exhausted: restart
    maxReplies: 4
    steps:
      - id: read
        reply: { toolCalls: [{ preset: read_file, id: call_notes, arguments: { path: notes.txt, offset: 0 } }] }
        next: [found, missing]
      - id: found
        when: { toolResult: { preset: read_file, id: call_notes, result: { content: hello, truncated: false } } }
        reply: { text: 'Your notes say hello.' }
        next: complete
      - id: missing
        when: { toolResult: { preset: read_file, id: call_notes, error: { code: not_found, message: gone, retryable: false } } }
        reply: { text: 'You have no notes.' }
`,
    );
    const client = sdk(session);
    const tools = [offered(presets.read_file.definition())];
    const round = async (content: unknown) => {
      const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Read my notes' }];
      const first = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
      messages.push(first.choices[0].message, { role: 'tool', tool_call_id: 'call_notes', content: JSON.stringify(content) });
      return (await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools })).choices[0].message.content;
    };
    assert.equal(await round({ truncated: false, content: 'hello' }), 'Your notes say hello.');
    // Restarted: the same call, and the failure's envelope takes the other branch.
    assert.equal(await round({ error: { retryable: false, message: 'gone', code: 'not_found' } }), 'You have no notes.');
    const limit = await conflict(
      client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Read my notes' }], tools }),
    );
    assert.equal(limit.code, 'scenario_exhausted');
    assert.match(limit.message, /reached its limit of 4 replies/);
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.step ?? null, e.source ?? null]),
      [
        ['read', 'script'],
        ['found', 'script'],
        ['read', 'restart'],
        ['missing', 'script'],
        [null, null],
      ],
    );
  });

  test('a delayed preset step cancelled by the client consumes nothing and records no result; the retry gets the same call', async () => {
    const session = await fileSession(
      'cancelled',
      `
scenarios:
  - name: paris
    steps:
      - reply:
          toolCalls: [{ preset: weather, id: call_paris, arguments: ${JSON.stringify(PARIS.args)} }]
      - when: { toolResult: { preset: weather, id: call_paris, result: ${JSON.stringify(PARIS.result)} } }
        reply: { text: "${ANSWER}", delayMs: 400 }
`,
    );
    const client = sdk(session);
    const ask = (messages: ChatCompletionMessageParam[], signal?: AbortSignal) =>
      client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools: WEATHER_TOOLS }, { signal });
    await ask([{ role: 'user', content: 'Weather in Paris?' }]);
    const controller = new AbortController();
    const aborted = ask(parisMessages(PARIS.result), controller.signal);
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(aborted, (e: unknown) => e instanceof OpenAI.APIUserAbortError);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The cancelled request's result was never answered: the ledger has none for the call.
    const before = await session.check({ toolCalled: [{ preset: 'weather', id: 'call_paris', result: PARIS.result }] });
    assert.deepEqual(
      before.problems.map((p) => [p.kind, p.step]),
      [
        ['unused_step', 'step-2'],
        ['tool_expectation', undefined],
      ],
      before.report,
    );
    assert.match(before.report, /weather\(.*\) id call_paris, no result yet/);

    const retried = await ask(parisMessages(PARIS.result));
    assert.equal(retried.choices[0].message.content, ANSWER);
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.event, e.status, e.step]),
      [
        ['reply_returned', 200, 'step-1'],
        ['request_aborted', 499, 'step-2'],
        ['reply_returned', 200, 'step-2'],
      ],
    );
    await session.verify({ toolCalled: [{ preset: 'weather', id: 'call_paris', arguments: PARIS.args, result: PARIS.result, times: 1 }] });
  });
});

test('the tool ledger keeps the result of the first answered request: a result refused with a 409 is not recorded', async () => {
  const session = await fileSession('ledger', WEATHER_YAML());
  const client = sdk(session);
  const ask = (messages: ChatCompletionMessageParam[]) =>
    client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools: WEATHER_TOOLS });
  await ask([{ role: 'user', content: 'Weather in Paris?' }]);
  const wrong = { ...PARIS.result, condition: 'rainy' };
  await conflict(ask(parisMessages(wrong)));
  const refusedOnly = await session.check({ toolCalled: [{ preset: 'weather', id: 'call_paris', result: wrong }] });
  assert.match(refusedOnly.report, /no result yet/, 'the refused request recorded nothing');
  await ask(parisMessages(PARIS.result));
  const report = await session.check({
    toolCalled: [
      { preset: 'weather', id: 'call_paris', result: PARIS.result, times: 1 },
      { preset: 'weather', id: 'call_paris', result: wrong, times: 0 },
    ],
  });
  assert.deepEqual(
    report.problems.map((p) => p.kind),
    ['no_match'],
    report.report,
  );
});

describe('the builder takes preset fixtures', () => {
  const weather = presets.weather.success(PARIS.args, PARIS.result, { id: 'call_paris', delayMs: 150 });
  const missing = presets.read_file.failure(
    { path: 'missing.txt', offset: 0 },
    { code: 'not_found', message: 'No such file', retryable: false },
    { id: 'call_read' },
  );

  test('callsPreset applies the fixture’s delay; thenWhenPresetResult matches name, id, arguments and the result or error envelope', async () => {
    const session = await mock.session('builder-presets', { fallback: 'strict' });
    await session
      .scenario('round')
      .whenLatestUser({ contains: 'weather' })
      .callsPreset(weather)
      .thenWhenPresetResult(weather)
      .callsPreset(missing)
      .thenWhenPresetResult(missing)
      .replies(ANSWER);
    const client = sdk(session);
    const tools = [offered(weather.definition), offered(missing.definition)];
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'weather, then the file' }];
    const started = Date.now();
    const first = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
    assert.ok(Date.now() - started >= 140, 'the fixture’s delay applies');
    messages.push(first.choices[0].message, {
      role: 'tool',
      tool_call_id: 'call_paris',
      content: JSON.stringify(reversed(weather.result)),
    });
    const second = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
    assert.equal(second.choices[0].message.tool_calls?.[0]?.id, 'call_read');
    // The failure's content is the error envelope, not the success result.
    const withSuccess = [
      ...messages,
      second.choices[0].message,
      { role: 'tool' as const, tool_call_id: 'call_read', content: '{"content":"","truncated":false}' },
    ];
    const refused = await conflict(client.chat.completions.create({ model: 'gpt-4o-mini', messages: withSuccess, tools }));
    assert.match(refused.message, /error envelope differs at \/error: expected .*, found nothing/);
    messages.push(second.choices[0].message, { role: 'tool', tool_call_id: 'call_read', content: JSON.stringify(missing.result) });
    const third = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
    assert.equal(third.choices[0].message.content, ANSWER);
    const report = await session.check({ toolCalled: [weather, missing] });
    assert.deepEqual(
      report.problems.map((p) => p.kind),
      ['no_match'],
      report.report,
    );
  });

  test('callsPresets makes parallel preset calls in one reply, after the longest of their delays', async () => {
    const session = await mock.session('builder-parallel', { fallback: 'strict' });
    const sum = presets.calculator.success({ expression: '6 * 7' }, { value: 42 }, { delayMs: 40 });
    await session.scenario('both').callsPresets([weather, sum]).thenWhenPresetResult(sum).replies(ANSWER);
    const client = sdk(session);
    const tools = [offered(weather.definition), offered(sum.definition)];
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'weather and a sum' }];
    const started = Date.now();
    const first = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
    assert.ok(Date.now() - started >= 140, 'the longer delay (150 ms) applies');
    assert.deepEqual(
      first.choices[0].message.tool_calls?.map((c) => c.id),
      ['call_paris', 'call_calculator'],
    );
    messages.push(
      first.choices[0].message,
      { role: 'tool', tool_call_id: 'call_paris', content: JSON.stringify(weather.result) },
      { role: 'tool', tool_call_id: 'call_calculator', content: JSON.stringify(sum.result) },
    );
    assert.equal((await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools })).choices[0].message.content, ANSWER);
    // A step has one toolResult condition: a second one is refused where it is written.
    assert.throws(
      () => new ScenarioBuilder('two').whenPresetResult(weather).whenPresetResult(sum),
      /scenario "two": this step already waits for a tool result; a step has one toolResult condition/,
    );
  });

  test('the scenario it builds carries `preset:` (checked when loaded) and the structural result', () => {
    const spec = new ScenarioBuilder('spec').callsPreset(weather).thenWhenPresetResult(missing).replies('ok').build();
    assert.deepEqual(spec.steps?.[0].reply, {
      toolCalls: [{ preset: 'weather', id: 'call_paris', arguments: PARIS.args }],
      delayMs: 150,
    });
    assert.deepEqual(spec.steps?.[1].when, {
      toolResult: { preset: 'read_file', id: 'call_read', arguments: { path: 'missing.txt', offset: 0 }, error: missing.result.error },
    });
  });

  test('a failure fixture whose result is not the error envelope is refused where it is written', () => {
    const notEnvelope = { call: { id: 'call_x', name: 'calculator', arguments: { expression: '1' } }, result: { value: 1 }, isError: true };
    assert.throws(
      () => new ScenarioBuilder('s').whenPresetResult(notEnvelope),
      /scenario "s": a failure fixture's result is the error envelope \{ error: \{ code, message, retryable \} \}/,
    );
  });

  test('a fixture-shaped object whose arguments break the preset is refused when the scenario is loaded', async () => {
    const session = await mock.session('builder-bad-preset');
    const handMade = { call: { id: 'call_x', name: 'weather', arguments: { location: '' } }, result: PARIS.result };
    assert.throws(
      () => session.scenario('bad').callsPreset(handMade),
      /\/scenarios\/0\/steps\/0\/reply\/toolCalls\/0\/arguments {2}expected arguments the "weather" preset's parameters schema accepts; at \/location: must NOT have fewer than 1 characters/,
    );
  });
});

describe('the control API', () => {
  test('a YAML body with preset calls and results loads over HTTP; verify over HTTP names a preset and takes a fixture', async () => {
    const remote = await connectUnderstudy(mock.baseUrl);
    const session = await remote.session('control-presets', { fallback: 'strict' });
    const response = await fetch(`${mock.baseUrl}/_understudy/sessions/control-presets/scripts`, {
      method: 'POST',
      headers: { 'content-type': 'application/yaml' },
      body: WEATHER_YAML(),
    });
    assert.equal(response.status, 200, await response.clone().text());
    const client = sdk(session);
    const ask = (messages: ChatCompletionMessageParam[]) =>
      client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools: WEATHER_TOOLS });
    await ask([{ role: 'user', content: 'Weather in Paris?' }]);
    await ask(parisMessages(reversed(PARIS.result)));
    await session.verify({
      toolCalled: [
        { preset: 'weather', id: 'call_paris', arguments: PARIS.args, result: PARIS.result, times: 1 },
        presets.weather.success(PARIS.args, PARIS.result, { id: 'call_paris' }),
      ],
    });
    const typo = await session.check({ toolCalled: [{ preset: 'wether', id: 'call_paris' }] });
    assert.equal(typo.ok, false);
    assert.match(typo.report, /expected a call to preset "wether", which is not a preset \(did you mean "weather"\?\)/);
    const badArgs = await session.check({ toolCalled: [{ preset: 'weather', arguments: { location: 'Paris', unit: 'kelvin' } }] });
    assert.match(
      badArgs.report,
      /arguments the preset's parameters schema refuses \(at \/unit: must be equal to one of the allowed values/,
    );
    const badResult = await session.check({ toolCalled: [{ preset: 'weather', result: { ...PARIS.result, temperature: 'warm' } }] });
    assert.match(
      badResult.report,
      /with a result neither its result schema nor the error envelope's accepts \(at \/temperature: must be number\)/,
    );
    const envelope = await session.check({
      toolCalled: [{ preset: 'weather', result: { error: { code: 'x', message: 'y', retryable: false } }, times: 0 }],
    });
    assert.equal(envelope.ok, true, envelope.report);
    const refused = await fetch(`${mock.baseUrl}/_understudy/sessions/control-presets/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ toolCalled: [{ preset: 'weather', colour: 'blue' }] }),
    });
    assert.equal(refused.status, 400);
    assert.match(((await refused.json()) as { error: { message: string } }).error.message, /\/toolCalled\/0: expected/);
  });

  test('the builder over HTTP: callsPreset and thenWhenPresetResult are sent as `preset:` and checked by the server', async () => {
    const remote = await connectUnderstudy(mock.baseUrl);
    const session = await remote.session('control-builder', { fallback: 'strict' });
    const sum = presets.calculator.success({ expression: '6 * 7' }, { value: 42 });
    await session.scenario('sum').callsPreset(sum).thenWhenPresetResult(sum).replies('42.');
    const client = sdk(session);
    const tools = [offered(sum.definition)];
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'six times seven' }];
    const first = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
    assert.equal(first.choices[0].message.tool_calls?.[0]?.id, 'call_calculator');
    messages.push(first.choices[0].message, { role: 'tool', tool_call_id: 'call_calculator', content: ' { "value": 42.0 } ' });
    assert.equal((await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools })).choices[0].message.content, '42.');
    await session.verify({ toolCalled: [sum] });
    const handMade = { call: { id: 'call_x', name: 'calculator', arguments: { expression: '' } }, result: { value: 0 } };
    await assert.rejects(
      (async () => session.scenario('bad').callsPreset(handMade))() as Promise<unknown>,
      /failed with 400: .*the fixture is invalid\n {2}\/scenarios\/0\/steps\/0\/reply\/toolCalls\/0\/arguments {2}expected arguments the "calculator" preset's parameters schema accepts; at \/expression: must NOT have fewer than 1 characters/,
    );
  });

  test('a preset fixture problem over HTTP is a 400 invalid_fixture naming the path, line and what was expected', async () => {
    await (await connectUnderstudy(mock.baseUrl)).session('control-bad-presets');
    const response = await fetch(`${mock.baseUrl}/_understudy/sessions/control-bad-presets/scripts`, {
      method: 'POST',
      headers: { 'content-type': 'application/yaml' },
      body: 'scenarios:\n  - name: s\n    replies:\n      - toolCalls: [{ preset: wether, arguments: { location: Paris } }]\n',
    });
    assert.equal(response.status, 400);
    const body = (await response.json()) as { error: { code: string; details?: unknown; problems?: unknown } };
    assert.equal(body.error.code, 'invalid_fixture');
    const text = JSON.stringify(body);
    assert.match(text, /\/scenarios\/0\/replies\/0\/toolCalls\/0\/preset/);
    assert.match(text, /did you mean \\"weather\\"\?/);
    assert.match(text, /"line":4/);
  });
});

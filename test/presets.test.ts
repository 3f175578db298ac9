// The twelve presets of llm-understudy/presets (issue 20 §1–3), judged by the real `openai` SDK over
// real HTTP: each preset's definition offered as the tool (the schema the server saw is the
// catalogue's), a success round and an error round scripted from its fixtures, the call the SDK got,
// the tool result in the journal, verify() naming the call and its result. Then the build-time
// checks (a bad argument, result, error or id throws, naming the preset and the path), a scripted
// call the definition refuses (409 fixture_mismatch, nothing consumed), and the catalogue itself.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import type { ChatCompletionFunctionTool, ChatCompletionMessageParam } from 'openai/resources/chat/completions';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { compileSchema, isSchemaError } from '../src/core/schema.js';
import {
  PRESET_CATALOGUE,
  PRESET_DESCRIPTORS,
  PRESET_ERROR_SCHEMA,
  PRESET_NAMES,
  PresetValueError,
  presets,
  type PresetDefinition,
  type PresetFixture,
  type PresetName,
} from '../src/presets/index.js';
import { PRESET_EXAMPLES } from './support/preset-examples.js';

const NAMES = Object.keys(PRESET_EXAMPLES) as PresetName[];
const ANSWER = 'Done, as scripted.';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(() => mock.close());

function sdk(session: UnderstudySession): OpenAI {
  return new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
}

function offered({ name, description, parameters }: PresetDefinition): ChatCompletionFunctionTool {
  return { type: 'function', function: { name, description, parameters } };
}

/** Scripts call → tool result → answer from a fixture, runs it with the SDK and checks both sides. */
async function runRound(name: PresetName, fixture: PresetFixture, label: string): Promise<void> {
  const session = await mock.session(`preset-${name}-${label}`);
  const scenario = session
    .scenario(`${name}-${label}`)
    .whenLatestUser({ contains: `use ${name}` })
    .callsTools([fixture.call]);
  if (fixture.delayMs !== undefined) scenario.delayedBy(fixture.delayMs);
  await scenario.thenWhenToolResult(fixture.call.name, fixture.call.id, fixture.result).replies(ANSWER);

  const client = sdk(session);
  const tools = [offered(fixture.definition)];
  const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: `Please use ${name}.` }];
  const first = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
  const calls = first.choices[0].message.tool_calls ?? [];
  assert.equal(calls.length, 1, `${name}: one call`);
  const call = calls[0];
  assert.ok(call.type === 'function');
  assert.equal(call.id, fixture.call.id);
  assert.equal(call.function.name, name);
  assert.deepEqual(JSON.parse(call.function.arguments), fixture.call.arguments);

  messages.push(first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: JSON.stringify(fixture.result) });
  const second = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
  assert.equal(second.choices[0].message.content, ANSWER);

  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.step]),
    [
      [200, 'step-1'],
      [200, 'step-2'],
    ],
  );
  // The schema the server was offered is the catalogue's, member for member.
  assert.deepEqual(entries[0].request?.tools[0].parameters, PRESET_CATALOGUE[name].parameters);
  const results = entries[1].request!.messages.flatMap((m) => m.parts).filter((p) => p.type === 'tool_result');
  assert.deepEqual(
    results.map((p) => [p.name, p.callId, JSON.parse(p.content)]),
    [[name, fixture.call.id, fixture.result]],
  );
  const schema = compileSchema(fixture.isError ? PRESET_ERROR_SCHEMA : PRESET_CATALOGUE[name].resultSchema);
  assert.ok(!isSchemaError(schema));
  assert.deepEqual(schema.validate(JSON.parse(results[0].content)), []);
  await session.verify({
    toolCalled: [{ name, id: fixture.call.id, arguments: fixture.call.arguments, result: fixture.result, times: 1 }],
  });
}

describe('every preset over real HTTP with the openai SDK', () => {
  for (const name of NAMES) {
    test(`${name}: a success round (call → result → answer) [openai-chat.presets.json +]`, async () => {
      const { args, result } = PRESET_EXAMPLES[name];
      const tool = presets[name] as (typeof presets)['calculator'];
      const fixture = tool.success(args as never, result as never, { id: `call_${name}_ok`, delayMs: 5 });
      assert.equal(fixture.kind, 'success');
      assert.equal(fixture.isError, false);
      assert.deepEqual(fixture.result, result, 'a success result is the typed root itself');
      await runRound(name, fixture, 'success');
    });

    test(`${name}: an error round (the result is the error envelope)`, async () => {
      const { args } = PRESET_EXAMPLES[name];
      const tool = presets[name] as (typeof presets)['calculator'];
      const fixture = tool.failure(args as never, { code: 'fixture_unavailable', message: `Scripted ${name} failure`, retryable: true });
      assert.equal(fixture.call.id, `call_${name}`, 'the default call id');
      assert.equal(fixture.isError, true);
      assert.deepEqual(fixture.result, {
        error: { code: 'fixture_unavailable', message: `Scripted ${name} failure`, retryable: true },
      });
      await runRound(name, fixture, 'failure');
    });
  }
});

test('a call whose arguments the offered definition refuses is a 409 fixture_mismatch that consumes nothing [openai-chat.presets.json -]', async () => {
  const session = await mock.session('preset-bad-arguments');
  // Written by hand: the builder would not let these arguments through.
  await session.scenario('bad').callsTool('weather', { location: 'Paris', unit: 'kelvin' }, 'call_bad').then().replies(ANSWER);
  const client = sdk(session);
  const ask = () =>
    client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [offered(presets.weather.definition())],
    });
  for (let attempt = 0; attempt < 2; attempt++) {
    const error = await ask().then(
      () => assert.fail('expected a 409'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof OpenAI.ConflictError, String(error));
    assert.equal(error.code, 'fixture_mismatch');
    assert.match(error.message, /scenario "bad" step "step-1"/);
    assert.match(error.message, /unit/);
  }
  const { entries, counters } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.error?.code]),
    [
      [409, 'fixture_mismatch'],
      [409, 'fixture_mismatch'],
    ],
  );
  assert.equal(counters.mismatched, 2);
  const report = await session.check();
  assert.deepEqual(
    report.problems.filter((p) => p.kind === 'unused_step').map((p) => p.step),
    ['step-1', 'step-2'],
    'the refused step is still there to be used',
  );
});

const WEATHER = presets.weather.success(
  { location: 'Paris', unit: 'celsius' },
  { location: 'Paris', temperature: 21, unit: 'celsius', condition: 'sunny' },
  { id: 'call_paris', delayMs: 300 },
);

async function scriptWeather(session: UnderstudySession): Promise<void> {
  await session
    .scenario('weather')
    .callsTools([WEATHER.call])
    .delayedBy(WEATHER.delayMs!)
    .thenWhenToolResult(WEATHER.call.name, WEATHER.call.id, WEATHER.result)
    .replies(ANSWER);
}

function weatherAsk(result?: unknown): [ChatCompletionMessageParam[], ChatCompletionFunctionTool[]] {
  const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
  if (result !== undefined) {
    messages.push(
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: WEATHER.call.id, type: 'function', function: { name: 'weather', arguments: JSON.stringify(WEATHER.call.arguments) } },
        ],
      },
      { role: 'tool', tool_call_id: WEATHER.call.id, content: JSON.stringify(result) },
    );
  }
  return [messages, [offered(WEATHER.definition)]];
}

test('a preset result matches structurally (member order aside); a changed one is refused without consuming the step', async () => {
  const session = await mock.session('preset-result-match');
  await scriptWeather(session);
  const client = sdk(session);
  const [messages, tools] = weatherAsk();
  await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });

  const changed = { ...WEATHER.result, temperature: 22 };
  const [changedMessages] = weatherAsk(changed);
  const error = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: changedMessages, tools }).then(
    () => assert.fail('expected a 409'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof OpenAI.ConflictError, String(error));
  assert.equal(error.code, 'no_match');
  assert.match(error.message, /toolResult/);

  const reordered = { condition: 'sunny', unit: 'celsius', temperature: 21, location: 'Paris' };
  const [sameMessages] = weatherAsk(reordered);
  const answer = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: sameMessages, tools });
  assert.equal(answer.choices[0].message.content, ANSWER);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.step ?? null]),
    [
      [200, 'step-1'],
      [409, null],
      [200, 'step-2'],
    ],
  );
  // The refused request stays a problem; the ledger keeps the result of the answered request (a
  // request refused with a 409 records none), so the expectation names the call and that result.
  const report = await session.check({
    toolCalled: [
      { name: 'weather', id: 'call_paris', arguments: WEATHER.call.arguments, result: WEATHER.result, times: 1 },
      { name: 'weather', id: 'call_paris', result: changed, times: 0 },
    ],
  });
  assert.deepEqual(
    report.problems.map((p) => p.kind),
    ['no_match'],
    report.report,
  );
});

test('a preset call delayed by its fixture and cancelled by the client consumes nothing; the retry gets the same call id', async () => {
  const session = await mock.session('preset-delay-abort');
  await scriptWeather(session);
  const client = sdk(session);
  const [messages, tools] = weatherAsk();
  const controller = new AbortController();
  const started = Date.now();
  const aborted = client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools }, { signal: controller.signal });
  setTimeout(() => controller.abort(), 50);
  await assert.rejects(aborted, (e: unknown) => e instanceof OpenAI.APIUserAbortError);
  assert.ok(Date.now() - started < WEATHER.delayMs!, 'the abort ended the request before the delay');
  await new Promise((resolve) => setTimeout(resolve, 50));

  const retried = Date.now();
  const first = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
  assert.ok(Date.now() - retried >= WEATHER.delayMs! - 10, 'the fixture’s delay applies');
  assert.equal(first.choices[0].message.tool_calls?.[0]?.id, 'call_paris');
  const [withResult] = weatherAsk(WEATHER.result);
  assert.equal(
    (await client.chat.completions.create({ model: 'gpt-4o-mini', messages: withResult, tools })).choices[0].message.content,
    ANSWER,
  );
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.event, e.status, e.step]),
    [
      ['request_aborted', 499, 'step-1'],
      ['reply_returned', 200, 'step-1'],
      ['reply_returned', 200, 'step-2'],
    ],
  );
  await session.verify();
});

describe('values are checked as they are built', () => {
  const refused = (build: () => unknown, ...mentions: (string | RegExp)[]) => {
    let caught: unknown;
    try {
      build();
    } catch (error) {
      caught = error;
    }
    assert.ok(caught instanceof PresetValueError, `expected a PresetValueError, got ${String(caught)}`);
    for (const m of mentions) {
      assert.ok(
        typeof m === 'string' ? caught.message.includes(m) : m.test(caught.message),
        `${caught.message}\nshould mention ${String(m)}`,
      );
    }
    return caught;
  };

  test('an unknown property is refused in every preset’s arguments and result', () => {
    for (const name of NAMES) {
      const tool = presets[name] as (typeof presets)['calculator'];
      const { args, result } = PRESET_EXAMPLES[name];
      refused(() => tool.call({ ...args, surprise: 1 } as never), `preset ${name}: invalid arguments`, "('surprise')");
      refused(() => tool.result({ ...result, surprise: 1 } as never), `preset ${name}: invalid result`, "('surprise')");
    }
  });

  test('limits: search limits 1–100, nonnegative offsets, lengths and byte counts, the weather unit', () => {
    for (const limit of [0, 101, 2.5]) {
      refused(() => presets.web_search.call({ query: 'q', limit }), 'preset web_search', 'at /limit');
      refused(() => presets.file_search.call({ query: 'q', limit }), 'preset file_search', 'at /limit');
    }
    for (const limit of [1, 100]) assert.equal(presets.web_search.call({ query: 'q', limit }).arguments.limit, limit);
    refused(() => presets.read_file.call({ path: 'a', offset: -1 }), 'at /offset', 'must be >= 0');
    refused(() => presets.read_file.call({ path: 'a', offset: 0, length: -1 }), 'at /length');
    refused(() => presets.write_file.result({ path: 'a', bytes_written: -1 }), 'preset write_file: invalid result', 'at /bytes_written');
    refused(() => presets.list_files.result({ entries: [{ path: 'a', type: 'file', size: -1 }] }), 'at /entries/0/size');
    refused(() => presets.weather.call({ location: 'Paris', unit: 'kelvin' as 'celsius' }), 'at /unit', 'celsius, fahrenheit');
    refused(() => presets.calculator.result({ value: Number.NaN }), 'at /value', 'finite');
    refused(() => presets.current_time.result({ timestamp: '2026-03-01T09:30:00', time_zone: 'UTC' }), 'at /timestamp');
    refused(() => presets.calculator.call({} as never), "must have required property 'expression'");
  });

  test('optional fields left unset are omitted from the JSON', () => {
    const call = presets.read_file.call({ path: 'a', offset: 0, length: undefined });
    assert.deepEqual(Object.keys(call.arguments), ['path', 'offset']);
    assert.equal(JSON.stringify(call.arguments), '{"path":"a","offset":0}');
    const entry = presets.list_files.result({ entries: [{ path: 'd', type: 'directory', size: undefined }] });
    assert.equal(JSON.stringify(entry), '{"entries":[{"path":"d","type":"directory"}]}');
  });

  test('errors: the envelope, checked against the error schema', () => {
    assert.deepEqual(presets.shell.error({ code: 'denied', message: 'no', retryable: false }), {
      error: { code: 'denied', message: 'no', retryable: false },
    });
    refused(() => presets.shell.error({ code: '', message: 'no', retryable: false }), 'preset shell: invalid error', 'at /error/code');
    refused(() => presets.shell.error({ code: 'x', message: 'no' } as never), "must have required property 'retryable'");
    refused(() => presets.shell.error({ code: 'x', message: 'no', retryable: true, extra: 1 } as never), "('extra')");
  });

  test('call ids: default call_<name>, explicit ones non-blank and at most 128 characters', () => {
    assert.equal(presets.apply_patch.call({ patch: 'p' }).id, 'call_apply_patch');
    assert.equal(presets.apply_patch.call({ patch: 'p' }, 'x'.repeat(128)).id.length, 128);
    refused(() => presets.apply_patch.call({ patch: 'p' }, ''), 'preset apply_patch: invalid call id', 'blank');
    refused(() => presets.apply_patch.call({ patch: 'p' }, ' \t'), 'blank');
    refused(() => presets.apply_patch.call({ patch: 'p' }, 'x'.repeat(129)), 'at most 128');
    refused(() => presets.apply_patch.success({ patch: 'p' }, { updated_paths: [] }, { id: '' }), 'invalid call id');
    refused(() => presets.apply_patch.success({ patch: 'p' }, { updated_paths: [] }, { delayMs: -1 }), 'invalid delay');
  });

  test('definition() is a copy: changing it leaves the catalogue as it was', () => {
    const definition = presets.weather.definition();
    (definition.parameters as { properties: Record<string, unknown> }).properties.extra = { type: 'string' };
    assert.equal('extra' in (PRESET_CATALOGUE.weather.parameters as { properties: object }).properties, false);
    assert.deepEqual(presets.weather.definition().parameters, PRESET_CATALOGUE.weather.parameters);
  });
});

describe('the catalogue', () => {
  test('twelve frozen descriptors, named by the constants', () => {
    assert.deepEqual(
      PRESET_DESCRIPTORS.map((d) => d.name),
      [
        'calculator',
        'current_time',
        'weather',
        'web_search',
        'fetch_url',
        'file_search',
        'read_file',
        'write_file',
        'list_files',
        'run_code',
        'shell',
        'apply_patch',
      ],
    );
    for (const d of PRESET_DESCRIPTORS) {
      assert.equal(PRESET_NAMES[d.name], d.name);
      assert.equal(PRESET_CATALOGUE[d.name], d);
      assert.ok(Object.isFrozen(d) && Object.isFrozen(d.parameters) && Object.isFrozen(d.resultSchema));
      assert.equal(d.errorSchema, PRESET_ERROR_SCHEMA);
      assert.ok(d.description.length > 0);
    }
    assert.ok(Object.isFrozen(PRESET_DESCRIPTORS) && Object.isFrozen(PRESET_CATALOGUE) && Object.isFrozen(presets));
    assert.throws(() => ((PRESET_CATALOGUE.weather as { description: string }).description = 'changed'), TypeError);
  });

  test('every schema compiles, accepts the example and refuses unknown properties at every object', () => {
    for (const d of PRESET_DESCRIPTORS) {
      const { args, result } = PRESET_EXAMPLES[d.name];
      for (const [part, schema, example] of [
        ['parameters', d.parameters, args],
        ['result', d.resultSchema, result],
        ['error', d.errorSchema, { error: { code: 'c', message: 'm', retryable: false } }],
      ] as const) {
        const compiled = compileSchema(schema);
        assert.ok(!isSchemaError(compiled), `${d.name} ${part}: ${JSON.stringify(compiled)}`);
        assert.deepEqual(compiled.validate(example), [], `${d.name} ${part} accepts the example`);
        for (const path of objectPaths(example)) {
          const changed = withMember(example, path, 'surprise');
          assert.notDeepEqual(compiled.validate(changed), [], `${d.name} ${part} refuses an unknown member at /${path.join('/')}`);
        }
        assert.equal(JSON.stringify(schema).includes('"$schema"'), false);
      }
    }
  });
});

/** Paths of every object in a JSON value (the root included). */
function objectPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => objectPaths(v, [...path, i]));
  if (typeof value !== 'object' || value === null) return [];
  return [path, ...Object.entries(value).flatMap(([k, v]) => objectPaths(v, [...path, k]))];
}

function withMember(value: unknown, path: (string | number)[], member: string): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let at = copy;
  for (const key of path) at = at[key] as Record<string | number, unknown>;
  at[member] = 1;
  return copy;
}

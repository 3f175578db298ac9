// The in-process AI SDK model (llm-understudy/ai-sdk): the AI SDK's own generateText, streamText
// and structured output run their tool loops against a session's scripts with no server
// listening, through the same contract checks, journal and verify() as over HTTP.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { generateText, jsonSchema, Output, stepCountIs, streamText, tool, type JSONSchema7 } from 'ai';
import { z } from 'zod';
import { connectUnderstudy, createUnderstudy, startUnderstudy, type Understudy } from '../src/index.js';
import { understudyModel, UnderstudyFaultError, UnderstudyModelError } from '../src/in-process/ai-sdk/index.js';
import { ZERO_CONFIG_TEXT } from '../src/engine/zero-config.js';
import type { ToolExpectation } from '../src/index.js';

const TIMEOUT = { timeout: 30_000 };
let mock: Understudy;

before(async () => {
  mock = await createUnderstudy();
});
after(async () => {
  await mock.close();
});

/** Two tools whose execute functions record what they were called with. */
function tripTools(ran: unknown[]) {
  return {
    weather: tool({
      description: 'The weather at a place',
      inputSchema: z.object({ location: z.string() }),
      execute: async (input) => {
        ran.push(['weather', input]);
        return { location: input.location, temperature: 21, condition: 'sunny' };
      },
    }),
    calculator: tool({
      description: 'Evaluates an arithmetic expression',
      inputSchema: z.object({ expression: z.string() }),
      execute: async (input) => {
        ran.push(['calculator', input]);
        return { value: 69.8 };
      },
    }),
  };
}

const WEATHER_RESULT = { location: 'Paris', temperature: 21, condition: 'sunny' };

async function tripSession(id: string) {
  const session = await mock.session(id);
  session
    .scenario('trip')
    .whenLatestUser({ contains: 'Paris' })
    .callsTool('weather', { location: 'Paris' }, 'call_weather')
    .thenWhenToolResult('weather', 'call_weather', WEATHER_RESULT)
    .callsTool('calculator', { expression: '21 * 9 / 5 + 32' }, 'call_calc')
    .thenWhenToolResult('calculator', 'call_calc', { value: 69.8 })
    .replies('Paris is sunny, 21 °C (69.8 °F).');
  return session;
}

const TRIP_CALLS: ToolExpectation[] = [
  { name: 'weather', id: 'call_weather', arguments: { location: 'Paris' }, result: WEATHER_RESULT },
  { name: 'calculator', id: 'call_calc', arguments: { expression: '21 * 9 / 5 + 32' }, result: { value: 69.8 } },
];

describe('no server listening', () => {
  test('createUnderstudy has no base URL: url() says why', TIMEOUT, async () => {
    const session = await mock.session('no-url');
    assert.throws(() => mock.url('openai'), /no server is listening/);
    assert.throws(() => session.url('openai'), /createUnderstudy\(\).*in-process models/);
  });

  test('a session reached over HTTP cannot back an in-process model', TIMEOUT, async () => {
    const served = await startUnderstudy();
    try {
      const remote = await (await connectUnderstudy(served.baseUrl)).session('remote');
      assert.throws(() => understudyModel(remote), /reached over HTTP \(connectUnderstudy\)/);
    } finally {
      await served.close();
    }
  });
});

describe('generateText', () => {
  test('a scripted text, journalled as an in-process request [aisdk-inprocess.chat.json +]', TIMEOUT, async () => {
    const session = await mock.session('text');
    session.scenario('hello').whenLatestUser('Hello?').replies('Hello from the script.');
    const result = await generateText({ model: understudyModel(session, { modelId: 'my-model' }), prompt: 'Hello?', maxRetries: 0 });
    assert.equal(result.text, 'Hello from the script.');
    assert.equal(result.finishReason, 'stop');
    assert.equal(result.response.modelId, 'my-model');
    assert.ok(result.usage.inputTokens! > 0 && result.usage.outputTokens! > 0);
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.operation, e.route, e.status, e.stream, e.script, e.request?.model]),
      [['ai-sdk.generate', 'ai-sdk doGenerate', 200, false, 'hello', 'my-model']],
    );
    await session.verify();
  });

  test(
    'no matching step: the call rejects with the near miss, and the journal has the 409 [aisdk-inprocess.chat.json -]',
    TIMEOUT,
    async () => {
      const session = await mock.session('no-match');
      session.scenario('hello').whenLatestUser('Hello?').replies('Hello.');
      await assert.rejects(
        generateText({ model: understudyModel(session), prompt: 'Goodbye?', maxRetries: 0 }),
        (error: unknown) =>
          error instanceof UnderstudyModelError && error.status === 409 && error.code === 'no_match' && /hello/.test(error.message),
      );
      const { entries } = await session.journal();
      assert.deepEqual(
        entries.map((e) => [e.status, e.error?.code, e.nearMisses?.[0]?.scenario]),
        [[409, 'no_match', 'hello']],
      );
    },
  );

  test('a scripted 429 rejects with its status and message, and is not retried by the SDK', TIMEOUT, async () => {
    const session = await mock.session('scripted-error');
    session.scenario('busy').fails(429, 'Slow down', { code: 'rate_limit_exceeded' });
    await assert.rejects(generateText({ model: understudyModel(session), prompt: 'Hi', maxRetries: 2 }), (error: unknown) => {
      const cause = error instanceof UnderstudyModelError ? error : (error as { lastError?: unknown }).lastError;
      return cause instanceof UnderstudyModelError && cause.status === 429 && cause.code === 'rate_limit_exceeded' && cause.isRetryable;
    });
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => e.status),
      [429],
    );
  });
});

describe('agent loops', () => {
  test(
    'generateText with stopWhen runs a two-tool script to its final text; verify() sees every step [aisdk-inprocess.agent-loop.json +]',
    TIMEOUT,
    async () => {
      const session = await tripSession('loop-generate');
      const ran: unknown[] = [];
      const result = await generateText({
        model: understudyModel(session),
        tools: tripTools(ran),
        stopWhen: stepCountIs(6),
        prompt: 'What is the weather in Paris, in °F?',
        maxRetries: 0,
      });
      assert.equal(result.text, 'Paris is sunny, 21 °C (69.8 °F).');
      assert.equal(result.steps.length, 3);
      assert.deepEqual(
        result.steps.map((s) => s.finishReason),
        ['tool-calls', 'tool-calls', 'stop'],
      );
      assert.deepEqual(ran, [
        ['weather', { location: 'Paris' }],
        ['calculator', { expression: '21 * 9 / 5 + 32' }],
      ]);
      await session.verify({ toolCalled: TRIP_CALLS });
      const { entries } = await session.journal();
      assert.deepEqual(
        entries.map((e) => [e.status, e.step !== undefined]),
        [
          [200, true],
          [200, true],
          [200, true],
        ],
      );
    },
  );

  test(
    'streamText with stopWhen runs the same loop, the text arriving in the scripted chunks [aisdk-inprocess.agent-loop.stream +]',
    TIMEOUT,
    async () => {
      const session = await mock.session('loop-stream');
      session
        .scenario('trip')
        .whenLatestUser({ contains: 'Paris' })
        .callsTool('weather', { location: 'Paris' }, 'call_weather')
        .thenWhenToolResult('weather', 'call_weather', WEATHER_RESULT)
        .callsTool('calculator', { expression: '21 * 9 / 5 + 32' }, 'call_calc')
        .thenWhenToolResult('calculator', 'call_calc', { value: 69.8 })
        .replies('Paris is sunny, 21 °C (69.8 °F).')
        .inChunks(['Paris is sunny, ', '21 °C ', '(69.8 °F).']);
      const ran: unknown[] = [];
      const result = streamText({
        model: understudyModel(session),
        tools: tripTools(ran),
        stopWhen: stepCountIs(6),
        prompt: 'What is the weather in Paris, in °F?',
        maxRetries: 0,
      });
      const deltas: string[] = [];
      for await (const delta of result.textStream) deltas.push(delta);
      assert.deepEqual(deltas, ['Paris is sunny, ', '21 °C ', '(69.8 °F).']);
      assert.equal((await result.steps).length, 3);
      assert.equal(await result.finishReason, 'stop');
      assert.equal(ran.length, 2);
      await session.verify({ toolCalled: TRIP_CALLS });
      const { entries } = await session.journal();
      assert.deepEqual(
        entries.map((e) => [e.operation, e.stream, e.status]),
        [
          ['ai-sdk.stream', true, 200],
          ['ai-sdk.stream', true, 200],
          ['ai-sdk.stream', true, 200],
        ],
      );
    },
  );

  const LOOKUP_SCHEMA: JSONSchema7 = {
    type: 'object',
    properties: {
      city: { type: 'string', minLength: 2 },
      days: { type: 'integer', minimum: 1, maximum: 7 },
      unit: { enum: ['celsius', 'fahrenheit'] },
    },
    required: ['city', 'days', 'unit'],
    additionalProperties: false,
  };

  const ZERO_CONFIG_ROWS = { generateText: '[aisdk-inprocess.zero-config.json +]', streamText: '[aisdk-inprocess.zero-config.stream +]' };
  for (const mode of ['generateText', 'streamText'] as const) {
    test(
      `${mode} against zero-config: one schema-valid call of a tool with required fields, then the zero-config sentence ${ZERO_CONFIG_ROWS[mode]}`,
      TIMEOUT,
      async () => {
        const session = await mock.session(`zero-${mode}`, { fallback: 'auto' });
        const inputs: unknown[] = [];
        const tools = {
          forecast: tool({
            description: 'A forecast',
            inputSchema: jsonSchema<{ city: string; days: number; unit: string }>(LOOKUP_SCHEMA),
            execute: async (input) => {
              inputs.push(input);
              return { summary: 'mild' };
            },
          }),
        };
        const options = { model: understudyModel(session), tools, stopWhen: stepCountIs(6), prompt: 'Forecast?', maxRetries: 0 };
        let text: string;
        let steps: number;
        if (mode === 'generateText') {
          const result = await generateText(options);
          text = result.text;
          steps = result.steps.length;
        } else {
          const result = streamText(options);
          text = await result.text;
          steps = (await result.steps).length;
        }
        assert.equal(text, ZERO_CONFIG_TEXT);
        assert.equal(steps, 2);
        assert.equal(inputs.length, 1);
        const validate = new Ajv2020({ strict: false }).compile(LOOKUP_SCHEMA);
        assert.ok(validate(inputs[0]), JSON.stringify(validate.errors));
        const { entries } = await session.journal();
        assert.deepEqual(
          entries.map((e) => [e.source, e.reply?.toolCalls.length]),
          [
            ['zero_config', 1],
            ['zero_config', 0],
          ],
        );
      },
    );
  }

  test(
    'zero-config is opt-in: a strict session refuses the first call of the loop [aisdk-inprocess.zero-config.json -] [aisdk-inprocess.zero-config.stream -]',
    TIMEOUT,
    async () => {
      const session = await mock.session('zero-off');
      const ran: unknown[] = [];
      await assert.rejects(
        generateText({
          model: understudyModel(session),
          tools: tripTools(ran),
          stopWhen: stepCountIs(3),
          prompt: 'Forecast?',
          maxRetries: 0,
        }),
        (error: unknown) => error instanceof UnderstudyModelError && error.code === 'no_match',
      );
      const errors: unknown[] = [];
      const result = streamText({
        model: understudyModel(session),
        tools: tripTools(ran),
        stopWhen: stepCountIs(3),
        prompt: 'Forecast?',
        maxRetries: 0,
        onError: ({ error }) => void errors.push(error),
      });
      assert.equal(await Promise.resolve(result.text).catch(() => ''), '');
      assert.ok(errors.some((e) => e instanceof UnderstudyModelError && e.code === 'no_match'));
      assert.deepEqual(ran, []);
    },
  );

  test(
    'a contract failure surfaces as an error and consumes nothing: scripted arguments the tool schema refuses [aisdk-inprocess.agent-loop.json -]',
    TIMEOUT,
    async () => {
      const session = await mock.session('loop-mismatch');
      session
        .scenario('trip')
        .whenLatestUser({ contains: 'Paris' })
        .callsTool('weather', { city: 'Paris' }, 'call_weather')
        .thenWhenToolResult('weather')
        .replies('Sunny.');
      const ran: unknown[] = [];
      await assert.rejects(
        generateText({
          model: understudyModel(session),
          tools: tripTools(ran),
          stopWhen: stepCountIs(4),
          prompt: 'Weather in Paris?',
          maxRetries: 0,
        }),
        (error: unknown) =>
          error instanceof UnderstudyModelError &&
          error.status === 409 &&
          error.code === 'fixture_mismatch' &&
          /location/.test(error.message),
      );
      assert.deepEqual(ran, []);
      const report = await session.check();
      assert.equal(report.ok, false);
      assert.match(report.report, /never used|unused/i);
      const { entries, counters } = await session.journal();
      assert.deepEqual(
        entries.map((e) => [e.status, e.error?.code]),
        [[409, 'fixture_mismatch']],
      );
      assert.equal(counters.mismatched, 1);
    },
  );

  test(
    'streamed, a tool result the script does not expect stops the loop with a 409, the step kept [aisdk-inprocess.agent-loop.stream -]',
    TIMEOUT,
    async () => {
      const session = await tripSession('loop-stream-wrong-result');
      const errors: unknown[] = [];
      const tools = {
        ...tripTools([]),
        weather: tool({
          description: 'The weather at a place',
          inputSchema: z.object({ location: z.string() }),
          execute: async () => ({ location: 'Paris', temperature: 5, condition: 'rain' }),
        }),
      };
      const result = streamText({
        model: understudyModel(session),
        tools,
        stopWhen: stepCountIs(6),
        prompt: 'What is the weather in Paris, in °F?',
        maxRetries: 0,
        onError: ({ error }) => void errors.push(error),
      });
      assert.equal(await Promise.resolve(result.text).catch(() => ''), '');
      assert.ok(
        errors.some((e) => e instanceof UnderstudyModelError && e.status === 409),
        String(errors),
      );
      const { entries } = await session.journal();
      assert.deepEqual(
        entries.map((e) => e.status),
        [200, 409],
      );
      const report = await session.check();
      assert.equal(report.ok, false);
    },
  );
});

describe('structured output', () => {
  const PERSON = z.object({ name: z.string(), age: z.number().int().min(0) });

  test(
    'Output.object: the schema reaches the script as json_schema, the scripted JSON is the object [aisdk-inprocess.structured-output.json +]',
    TIMEOUT,
    async () => {
      const session = await mock.session('object');
      session.scenario('person').repliesJson({ name: 'Ada', age: 36 });
      const result = await generateText({
        model: understudyModel(session),
        output: Output.object({ schema: PERSON }),
        prompt: 'Who?',
        maxRetries: 0,
      });
      assert.deepEqual(result.output, { name: 'Ada', age: 36 });
      const { entries } = await session.journal();
      const output = entries[0]?.request?.output;
      assert.equal(output?.type, 'json_schema');
      assert.deepEqual(Object.keys((output as unknown as { schema: { properties: object } }).schema.properties), ['name', 'age']);
    },
  );

  test('a scripted object the schema refuses is a 409, nothing consumed [aisdk-inprocess.structured-output.json -]', TIMEOUT, async () => {
    const session = await mock.session('object-refused');
    session.scenario('person').repliesJson({ name: 'Ada', age: -1 });
    await assert.rejects(
      generateText({ model: understudyModel(session), output: Output.object({ schema: PERSON }), prompt: 'Who?', maxRetries: 0 }),
      (error: unknown) => error instanceof UnderstudyModelError && error.code === 'fixture_mismatch' && /age/.test(error.message),
    );
    assert.equal((await session.check()).ok, false);
  });
});

describe('streams and their failures', () => {
  test('streamText: the text in the scripted chunks [aisdk-inprocess.chat.stream +]', TIMEOUT, async () => {
    const session = await mock.session('chunks');
    session.scenario('hello').replies('One two three.').inChunks(['One ', 'two ', 'three.']);
    const result = streamText({ model: understudyModel(session), prompt: 'Count', maxRetries: 0 });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    assert.deepEqual(deltas, ['One ', 'two ', 'three.']);
    assert.equal(await result.finishReason, 'stop');
    await session.verify();
  });

  test(
    'a scripted in-stream error and an error fault arrive as stream errors after the chunks before them [aisdk-inprocess.chat.stream -]',
    TIMEOUT,
    async () => {
      const session = await mock.session('stream-errors');
      session
        .scenario('overloaded')
        .reply({ error: { status: 529, message: 'Overloaded', inStream: true } })
        .then()
        .replies('Recovered.')
        .inChunks(['Rec', 'overed.'])
        .withFault({ kind: 'error', afterChunks: 1, error: { status: 500, message: 'Boom' } });
      for (const expected of [
        { text: '', status: 529 },
        { text: 'Rec', status: 500 },
      ]) {
        const errors: unknown[] = [];
        const result = streamText({
          model: understudyModel(session),
          prompt: 'Hi',
          maxRetries: 0,
          onError: ({ error }) => void errors.push(error),
        });
        let text = '';
        for await (const delta of result.textStream) text += delta;
        assert.equal(text, expected.text);
        assert.ok(
          errors.some((e) => e instanceof UnderstudyModelError && e.status === expected.status),
          String(errors),
        );
      }
      await session.verify();
    },
  );

  test('a stall fault: the chunks before it, then nothing until the caller aborts; truncate ends without a finish', TIMEOUT, async () => {
    const session = await mock.session('stall');
    session
      .scenario('stalls')
      .replies('Never finished.')
      .inChunks(['Never ', 'finished.'])
      .withFault({ kind: 'stall', afterChunks: 1 })
      .then()
      .replies('Cut short.')
      .inChunks(['Cut ', 'short.'])
      .withFault({ kind: 'truncate', afterChunks: 1 });
    const controller = new AbortController();
    const errors: unknown[] = [];
    const stalled = streamText({
      model: understudyModel(session),
      prompt: 'Hi',
      maxRetries: 0,
      abortSignal: controller.signal,
      onError: ({ error }) => void errors.push(error),
    });
    const seen: string[] = [];
    const started = Date.now();
    setTimeout(() => controller.abort(), 150);
    await assert.rejects(
      (async () => {
        for await (const delta of stalled.textStream) seen.push(delta);
        await stalled.finishReason;
      })(),
    );
    assert.deepEqual(seen, ['Never ']);
    assert.ok(Date.now() - started >= 140, 'nothing more arrived until the abort');
    const cut = streamText({ model: understudyModel(session), prompt: 'Hi', maxRetries: 0 });
    const parts: string[] = [];
    for await (const part of cut.fullStream) parts.push(part.type === 'text-delta' ? `text:${part.text}` : part.type);
    assert.ok(parts.includes('text:Cut ') && !parts.includes('text:short.'), parts.join(' '));
    await session.verify();
  });

  test('the wire cuts reject with an UnderstudyFaultError naming the kind; a stall with no signal fails at once', TIMEOUT, async () => {
    const session = await mock.session('cuts');
    session
      .scenario('cuts')
      .replies('Reset.')
      .withFault({ kind: 'reset' })
      .then()
      .replies('Stalled.')
      .withFault({ kind: 'stall', afterChunks: 0 });
    await assert.rejects(
      generateText({ model: understudyModel(session), prompt: 'Hi', maxRetries: 0 }),
      (error: unknown) => error instanceof UnderstudyFaultError && error.fault === 'reset',
    );
    const started = Date.now();
    await assert.rejects(
      generateText({ model: understudyModel(session), prompt: 'Hi', maxRetries: 0 }),
      (error: unknown) => error instanceof UnderstudyFaultError && error.fault === 'stall' && /no abort signal/.test(error.message),
    );
    assert.ok(Date.now() - started < 5_000);
  });

  test('a delayed step the caller aborts consumes nothing, and is journalled as aborted', TIMEOUT, async () => {
    const session = await mock.session('abort');
    session.scenario('slow').replies('Late.').delayedBy(2_000);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(generateText({ model: understudyModel(session), prompt: 'Hi', maxRetries: 0, abortSignal: controller.signal }));
    const { entries, counters } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.error?.code]),
      [[499, 'client_closed_request']],
    );
    assert.equal(counters.aborted, 1);
    const second = await generateText({ model: understudyModel(session), prompt: 'Hi', maxRetries: 0 });
    assert.equal(second.text, 'Late.');
  });
});

// The cases of the dialect conformance suite (test/conformance.test.ts), each run over every
// driver in JSON and stream form: what is scripted, what is asked, and what the SDK's answer and
// the journal must then show. Written in neutral terms; the drivers speak each SDK.

import assert from 'node:assert/strict';
import { Ajv } from 'ajv';

import type { JournalSnapshot, UnderstudySession } from '../../../src/client/index.js';
import type { JournalEntry } from '../../../src/engine/journal.js';
import {
  callAsSeen,
  type Answer,
  type ConformanceClient,
  type ConformanceDriver,
  type ErrorSeen,
  type Mode,
  type Question,
  type ToolSpec,
} from './driver.js';

// ------------------------------------------------------------------ what every case asks

const ZERO_CONFIG_TEXT = 'This is a scripted answer from Understudy.';
export const PROMPT = 'What is the weather in Paris?';
export const CHUNKS = ['Sunny ', 'in Paris, ', '21 degrees.'];
export const TEXT = CHUNKS.join('');

const WEATHER: ToolSpec = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string', minLength: 1 }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
    required: ['city', 'unit'],
    additionalProperties: false,
  },
};
const TIME: ToolSpec = {
  name: 'get_time',
  description: 'Local time in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
};
const CALL = { id: 'call_conformance_1', name: WEATHER.name, arguments: { city: 'Paris', unit: 'celsius' } };
const SECOND_CALL = { id: 'call_conformance_2', name: WEATHER.name, arguments: { city: 'Tōkyō', unit: 'fahrenheit' } };
/** Text outside ASCII, in pieces that end inside no character: two-, three- and four-byte UTF-8. */
const WIDE_CHUNKS = ['Grüße ', 'aus Paris — ', '東京は晴れ ', '🌤️ 21°C'];

const CITY = {
  name: 'city_facts',
  schema: {
    type: 'object',
    properties: {
      city: { type: 'string', minLength: 1 },
      population: { type: 'integer', minimum: 1 },
      districts: { type: 'array', items: { type: 'string' }, minItems: 1 },
    },
    required: ['city', 'population', 'districts'],
    additionalProperties: false,
  },
};
const CITY_VALUE = { city: 'Paris', population: 2102650, districts: ['Le Marais'] };

const ajv = new Ajv({ strict: false });
function assertValid(schema: object, value: unknown, what: string) {
  const validate = ajv.compile(schema);
  assert.ok(validate(value), `${what} ${JSON.stringify(value)} fails its schema: ${ajv.errorsText(validate.errors)}`);
}

// ------------------------------------------------------------------ the cases

export interface CaseContext {
  driver: ConformanceDriver;
  mode: Mode;
  client: ConformanceClient;
  session: UnderstudySession;
}

export interface ConformanceCase {
  name: string;
  modes: readonly Mode[];
  /** The session answers unmatched requests in zero-config mode. */
  zeroConfig?: boolean;
  /** A known failure, reported instead of hidden: the case runs as a todo test with this reason. */
  todo?: string;
  run(ctx: CaseContext): Promise<void>;
}

const BOTH: readonly Mode[] = ['json', 'stream'];
const STREAM: readonly Mode[] = ['stream'];

/** The error the ask rejected with, read by the driver; fails when the ask succeeded. */
async function rejection(ctx: CaseContext, question: Question): Promise<ErrorSeen> {
  let answer: Answer | undefined;
  try {
    answer = await ctx.client.ask(question, ctx.mode);
  } catch (thrown) {
    return ctx.driver.errorOf(thrown);
  }
  assert.fail(`expected the SDK to fail, but it returned ${JSON.stringify(answer)}`);
}

/** The journal as GET /_understudy/sessions/{id}/journal gives it, each entry checked for the
 * route and mode it arrived on. */
async function journalled(ctx: CaseContext, count = 1): Promise<{ entries: JournalEntry[]; counters: JournalSnapshot['counters'] }> {
  const { entries, counters } = await ctx.session.journal();
  assert.equal(entries.length, count, `journal entries: ${JSON.stringify(entries.map((e) => [e.status, e.event, e.error?.code]))}`);
  for (const entry of entries) {
    assert.equal(entry.operation, ctx.driver.operations[ctx.mode], 'the operation the request arrived on');
    if (ctx.driver.route) assert.match(entry.route, ctx.driver.route, 'the route the request arrived on');
    // A request refused before it was decoded too (ChatDialect.requestedStream).
    assert.equal(entry.stream, ctx.mode === 'stream', 'journalled as streamed');
  }
  return { entries, counters };
}

/** An error inside the stream: the SDK's own error with the scripted message, or, where the SDK
 * cannot report one (ConformanceDriver.streamErrorFinish), a stream that ends with that reason. */
async function expectStreamError(ctx: CaseContext, message: RegExp): Promise<void> {
  if (ctx.driver.streamErrorFinish !== undefined) {
    const answer = await ctx.client.ask({ prompt: PROMPT }, ctx.mode);
    assert.equal(answer.finish, ctx.driver.streamErrorFinish, `the stream's end as the SDK read it: ${JSON.stringify(answer)}`);
    return;
  }
  const error = await rejection(ctx, { prompt: PROMPT });
  assert.ok(error.api, `the SDK's own error, not a connection failure: ${error.message}`);
  assert.match(error.message, message);
}

function latestUserText(entry: JournalEntry): string | undefined {
  const user = entry.request?.messages.filter((m) => m.role === 'user').at(-1);
  return user?.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

/** The usage the SDK read is the usage Understudy counted and journalled. */
function assertUsage(answer: Answer, entry: JournalEntry) {
  const counted = entry.usage;
  assert.ok(counted && counted.inputTokens > 0 && counted.outputTokens > 0, `journalled usage ${JSON.stringify(counted)}`);
  assert.deepEqual(answer.usage, { input: counted.inputTokens, output: counted.outputTokens }, 'usage as the SDK read it');
}

function assertStreamed(ctx: CaseContext, answer: Answer, pieces: number) {
  if (ctx.mode === 'stream') assert.equal(answer.textDeltas, pieces, 'text deltas the stream delivered');
  else assert.equal(answer.textDeltas, 0);
}

export const CASES: ConformanceCase[] = [
  {
    name: 'text',
    modes: BOTH,
    async run(ctx) {
      ctx.session.scenario('text').whenLatestUser({ contains: 'Paris' }).replies(TEXT).inChunks(CHUNKS);
      const answer = await ctx.client.ask({ prompt: PROMPT }, ctx.mode);
      assert.equal(answer.text, TEXT);
      assert.deepEqual(answer.toolCalls, []);
      assert.ok(answer.finish !== undefined, 'the answer says it finished');
      assertStreamed(ctx, answer, CHUNKS.length);
      const { entries } = await journalled(ctx);
      const [entry] = entries;
      assert.deepEqual([entry.status, entry.event, entry.source, entry.script], [200, 'reply_returned', 'script', 'text']);
      assert.equal(latestUserText(entry), PROMPT);
      assert.equal(entry.request?.stream, ctx.mode === 'stream');
      assert.equal(entry.reply?.content, TEXT);
      assertUsage(answer, entry);
      // Every SDK shows a JSON answer's request id; of streams, only some do.
      if (ctx.mode === 'json' || answer.requestId !== undefined)
        assert.equal(answer.requestId, entry.requestId, 'the request id the SDK read');
      await ctx.session.verify();
    },
  },
  {
    name: 'tool call',
    modes: BOTH,
    async run(ctx) {
      ctx.session.scenario('tool').whenHasTool(WEATHER.name).callsTool(CALL.name, CALL.arguments, CALL.id);
      const answer = await ctx.client.ask({ prompt: PROMPT, tools: [WEATHER] }, ctx.mode);
      assert.deepEqual(answer.toolCalls, [callAsSeen(ctx.driver, CALL)]);
      assert.equal(answer.text, '');
      const [entry] = (await journalled(ctx)).entries;
      assert.deepEqual([entry.status, entry.event, entry.source], [200, 'reply_returned', 'script']);
      assert.deepEqual(
        entry.request?.tools.map((t) => [t.name, t.description, t.parameters]),
        [[WEATHER.name, WEATHER.description, WEATHER.parameters]],
        'the declared tool as decoded',
      );
      assert.deepEqual(
        entry.reply?.toolCalls.map((c) => [c.id, c.name, JSON.parse(c.argumentsText)]),
        [[CALL.id, CALL.name, CALL.arguments]],
      );
      assertUsage(answer, entry);
      await ctx.session.verify();
    },
  },
  {
    name: 'tool result',
    modes: BOTH,
    async run(ctx) {
      const ids = ctx.driver.toolCallIds !== false;
      ctx.session
        .scenario('result')
        .whenToolResult(CALL.name, ids ? CALL.id : undefined)
        .replies(TEXT)
        .inChunks(CHUNKS);
      const answer = await ctx.client.ask({ prompt: PROMPT, tools: [WEATHER], toolResult: { ...CALL, result: 'sunny, 21 C' } }, ctx.mode);
      assert.equal(answer.text, TEXT);
      assert.deepEqual(answer.toolCalls, []);
      assertStreamed(ctx, answer, CHUNKS.length);
      const [entry] = (await journalled(ctx)).entries;
      assert.deepEqual([entry.status, entry.source, entry.script], [200, 'script', 'result']);
      const parts = entry.request?.messages.flatMap((m) => m.parts.map((p) => ({ role: m.role, ...p }))) ?? [];
      const call = parts.find((p) => p.type === 'tool_call');
      const result = parts.find((p) => p.type === 'tool_result');
      assert.ok(call?.type === 'tool_call' && result?.type === 'tool_result', `history as decoded: ${JSON.stringify(parts)}`);
      // Without ids on the wire, the dialect pairs the result with its call.
      const callId = ids ? CALL.id : call.id;
      assert.deepEqual([call.role, call.id, call.name, call.arguments], ['assistant', callId, CALL.name, CALL.arguments]);
      assert.deepEqual([result.callId, result.name], [callId, CALL.name]);
      assert.match(result.content, /sunny, 21 C/);
      await ctx.session.verify();
    },
  },
  {
    name: 'two tool calls',
    modes: BOTH,
    async run(ctx) {
      ctx.session.scenario('tools').callsTools([CALL, SECOND_CALL]);
      const answer = await ctx.client.ask({ prompt: 'Paris and Tokyo?', tools: [WEATHER] }, ctx.mode);
      assert.deepEqual(answer.toolCalls, [callAsSeen(ctx.driver, CALL), callAsSeen(ctx.driver, SECOND_CALL)]);
      const [entry] = (await journalled(ctx)).entries;
      assert.deepEqual(
        entry.reply?.toolCalls.map((c) => [c.id, JSON.parse(c.argumentsText)]),
        [
          [CALL.id, CALL.arguments],
          [SECOND_CALL.id, SECOND_CALL.arguments],
        ],
      );
    },
  },
  {
    name: 'text outside ASCII',
    modes: BOTH,
    async run(ctx) {
      const text = WIDE_CHUNKS.join('');
      ctx.session.scenario('wide').replies(text).inChunks(WIDE_CHUNKS);
      const answer = await ctx.client.ask({ prompt: 'Grüße? 天気は?' }, ctx.mode);
      assert.equal(answer.text, text);
      assertStreamed(ctx, answer, WIDE_CHUNKS.length);
      const [entry] = (await journalled(ctx)).entries;
      assert.equal(latestUserText(entry), 'Grüße? 天気は?');
      assert.equal(entry.reply?.content, text);
      assertUsage(answer, entry);
    },
  },
  {
    name: 'the same scripted reply, again and again',
    modes: BOTH,
    async run(ctx) {
      // The second and later answers of one scripted reply come from what was encoded for the first.
      const text = WIDE_CHUNKS.join('');
      ctx.session.scenario('again').replies(text).inChunks(WIDE_CHUNKS).onExhausted('repeat_last');
      const answers: Answer[] = [];
      for (let i = 0; i < 3; i++) answers.push(await ctx.client.ask({ prompt: PROMPT }, ctx.mode));
      for (const answer of answers) {
        assert.equal(answer.text, text);
        assertStreamed(ctx, answer, WIDE_CHUNKS.length);
      }
      const { entries } = await journalled(ctx, 3);
      assert.deepEqual(
        entries.map((e) => [e.status, e.source]),
        [
          [200, 'script'],
          [200, 'repeat_last'],
          [200, 'repeat_last'],
        ],
      );
      entries.forEach((entry, i) => assertUsage(answers[i], entry));
    },
  },
  {
    name: 'paced stream',
    modes: STREAM,
    async run(ctx) {
      // Paced delivery makes each event when it is sent: another encoding path than a whole stream.
      const text = WIDE_CHUNKS.join('');
      ctx.session
        .scenario('paced')
        .replies(text)
        .inChunks(WIDE_CHUNKS)
        .paced({ ttftMs: 5, chunksPerSecond: 400 })
        .onExhausted('repeat_last');
      const answers = [await ctx.client.ask({ prompt: PROMPT }, ctx.mode), await ctx.client.ask({ prompt: PROMPT }, ctx.mode)];
      const { entries } = await journalled(ctx, 2);
      answers.forEach((answer, i) => {
        assert.equal(answer.text, text);
        assertStreamed(ctx, answer, WIDE_CHUNKS.length);
        assert.ok(answer.finish !== undefined, 'the paced answer says it finished');
        assertUsage(answer, entries[i]);
      });
    },
  },
  {
    name: 'structured output',
    modes: BOTH,
    async run(ctx) {
      ctx.session.scenario('json').repliesJson(CITY_VALUE);
      const answer = await ctx.client.ask({ prompt: 'Facts about Paris', schema: CITY }, ctx.mode);
      assert.deepEqual(JSON.parse(answer.text), CITY_VALUE);
      const [entry] = (await journalled(ctx)).entries;
      assert.deepEqual([entry.status, entry.source], [200, 'script']);
      const output = entry.request?.output;
      assert.ok(output?.type === 'json_schema', `output as decoded: ${JSON.stringify(output)}`);
      assert.deepEqual(output.schema, CITY.schema, 'the requested schema as decoded');
      assert.equal(entry.reply?.content, JSON.stringify(CITY_VALUE));
    },
  },
  {
    name: 'scripted error',
    modes: BOTH,
    async run(ctx) {
      ctx.session
        .scenario('limited')
        .fails(429, 'Slow down, conformance.', { headers: { 'retry-after': '3' } })
        .replies(TEXT);
      const error = await rejection(ctx, { prompt: PROMPT });
      assert.deepEqual([error.api, error.status, error.type], [true, 429, ctx.driver.errorTypes.rateLimited], error.message);
      assert.match(error.message, /Slow down, conformance\./);
      const after = await ctx.client.ask({ prompt: PROMPT }, ctx.mode);
      assert.equal(after.text, TEXT, 'the next step answers');
      const { entries, counters } = await journalled(ctx, 2);
      assert.deepEqual(
        entries.map((e) => [e.status, e.event, e.step]),
        [
          [429, 'error_returned', 'step-1'],
          [200, 'reply_returned', 'step-2'],
        ],
      );
      assert.match(entries[0].error?.message ?? '', /Slow down, conformance\./);
      assert.equal(counters.errorsReturned, 1);
    },
  },
  {
    name: 'scripted error inside the stream',
    modes: STREAM,
    async run(ctx) {
      ctx.session.scenario('broken').reply({ error: { status: 500, message: 'Broke inside the stream.', inStream: true } });
      await expectStreamError(ctx, /Broke inside the stream\./);
      const [entry] = (await journalled(ctx)).entries;
      assert.equal(entry.step, 'step-1');
      assert.match(entry.error?.message ?? '', /Broke inside the stream\./);
    },
  },
  {
    name: 'malformed request',
    modes: BOTH,
    async run(ctx) {
      ctx.session.scenario('kept').replies(TEXT);
      const error = await rejection(ctx, { prompt: PROMPT, malformed: true });
      const status = ctx.driver.invalidRequestStatus ?? 400;
      assert.deepEqual([error.api, error.status, error.type], [true, status, ctx.driver.errorTypes.invalidRequest], error.message);
      assert.match(error.message, /temperature/);
      const after = await ctx.client.ask({ prompt: PROMPT }, ctx.mode);
      assert.equal(after.text, TEXT, 'the refused request consumed nothing');
      const { entries, counters } = await journalled(ctx, 2);
      assert.deepEqual(
        entries.map((e) => [e.status, e.event]),
        [
          [status, 'error_returned'],
          [200, 'reply_returned'],
        ],
      );
      assert.equal(entries[0].step, undefined, 'no step was selected for the refused request');
      assert.match(entries[0].error?.message ?? '', /temperature/);
      assert.equal(counters.invalid, 1);
    },
  },
  {
    name: 'malformed request journalled as a stream request',
    modes: STREAM,
    async run(ctx) {
      await rejection(ctx, { prompt: PROMPT, malformed: true });
      const { entries } = await ctx.session.journal();
      assert.deepEqual(
        entries.map((e) => [e.status, e.stream]),
        [[ctx.driver.invalidRequestStatus ?? 400, true]],
      );
    },
  },
  {
    name: 'scripted call of another tool than the request names',
    modes: BOTH,
    async run(ctx) {
      ctx.session.scenario('other').callsTool(CALL.name, CALL.arguments, CALL.id);
      const error = await rejection(ctx, { prompt: PROMPT, tools: [WEATHER, TIME], toolChoice: { name: TIME.name } });
      assert.deepEqual([error.api, error.status, error.type], [true, 409, ctx.driver.errorTypes.conflict], error.message);
      assert.match(error.message, /get_time/);
      const { entries } = await journalled(ctx);
      assert.deepEqual([entries[0].status, entries[0].error?.code], [409, 'fixture_mismatch']);
    },
  },
  {
    name: 'no script matches',
    modes: BOTH,
    async run(ctx) {
      ctx.session.scenario('tokyo').whenLatestUser({ contains: 'Tokyo' }).replies(TEXT);
      const error = await rejection(ctx, { prompt: PROMPT });
      assert.deepEqual([error.api, error.status, error.type], [true, 409, ctx.driver.errorTypes.conflict], error.message);
      assert.match(error.message, /tokyo/, 'the nearest script is named');
      const { entries, counters } = await journalled(ctx);
      assert.deepEqual([entries[0].status, entries[0].error?.code, counters.unmatched], [409, 'no_match', 1]);
      assert.deepEqual(
        entries[0].nearMisses?.map((m) => m.scenario),
        ['tokyo'],
      );
    },
  },
  {
    name: 'scripted reply that breaks the contract',
    modes: BOTH,
    async run(ctx) {
      // `unit` is required by the declared schema.
      ctx.session.scenario('careless').callsTool(CALL.name, { city: 'Paris' }, CALL.id);
      const error = await rejection(ctx, { prompt: PROMPT, tools: [WEATHER] });
      assert.deepEqual([error.api, error.status, error.type], [true, 409, ctx.driver.errorTypes.conflict], error.message);
      assert.match(error.message, /get_weather/);
      const { entries, counters } = await journalled(ctx);
      assert.deepEqual([entries[0].status, entries[0].error?.code, counters.mismatched], [409, 'fixture_mismatch', 1]);
      const report = await ctx.session.check();
      assert.equal(report.ok, false, 'the refused step is still unused');
    },
  },
  {
    name: 'zero-config text',
    modes: BOTH,
    zeroConfig: true,
    async run(ctx) {
      const answer = await ctx.client.ask({ prompt: PROMPT }, ctx.mode);
      assert.equal(answer.text, ZERO_CONFIG_TEXT);
      assert.deepEqual(answer.toolCalls, []);
      const [entry] = (await journalled(ctx)).entries;
      assert.deepEqual([entry.status, entry.source], [200, 'zero_config']);
      assert.equal(entry.reply?.content, ZERO_CONFIG_TEXT);
    },
  },
  {
    name: 'zero-config tool call',
    modes: BOTH,
    zeroConfig: true,
    async run(ctx) {
      const answer = await ctx.client.ask({ prompt: PROMPT, tools: [WEATHER] }, ctx.mode);
      assert.equal(answer.toolCalls.length, 1, JSON.stringify(answer));
      assert.equal(answer.toolCalls[0].name, WEATHER.name);
      assertValid(WEATHER.parameters, answer.toolCalls[0].arguments, 'the zero-config arguments');
      const [entry] = (await journalled(ctx)).entries;
      assert.deepEqual([entry.status, entry.source], [200, 'zero_config']);
      assert.deepEqual(
        entry.reply?.toolCalls.map((c) => c.name),
        [WEATHER.name],
      );
    },
  },
  {
    // The loop-ending rule, keyed on the latest turn: a tool result after the latest user message
    // ends the round with the sentence, as a real model's agent loop ends.
    name: 'zero-config loop: the sentence once the tool result is back',
    modes: BOTH,
    zeroConfig: true,
    async run(ctx) {
      const answer = await ctx.client.ask({ prompt: PROMPT, tools: [WEATHER], toolResult: { ...CALL, result: 'sunny, 21 C' } }, ctx.mode);
      assert.equal(answer.text, ZERO_CONFIG_TEXT);
      assert.deepEqual(answer.toolCalls, []);
      const [entry] = (await journalled(ctx)).entries;
      assert.deepEqual([entry.status, entry.source, entry.reply?.toolCalls.length], [200, 'zero_config', 0]);
    },
  },
  {
    name: 'zero-config call of the tool the request names',
    modes: BOTH,
    zeroConfig: true,
    async run(ctx) {
      const answer = await ctx.client.ask({ prompt: PROMPT, tools: [WEATHER, TIME], toolChoice: { name: TIME.name } }, ctx.mode);
      assert.deepEqual(
        answer.toolCalls.map((c) => c.name),
        [TIME.name],
      );
      assertValid(TIME.parameters, answer.toolCalls[0].arguments, 'the zero-config arguments');
      const [entry] = (await journalled(ctx)).entries;
      assert.deepEqual([entry.status, entry.source], [200, 'zero_config']);
      assert.deepEqual(entry.request?.toolChoice, { type: 'named', name: TIME.name });
    },
  },
  {
    name: 'zero-config structured output',
    modes: BOTH,
    zeroConfig: true,
    async run(ctx) {
      const answer = await ctx.client.ask({ prompt: 'Facts about Paris', schema: CITY }, ctx.mode);
      assertValid(CITY.schema, JSON.parse(answer.text), 'the zero-config answer');
      const [entry] = (await journalled(ctx)).entries;
      assert.deepEqual([entry.status, entry.source], [200, 'zero_config']);
      assert.equal(entry.reply?.content, answer.text);
    },
  },
  ...(['close', 'reset'] as const).map((kind): ConformanceCase => ({
    name: `fault: connection ${kind === 'close' ? 'closed' : 'reset'} part-way`,
    modes: BOTH,
    async run(ctx) {
      ctx.session
        .scenario('cut')
        .replies(TEXT)
        .inChunks(CHUNKS)
        .withFault(ctx.mode === 'stream' ? { kind, afterChunks: 2 } : { kind, afterBytes: 20 });
      if (kind === 'close' && ctx.mode === 'stream' && ctx.driver.streamCutEndsQuietly) {
        const cut = await ctx.client.ask({ prompt: PROMPT }, ctx.mode);
        assert.ok(
          cut.text.length < TEXT.length && TEXT.startsWith(cut.text),
          // Empty is a cut answer too: Claude's first two events on InvokeModel carry no text.
          `a cut answer (a prefix of the text, short of it) expected, got ${JSON.stringify(cut.text)}`,
        );
      } else {
        const error = await rejection(ctx, { prompt: PROMPT });
        assert.equal(error.api, false, `a connection failure, not an API error: ${error.message}`);
      }
      const [entry] = (await journalled(ctx)).entries;
      assert.deepEqual([entry.script, entry.step], ['cut', 'step-1']);
    },
  })),
  {
    name: 'fault: malformed event part-way',
    modes: STREAM,
    async run(ctx) {
      ctx.session.scenario('broken').replies(TEXT).inChunks(CHUNKS).withFault({ kind: 'malformed', afterChunks: 2 });
      const error = await rejection(ctx, { prompt: PROMPT });
      assert.equal(error.api, false, `a broken stream, not an API error: ${error.message}`);
      const [entry] = (await journalled(ctx)).entries;
      assert.deepEqual([entry.script, entry.step], ['broken', 'step-1']);
    },
  },
  {
    name: 'fault: error event part-way',
    modes: STREAM,
    async run(ctx) {
      ctx.session
        .scenario('event')
        .replies(TEXT)
        .inChunks(CHUNKS)
        .withFault({ kind: 'error', afterChunks: 2, error: { status: 503, message: 'Overloaded mid-answer.' } });
      await expectStreamError(ctx, /Overloaded mid-answer\./);
      const [entry] = (await journalled(ctx)).entries;
      assert.deepEqual([entry.script, entry.step], ['event', 'step-1']);
    },
  },
  {
    name: 'fault: truncated stream',
    modes: STREAM,
    async run(ctx) {
      ctx.session.scenario('short').replies(TEXT).inChunks(CHUNKS).withFault({ kind: 'truncate', afterChunks: 2 });
      let outcome: Answer | ErrorSeen;
      try {
        outcome = await ctx.client.ask({ prompt: PROMPT }, ctx.mode);
      } catch (thrown) {
        outcome = ctx.driver.errorOf(thrown);
      }
      // Either the SDK throws, or what it returns says the answer never finished.
      if ('text' in outcome) {
        assert.equal(outcome.finish, undefined, `a truncated stream read as finished: ${JSON.stringify(outcome)}`);
        assert.ok(TEXT.startsWith(outcome.text) && outcome.text.length < TEXT.length, `text ${JSON.stringify(outcome.text)}`);
      }
      const [entry] = (await journalled(ctx)).entries;
      assert.deepEqual([entry.script, entry.step], ['short', 'step-1']);
    },
  },
];

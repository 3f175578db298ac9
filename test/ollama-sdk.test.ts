// The Ollama dialect judged by the real `ollama` client (ollama-js): /api/chat and /api/generate,
// JSON (`stream: false`) and NDJSON streams, a tool round with object arguments, `format` as "json"
// and as a schema, thinking, scripted errors and faults, the server's refusals; raw HTTP where the
// client cannot show a wire detail (a body without `stream`, a body that is not JSON). Every test
// asserts what the client returned and what Understudy recorded.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { Ollama, type ChatRequest, type ChatResponse, type Message, type Tool } from 'ollama';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const MODEL = 'llama3.2';
const ZERO_CONFIG_TEXT = 'This is a scripted answer from Understudy.';
const TIMEOUT_MS = 10_000;

/** ollama-js has no timeout of its own (nor retries): every request gets one here. */
const timedFetch: typeof fetch = (input, init) => {
  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  return fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout });
};

function ollamaFor(session: UnderstudySession, host = mock.url('ollama')): Ollama {
  return new Ollama({ host, headers: { Authorization: `Bearer ${session.apiKey}` }, fetch: timedFetch });
}

async function open(name: string, options?: Parameters<Understudy['session']>[1]) {
  const session = await mock.session(name, options);
  return { session, ollama: ollamaFor(session) };
}

const WEATHER: Tool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer' } },
      required: ['city', 'days'],
    },
  },
};
const CITY_SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string' }, population: { type: 'integer' } },
  required: ['city', 'population'],
  additionalProperties: false,
};

/** The evidence tags of the rows whose tests run in both modes, written out as test/capabilities.test.ts reads them. */
const TAGS: Record<string, readonly string[]> = {
  tools: ['[ollama-chat.tools.json +]', '[ollama-chat.tools.json -]', '[ollama-chat.tools.stream +]', '[ollama-chat.tools.stream -]'],
  structured: [
    '[ollama-chat.structured.json +]',
    '[ollama-chat.structured.json -]',
    '[ollama-chat.structured.stream +]',
    '[ollama-chat.structured.stream -]',
  ],
  thinking: ['', '[ollama-chat.thinking.json -]', '', '[ollama-chat.thinking.stream -]'],
  validation: [
    '[ollama-chat.validation.json +]',
    '[ollama-chat.validation.json -]',
    '[ollama-chat.validation.stream +]',
    '[ollama-chat.validation.stream -]',
  ],
  'zero-config': [
    '[ollama-chat.zero-config.json +]',
    '[ollama-chat.zero-config.json -]',
    '[ollama-chat.zero-config.stream +]',
    '[ollama-chat.zero-config.stream -]',
  ],
};

function tag(feature: string, stream: boolean, sign: '+' | '-'): string {
  return TAGS[feature][(stream ? 2 : 0) + (sign === '+' ? 0 : 1)];
}

/** The ResponseError a call must fail with: its status and its `error` string. */
async function responseError(call: PromiseLike<unknown>): Promise<{ status: number; error: string }> {
  let caught: unknown;
  try {
    await call;
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof Error, `expected a ResponseError, but the call gave ${String(caught)}`);
  assert.equal(caught.name, 'ResponseError', caught.message);
  const { status_code: status, error } = caught as Error & { status_code: number; error: string };
  return { status, error };
}

async function collect(stream: AsyncIterable<ChatResponse>): Promise<ChatResponse[]> {
  const parts: ChatResponse[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

async function journal(session: UnderstudySession) {
  return (await session.journal()).entries;
}

/** The statistics of a last object: counts as journalled, durations from the counts. */
function assertStatistics(last: ChatResponse | { prompt_eval_count: number; eval_count: number }, usage: unknown) {
  const counted = usage as { inputTokens: number; outputTokens: number; reasoningTokens: number };
  const stats = last as ChatResponse;
  assert.equal(stats.prompt_eval_count, counted.inputTokens);
  assert.equal(stats.eval_count, counted.outputTokens + counted.reasoningTokens);
  assert.equal(stats.load_duration, 1_000_000);
  assert.equal(stats.prompt_eval_duration, stats.prompt_eval_count * 200_000);
  assert.equal(stats.eval_duration, stats.eval_count * 20_000_000);
  assert.equal(stats.total_duration, stats.load_duration + stats.prompt_eval_duration + stats.eval_duration);
}

describe('chat: text', () => {
  test('a JSON answer: message, done_reason, statistics, created_at from the session clock; options and keep_alive accepted [ollama-chat.text.json +]', async () => {
    const { session, ollama } = await open('chat-text-json');
    session.scenario('hello').whenLatestUser({ contains: 'Hi' }).replies('Hello from Understudy.');
    const answer = await ollama.chat({
      model: MODEL,
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'Hi' },
      ],
      options: { temperature: 0, seed: 42, num_predict: 50, stop: ['\n\n'], use_mmap: true, numa: false },
      keep_alive: '5m',
      stream: false,
    });
    assert.deepEqual(answer.message, { role: 'assistant', content: 'Hello from Understudy.' });
    assert.deepEqual([answer.model, answer.done, answer.done_reason], [MODEL, true, 'stop']);
    assert.match(String(answer.created_at), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const [entry] = await journal(session);
    assert.deepEqual(
      [entry.operation, entry.route, entry.status, entry.stream, entry.script],
      ['ollama.chat', 'POST /api/chat', 200, false, 'hello'],
    );
    assert.deepEqual(
      entry.request?.messages.map((m) => m.role),
      ['system', 'user'],
    );
    assert.equal(entry.request?.maxOutputTokens, 50);
    assertStatistics(answer, entry.usage);
    await session.verify();
  });

  test('the session by path prefix and the /ollama prefix both reach the session [ollama-chat.text.json +]', async () => {
    const session = await mock.session('chat-text-prefixes');
    session.scenario('twice').replies('Reached.').onExhausted('repeat_last');
    const byPath = new Ollama({ host: `${mock.baseUrl}/s/${session.id}`, fetch: timedFetch });
    const prefixed = ollamaFor(session, mock.url('ollama-prefixed'));
    for (const client of [byPath, prefixed]) {
      const answer = await client.chat({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], stream: false });
      assert.equal(answer.message.content, 'Reached.');
    }
    assert.deepEqual(
      (await journal(session)).map((e) => e.route),
      [`POST /s/${session.id}/api/chat`, 'POST /ollama/api/chat'],
    );
  });

  test('a stream: one done:false line per piece, then done:true with the statistics [ollama-chat.text.stream +]', async () => {
    const { session, ollama } = await open('chat-text-stream');
    session.scenario('pieces').replies('Hello from Understudy.').inChunks(['Hello ', 'from ', 'Understudy.']);
    const parts = await collect(await ollama.chat({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], stream: true }));
    assert.deepEqual(
      parts.map((p) => [p.message.content, p.done]),
      [
        ['Hello ', false],
        ['from ', false],
        ['Understudy.', false],
        ['', true],
      ],
    );
    const last = parts.at(-1) as ChatResponse;
    assert.equal(last.done_reason, 'stop');
    const [entry] = await journal(session);
    assert.deepEqual([entry.status, entry.stream], [200, true]);
    assertStatistics(last, entry.usage);
  });

  test('a paced stream reports its pacing: time to first token as prompt_eval_duration, the line gaps as eval_duration [ollama-chat.text.stream +]', async () => {
    const { session, ollama } = await open('chat-paced');
    session.scenario('paced').replies('one two three').inChunks(['one ', 'two ', 'three']).paced({ ttftMs: 30, chunksPerSecond: 100 });
    const parts = await collect(await ollama.chat({ model: MODEL, messages: [{ role: 'user', content: 'Count' }], stream: true }));
    assert.equal(parts.map((p) => p.message.content).join(''), 'one two three');
    const last = parts.at(-1) as ChatResponse;
    // Four lines: three pieces and the last; three gaps of 10 ms.
    assert.deepEqual([last.prompt_eval_duration, last.eval_duration], [30_000_000, 30_000_000]);
    assert.equal(last.total_duration, last.load_duration + 60_000_000);
    const [entry] = await journal(session);
    assert.equal(last.eval_count, entry.usage?.outputTokens);
  });

  test('a body without "stream" is answered as an NDJSON stream, as the server does [ollama-chat.text.stream +]', async () => {
    const session = await mock.session('chat-default-stream');
    session.scenario('default').replies('Streamed by default.').inChunks(['Streamed ', 'by default.']);
    const response = await fetch(`${mock.url('ollama')}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.apiKey}` },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    assert.equal(response.headers.get('content-type'), 'application/x-ndjson');
    const text = await response.text();
    assert.ok(text.endsWith('\n'), 'every line ends with a newline');
    const lines = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as ChatResponse);
    assert.deepEqual(
      lines.map((l) => [l.message.content, l.done]),
      [
        ['Streamed ', false],
        ['by default.', false],
        ['', true],
      ],
    );
    const [entry] = await journal(session);
    assert.equal(entry.stream, true);
  });

  test('no script matches: a 409 ResponseError naming the nearest script, nothing consumed [ollama-chat.text.json -]', async () => {
    const { session, ollama } = await open('chat-no-match');
    session.scenario('tokyo').whenLatestUser({ contains: 'Tokyo' }).replies('Tokyo.');
    const { status, error } = await responseError(
      ollama.chat({ model: MODEL, messages: [{ role: 'user', content: 'Paris?' }], stream: false }),
    );
    assert.equal(status, 409);
    assert.match(error, /tokyo/);
    const [entry] = await journal(session);
    assert.deepEqual([entry.status, entry.error?.code], [409, 'no_match']);
    assert.equal((await session.check()).ok, false, 'the step is still unused');
  });

  test('no script matches a stream: the 409 comes before any line [ollama-chat.text.stream -]', async () => {
    const { session, ollama } = await open('chat-no-match-stream');
    session.scenario('tokyo').whenLatestUser({ contains: 'Tokyo' }).replies('Tokyo.');
    const { status } = await responseError(ollama.chat({ model: MODEL, messages: [{ role: 'user', content: 'Paris?' }], stream: true }));
    assert.equal(status, 409);
    const [entry] = await journal(session);
    assert.deepEqual([entry.status, entry.stream, entry.error?.code], [409, true, 'no_match']);
  });
});

describe('chat: a tool round', () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'stream' : 'json';
    test(`a call with object arguments, then the tool's result by tool_name, then the answer ${tag('tools', stream, '+')}`, async () => {
      const { session, ollama } = await open(`chat-tools-${mode}`);
      session
        .scenario('weather')
        .whenLatestUser({ contains: 'Paris' })
        .callsTool('get_weather', { city: 'Paris', days: 3 }, 'call_paris')
        .thenWhenToolResult('get_weather', 'call_paris')
        .replies('Sunny in Paris.');
      const ask = async (messages: Message[]): Promise<Message> => {
        if (!stream) return (await ollama.chat({ model: MODEL, messages, tools: [WEATHER], stream: false })).message;
        const parts = await collect(await ollama.chat({ model: MODEL, messages, tools: [WEATHER], stream: true }));
        assert.equal(parts.at(-1)?.done, true);
        return {
          role: 'assistant',
          content: parts.map((p) => p.message.content).join(''),
          tool_calls: parts.flatMap((p) => p.message.tool_calls ?? []),
        };
      };
      const history: Message[] = [{ role: 'user', content: 'Weather in Paris?' }];
      const first = await ask(history);
      assert.equal(first.content, '');
      assert.equal(first.tool_calls?.length, 1);
      const [call] = first.tool_calls ?? [];
      assert.deepEqual(call.function, { index: 0, name: 'get_weather', arguments: { city: 'Paris', days: 3 } } as never);
      assert.equal((call as { id?: string }).id, 'call_paris');
      history.push(first, { role: 'tool', content: '{"sky":"clear"}', tool_name: 'get_weather' });
      const second = await ask(history);
      assert.equal(second.content, 'Sunny in Paris.');
      const entries = await journal(session);
      assert.deepEqual(
        entries.map((e) => [e.status, e.step, e.stream]),
        [
          [200, 'step-1', stream],
          [200, 'step-2', stream],
        ],
      );
      const result = entries[1].request?.messages.at(-1)?.parts[0];
      // Found by its tool_name (no tool_call_id was sent), which the decoder says.
      assert.deepEqual(result, {
        type: 'tool_result',
        callId: 'call_paris',
        name: 'get_weather',
        content: '{"sky":"clear"}',
        isError: false,
        callIdMade: true,
      });
      assert.deepEqual(entries[0].request?.tools[0].parameters, WEATHER.function.parameters);
      await session.verify();
    });

    test(`scripted arguments that fail the tool's schema: 409 fixture_mismatch, not consumed ${tag('tools', stream, '-')}`, async () => {
      const { session, ollama } = await open(`chat-tools-mismatch-${mode}`);
      session.scenario('careless').callsTool('get_weather', { city: 'Paris' }, 'call_paris');
      const messages = [{ role: 'user', content: 'Weather in Paris?' }];
      const { status, error } = await responseError(
        stream
          ? ollama.chat({ model: MODEL, messages, tools: [WEATHER], stream: true })
          : ollama.chat({ model: MODEL, messages, tools: [WEATHER], stream: false }),
      );
      assert.equal(status, 409);
      assert.match(error, /get_weather/);
      const [entry] = await journal(session);
      assert.deepEqual([entry.status, entry.error?.code, entry.stream], [409, 'fixture_mismatch', stream]);
      assert.equal((await session.check()).ok, false, 'the refused step is still unused');
    });
  }
});

describe('chat: format', () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'stream' : 'json';
    const text = async (ollama: Ollama, format: string | object) => {
      const messages = [{ role: 'user', content: 'Facts about Paris' }];
      if (!stream) return (await ollama.chat({ model: MODEL, messages, format, stream: false })).message.content;
      return (await collect(await ollama.chat({ model: MODEL, messages, format, stream: true }))).map((p) => p.message.content).join('');
    };

    test(`format "json" and a JSON Schema: the scripted JSON arrives as the content ${tag('structured', stream, '+')}`, async () => {
      const { session, ollama } = await open(`chat-format-${mode}`);
      session.scenario('facts').repliesJson({ city: 'Paris', population: 2102650 }).onExhausted('repeat_last');
      assert.deepEqual(JSON.parse(await text(ollama, 'json')), { city: 'Paris', population: 2102650 });
      assert.deepEqual(JSON.parse(await text(ollama, CITY_SCHEMA)), { city: 'Paris', population: 2102650 });
      const entries = await journal(session);
      assert.deepEqual(
        entries.map((e) => e.request?.output),
        [{ type: 'json_object' }, { type: 'json_schema', schema: CITY_SCHEMA }],
      );
    });

    test(`a reply that fails the schema, or text for "json": 409, not consumed ${tag('structured', stream, '-')}`, async () => {
      const { session, ollama } = await open(`chat-format-mismatch-${mode}`);
      session.scenario('wrong').repliesJson({ city: 'Paris' });
      const missing = await responseError(text(ollama, CITY_SCHEMA));
      assert.equal(missing.status, 409);
      assert.match(missing.error, /population/);
      const prose = await open(`chat-format-prose-${mode}`);
      prose.session.scenario('prose').replies('Paris is large.');
      assert.equal((await responseError(text(prose.ollama, 'json'))).status, 409);
      for (const refused of [session, prose.session]) {
        assert.deepEqual(
          (await journal(refused)).map((e) => [e.status, e.error?.code]),
          [[409, 'fixture_mismatch']],
        );
        assert.equal((await refused.check()).ok, false, 'the refused step is still unused');
      }
    });
  }
});

describe('chat: thinking', () => {
  test('a scripted reasoning is the message thinking; "think": false leaves it out [ollama-chat.thinking.json +]', async () => {
    const { session, ollama } = await open('chat-think-json');
    session.scenario('think').reply({ text: '42.', reasoning: 'Six times seven.', reasoningTokens: 12 }).onExhausted('repeat_last');
    const on = await ollama.chat({ model: MODEL, messages: [{ role: 'user', content: 'Answer?' }], think: true, stream: false });
    assert.deepEqual(on.message, { role: 'assistant', content: '42.', thinking: 'Six times seven.' });
    const [entry] = await journal(session);
    assert.equal(entry.usage?.reasoningTokens, 12);
    // eval_count counts every generated token, the thinking's too.
    assert.equal(on.eval_count, (entry.usage?.outputTokens ?? 0) + 12);
    assertStatistics(on, entry.usage);
    const off = await ollama.chat({ model: MODEL, messages: [{ role: 'user', content: 'Answer?' }], think: false, stream: false });
    assert.deepEqual(off.message, { role: 'assistant', content: '42.' });
  });

  test('streamed, the thinking comes first on a line of its own [ollama-chat.thinking.stream +]', async () => {
    const { session, ollama } = await open('chat-think-stream');
    session.scenario('think').reply({ text: '42.', reasoning: 'Six times seven.' });
    const parts = await collect(
      await ollama.chat({ model: MODEL, messages: [{ role: 'user', content: 'Answer?' }], think: 'high', stream: true }),
    );
    assert.deepEqual(
      parts.map((p) => [p.message.thinking, p.message.content, p.done]),
      [
        ['Six times seven.', '', false],
        [undefined, '42.', false],
        [undefined, '', true],
      ],
    );
  });

  for (const stream of [false, true]) {
    test(`"think" of another value is refused in the server's words ${tag('thinking', stream, '-')}`, async () => {
      const { session, ollama } = await open(`chat-think-refused-${stream}`);
      session.scenario('think').reply({ text: '42.', reasoning: 'Six times seven.' });
      const request = { model: MODEL, messages: [{ role: 'user', content: 'Answer?' }], think: 'extreme' as never };
      const { status, error } = await responseError(
        stream ? ollama.chat({ ...request, stream: true }) : ollama.chat({ ...request, stream: false }),
      );
      assert.equal(status, 400);
      assert.equal(error, 'invalid think value: "extreme" (must be "high", "medium", "low", "max", true, or false)');
      assert.equal((await session.check()).ok, false, 'nothing consumed');
    });
  }
});

describe('chat: scripted errors and faults', () => {
  test("a scripted 429 with retry-after, and the server's model-not-found 404, then the next step [ollama-chat.errors.json +]", async () => {
    const { session, ollama } = await open('chat-errors');
    session
      .scenario('limits')
      .fails(429, 'too many requests', { headers: { 'retry-after': '2' } })
      .then()
      .fails(404, 'model "llama9" not found, try pulling it first')
      .then()
      .replies('Finally.');
    const request = { model: MODEL, messages: [{ role: 'user', content: 'Hi' }], stream: false as const };
    assert.deepEqual(await responseError(ollama.chat(request)), { status: 429, error: 'too many requests' });
    assert.deepEqual(await responseError(ollama.chat(request)), { status: 404, error: 'model "llama9" not found, try pulling it first' });
    assert.equal((await ollama.chat(request)).message.content, 'Finally.');
    const response = await fetch(`${mock.url('ollama')}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.apiKey}` },
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    assert.equal(response.status, 409, 'the scenario is exhausted');
    assert.deepEqual(Object.keys((await response.json()) as object), ['error'], "Ollama's body is the error string alone");
    const entries = await journal(session);
    assert.deepEqual(
      entries.map((e) => e.status),
      [429, 404, 200, 409],
    );
  });

  test('a scripted 500 is not retried by ollama-js and keeps its message [ollama-chat.errors.json -]', async () => {
    const { session, ollama } = await open('chat-errors-500');
    session.scenario('broken').fails(500, 'llama runner process has terminated');
    const { status, error } = await responseError(
      ollama.chat({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], stream: false }),
    );
    assert.deepEqual([status, error], [500, 'llama runner process has terminated']);
    assert.equal((await journal(session)).length, 1, 'one attempt');
  });

  test('a stream: an error before the stream is a ResponseError, one inside it an {"error"} line the client throws [ollama-chat.errors.stream +]', async () => {
    const { session, ollama } = await open('chat-errors-stream');
    session
      .scenario('errors')
      .fails(503, 'server busy, please try again')
      .then()
      .reply({ error: { status: 500, message: 'an error was encountered while running the model', inStream: true } });
    const request = { model: MODEL, messages: [{ role: 'user', content: 'Hi' }], stream: true as const };
    assert.deepEqual(await responseError(ollama.chat(request)), { status: 503, error: 'server busy, please try again' });
    const stream = await ollama.chat(request);
    await assert.rejects(
      collect(stream),
      (error: Error) => error.constructor === Error && error.message === 'an error was encountered while running the model',
    );
    const entries = await journal(session);
    assert.deepEqual(
      entries.map((e) => [e.status, e.stream]),
      [
        [503, true],
        [200, true],
      ],
    );
  });

  test('a fault part-way: the error line after two lines; a truncated stream fails as unfinished [ollama-chat.errors.stream -]', async () => {
    const { session, ollama } = await open('chat-faults');
    session
      .scenario('faults')
      .replies('one two three')
      .inChunks(['one ', 'two ', 'three'])
      .withFault({ kind: 'error', afterChunks: 2, error: { message: 'model runner crashed' } })
      .then()
      .replies('one two three')
      .inChunks(['one ', 'two ', 'three'])
      .withFault({ kind: 'truncate', afterChunks: 2 });
    const request = { model: MODEL, messages: [{ role: 'user', content: 'Count' }], stream: true as const };
    const seen: string[] = [];
    const read = async () => {
      for await (const part of await ollama.chat(request)) seen.push(part.message.content);
    };
    await assert.rejects(read(), /model runner crashed/);
    assert.deepEqual(seen, ['one ', 'two ']);
    seen.length = 0;
    await assert.rejects(read(), /Did not receive done or success response in stream/);
    assert.deepEqual(seen, ['one ', 'two ']);
    assert.deepEqual(
      (await journal(session)).map((e) => e.step),
      ['step-1', 'step-2'],
    );
  });
});

describe('chat: what the server refuses', () => {
  const refusals: { name: string; body: Record<string, unknown>; error: string }[] = [
    {
      name: 'content of the wrong type',
      body: { messages: [{ role: 'user', content: 5 }] },
      error: 'json: cannot unmarshal number into Go struct field Message.messages.content of type string',
    },
    {
      name: 'stream of the wrong type',
      body: { stream: 'yes' },
      error: 'json: cannot unmarshal string into Go struct field ChatRequest.stream of type bool',
    },
    {
      name: 'an option of the wrong type',
      body: { options: { temperature: 'hot' } },
      error: 'option "temperature" must be of type float32',
    },
    {
      name: 'an integer option of the wrong type',
      body: { options: { num_ctx: '4096' } },
      error: 'option "num_ctx" must be of type integer',
    },
    { name: 'stop not a list of strings', body: { options: { stop: ['a', 1] } }, error: 'option "stop" must be of an array of strings' },
    { name: 'a keep_alive that is no duration', body: { keep_alive: 'soon' }, error: 'time: invalid duration "soon"' },
    { name: 'a keep_alive without its unit', body: { keep_alive: '5' }, error: 'time: missing unit in duration "5"' },
    { name: 'a keep_alive of the wrong type', body: { keep_alive: true }, error: "Unsupported type: 'bool'" },
    {
      name: 'a format that is neither "json" nor a schema',
      body: { format: 'yaml' },
      error: 'invalid format: "\\"yaml\\""; expected "json" or a valid JSON Schema object',
    },
    { name: 'top_logprobs out of range', body: { top_logprobs: 21 }, error: 'top_logprobs must be between 0 and 20' },
    {
      name: 'tool arguments that are a string',
      body: { messages: [{ role: 'assistant', content: '', tool_calls: [{ function: { name: 'f', arguments: '{}' } }] }] },
      error:
        'json: cannot unmarshal string into Go struct field ToolCallFunction.messages.tool_calls.function.arguments of type map[string]interface {}',
    },
    {
      name: 'an image that is not base64',
      body: { messages: [{ role: 'user', content: 'look', images: ['not base64!'] }] },
      error: 'illegal base64 data at input byte 3',
    },
    { name: 'no model', body: { model: '' }, error: 'model is required' },
  ];

  for (const stream of [false, true]) {
    const mode = stream ? 'stream' : 'json';
    test(`each refusal is a 400 in the server's words, before any script is consulted ${tag('validation', stream, '-')}`, async () => {
      const { session, ollama } = await open(`chat-refusals-${mode}`);
      session.scenario('kept').replies('Kept.');
      for (const { name, body, error } of refusals) {
        const request = { model: MODEL, messages: [{ role: 'user', content: 'Hi' }], stream, ...body } as never;
        assert.deepEqual(await responseError(ollama.chat(request)), { status: 400, error }, name);
      }
      const entries = await journal(session);
      assert.ok(entries.every((e) => e.status === 400 && e.step === undefined));
      assert.equal(
        (await ollama.chat({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], stream: false })).message.content,
        'Kept.',
        'nothing was consumed',
      );
    });

    test(`what the server takes: images, every kind of option, keep_alive forms, think levels, tool_call_id, unknown members ${tag('validation', stream, '+')}`, async () => {
      const { session, ollama } = await open(`chat-accepted-${mode}`);
      session.scenario('any').replies('Taken.').onExhausted('repeat_last');
      const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
      const bodies: Record<string, unknown>[] = [
        { messages: [{ role: 'user', content: 'look', images: [png] }] },
        {
          options: {
            num_ctx: 4096,
            top_k: 40,
            top_p: 0.9,
            min_p: 0.05,
            repeat_penalty: 1.1,
            main_gpu: 0,
            use_mmap: false,
            mirostat: 'ignored',
          },
        },
        { keep_alive: 300 },
        { keep_alive: '1h30m' },
        { keep_alive: -1 },
        { keep_alive: '-1m' },
        { keep_alive: 0 },
        { think: 'low' },
        { format: '' },
        { top_logprobs: 20, logprobs: true, truncate: false, shift: true },
        { a_member_the_server_ignores: { anything: 1 } },
        {
          messages: [
            { role: 'user', content: 'Weather?' },
            {
              role: 'assistant',
              content: '',
              tool_calls: [{ id: 'call_x', function: { index: 0, name: 'get_weather', arguments: { city: 'Oslo' } } }],
            },
            { role: 'tool', content: 'cold', tool_name: 'get_weather', tool_call_id: 'call_x' },
          ],
        },
      ];
      for (const body of bodies) {
        const request = { model: MODEL, messages: [{ role: 'user', content: 'Hi' }], ...body } as unknown as ChatRequest;
        const content = stream
          ? (await collect(await ollama.chat({ ...request, stream: true }))).map((p) => p.message.content).join('')
          : (await ollama.chat({ ...request, stream: false })).message.content;
        assert.equal(content, 'Taken.', JSON.stringify(body));
      }
      const entries = await journal(session);
      assert.equal(entries.length, bodies.length);
      assert.ok(entries.every((e) => e.status === 200));
      assert.deepEqual(entries[0].request?.messages[0].parts[1], {
        type: 'image',
        url: `data:image/png;base64,${png}`,
        mediaType: 'image/png',
      });
      assert.deepEqual(entries.at(-1)?.request?.messages.at(-1)?.parts[0], {
        type: 'tool_result',
        callId: 'call_x',
        name: 'get_weather',
        content: 'cold',
        isError: false,
      });
    });
  }

  test("a body that is not JSON, or not an object, is a 400 in Ollama's shape [ollama-chat.validation.json -]", async () => {
    const session = await mock.session('chat-not-json');
    for (const [body, pattern] of [
      ['{"model":', /./],
      ['[1,2]', /^json: cannot unmarshal array into Go value of type api\.ChatRequest$/],
    ] as const) {
      const response = await fetch(`${mock.url('ollama')}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${session.apiKey}` },
        body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      assert.equal(response.status, 400);
      const error = (await response.json()) as Record<string, unknown>;
      assert.deepEqual(Object.keys(error), ['error']);
      assert.match(String(error.error), pattern);
    }
  });
});

describe('chat: zero-config', () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'stream' : 'json';
    test(`a declared tool is called with arguments its schema accepts, then a sentence once its result is back ${tag('zero-config', stream, '+')}`, async () => {
      const { session, ollama } = await open(`chat-zero-${mode}`, { fallback: 'auto' });
      const ask = async (messages: Message[], format?: object): Promise<Message> => {
        const request = { model: MODEL, messages, tools: format ? undefined : [WEATHER], format };
        if (!stream) return (await ollama.chat({ ...request, stream: false })).message;
        const parts = await collect(await ollama.chat({ ...request, stream: true }));
        return {
          role: 'assistant',
          content: parts.map((p) => p.message.content).join(''),
          tool_calls: parts.flatMap((p) => p.message.tool_calls ?? []),
        };
      };
      const history: Message[] = [{ role: 'user', content: 'Weather?' }];
      const first = await ask(history);
      const [call] = first.tool_calls ?? [];
      assert.equal(call?.function.name, 'get_weather');
      assert.equal(typeof call.function.arguments.city, 'string');
      assert.ok(Number.isInteger(call.function.arguments.days));
      history.push(first, { role: 'tool', content: 'sunny', tool_name: 'get_weather' });
      assert.equal((await ask(history)).content, ZERO_CONFIG_TEXT);
      const facts = JSON.parse((await ask([{ role: 'user', content: 'Facts' }], CITY_SCHEMA)).content) as Record<string, unknown>;
      assert.deepEqual(Object.keys(facts).sort(), ['city', 'population']);
      assert.deepEqual(
        (await journal(session)).map((e) => e.source),
        ['zero_config', 'zero_config', 'zero_config'],
      );
    });

    test(`zero-config is opt-in: a strict session answers 409 no_match ${tag('zero-config', stream, '-')}`, async () => {
      const { session, ollama } = await open(`chat-strict-${mode}`);
      const request = { model: MODEL, messages: [{ role: 'user', content: 'Weather?' }], tools: [WEATHER] };
      const { status } = await responseError(
        stream ? ollama.chat({ ...request, stream: true }) : ollama.chat({ ...request, stream: false }),
      );
      assert.equal(status, 409);
      assert.equal((await journal(session))[0].error?.code, 'no_match');
    });
  }
});

describe('the model catalogue: list, ps, show, version', () => {
  test('a model answered for is listed by /api/tags and /api/ps and described by /api/show; the version is fixed [ollama-models.catalogue.json +]', async () => {
    const { session, ollama } = await open('catalogue');
    session.scenario('hello').replies('Hello.').onExhausted('repeat_last');
    assert.deepEqual((await ollama.list()).models, [], 'nothing answered yet');
    await ollama.chat({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], stream: false });
    await ollama.generate({ model: 'qwen3:8b', prompt: 'Hi', stream: false });
    await ollama.chat({ model: `${MODEL}:latest`, messages: [{ role: 'user', content: 'Hi' }], stream: false });
    const { models } = await ollama.list();
    assert.deepEqual(
      models.map((m) => [m.name, m.model, m.size, String(m.modified_at)]),
      [
        ['llama3.2:latest', 'llama3.2:latest', 0, '2026-01-01T00:00:00Z'],
        ['qwen3:8b', 'qwen3:8b', 0, '2026-01-01T00:00:00Z'],
      ],
    );
    assert.match(models[0].digest, /^[0-9a-f]{64}$/);
    assert.equal(models[0].details.format, 'gguf');
    const loaded = await ollama.ps();
    assert.deepEqual(
      loaded.models.map((m) => [m.name, String(m.expires_at)]),
      [
        ['llama3.2:latest', '2026-01-01T00:05:00Z'],
        ['qwen3:8b', '2026-01-01T00:05:00Z'],
      ],
    );
    const shown = await ollama.show({ model: MODEL });
    assert.deepEqual(shown.capabilities, ['completion', 'tools', 'thinking', 'vision']);
    assert.equal(shown.details.format, 'gguf');
    assert.deepEqual(await ollama.version(), { version: '0.33.0' });
    const prefixed = ollamaFor(session, mock.url('ollama-prefixed'));
    assert.deepEqual(
      (await prefixed.list()).models.map((m) => m.name),
      ['llama3.2:latest', 'qwen3:8b'],
    );
    assert.equal((await journal(session)).length, 3, 'catalogue requests are not journalled');
  });

  test("a model no answer was for is /api/show's 404, a request without a model its 400; sessions do not share models [ollama-models.catalogue.json -]", async () => {
    const { session, ollama } = await open('catalogue-unknown');
    session.scenario('hello').replies('Hello.');
    await ollama.chat({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], stream: false });
    assert.deepEqual(await responseError(ollama.show({ model: 'mistral' })), { status: 404, error: "model 'mistral' not found" });
    assert.deepEqual(await responseError(ollama.show({ model: '' })), { status: 400, error: 'model is required' });
    const other = await open('catalogue-other');
    assert.deepEqual((await other.ollama.list()).models, [], "another session's models are not listed");
    assert.deepEqual(await responseError(other.ollama.show({ model: MODEL })), { status: 404, error: `model '${MODEL}' not found` });
    const response = await fetch(`${mock.url('ollama')}/api/tags`, { method: 'POST', signal: AbortSignal.timeout(TIMEOUT_MS) });
    assert.equal(response.status, 405, 'the catalogue routes take their own method only');
    assert.deepEqual(Object.keys((await response.json()) as object), ['error']);
  });

  // Embeddings (/api/embed) are served: test/embeddings-ollama.test.ts.
  test("other Ollama routes (pull, delete) are 404 ResponseErrors in Ollama's shape and journal nothing", async () => {
    const { session, ollama } = await open('not-served');
    for (const call of [() => ollama.pull({ model: MODEL, stream: false }), () => ollama.delete({ model: MODEL })]) {
      const { status, error } = await responseError(call());
      assert.equal(status, 404);
      assert.match(error, /Unrecognized request URL/);
    }
    assert.deepEqual((await journal(session)).length, 0);
  });
});

describe('generate', () => {
  test('prompt and system as a one-turn conversation; response, done_reason and statistics [ollama-generate.text.json +]', async () => {
    const { session, ollama } = await open('generate-json');
    session.scenario('hello').whenLatestUser({ contains: 'Hi' }).replies('Hello from generate.');
    const answer = await ollama.generate({ model: MODEL, prompt: 'Hi', system: 'be brief', options: { temperature: 0.2 }, stream: false });
    assert.deepEqual([answer.response, answer.done, answer.done_reason], ['Hello from generate.', true, 'stop']);
    assert.equal((answer as { message?: unknown }).message, undefined);
    const [entry] = await journal(session);
    assert.deepEqual([entry.operation, entry.route, entry.stream], ['ollama.generate', 'POST /api/generate', false]);
    assert.deepEqual(
      entry.request?.messages.map((m) => [m.role, m.parts.map((p) => (p.type === 'text' ? p.text : p.type))]),
      [
        ['system', ['be brief']],
        ['user', ['Hi']],
      ],
    );
    assertStatistics(answer as never, entry.usage);
  });

  test('a stream of response pieces, then done [ollama-generate.text.stream +]', async () => {
    const { session, ollama } = await open('generate-stream');
    session.scenario('pieces').replies('one two').inChunks(['one ', 'two']);
    const parts: { response: string; done: boolean }[] = [];
    for await (const part of await ollama.generate({ model: MODEL, prompt: 'Count', stream: true }))
      parts.push({ response: part.response ?? '', done: part.done });
    assert.deepEqual(parts, [
      { response: 'one ', done: false },
      { response: 'two', done: false },
      { response: '', done: true },
    ]);
    assert.equal((await journal(session))[0].stream, true);
  });

  test("raw mode with a system prompt, and an empty model, are the generate handler's 400 and 404 [ollama-generate.text.json -]", async () => {
    const { session, ollama } = await open('generate-refused');
    session.scenario('kept').replies('Kept.');
    assert.deepEqual(await responseError(ollama.generate({ model: MODEL, prompt: 'Hi', system: 'x', raw: true, stream: false })), {
      status: 400,
      error: 'raw mode does not support template, system, or context',
    });
    assert.deepEqual(await responseError(ollama.generate({ model: '', prompt: 'Hi', stream: false })), {
      status: 404,
      error: "model '' not found",
    });
    assert.equal((await session.check()).ok, false, 'nothing consumed');
  });

  test('a streamed request no script matches: 409 before any line [ollama-generate.text.stream -]', async () => {
    const { session, ollama } = await open('generate-no-match');
    session.scenario('tokyo').whenLatestUser({ contains: 'Tokyo' }).replies('Tokyo.');
    assert.equal((await responseError(ollama.generate({ model: MODEL, prompt: 'Paris', stream: true }))).status, 409);
  });

  test('format as a schema: the scripted JSON is the response [ollama-generate.structured.json +]', async () => {
    const { session, ollama } = await open('generate-format');
    session.scenario('facts').repliesJson({ city: 'Paris', population: 2102650 });
    const answer = await ollama.generate({ model: MODEL, prompt: 'Facts', format: CITY_SCHEMA, stream: false });
    assert.deepEqual(JSON.parse(answer.response ?? ''), { city: 'Paris', population: 2102650 });
    assert.deepEqual((await journal(session))[0].request?.output, { type: 'json_schema', schema: CITY_SCHEMA });
  });

  test('format as a schema the scripted JSON fails: 409, not consumed [ollama-generate.structured.json -]', async () => {
    const { session, ollama } = await open('generate-format-mismatch');
    session.scenario('facts').repliesJson({ city: 'Paris', population: 'many' });
    const { status, error } = await responseError(ollama.generate({ model: MODEL, prompt: 'Facts', format: CITY_SCHEMA, stream: false }));
    assert.equal(status, 409);
    assert.match(error, /population/);
    assert.equal((await session.check()).ok, false);
  });
});

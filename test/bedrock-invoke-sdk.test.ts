// Bedrock InvokeModel and InvokeModelWithResponseStream through @aws-sdk/client-bedrock-runtime on
// its default handler (cleartext HTTP/2; one test on its HTTP/1.1 handler):
// the Anthropic Claude, Titan Text and Nova bodies, JSON and streamed; what is refused (tools),
// scripted errors and in-stream exceptions as the client's classes, faults, an aborted stream,
// zero-config, and what Understudy journalled.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConflictException, ThrottlingException, ValidationException, type BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { invokeBodyInputTokens } from '../src/dialects/bedrock-invoke/count-tokens.js';
import { bedrockClient, CLAUDE, invoke, invokeStream, NOVA, thrown, TITAN } from './support/bedrock-invoke.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

type Json = Record<string, unknown>;

const claudeBody = (content: string, extra: Json = {}) => ({
  anthropic_version: 'bedrock-2023-05-31',
  max_tokens: 300,
  messages: [{ role: 'user', content }],
  ...extra,
});
const titanBody = (inputText: string, extra: Json = {}) => ({
  inputText,
  textGenerationConfig: { maxTokenCount: 300, temperature: 0 },
  ...extra,
});
const novaBody = (text: string, extra: Json = {}) => ({
  schemaVersion: 'messages-v1',
  system: [{ text: 'Be brief.' }],
  messages: [{ role: 'user', content: [{ text }] }],
  inferenceConfig: { maxTokens: 300, topP: 0.9 },
  ...extra,
});

let sessions = 0;
async function open(
  name: string,
  options: { fallback?: 'auto' } = {},
): Promise<{ session: UnderstudySession; client: BedrockRuntimeClient }> {
  const session = await mock.session(`${name}-${++sessions}`, options);
  return { session, client: bedrockClient(mock.url('bedrock'), session.apiKey) };
}

/** The raw response headers of each call the client makes. */
function recordHeaders(client: BedrockRuntimeClient): Record<string, string>[] {
  const seen: Record<string, string>[] = [];
  client.middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      seen.push({ ...(result.response as { headers: Record<string, string> }).headers });
      return result;
    },
    { step: 'deserialize', name: 'recordHeaders' },
  );
  return seen;
}

const CHUNKS = ['Paris ', 'is ', 'sunny.'];
/** How Bedrock begins its refusal of a Claude Messages body: the other schema it could have been. */
const NOT_TEXT_COMPLETIONS = 'Malformed input request: #: subject must not be valid against schema {"required":["messages"]}';
const TEXT = CHUNKS.join('');

describe('Anthropic Claude on InvokeModel', () => {
  test('the Messages body without model: a Messages answer, token headers, journalled [bedrock-invoke-anthropic.text.json +]', async () => {
    const { session, client } = await open('claude-json');
    session.scenario('weather').whenLatestUser({ contains: 'Paris' }).replies(TEXT);
    const headers = recordHeaders(client);
    const { json, output } = await invoke(client, CLAUDE, claudeBody('Weather in Paris?', { system: 'Be brief.', temperature: 0.2 }));
    assert.equal(json.type, 'message');
    assert.match(String(json.id), /^msg_bdrk_/);
    assert.equal(json.model, CLAUDE);
    assert.deepEqual(json.content, [{ type: 'text', text: TEXT }]);
    assert.equal(json.stop_reason, 'end_turn');
    assert.equal(output.contentType, 'application/json');
    const [entry] = (await session.journal()).entries;
    assert.deepEqual([entry.operation, entry.status, entry.script, entry.stream], ['bedrock.invokeModel', 200, 'weather', false]);
    assert.equal(entry.request?.model, CLAUDE);
    assert.deepEqual(
      entry.request?.messages.map((m) => m.role),
      ['system', 'user'],
    );
    const usage = json.usage as Json;
    assert.equal(usage.input_tokens, entry.usage?.inputTokens);
    assert.equal(usage.output_tokens, entry.usage?.outputTokens);
    assert.equal(headers[0]['x-amzn-bedrock-input-token-count'], String(entry.usage?.inputTokens));
    assert.equal(headers[0]['x-amzn-bedrock-output-token-count'], String(entry.usage?.outputTokens));
    assert.equal(headers[0]['x-amzn-bedrock-invocation-latency'], '0');
    assert.equal(output.$metadata.requestId, entry.requestId);
    await session.verify();
  });

  test("Bedrock's schema refuses model and stream in the body, before anything is selected [bedrock-invoke-anthropic.text.json -]", async () => {
    const { session, client } = await open('claude-schema');
    session.scenario('kept').replies(TEXT);
    for (const [extra, key] of [
      [{ model: 'claude-3-haiku' }, 'model'],
      [{ stream: true }, 'stream'],
      [{ output_config: { format: { type: 'json_schema', schema: { type: 'object' } } } }, 'output_config'],
    ] as const) {
      const error = await thrown(invoke(client, CLAUDE, claudeBody('hi', extra)));
      assert.ok(error instanceof ValidationException, String(error));
      assert.equal(
        error.message,
        `${NOT_TEXT_COMPLETIONS}#: extraneous key [${key}] is not permitted, please reformat your input and try again.`,
      );
      assert.equal(error.$metadata.httpStatusCode, 400);
    }
    // Every extraneous member, one after the other, as Bedrock answers the Anthropic SDK's body sent as it is.
    const both = await thrown(invoke(client, CLAUDE, claudeBody('hi', { stream: true, model: 'claude-3-haiku' })));
    assert.equal(
      both?.message,
      `${NOT_TEXT_COMPLETIONS}#: extraneous key [stream] is not permitted#: extraneous key [model] is not permitted, please reformat your input and try again.`,
    );
    const missing = await thrown(invoke(client, CLAUDE, { max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }));
    assert.match(String(missing?.message), /#: required key \[anthropic_version\] not found/);
    const version = await thrown(invoke(client, CLAUDE, claudeBody('hi', { anthropic_version: '2023-06-01' })));
    assert.match(String(version?.message), /#\/anthropic_version: 2023-06-01 is not a valid enum value/);
    // What Bedrock lets through, the Messages API checks in its own words.
    const empty = await thrown(invoke(client, CLAUDE, claudeBody('')));
    assert.ok(empty instanceof ValidationException);
    assert.match(empty.message, /all messages must have non-empty content/);
    assert.equal((await invoke(client, CLAUDE, claudeBody('hi'))).json.stop_reason, 'end_turn', 'the refusals consumed nothing');
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => e.status),
      [400, 400, 400, 400, 400, 400, 400, 200],
    );
  });

  test('streamed: the Messages events, no ping, message_stop with the invocation metrics [bedrock-invoke-anthropic.text.stream +]', async () => {
    const { session, client } = await open('claude-stream');
    session.scenario('weather').replies(TEXT).inChunks(CHUNKS);
    const { events, contentType } = await invokeStream(client, CLAUDE, claudeBody('Weather in Paris?'));
    assert.equal(contentType, 'application/json');
    assert.deepEqual(
      events.map((e) => e.type),
      [
        'message_start',
        'content_block_start',
        'content_block_delta',
        'content_block_delta',
        'content_block_delta',
        'content_block_stop',
        'message_delta',
        'message_stop',
      ],
    );
    assert.equal(events.map((e) => String((e.delta as Json | undefined)?.text ?? '')).join(''), TEXT);
    const [entry] = (await session.journal()).entries;
    assert.deepEqual([entry.operation, entry.stream, entry.status], ['bedrock.invokeModelWithResponseStream', true, 200]);
    assert.deepEqual(events.at(-1), {
      type: 'message_stop',
      'amazon-bedrock-invocationMetrics': {
        inputTokenCount: entry.usage?.inputTokens,
        outputTokenCount: entry.usage?.outputTokens,
        invocationLatency: 0,
        firstByteLatency: 0,
      },
    });
    assert.equal(((events[0].message as Json).usage as Json).input_tokens, entry.usage?.inputTokens);
  });

  test('tools and tool_choice are refused with a ValidationException that names Converse, nothing consumed [bedrock-invoke-anthropic.text.stream -]', async () => {
    const { session, client } = await open('claude-tools');
    session.scenario('kept').replies(TEXT);
    const tools = [{ name: 'get_weather', description: 'Weather', input_schema: { type: 'object', properties: {} } }];
    const error = await thrown(invokeStream(client, CLAUDE, claudeBody('hi', { tools })));
    assert.ok(error instanceof ValidationException, String(error));
    assert.match(error.message, /^tools: tool use is not supported on InvokeModel by Understudy\. .*Converse/);
    const choice = await thrown(invoke(client, CLAUDE, claudeBody('hi', { tool_choice: { type: 'auto' } })));
    assert.match(String(choice?.message), /^tool_choice: tool use is not supported on InvokeModel/);
    const history = await thrown(
      invoke(client, CLAUDE, {
        ...claudeBody('hi'),
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] },
        ],
      }),
    );
    assert.match(String(history?.message), /tool_use and tool_result content is not supported on InvokeModel/);
    const { events } = await invokeStream(client, CLAUDE, claudeBody('hi'));
    assert.equal(events.at(-1)?.type, 'message_stop', 'the refusals consumed nothing');
    assert.deepEqual(
      (await session.journal()).entries.map((e) => [e.status, e.stream]),
      [
        [400, true],
        [400, false],
        [400, false],
        [200, true],
      ],
    );
  });
});

describe('Anthropic Claude on InvokeModel: extended thinking', () => {
  test('a reply with reasoning: a thinking block (its deltas and signature) before the text, JSON and streamed, no ping', async () => {
    const { session, client } = await open('claude-thinking');
    session.scenario('think').reply({ text: TEXT, chunks: CHUNKS, reasoning: 'First, the forecast.' }).onExhausted('repeat_last');
    const body = claudeBody('Weather?', { max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 1024 } });
    const { json } = await invoke(client, CLAUDE, body);
    const content = json.content as Json[];
    assert.deepEqual(
      content.map((b) => b.type),
      ['thinking', 'text'],
    );
    assert.equal(content[0].thinking, 'First, the forecast.');
    const { events } = await invokeStream(client, CLAUDE, body);
    assert.ok(!events.some((e) => e.type === 'ping'), 'no ping');
    const deltas = events.filter((e) => e.type === 'content_block_delta').map((e) => (e.delta as Json).type);
    assert.ok(deltas.includes('thinking_delta') && deltas.includes('signature_delta') && deltas.includes('text_delta'), deltas.join());
    assert.equal(
      events
        .filter((e) => (e.delta as Json | undefined)?.type === 'thinking_delta')
        .map((e) => (e.delta as Json).thinking)
        .join(''),
      'First, the forecast.',
    );
    assert.equal(events.at(-1)?.type, 'message_stop');
  });
});

describe('Amazon Titan Text on InvokeModel', () => {
  test('inputText in, results out: the count, the text, FINISH, the prompt journalled as one user turn [bedrock-invoke-titan.text.json +]', async () => {
    const { session, client } = await open('titan-json');
    session.scenario('weather').whenLatestUser({ contains: 'Paris' }).replies(TEXT);
    const headers = recordHeaders(client);
    const { json } = await invoke(client, TITAN, titanBody('User: Weather in Paris?\nBot:'));
    const [entry] = (await session.journal()).entries;
    assert.deepEqual(json, {
      inputTextTokenCount: entry.usage?.inputTokens,
      results: [{ tokenCount: entry.usage?.outputTokens, outputText: TEXT, completionReason: 'FINISH' }],
    });
    assert.deepEqual(entry.request?.messages, [{ role: 'user', parts: [{ type: 'text', text: 'User: Weather in Paris?\nBot:' }] }]);
    assert.equal(headers[0]['x-amzn-bedrock-output-token-count'], String(entry.usage?.outputTokens));
  });

  test("a member Titan's schema lacks, or a value out of its range, is Bedrock's Malformed input request [bedrock-invoke-titan.text.json -]", async () => {
    const { session, client } = await open('titan-schema');
    session.scenario('kept').replies(TEXT);
    const cases: [Json, string][] = [
      [{ inputText: 'hi', tools: [] }, '#: extraneous key [tools] is not permitted'],
      [{ prompt: 'hi' }, '#: extraneous key [prompt] is not permitted'],
      [{ textGenerationConfig: {} }, '#: required key [inputText] not found'],
      [{ inputText: 7 }, '#/inputText: expected type: String, found: Integer'],
      [
        titanBody('hi', { textGenerationConfig: { temperature: 1.5 } }),
        '#/textGenerationConfig/temperature: 1.5 is not less or equal to 1',
      ],
      [
        titanBody('hi', { textGenerationConfig: { maxTokenCount: 9000 } }),
        '#/textGenerationConfig/maxTokenCount: 9000 is not less or equal to 8192',
      ],
      [titanBody('hi', { textGenerationConfig: { topK: 5 } }), '#/textGenerationConfig: extraneous key [topK] is not permitted'],
    ];
    for (const [body, problem] of cases) {
      const error = await thrown(invoke(client, TITAN, body));
      assert.ok(error instanceof ValidationException, String(error));
      assert.equal(error.message, `Malformed input request: ${problem}, please reformat your input and try again.`);
    }
    assert.equal(((await invoke(client, TITAN, titanBody('hi'))).json.results as Json[])[0].outputText, TEXT);
    assert.equal((await session.journal()).counters.invalid, cases.length);
  });

  test('streamed: a chunk per piece, the prompt count first, the answer count and reason last [bedrock-invoke-titan.text.stream +]', async () => {
    const { session, client } = await open('titan-stream');
    session.scenario('weather').replies(TEXT).inChunks(CHUNKS);
    const { events } = await invokeStream(client, TITAN, titanBody('Weather in Paris?'));
    const [entry] = (await session.journal()).entries;
    const input = entry.usage?.inputTokens;
    const output = entry.usage?.outputTokens;
    assert.deepEqual(events, [
      { outputText: 'Paris ', index: 0, totalOutputTextTokenCount: null, completionReason: null, inputTextTokenCount: input },
      { outputText: 'is ', index: 0, totalOutputTextTokenCount: null, completionReason: null, inputTextTokenCount: null },
      {
        outputText: 'sunny.',
        index: 0,
        totalOutputTextTokenCount: output,
        completionReason: 'FINISH',
        inputTextTokenCount: null,
        'amazon-bedrock-invocationMetrics': { inputTokenCount: input, outputTokenCount: output, invocationLatency: 0, firstByteLatency: 0 },
      },
    ]);
  });

  test('streamed: a scripted reply that cannot finish says LENGTH; tools are extraneous to Titan [bedrock-invoke-titan.text.stream -]', async () => {
    const { session, client } = await open('titan-length');
    session.scenario('cut').reply({ text: 'cut short', finishReason: 'length' });
    const error = await thrown(invokeStream(client, TITAN, titanBody('hi', { toolConfig: {} })));
    assert.ok(error instanceof ValidationException, String(error));
    assert.match(error.message, /#: extraneous key \[toolConfig\] is not permitted/);
    const { events } = await invokeStream(client, TITAN, titanBody('hi'));
    assert.equal(events.at(-1)?.completionReason, 'LENGTH');
    assert.equal((await invoke(client, TITAN, titanBody('hi')).catch((e: Error) => e)) instanceof ConflictException, true, 'exhausted');
  });
});

describe('Amazon Nova on InvokeModel', () => {
  test('messages-v1 in, output.message out, usage with the cache counts; a cachePoint marks caching [bedrock-invoke-nova.text.json +]', async () => {
    const { session, client } = await open('nova-json');
    session.scenario('weather').whenLatestUser({ contains: 'Paris' }).replies(TEXT).onExhausted('repeat_last');
    const { json } = await invoke(client, NOVA, novaBody('Weather in Paris?'));
    const [entry] = (await session.journal()).entries;
    const input = entry.usage?.inputTokens ?? 0;
    const output = entry.usage?.outputTokens ?? 0;
    assert.deepEqual(json, {
      output: { message: { role: 'assistant', content: [{ text: TEXT }] } },
      stopReason: 'end_turn',
      usage: {
        inputTokens: input,
        outputTokens: output,
        totalTokens: input + output,
        cacheReadInputTokenCount: 0,
        cacheWriteInputTokenCount: 0,
      },
    });
    assert.deepEqual(
      entry.request?.messages.map((m) => m.role),
      ['system', 'user'],
    );
    assert.equal(entry.request?.promptCaching, 'none');
    // The older spellings of the inference options are taken too.
    await invoke(client, NOVA, novaBody('Paris?', { inferenceConfig: { max_new_tokens: 100, top_p: 0.5, top_k: 20 } }));
    const cached = novaBody('Paris, with a long enough system prompt to cache?', {
      system: [{ text: 'You answer weather questions. '.repeat(200) }, { cachePoint: { type: 'default' } }],
    });
    await invoke(client, NOVA, cached);
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.request?.promptCaching]),
      [
        [200, 'none'],
        [200, 'none'],
        [200, 'marked'],
      ],
    );
  });

  test('toolConfig and tool blocks are refused; a first assistant turn and a bad option are refused [bedrock-invoke-nova.text.json -]', async () => {
    const { session, client } = await open('nova-refused');
    session.scenario('kept').replies(TEXT);
    const tools = await thrown(invoke(client, NOVA, novaBody('hi', { toolConfig: { tools: [] } })));
    assert.ok(tools instanceof ValidationException, String(tools));
    assert.match(tools.message, /^toolConfig: tool use is not supported on InvokeModel by Understudy/);
    const block = await thrown(
      invoke(client, NOVA, novaBody('hi', { messages: [{ role: 'user', content: [{ toolResult: { toolUseId: 't', content: [] } }] }] })),
    );
    assert.match(String(block?.message), /^messages\.0\.content\.0\.toolResult: tool use is not supported/);
    const first = await thrown(invoke(client, NOVA, novaBody('hi', { messages: [{ role: 'assistant', content: [{ text: 'hi' }] }] })));
    assert.match(String(first?.message), /A conversation must start with a user message/);
    const range = await thrown(invoke(client, NOVA, novaBody('hi', { inferenceConfig: { maxTokens: 0 } })));
    assert.match(String(range?.message), /#\/inferenceConfig\/maxTokens: 0 is not greater or equal to 1/);
    const version = await thrown(invoke(client, NOVA, novaBody('hi', { schemaVersion: 'messages-v2' })));
    assert.match(String(version?.message), /#\/schemaVersion: messages-v2 is not a valid enum value/);
    const content = await thrown(invoke(client, NOVA, novaBody('hi', { messages: [{ role: 'user', content: 'hi' }] })));
    assert.match(String(content?.message), /#\/messages\/0\/content: expected type: JSONArray, found: String/);
    assert.equal(((await invoke(client, NOVA, novaBody('hi'))).json.output as Json) !== undefined, true);
    assert.equal((await session.journal()).counters.invalid, 6);
  });

  test('streamed: messageStart, deltas, contentBlockStop, messageStop, metadata with the metrics [bedrock-invoke-nova.text.stream +]', async () => {
    const { session, client } = await open('nova-stream');
    session.scenario('weather').reply({ text: TEXT, chunks: CHUNKS, reasoning: 'Think first.' });
    const { events } = await invokeStream(client, NOVA, novaBody('Weather in Paris?'));
    const [entry] = (await session.journal()).entries;
    const usage = entry.usage;
    assert.ok(usage);
    const output = usage.outputTokens + usage.reasoningTokens;
    assert.deepEqual(events[0], { messageStart: { role: 'assistant' } });
    const kinds = events.map((e) => Object.keys(e)[0]);
    assert.deepEqual(kinds.slice(-3), ['contentBlockStop', 'messageStop', 'metadata']);
    assert.equal(kinds.filter((k) => k === 'contentBlockStop').length, 2, 'a reasoning block, then the text block');
    assert.equal(events.map((e) => ((e.contentBlockDelta as Json | undefined)?.delta as Json | undefined)?.text ?? '').join(''), TEXT);
    assert.equal(
      events
        .map(
          (e) => (((e.contentBlockDelta as Json | undefined)?.delta as Json | undefined)?.reasoningContent as Json | undefined)?.text ?? '',
        )
        .join(''),
      'Think first.',
    );
    assert.deepEqual(events.at(-2), { messageStop: { stopReason: 'end_turn' } });
    assert.deepEqual(events.at(-1), {
      metadata: {
        usage: {
          inputTokens: usage.inputTokens,
          outputTokens: output,
          totalTokens: usage.inputTokens + output,
          cacheReadInputTokenCount: 0,
          cacheWriteInputTokenCount: 0,
        },
      },
      'amazon-bedrock-invocationMetrics': {
        inputTokenCount: usage.inputTokens,
        outputTokenCount: output,
        invocationLatency: 0,
        firstByteLatency: 0,
      },
    });
  });

  test('streamed: a paced answer reports its pacing as the latencies; a malformed body is refused before the stream [bedrock-invoke-nova.text.stream -]', async () => {
    const { session, client } = await open('nova-paced');
    session.scenario('paced').replies(TEXT).inChunks(CHUNKS).paced({ ttftMs: 20, chunksPerSecond: 100 });
    const error = await thrown(invokeStream(client, NOVA, novaBody('hi', { inferenceConfig: { temperature: 'hot' } })));
    assert.ok(error instanceof ValidationException, String(error));
    assert.match(error.message, /#\/inferenceConfig\/temperature: expected type: Number, found: String/);
    const { events } = await invokeStream(client, NOVA, novaBody('hi'));
    // messageStart, three deltas, contentBlockStop, messageStop, metadata: seven events, six gaps of 10 ms.
    assert.deepEqual((events.at(-1) as Json)['amazon-bedrock-invocationMetrics'], {
      inputTokenCount: (events.at(-1)?.metadata as { usage: Json }).usage.inputTokens,
      outputTokenCount: (events.at(-1)?.metadata as { usage: Json }).usage.outputTokens,
      invocationLatency: 80,
      firstByteLatency: 20,
    });
  });
});

describe('InvokeModel across the families', () => {
  test('a scripted 429 is a ThrottlingException, retried by the client when it may; a named exception class wins [bedrock-invoke.errors.json +]', async () => {
    const { session } = await open('errors');
    session
      .scenario('limited')
      .fails(429, 'Slow down.', { headers: { 'retry-after': '0' } })
      .replies(TEXT);
    const retrying = bedrockClient(mock.url('bedrock'), session.apiKey, 2);
    const { json } = await invoke(retrying, NOVA, novaBody('hi'));
    assert.deepEqual((json.output as { message: { content: Json[] } }).message.content, [{ text: TEXT }]);
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.request?.attempt]),
      [
        [429, 0],
        [200, 1],
      ],
    );
    const once = bedrockClient(mock.url('bedrock'), session.apiKey);
    session.scenario('model').reply({ error: { status: 424, message: 'The model failed.', type: 'ModelErrorException' } });
    const error = await thrown(invoke(once, CLAUDE, claudeBody('hi')));
    assert.equal(error?.name, 'ModelErrorException');
    assert.equal(error?.$metadata?.httpStatusCode, 424);
    session.scenario('slow').fails(429, 'Too many.');
    const throttled = await thrown(invoke(once, TITAN, titanBody('hi')));
    assert.ok(throttled instanceof ThrottlingException, String(throttled));
    assert.equal(throttled.message, 'Too many.');
  });

  test('an exception part-way through a stream is thrown by the client after the chunks before it [bedrock-invoke.errors.stream +]', async () => {
    for (const [model, body] of [
      [CLAUDE, claudeBody('hi')],
      [TITAN, titanBody('hi')],
      [NOVA, novaBody('hi')],
    ] as const) {
      const { session, client } = await open('mid-stream');
      session
        .scenario('busy')
        .replies(TEXT)
        .inChunks(CHUNKS)
        .withFault({ kind: 'error', afterChunks: 2, error: { status: 429, message: 'Throttled mid-answer.' } });
      const seen: Json[] = [];
      const error = await thrown(invokeStream(client, model, body, seen));
      assert.ok(error instanceof ThrottlingException, `${model}: ${String(error)}`);
      assert.equal(error.message, 'Throttled mid-answer.');
      assert.equal(seen.length, 2, `${model}: the chunks before the exception`);
      session.scenario('inside').reply({ error: { status: 503, message: 'Unavailable inside.', inStream: true } });
      const inside = await thrown(invokeStream(client, model, body));
      assert.equal(inside?.name, 'ServiceUnavailableException', model);
      session.scenario('broken').replies(TEXT).inChunks(CHUNKS).withFault({ kind: 'malformed', afterChunks: 1 });
      const broken = await thrown(invokeStream(client, model, body));
      assert.match(String(broken?.message), /checksum/i, `${model}: a frame the client refuses`);
    }
  });

  test('an aborted stream consumes nothing [bedrock-invoke.errors.stream -]', async () => {
    const { session, client } = await open('aborted');
    session.scenario('slow').replies(TEXT).inChunks(CHUNKS).paced({ ttftMs: 0, chunksPerSecond: 2 }).then().replies('second');
    const controller = new AbortController();
    const seen: Json[] = [];
    const aborted = invokeStream(client, CLAUDE, claudeBody('hi'), seen, { abortSignal: controller.signal });
    while (seen.length === 0) await sleep(10);
    controller.abort();
    // On HTTP/2 the AWS client's event-stream reader may end quietly when its stream is reset.
    await thrown(aborted);
    assert.ok(seen.length < 8, `the aborted stream ended early: ${seen.length} events`);
    await sleep(100);
    const next = await invoke(client, CLAUDE, claudeBody('hi'));
    assert.deepEqual(next.json.content, [{ type: 'text', text: TEXT }], 'the aborted answer was not consumed');
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.event, e.step]),
      [
        ['request_aborted', 'step-1'],
        ['reply_returned', 'step-1'],
      ],
    );
  });

  test('a scripted tool call answering InvokeModel is a 409 ConflictException, not a broken body, and is not consumed [bedrock-invoke.errors.json -]', async () => {
    const { session, client } = await open('tool-reply');
    session.scenario('caller').callsTool('get_weather', { city: 'Paris' });
    const error = await thrown(invoke(client, CLAUDE, claudeBody('hi')));
    assert.ok(error instanceof ConflictException, String(error));
    assert.match(error.message, /calls tool "get_weather" but the request declares no tools/);
    const [entry] = (await session.journal()).entries;
    assert.deepEqual([entry.status, entry.error?.code], [409, 'fixture_mismatch']);
    assert.equal((await session.check()).ok, false, 'the step is still unused');
  });

  test('model ids: inference profiles, ARNs (their / percent-encoded), embedding and other families refused by name', async () => {
    const { session, client } = await open('ids');
    session.scenario('any').replies(TEXT).onExhausted('repeat_last');
    const arn = 'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-3-5-haiku-20241022-v1:0';
    assert.equal((await invoke(client, arn, claudeBody('hi'))).json.model, arn);
    const profile = 'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3';
    assert.ok((await invoke(client, profile, titanBody('hi'))).json.results, 'an ARN naming no model is read by its body');
    assert.ok((await invoke(client, 'global.amazon.nova-2-lite-v1:0', novaBody('hi'))).json.output);
    const { entries } = await session.journal();
    assert.match(entries[0].route, /^POST \/model\/arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Ainference-profile%2Fus\.anthropic/);
    // Text embedding models embed (test/embeddings-bedrock.test.ts); image ones are refused by name.
    const embed = await thrown(invoke(client, 'amazon.titan-embed-image-v1', { inputText: 'a' }));
    assert.ok(embed instanceof ValidationException, String(embed));
    assert.match(embed.message, /not "amazon\.titan-embed-image-v1" \(image and multimodal embeddings are not answered yet\)/);
    const llama = await thrown(invoke(client, 'meta.llama3-8b-instruct-v1:0', { prompt: 'hi' }));
    assert.match(String(llama?.message), /"meta\.llama3-8b-instruct-v1:0" is none of them/);
  });

  test('zero-config: the fixed sentence in each family, JSON and streamed [bedrock-invoke.zero-config.json +] [bedrock-invoke.zero-config.stream +]', async () => {
    const { session, client } = await open('zero', { fallback: 'auto' });
    const claude = await invoke(client, CLAUDE, claudeBody('hi'));
    const sentence = ((claude.json.content as Json[])[0] as { text: string }).text;
    assert.ok(sentence.length > 0);
    assert.equal(((await invoke(client, TITAN, titanBody('hi'))).json.results as Json[])[0].outputText, sentence);
    const nova = await invokeStream(client, NOVA, novaBody('hi'));
    assert.equal(
      nova.events.map((e) => ((e.contentBlockDelta as Json | undefined)?.delta as Json | undefined)?.text ?? '').join(''),
      sentence,
    );
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.source]),
      [
        [200, 'zero_config'],
        [200, 'zero_config'],
        [200, 'zero_config'],
      ],
    );
  });

  test('zero-config still checks the body, and is opt-in: without it an unmatched request is a 409 [bedrock-invoke.zero-config.json -] [bedrock-invoke.zero-config.stream -]', async () => {
    const zero = await open('zero-strict', { fallback: 'auto' });
    const error = await thrown(invoke(zero.client, TITAN, { inputText: 'hi', tools: [] }));
    assert.ok(error instanceof ValidationException, String(error));
    const streamed = await thrown(invokeStream(zero.client, NOVA, novaBody('hi', { toolConfig: {} })));
    assert.ok(streamed instanceof ValidationException, String(streamed));
    const plain = await open('zero-off');
    const unmatched = await thrown(invoke(plain.client, TITAN, titanBody('hi')));
    assert.ok(unmatched instanceof ConflictException, String(unmatched));
    const unmatchedStream = await thrown(invokeStream(plain.client, CLAUDE, claudeBody('hi')));
    assert.ok(unmatchedStream instanceof ConflictException, String(unmatchedStream));
    assert.deepEqual(
      (await plain.session.journal()).entries.map((e) => [e.status, e.error?.code, e.stream]),
      [
        [409, 'no_match', false],
        [409, 'no_match', true],
      ],
    );
  });

  test('over HTTP/1.1 too (the client’s NodeHttpHandler), JSON and streamed', async () => {
    const { session } = await open('http1');
    session.scenario('s').replies(TEXT).inChunks(CHUNKS).onExhausted('repeat_last');
    const client = bedrockClient(mock.url('bedrock'), session.apiKey, 1, 'sigv4', 'http1');
    assert.ok(client.config.requestHandler instanceof NodeHttpHandler, 'the HTTP/1.1 handler');
    assert.deepEqual((await invoke(client, CLAUDE, claudeBody('hi'))).json.content, [{ type: 'text', text: TEXT }]);
    const { events } = await invokeStream(client, NOVA, novaBody('hi'));
    assert.deepEqual(events.at(-2), { messageStop: { stopReason: 'end_turn' } });
    assert.deepEqual(
      (await session.journal()).entries.map((e) => [e.status, e.stream]),
      [
        [200, false],
        [200, true],
      ],
    );
  });

  test('under /bedrock and under a session prefix', async () => {
    const { session } = await open('prefixes');
    session.scenario('twice').replies(TEXT).onExhausted('repeat_last');
    const prefixed = bedrockClient(`${mock.url('bedrock')}/bedrock`, session.apiKey);
    assert.equal((await invoke(prefixed, NOVA, novaBody('hi'))).json.stopReason, 'end_turn');
    const bySession = bedrockClient(`${mock.url('bedrock')}/s/${session.id}`, 'not-a-session-key');
    assert.equal((await invoke(bySession, NOVA, novaBody('hi'))).json.stopReason, 'end_turn');
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => e.route.split('/model/')[0]),
      ['POST /bedrock', `POST /s/${session.id}`],
    );
  });
});

describe('InvokeModel and the prompt cache', () => {
  test("Claude's cache_control and Nova's cachePoint: the cached part read back, in the body, the headers and the stream's metrics", async () => {
    const session = await mock.session('bedrock-cache', { promptCache: { minTokens: 64, granularity: 1 } });
    session.scenario('s').onExhausted('repeat_last').replies('ok');
    const client = bedrockClient(mock.url('bedrock'), session.apiKey);
    const headers = recordHeaders(client);
    const long = 'You are a meticulous assistant who answers in one line. '.repeat(40);
    const claude = (question: string) =>
      claudeBody(question, { system: [{ type: 'text', text: long, cache_control: { type: 'ephemeral' } }] });
    const first = (await invoke(client, CLAUDE, claude('first'))).json.usage as Json;
    assert.equal(first.cache_read_input_tokens, 0);
    assert.ok(Number(first.cache_creation_input_tokens) > 64, JSON.stringify(first));
    const second = (await invoke(client, CLAUDE, claude('second question'))).json.usage as Json;
    assert.ok(Number(second.cache_read_input_tokens) > 64, JSON.stringify(second));
    assert.equal(headers[1]['x-amzn-bedrock-cache-read-input-token-count'], String(second.cache_read_input_tokens));
    assert.equal(headers[1]['x-amzn-bedrock-input-token-count'], String(second.input_tokens));

    const nova = (question: string) => novaBody(question, { system: [{ text: long }, { cachePoint: { type: 'default' } }] });
    await invoke(client, NOVA, nova('first'));
    const { events } = await invokeStream(client, NOVA, nova('second question'));
    const usage = (events.at(-1)?.metadata as { usage: Json }).usage;
    assert.ok(Number(usage.cacheReadInputTokenCount) > 64, JSON.stringify(usage));
    const metrics = (events.at(-1) as Json)['amazon-bedrock-invocationMetrics'] as Json;
    assert.equal(metrics.cacheReadInputTokenCount, usage.cacheReadInputTokenCount);
    assert.equal(
      usage.totalTokens,
      Number(usage.inputTokens) +
        Number(usage.outputTokens) +
        Number(usage.cacheReadInputTokenCount) +
        Number(usage.cacheWriteInputTokenCount),
    );
    const { entries } = await session.journal();
    assert.equal(entries[3].usage?.cachedInputTokens, usage.cacheReadInputTokenCount);

    // Without a marker nothing is cached, however often the prefix repeats.
    for (const question of ['a', 'b']) {
      const plain = (await invoke(client, NOVA, novaBody(question, { system: [{ text: long }] }))).json.usage as Json;
      assert.equal(plain.cacheReadInputTokenCount, 0);
    }
  });

  test('CountTokens: an InvokeModel body counts as its answer’s usage counts it, or gets its ValidationException', async () => {
    const session = await mock.session('count-invoke');
    session.scenario('s').onExhausted('repeat_last').replies('ok');
    const client = bedrockClient(mock.url('bedrock'), session.apiKey);
    const bodies: [string, Json][] = [
      [CLAUDE, claudeBody('How many tokens is this?', { system: 'Be brief.' })],
      [TITAN, titanBody('How many tokens is this?')],
      [NOVA, novaBody('How many tokens is this?')],
    ];
    for (const [model, body] of bodies) await invoke(client, model, body);
    const { entries } = await session.journal();
    bodies.forEach(([model, body], i) =>
      assert.equal(invokeBodyInputTokens(model, JSON.stringify(body)), entries[i].usage?.inputTokens, model),
    );
    const refused = invokeBodyInputTokens(NOVA, JSON.stringify(novaBody('hi', { toolConfig: {} })));
    assert.ok(typeof refused === 'object' && refused.status === 400 && /toolConfig/.test(refused.message), JSON.stringify(refused));
    const notJson = invokeBodyInputTokens(TITAN, '{');
    assert.ok(typeof notJson === 'object' && notJson.status === 400);
  });
});

describe('InvokeModel with a large reply', () => {
  test('a reply too heavy for one string is written frame by frame, JSON and streamed, each family', async () => {
    const { session, client } = await open('large');
    const pieces = Array.from({ length: 2000 }, (_, i) => `piece ${i} ${'é'.repeat(150)} `);
    const text = pieces.join('');
    session.scenario('big').replies(text).inChunks(pieces).onExhausted('repeat_last');
    for (const [model, body] of [
      [CLAUDE, claudeBody('hi')],
      [TITAN, titanBody('hi')],
      [NOVA, novaBody('hi')],
    ] as const) {
      const { events } = await invokeStream(client, model, body);
      const streamed = events
        .map((e) => {
          const delta = ((e.delta ?? (e.contentBlockDelta as Json | undefined)?.delta) as Json | undefined)?.text;
          return String(delta ?? e.outputText ?? '');
        })
        .join('');
      assert.equal(streamed, text, model);
      assert.ok(events.length >= pieces.length, `${model}: ${events.length} events`);
      const { json } = await invoke(client, model, body);
      assert.ok(JSON.stringify(json).includes(pieces[1999].trim()), model);
    }
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => e.status),
      [200, 200, 200, 200, 200, 200],
    );
  });
});

describe('InvokeModel streams of one scripted reply', () => {
  test('frames kept per reply shape never carry another answer’s id or counts', async () => {
    const { session, client } = await open('kept-frames');
    session.scenario('again').replies(TEXT).inChunks(CHUNKS).onExhausted('repeat_last');
    const prompts = ['Paris?', 'And the weather in Paris tomorrow, and the day after, please?'];
    const claude: Json[][] = [];
    const nova: Json[][] = [];
    const titan: Json[][] = [];
    for (const prompt of prompts) {
      claude.push((await invokeStream(client, CLAUDE, claudeBody(prompt))).events);
      nova.push((await invokeStream(client, NOVA, novaBody(prompt))).events);
      titan.push((await invokeStream(client, TITAN, titanBody(prompt))).events);
    }
    const { entries } = await session.journal();
    const [c1, n1, t1, c2, n2, t2] = entries;
    titan.forEach((events, i) => {
      assert.equal(events[0].inputTextTokenCount, [t1, t2][i].usage?.inputTokens);
      assert.equal(events.map((e) => e.outputText).join(''), TEXT);
      assert.deepEqual(
        events.map((e) => e.inputTextTokenCount === null),
        [false, true, true],
      );
    });
    assert.notEqual(c1.usage?.inputTokens, c2.usage?.inputTokens, 'the prompts count differently');
    claude.forEach((events, i) => {
      const entry = [c1, c2][i];
      assert.equal(((events[0].message as Json).usage as Json).input_tokens, entry.usage?.inputTokens);
      assert.equal((events.at(-2)?.usage as Json).input_tokens, entry.usage?.inputTokens, 'message_delta');
      assert.equal(((events.at(-1) as Json)['amazon-bedrock-invocationMetrics'] as Json).inputTokenCount, entry.usage?.inputTokens);
      assert.equal(events.map((e) => String((e.delta as Json | undefined)?.text ?? '')).join(''), TEXT);
    });
    assert.notEqual((claude[0][0].message as Json).id, (claude[1][0].message as Json).id, 'each answer its own id');
    nova.forEach((events, i) => {
      assert.equal((events.at(-1)?.metadata as { usage: Json }).usage.inputTokens, [n1, n2][i].usage?.inputTokens);
      assert.deepEqual(events.at(-2), { messageStop: { stopReason: 'end_turn' } });
    });
  });
});

describe('InvokeModel with a Bedrock API key', () => {
  test('the client’s bearer token (AWS_BEARER_TOKEN_BEDROCK’s form) finds the session, JSON and streamed', async () => {
    const session = await mock.session('bearer-invoke');
    session.scenario('s').replies(TEXT).onExhausted('repeat_last');
    const client = bedrockClient(mock.url('bedrock'), session.apiKey, 1, 'bearer');
    const sent: string[] = [];
    client.middlewareStack.add(
      (next) => (args) => {
        const headers = (args.request as { headers: Record<string, string> }).headers;
        sent.push(String(Object.entries(headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1]));
        return next(args);
      },
      { step: 'deserialize', name: 'recordAuthorization' },
    );
    assert.deepEqual((await invoke(client, CLAUDE, claudeBody('hi'))).json.content, [{ type: 'text', text: TEXT }]);
    assert.equal((await invokeStream(client, TITAN, titanBody('hi'))).events.at(-1)?.completionReason, 'FINISH');
    assert.equal((await session.journal()).entries.length, 2, 'both reached the session the key names');
    assert.deepEqual(sent, [`Bearer ${session.apiKey}`, `Bearer ${session.apiKey}`]);
  });
});

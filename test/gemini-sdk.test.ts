// The Gemini dialect judged by the real `@google/genai` client (Gemini API and Vertex AI) and by
// raw HTTP where the SDK cannot show a wire detail (the default JSON-array stream). Every test
// asserts what the SDK returned and what Understudy recorded.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { ApiError, FunctionCallingConfigMode, GoogleGenAI, Type } from '@google/genai';
import type { Content, FunctionDeclaration, GenerateContentConfig, GenerateContentResponse, Part } from '@google/genai';

import { startUnderstudy } from '../src/client/index.js';
import type { Understudy, UnderstudySession } from '../src/client/index.js';
import { GENAI_DEFAULT_API_VERSION } from './support/sdk-versions.js';

let mock: Understudy;

before(async () => {
  mock = await startUnderstudy();
});

after(async () => {
  await mock.close();
});

const MODEL = 'gemini-2.5-flash';
const ZERO_CONFIG_TEXT = 'This is a scripted answer from Understudy.';

function genai(session: UnderstudySession): GoogleGenAI {
  return new GoogleGenAI({ apiKey: session.apiKey, httpOptions: { baseUrl: mock.url('gemini'), timeout: 10_000 } });
}

async function open(name: string, options?: Parameters<Understudy['session']>[1]) {
  const session = await mock.session(name, options);
  return { session, ai: genai(session) };
}

function user(text: string): Content {
  return { role: 'user', parts: [{ text }] };
}

/** Awaits a call that must fail with an ApiError; returns its status and the parsed Gemini error body. */
async function apiError(
  call: PromiseLike<unknown>,
): Promise<{ status: number; error: { code: number; message: string; status: string; details?: unknown[] } }> {
  let caught: unknown;
  try {
    await call;
  } catch (error) {
    caught = error;
  }
  assert.ok(caught !== undefined, 'expected an ApiError, but the call succeeded');
  assert.ok(caught instanceof ApiError, `expected ApiError, got ${String(caught)}`);
  const body = JSON.parse(caught.message) as { error: { code: number; message: string; status: string; details?: unknown[] } };
  assert.equal(body.error.code, caught.status, 'the body repeats the HTTP status');
  return { status: caught.status, error: body.error };
}

/** A 409 from Understudy, in Gemini's shape, with Understudy's reason in an ErrorInfo detail. */
async function conflict(call: PromiseLike<unknown>, reason: string, ...mentions: string[]) {
  const { status, error } = await apiError(call);
  assert.equal(status, 409);
  assert.equal(error.status, 'ABORTED');
  assert.deepEqual(error.details, [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'understudy' }]);
  for (const text of mentions) assert.ok(error.message.includes(text), `expected ${JSON.stringify(text)} in:\n${error.message}`);
  return error;
}

async function collect(stream: AsyncGenerator<GenerateContentResponse>): Promise<GenerateContentResponse[]> {
  const chunks: GenerateContentResponse[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

const weather: FunctionDeclaration = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } }, required: ['city'] },
};
const time: FunctionDeclaration = {
  name: 'get_time',
  description: 'Local time in a city',
  parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } }, required: ['city'] },
};

// ------------------------------------------------------------------ text

test('plain text: systemInstruction, usageMetadata, finishReason, modelVersion, and the journal [gemini.text.json +]', async () => {
  const { session, ai } = await open('gm-plain', { clock: 1_700_000_000 });
  session.scenario('greeting').whenLatestUser({ contains: 'Hello' }).whenModel(MODEL).replies('Hi! How can I help?');
  const response = await ai.models.generateContent({
    model: MODEL,
    contents: 'Hello there',
    config: { systemInstruction: 'be brief', temperature: 0, maxOutputTokens: 50 },
  });
  assert.equal(response.text, 'Hi! How can I help?');
  assert.equal(response.candidates?.[0].finishReason, 'STOP');
  assert.equal(response.candidates?.[0].content?.role, 'model');
  assert.equal(response.modelVersion, MODEL);
  assert.match(response.responseId ?? '', /^[A-Za-z0-9]+$/);
  const usage = response.usageMetadata;
  assert.ok(usage?.promptTokenCount && usage.promptTokenCount > 0);
  assert.ok(usage?.candidatesTokenCount && usage.candidatesTokenCount > 0);
  assert.equal(usage?.totalTokenCount, usage.promptTokenCount + usage.candidatesTokenCount);
  assert.deepEqual(usage?.promptTokensDetails, [{ modality: 'TEXT', tokenCount: usage.promptTokenCount }]);

  const { entries } = await session.journal();
  assert.equal(entries.length, 1);
  const [entry] = entries;
  assert.equal(entry.status, 200);
  assert.equal(entry.operation, 'gemini.generateContent');
  assert.equal(entry.route, `POST /${GENAI_DEFAULT_API_VERSION}/models/${MODEL}:generateContent`);
  assert.equal(entry.stream, false);
  assert.equal(entry.script, 'greeting');
  assert.equal(entry.request?.model, MODEL);
  assert.equal(entry.request?.maxOutputTokens, 50);
  assert.deepEqual(
    entry.request?.messages.map((m) => [m.role, m.parts]),
    [
      ['system', [{ type: 'text', text: 'be brief' }]],
      ['user', [{ type: 'text', text: 'Hello there' }]],
    ],
  );
  assert.equal(entry.usage?.inputTokens, usage.promptTokenCount);
  assert.equal(entry.usage?.outputTokens, usage.candidatesTokenCount);
  await session.verify();
});

test('a thought, reasoning tokens and an ?key= API key [gemini.text.json +]', async () => {
  const session = await mock.session('gm-thought');
  session.scenario('think').reply({ text: '42', reasoning: 'Six times seven.', reasoningTokens: 7 });
  const res = await fetch(`${mock.baseUrl}/v1beta/models/${MODEL}:generateContent?key=${session.apiKey}`, {
    method: 'POST',
    signal: AbortSignal.timeout(10_000),
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ contents: [{ parts: [{ text: 'The answer?' }] }] }),
  });
  assert.equal(res.status, 200);
  const body = (await res.json()) as {
    candidates: { content: { parts: { text: string; thought?: boolean }[] } }[];
    usageMetadata: { thoughtsTokenCount: number; totalTokenCount: number; promptTokenCount: number; candidatesTokenCount: number };
  };
  assert.deepEqual(body.candidates[0].content.parts, [{ text: 'Six times seven.', thought: true }, { text: '42' }]);
  assert.equal(body.usageMetadata.thoughtsTokenCount, 7);
  assert.equal(body.usageMetadata.totalTokenCount, body.usageMetadata.promptTokenCount + body.usageMetadata.candidatesTokenCount + 7);
  assert.equal((await session.journal()).entries.length, 1, 'the ?key= query found the session');
});

test('no script matches: 409 in Gemini shape with ErrorInfo no_match, naming the nearest step [gemini.text.json -]', async () => {
  const { session, ai } = await open('gm-nomatch');
  session.scenario('greeting').whenLatestUser({ contains: 'Hello' }).replies('Hi');
  const error = await conflict(ai.models.generateContent({ model: MODEL, contents: 'Goodbye' }), 'no_match', 'greeting');
  assert.match(error.message, /latestUser/);
  const { entries, counters } = await session.journal();
  assert.deepEqual([entries[0].status, entries[0].error?.code, counters.unmatched], [409, 'no_match', 1]);
});

test('streamed text over SSE: one chunk per scripted piece, finishReason and full usage on the last [gemini.text.stream +]', async () => {
  const { session, ai } = await open('gm-stream');
  session.scenario('story').replies('Once upon a time.', { chunks: ['Once', ' upon', ' a time', '.'] });
  const chunks = await collect(await ai.models.generateContentStream({ model: MODEL, contents: 'Tell a story' }));
  assert.deepEqual(
    chunks.map((c) => c.text),
    ['Once', ' upon', ' a time', '.'],
  );
  assert.deepEqual(
    chunks.map((c) => c.candidates?.[0].finishReason),
    [undefined, undefined, undefined, 'STOP'],
  );
  const last = chunks[chunks.length - 1].usageMetadata;
  assert.ok(last?.candidatesTokenCount && last.candidatesTokenCount > 0);
  assert.equal(chunks[0].usageMetadata?.candidatesTokenCount, undefined, 'earlier chunks carry the prompt count only');
  assert.equal(chunks[0].usageMetadata?.promptTokenCount, last.promptTokenCount);
  assert.equal(new Set(chunks.map((c) => c.responseId)).size, 1, 'one response id across chunks');

  const { entries } = await session.journal();
  assert.equal(entries[0].operation, 'gemini.streamGenerateContent');
  assert.equal(entries[0].stream, true);
  assert.equal(entries[0].reply?.content, 'Once upon a time.');
});

test('the SSE stream has data lines only (no event: lines, no [DONE]) [gemini.text.stream +]', async () => {
  const session = await mock.session('gm-sse-raw');
  session.scenario('s').replies('Hello world', { chunks: ['Hello', ' world'] });
  const res = await fetch(`${mock.baseUrl}/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`, {
    method: 'POST',
    signal: AbortSignal.timeout(10_000),
    headers: { 'content-type': 'application/json', 'x-goog-api-key': session.apiKey },
    body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] }),
  });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
  const text = await res.text();
  const events = text.split('\r\n\r\n').filter((e) => e !== '');
  assert.equal(events.length, 2);
  for (const event of events) assert.match(event, /^data: \{/);
  assert.ok(!text.includes('event:'));
  assert.ok(!text.includes('[DONE]'));
  assert.ok(text.endsWith('\r\n\r\n'));
});

test('the default stream (no alt=sse) is one JSON array of chunks [gemini.text.stream +]', async () => {
  const session = await mock.session('gm-json-array');
  session.scenario('s').replies('Hello from the array', { chunks: ['Hello', ' from', ' the array'] });
  const res = await fetch(`${mock.baseUrl}/v1beta/models/${MODEL}:streamGenerateContent`, {
    method: 'POST',
    signal: AbortSignal.timeout(10_000),
    headers: { 'content-type': 'application/json', 'x-goog-api-key': session.apiKey },
    body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] }),
  });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  const chunks = (await res.json()) as { candidates: { content: { parts: { text: string }[] }; finishReason?: string }[] }[];
  assert.ok(Array.isArray(chunks));
  assert.deepEqual(
    chunks.map((c) => c.candidates[0].content.parts[0].text),
    ['Hello', ' from', ' the array'],
  );
  assert.deepEqual(
    chunks.map((c) => c.candidates[0].finishReason),
    [undefined, undefined, 'STOP'],
  );
  const { entries } = await session.journal();
  assert.equal(entries[0].stream, true);
  assert.equal(entries[0].status, 200);
});

test('a streamed request no script matches gets 409 before the stream starts [gemini.text.stream -]', async () => {
  const { session, ai } = await open('gm-stream-nomatch');
  session.scenario('only-hello').whenLatestUser({ equals: 'Hello' }).replies('Hi');
  await conflict(ai.models.generateContentStream({ model: MODEL, contents: 'Something else' }), 'no_match', 'only-hello');
  const { counters } = await session.journal();
  assert.equal(counters.unmatched, 1);
  assert.equal(counters.matched, 0);
});

// ------------------------------------------------------------------ tools

describe('tool rounds', () => {
  test('two-step round, not streamed: the scripted call id goes out and comes back [gemini.tools.json +]', async () => {
    const { session, ai } = await open('gm-tools');
    session
      .scenario('weather')
      .whenLatestUser({ contains: 'weather in Paris' })
      .callsTool('get_weather', { city: 'Paris' }, 'call_paris')
      .thenWhenToolResult('get_weather', 'call_paris', { temperature: 21 })
      .replies('Paris is sunny, 21 °C.');
    const config: GenerateContentConfig = { tools: [{ functionDeclarations: [weather, time] }] };
    const history: Content[] = [user('What is the weather in Paris?')];
    const first = await ai.models.generateContent({ model: MODEL, contents: history, config });
    assert.deepEqual(first.functionCalls, [{ id: 'call_paris', name: 'get_weather', args: { city: 'Paris' } }]);
    assert.equal(first.candidates?.[0].finishReason, 'STOP', 'Gemini ends a function-call answer with STOP');
    assert.deepEqual(
      first.candidates?.[0].content?.parts?.map((p) => Object.keys(p)),
      [['functionCall']],
      'only the call, no text part',
    );

    history.push(first.candidates?.[0].content as Content, {
      role: 'user',
      parts: [{ functionResponse: { id: 'call_paris', name: 'get_weather', response: { output: { temperature: 21 } } } }],
    });
    const second = await ai.models.generateContent({ model: MODEL, contents: history, config });
    assert.equal(second.text, 'Paris is sunny, 21 °C.');

    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.step]),
      [
        [200, 'step-1'],
        [200, 'step-2'],
      ],
    );
    assert.equal(entries[0].reply?.toolCalls[0].id, 'call_paris');
    const messages = entries[1].request?.messages ?? [];
    assert.deepEqual(
      messages.map((m) => m.role),
      ['user', 'assistant', 'tool'],
    );
    assert.deepEqual(messages[1].parts, [
      { type: 'tool_call', id: 'call_paris', name: 'get_weather', argumentsText: '{"city":"Paris"}', arguments: { city: 'Paris' } },
    ]);
    assert.deepEqual(messages[2].parts, [
      { type: 'tool_result', callId: 'call_paris', name: 'get_weather', content: '{"temperature":21}', isError: false },
    ]);
    await session.verify();
  });

  test('two-step round, streamed: without a scripted id none is sent, and ids are derived on the way back [gemini.tools.stream +]', async () => {
    const { session, ai } = await open('gm-tools-stream');
    session
      .scenario('weather')
      .whenLatestUser({ contains: 'Paris' })
      .callsTool('get_weather', { city: 'Paris' })
      .thenWhenToolResult('get_weather')
      .replies('It is sunny.', { chunks: ['It is', ' sunny.'] });
    const config: GenerateContentConfig = { tools: [{ functionDeclarations: [weather] }] };
    const history: Content[] = [user('Weather in Paris?')];
    const first = await collect(await ai.models.generateContentStream({ model: MODEL, contents: history, config }));
    assert.equal(first.length, 1, 'the call arrives whole, in one chunk');
    assert.deepEqual(first[0].functionCalls, [{ name: 'get_weather', args: { city: 'Paris' } }]);
    assert.equal(first[0].candidates?.[0].finishReason, 'STOP');

    history.push(first[0].candidates?.[0].content as Content, {
      role: 'user',
      parts: [{ functionResponse: { name: 'get_weather', response: { temperature: 21, sky: 'sunny' } } }],
    });
    const second = await collect(await ai.models.generateContentStream({ model: MODEL, contents: history, config }));
    assert.equal(second.map((c) => c.text).join(''), 'It is sunny.');

    const { entries } = await session.journal();
    assert.equal(entries[0].reply?.toolCalls[0].generatedId, true);
    const parts = (entries[1].request?.messages ?? []).flatMap((m) => m.parts);
    const call = parts.find((p) => p.type === 'tool_call');
    const result = parts.find((p) => p.type === 'tool_result');
    assert.ok(call?.type === 'tool_call' && result?.type === 'tool_result');
    assert.equal(call.id, 'get_weather@1.0', 'a call without id gets <name>@<content>.<part>');
    assert.equal(result.callId, call.id, 'the response without id pairs with the call of the same name');
    assert.deepEqual(JSON.parse(result.content), { temperature: 21, sky: 'sunny' });
    await session.verify();
  });

  test('streamed: arguments that fail the declared schema get 409 before the stream starts [gemini.tools.stream -]', async () => {
    const { session, ai } = await open('gm-tools-stream-bad');
    session.scenario('bad').callsTool('get_weather', { city: 75001 });
    await conflict(
      ai.models.generateContentStream({ model: MODEL, contents: 'Weather?', config: { tools: [{ functionDeclarations: [weather] }] } }),
      'fixture_mismatch',
      'at /city: must be string',
    );
    const { counters, entries } = await session.journal();
    assert.deepEqual([counters.mismatched, counters.matched, entries[0].stream], [1, 0, true]);
  });

  test('OpenAPI-style parameters (upper-case types, nullable, string bounds) are normalised and enforced [gemini.tools.json +]', async () => {
    const { session, ai } = await open('gm-openapi-params');
    const declaration: FunctionDeclaration = {
      name: 'tag_city',
      parameters: {
        type: Type.OBJECT,
        properties: {
          city: { type: Type.STRING, minLength: '2', maxLength: '20', example: { type: 'STRING' } },
          note: { type: Type.STRING, nullable: true },
          unit: { type: Type.STRING, format: 'enum', enum: ['C', 'F'], nullable: true },
          tags: { type: Type.ARRAY, items: { type: Type.STRING }, minItems: '1', maxItems: '3' },
          zip: { anyOf: [{ type: Type.INTEGER }, { type: Type.STRING }] },
          heading: { type: Type.STRING, enum: ['NORTH', 'SOUTH'] },
          floor: { type: Type.INTEGER, format: 'enum', enum: ['1', '2'] },
        },
        required: ['city', 'tags'],
      },
    };
    const args = { city: 'Paris', note: null, unit: null, tags: ['capital'], zip: 75001, heading: 'NORTH', floor: 2 };
    session.scenario('tag').callsTool('tag_city', args);
    const response = await ai.models.generateContent({
      model: MODEL,
      contents: 'Tag Paris',
      config: { tools: [{ functionDeclarations: [declaration] }] },
    });
    assert.deepEqual(response.functionCalls?.[0].args, args);

    const { entries } = await session.journal();
    assert.deepEqual(entries[0].request?.tools[0].parameters, {
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 2, maxLength: 20, example: { type: 'STRING' } },
        note: { type: ['string', 'null'] },
        unit: { anyOf: [{ type: 'string', format: 'enum', enum: ['C', 'F'] }, { type: 'null' }] },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
        zip: { anyOf: [{ type: 'integer' }, { type: 'string' }] },
        heading: { type: 'string', enum: ['NORTH', 'SOUTH'] },
        floor: { type: 'integer', format: 'enum', enum: [1, 2] },
      },
      required: ['city', 'tags'],
    });
  });

  test('arguments that violate the normalised OpenAPI schema: 409, nothing consumed [gemini.tools.json -]', async () => {
    const { session, ai } = await open('gm-openapi-violation');
    const declaration: FunctionDeclaration = {
      name: 'tag_city',
      parameters: {
        type: Type.OBJECT,
        properties: {
          tags: { type: Type.ARRAY, items: { type: Type.STRING }, minItems: '1' },
          unit: { type: Type.STRING, enum: ['C', 'F'] },
        },
        required: ['tags'],
      },
    };
    const config: GenerateContentConfig = { tools: [{ functionDeclarations: [declaration] }] };
    session.scenario('empty-tags').callsTool('tag_city', { tags: [] });
    await conflict(
      ai.models.generateContent({ model: MODEL, contents: 'Tag', config }),
      'fixture_mismatch',
      'at /tags: must NOT have fewer than 1 items',
    );
    await session.reset({ scripts: true });
    session.scenario('bad-unit').callsTool('tag_city', { tags: ['a'], unit: 'K' });
    await conflict(
      ai.models.generateContent({ model: MODEL, contents: 'Tag', config }),
      'fixture_mismatch',
      'must be equal to one of the allowed values',
    );
    const { counters } = await session.journal();
    assert.deepEqual([counters.mismatched, counters.matched], [1, 0]);
    // The mismatched step was not consumed: fixed, the same step answers.
    await session.reset({ scripts: true });
    session.scenario('fixed').callsTool('tag_city', { tags: ['a'], unit: 'C' });
    const ok = await ai.models.generateContent({ model: MODEL, contents: 'Tag', config });
    assert.deepEqual(ok.functionCalls?.[0].args, { tags: ['a'], unit: 'C' });
  });

  test('parametersJsonSchema is used as JSON Schema: valid arguments pass, others get 409 [gemini.tools.json +] [gemini.tools.json -]', async () => {
    const { session, ai } = await open('gm-json-schema-params');
    const declaration: FunctionDeclaration = {
      name: 'get_weather',
      parametersJsonSchema: {
        type: 'object',
        properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 7 } },
        required: ['city'],
        additionalProperties: false,
      },
    };
    const config: GenerateContentConfig = {
      tools: [{ functionDeclarations: [declaration] }],
      toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY } },
    };
    session.scenario('calls').callsTool('get_weather', { city: 'Paris', days: 3 }).callsTool('get_weather', { city: 'Paris', days: 9 });
    const ok = await ai.models.generateContent({ model: MODEL, contents: 'Forecast', config });
    assert.deepEqual(ok.functionCalls?.[0].args, { city: 'Paris', days: 3 });
    await conflict(ai.models.generateContent({ model: MODEL, contents: 'Forecast', config }), 'fixture_mismatch', 'at /days: must be <= 7');
    const { entries } = await session.journal();
    assert.deepEqual(entries[0].request?.toolChoice, { type: 'required' });
    assert.deepEqual(entries[0].request?.tools[0].parameters, declaration.parametersJsonSchema);
    assert.deepEqual(
      entries.map((e) => [e.status, e.step]),
      [
        [200, 'step-1'],
        [409, 'step-2'],
      ],
    );
  });

  test('ANY with allowedFunctionNames: a call outside the allowed names gets 409, nothing consumed [gemini.tools.json -]', async () => {
    const { session, ai } = await open('gm-any-allowed');
    const config: GenerateContentConfig = {
      tools: [{ functionDeclarations: [weather, time] }],
      toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY, allowedFunctionNames: ['get_time'] } },
    };
    session.scenario('wrong').callsTool('get_weather', { city: 'Paris' });
    await conflict(ai.models.generateContent({ model: MODEL, contents: 'Time in Paris?', config }), 'fixture_mismatch', 'get_time');
    // A text answer does not satisfy ANY either.
    await session.reset({ scripts: true });
    session.scenario('text').replies('It is noon.');
    await conflict(ai.models.generateContent({ model: MODEL, contents: 'Time in Paris?', config }), 'fixture_mismatch', 'requires');
    const { counters, entries } = await session.journal();
    assert.deepEqual([counters.mismatched, counters.matched], [1, 0]);
    assert.deepEqual(entries[0].request?.toolChoice, { type: 'named', name: 'get_time' });

    await session.reset({ scripts: true });
    session.scenario('right').callsTool('get_time', { city: 'Paris' });
    const ok = await ai.models.generateContent({ model: MODEL, contents: 'Time in Paris?', config });
    assert.deepEqual(ok.functionCalls, [{ name: 'get_time', args: { city: 'Paris' } }]);
  });

  test('ANY with two allowed names: the third declared function is refused, an allowed one passes [gemini.tools.json -]', async () => {
    const { session, ai } = await open('gm-any-two');
    const third: FunctionDeclaration = { name: 'get_tide', parameters: { type: Type.OBJECT, properties: {} } };
    const config: GenerateContentConfig = {
      tools: [{ functionDeclarations: [weather, time, third] }],
      toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY, allowedFunctionNames: ['get_weather', 'get_time'] } },
    };
    session.scenario('tide').callsTool('get_tide', {});
    await conflict(ai.models.generateContent({ model: MODEL, contents: 'Tide?', config }), 'fixture_mismatch', 'get_tide');
    await session.reset({ scripts: true });
    session.scenario('time').callsTool('get_time', { city: 'Brest' });
    const ok = await ai.models.generateContent({ model: MODEL, contents: 'Time?', config });
    assert.equal(ok.functionCalls?.[0].name, 'get_time');
    const { entries } = await session.journal();
    assert.deepEqual(entries[0].request?.toolChoice, { type: 'required' });
    assert.deepEqual(
      entries[0].request?.tools.map((t) => t.name),
      ['get_weather', 'get_time'],
    );
  });

  test('NONE with a scripted call: 409, nothing consumed; a text reply passes [gemini.tools.json -]', async () => {
    const { session, ai } = await open('gm-none');
    const config: GenerateContentConfig = {
      tools: [{ functionDeclarations: [weather] }],
      toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.NONE } },
    };
    session.scenario('calls').callsTool('get_weather', { city: 'Paris' });
    await conflict(ai.models.generateContent({ model: MODEL, contents: 'Weather?', config }), 'fixture_mismatch', 'none');
    await session.reset({ scripts: true });
    session.scenario('text').replies('I cannot look that up.');
    const ok = await ai.models.generateContent({ model: MODEL, contents: 'Weather?', config });
    assert.equal(ok.text, 'I cannot look that up.');
    const { entries } = await session.journal();
    assert.deepEqual(entries[0].request?.toolChoice, { type: 'none' });
  });

  test('parallel calls in one answer; responses pair with calls by name when no ids are sent [gemini.tools.json +]', async () => {
    const { session, ai } = await open('gm-parallel');
    session
      .scenario('both')
      .callsTools([
        { name: 'get_weather', arguments: { city: 'Paris' } },
        { name: 'get_time', arguments: { city: 'Paris' } },
      ])
      .thenWhenToolResult('get_time')
      .replies('Sunny, and it is noon.');
    const config: GenerateContentConfig = { tools: [{ functionDeclarations: [weather, time] }] };
    const first = await ai.models.generateContent({ model: MODEL, contents: 'Weather and time in Paris?', config });
    assert.deepEqual(
      first.functionCalls?.map((c) => c.name),
      ['get_weather', 'get_time'],
    );
    const second = await ai.models.generateContent({
      model: MODEL,
      config,
      contents: [
        user('Weather and time in Paris?'),
        first.candidates?.[0].content as Content,
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'get_time', response: { output: 'noon' } } },
            { functionResponse: { name: 'get_weather', response: { error: 'station offline' } } },
          ],
        },
      ],
    });
    assert.equal(second.text, 'Sunny, and it is noon.');
    const { entries } = await session.journal();
    const results = (entries[1].request?.messages ?? []).flatMap((m) => m.parts).filter((p) => p.type === 'tool_result');
    assert.deepEqual(results, [
      // Sent without ids: the decoder paired them with their calls by name and says so.
      { type: 'tool_result', callId: 'get_time@1.1', name: 'get_time', content: 'noon', isError: false, callIdMade: true },
      { type: 'tool_result', callId: 'get_weather@1.0', name: 'get_weather', content: 'station offline', isError: true, callIdMade: true },
    ]);
  });
});

// ------------------------------------------------------------------ structured output

describe('structured output', () => {
  test('responseSchema in OpenAPI style (upper-case types, nullable) is normalised and checked [gemini.structured.json +]', async () => {
    const { session, ai } = await open('gm-structured');
    session.scenario('capital').repliesJson({ answer: 'Paris', population: null, tags: ['capital'] });
    const response = await ai.models.generateContent({
      model: MODEL,
      contents: 'Capital of France?',
      config: {
        responseMimeType: 'application/json',
        responseSchema: {
          type: Type.OBJECT,
          properties: {
            answer: { type: Type.STRING },
            population: { type: Type.INTEGER, nullable: true },
            tags: { type: Type.ARRAY, items: { type: Type.STRING }, maxItems: '5' },
          },
          required: ['answer'],
          propertyOrdering: ['answer', 'population', 'tags'],
        },
      },
    });
    assert.deepEqual(JSON.parse(response.text ?? ''), { answer: 'Paris', population: null, tags: ['capital'] });
    const { entries } = await session.journal();
    assert.deepEqual(entries[0].request?.output, {
      type: 'json_schema',
      schema: {
        type: 'object',
        properties: {
          answer: { type: 'string' },
          population: { type: ['integer', 'null'] },
          tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
        },
        required: ['answer'],
        propertyOrdering: ['answer', 'population', 'tags'],
      },
    });
  });

  test('responseJsonSchema is checked as JSON Schema [gemini.structured.json +]', async () => {
    const { session, ai } = await open('gm-structured-json');
    session.scenario('capital').repliesJson({ answer: 'Paris' });
    const response = await ai.models.generateContent({
      model: MODEL,
      contents: 'Capital?',
      config: {
        responseMimeType: 'application/json',
        responseJsonSchema: {
          type: 'object',
          properties: { answer: { type: 'string' } },
          required: ['answer'],
          additionalProperties: false,
        },
      },
    });
    assert.equal(response.text, '{"answer":"Paris"}');
    const { entries } = await session.journal();
    assert.equal(entries[0].request?.output.type, 'json_schema');
  });

  test('JSON that fails responseSchema or responseJsonSchema: 409, nothing consumed [gemini.structured.json -]', async () => {
    const { session, ai } = await open('gm-structured-bad');
    session.scenario('wrong').repliesJson({ answer: 42 });
    await conflict(
      ai.models.generateContent({
        model: MODEL,
        contents: 'Capital?',
        config: {
          responseMimeType: 'application/json',
          responseSchema: { type: Type.OBJECT, properties: { answer: { type: Type.STRING } } },
        },
      }),
      'fixture_mismatch',
      'at /answer: must be string',
    );
    await conflict(
      ai.models.generateContent({
        model: MODEL,
        contents: 'Capital?',
        config: { responseMimeType: 'application/json', responseJsonSchema: { type: 'object', required: ['city'] } },
      }),
      'fixture_mismatch',
      "must have required property 'city'",
    );
    await session.reset({ scripts: true });
    session.scenario('text').replies('not json');
    await conflict(
      ai.models.generateContent({ model: MODEL, contents: 'Capital?', config: { responseMimeType: 'application/json' } }),
      'fixture_mismatch',
      'not valid JSON',
    );
    const { counters } = await session.journal();
    assert.equal(counters.matched, 0);
  });

  test('structured output streamed: the JSON text arrives in pieces that join to it [gemini.structured.stream +]', async () => {
    const { session, ai } = await open('gm-structured-stream');
    session.scenario('capital').repliesJson({ answer: 'Paris' }, { chunks: ['{"answer"', ':"Par', 'is"}'] });
    const chunks = await collect(
      await ai.models.generateContentStream({
        model: MODEL,
        contents: 'Capital?',
        config: {
          responseMimeType: 'application/json',
          responseJsonSchema: { type: 'object', properties: { answer: { type: 'string' } } },
        },
      }),
    );
    assert.equal(chunks.length, 3);
    assert.deepEqual(JSON.parse(chunks.map((c) => c.text).join('')), { answer: 'Paris' });
  });

  test('streamed JSON that fails the schema: 409 before the stream starts [gemini.structured.stream -]', async () => {
    const { session, ai } = await open('gm-structured-stream-bad');
    session.scenario('wrong').repliesJson({ answer: ['Paris'] });
    await conflict(
      ai.models.generateContentStream({
        model: MODEL,
        contents: 'Capital?',
        config: {
          responseMimeType: 'application/json',
          responseSchema: { type: Type.OBJECT, properties: { answer: { type: Type.STRING } } },
        },
      }),
      'fixture_mismatch',
      'at /answer: must be string',
    );
    const { entries } = await session.journal();
    assert.deepEqual([entries[0].status, entries[0].stream], [409, true]);
  });
});

// ------------------------------------------------------------------ scripted errors

describe('scripted errors', () => {
  test('a scripted 429 arrives as ApiError with RESOURCE_EXHAUSTED and RetryInfo; the next step answers [gemini.errors.json +]', async () => {
    const { session, ai } = await open('gm-429');
    session
      .scenario('throttled')
      .fails(429, 'Resource has been exhausted (e.g. check quota).', { headers: { 'retry-after': '7' } })
      .replies('after the limit');
    const { status, error } = await apiError(ai.models.generateContent({ model: MODEL, contents: 'Hi' }));
    assert.equal(status, 429);
    assert.equal(error.status, 'RESOURCE_EXHAUSTED');
    assert.equal(error.message, 'Resource has been exhausted (e.g. check quota).');
    assert.deepEqual(error.details, [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '7s' }]);
    const next = await ai.models.generateContent({ model: MODEL, contents: 'Hi' });
    assert.equal(next.text, 'after the limit');
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => e.status),
      [429, 200],
    );
  });

  test('scripted 500 and 403 become ApiErrors with INTERNAL and a scripted status name [gemini.errors.json -]', async () => {
    const { session, ai } = await open('gm-5xx');
    session
      .scenario('broken')
      .fails(500, 'An internal error has occurred.')
      .fails(403, 'Permission denied on resource project.', { code: 'PERMISSION_DENIED' });
    const e500 = await apiError(ai.models.generateContent({ model: MODEL, contents: 'Hi' }));
    assert.deepEqual([e500.status, e500.error.status, e500.error.details], [500, 'INTERNAL', undefined]);
    const e403 = await apiError(ai.models.generateContent({ model: MODEL, contents: 'Hi' }));
    assert.deepEqual([e403.status, e403.error.status], [403, 'PERMISSION_DENIED']);
    const { counters, entries } = await session.journal();
    assert.equal(counters.errorsReturned, 2);
    assert.equal(entries[0].usage?.outputTokens, 0);
  });

  test('a scripted 503 on a streaming request is thrown by generateContentStream [gemini.errors.stream +]', async () => {
    const { session, ai } = await open('gm-stream-503');
    session.scenario('busy').fails(503, 'The model is overloaded. Please try again later.').replies('back');
    const { status, error } = await apiError(ai.models.generateContentStream({ model: MODEL, contents: 'Hi' }));
    assert.deepEqual([status, error.status], [503, 'UNAVAILABLE']);
    const ok = await collect(await ai.models.generateContentStream({ model: MODEL, contents: 'Hi' }));
    assert.equal(ok.map((c) => c.text).join(''), 'back');
    assert.deepEqual(
      (await session.journal()).entries.map((e) => [e.status, e.stream]),
      [
        [503, true],
        [200, true],
      ],
    );
  });

  test('an in-stream failure: 200, then the error chunk the SDK throws while iterating [gemini.errors.stream +]', async () => {
    const { session, ai } = await open('gm-in-stream');
    session
      .scenario('crash')
      .reply({ error: { status: 500, message: 'The model crashed mid-answer', inStream: true } })
      .reply({ error: { status: 500, message: 'Again', inStream: true } });
    const stream = await ai.models.generateContentStream({ model: MODEL, contents: 'Hi' });
    const error = await collect(stream).catch((e: unknown) => e);
    assert.ok(error instanceof ApiError, `got ${String(error)}`);
    assert.equal(error.status, 500);
    assert.match(error.message, /crashed mid-answer/);

    // The default framing carries the same error object as the array's element.
    const res = await fetch(`${mock.baseUrl}/v1beta/models/${MODEL}:streamGenerateContent`, {
      method: 'POST',
      signal: AbortSignal.timeout(10_000),
      headers: { 'content-type': 'application/json', 'x-goog-api-key': session.apiKey },
      body: JSON.stringify({ contents: [{ parts: [{ text: 'Hi' }] }] }),
    });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), [{ error: { code: 500, message: 'Again', status: 'INTERNAL' } }]);
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.error?.message]),
      [
        [200, 'The model crashed mid-answer'],
        [200, 'Again'],
      ],
    );
  });

  test('a scripted fault part-way: the first chunk arrives, then the error chunk, in both framings [gemini.errors.stream +]', async () => {
    const { session, ai } = await open('gm-fault');
    const reply = {
      text: 'Hello there, world',
      chunks: ['Hello', ' there,', ' world'],
      fault: { kind: 'error' as const, afterChunks: 1, error: { status: 503, message: 'The model is overloaded.' } },
    };
    session.scenario('faulty').reply(reply).reply(reply);
    const seen: (string | undefined)[] = [];
    const error = await (async () => {
      for await (const chunk of await ai.models.generateContentStream({ model: MODEL, contents: 'Hi' })) seen.push(chunk.text);
    })().catch((e: unknown) => e);
    assert.deepEqual(seen, ['Hello']);
    assert.ok(error instanceof ApiError, `got ${String(error)}`);
    assert.equal(error.status, 503);
    assert.match(error.message, /overloaded/);

    const res = await fetch(`${mock.baseUrl}/v1beta/models/${MODEL}:streamGenerateContent`, {
      method: 'POST',
      signal: AbortSignal.timeout(10_000),
      headers: { 'content-type': 'application/json', 'x-goog-api-key': session.apiKey },
      body: JSON.stringify({ contents: [{ parts: [{ text: 'Hi' }] }] }),
    });
    const array = (await res.json()) as Record<string, unknown>[];
    assert.equal(array.length, 2);
    assert.deepEqual(array[1], { error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } });
  });

  test('a scripted error step is consumed when streamed; the next request finds the scenario exhausted [gemini.errors.stream -]', async () => {
    const { session, ai } = await open('gm-stream-consumed');
    session.scenario('once').fails(500, 'one failure');
    const first = await apiError(ai.models.generateContentStream({ model: MODEL, contents: 'Hi' }));
    assert.equal(first.status, 500);
    await conflict(ai.models.generateContentStream({ model: MODEL, contents: 'Hi' }), 'scenario_exhausted', 'once');
  });
});

// ------------------------------------------------------------------ zero-config

describe('zero-config', () => {
  test('a declared function is called with the smallest args its schema accepts, then a fixed sentence once its response is sent [gemini.zero-config.json +]', async () => {
    const { session, ai } = await open('gm-zero', { fallback: 'auto' });
    const config: GenerateContentConfig = { tools: [{ functionDeclarations: [weather] }] };
    const first = await ai.models.generateContent({ model: MODEL, contents: 'Weather?', config });
    assert.deepEqual(first.functionCalls, [{ name: 'get_weather', args: { city: '' } }]);
    const second = await ai.models.generateContent({
      model: MODEL,
      config,
      contents: [
        user('Weather?'),
        first.candidates?.[0].content as Content,
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: 'sunny' } } }] },
      ],
    });
    assert.equal(second.text, ZERO_CONFIG_TEXT);
    const plain = await ai.models.generateContent({ model: MODEL, contents: 'No tools here' });
    assert.equal(plain.text, ZERO_CONFIG_TEXT);
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => e.source),
      ['zero_config', 'zero_config', 'zero_config'],
    );
  });

  test('zero-config streamed: the call as one whole chunk, then text [gemini.zero-config.stream +]', async () => {
    const { session, ai } = await open('gm-zero-stream', { fallback: 'auto' });
    const config: GenerateContentConfig = { tools: [{ functionDeclarations: [weather] }] };
    const first = await collect(await ai.models.generateContentStream({ model: MODEL, contents: 'Weather?', config }));
    assert.equal(first.length, 1);
    assert.deepEqual(first[0].functionCalls, [{ name: 'get_weather', args: { city: '' } }]);
    const second = await collect(
      await ai.models.generateContentStream({
        model: MODEL,
        config,
        contents: [
          user('Weather?'),
          first[0].candidates?.[0].content as Content,
          { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: {} } }] },
        ],
      }),
    );
    assert.equal(second.map((c) => c.text).join(''), ZERO_CONFIG_TEXT);
    assert.equal((await session.journal()).entries.length, 2);
  });

  test('zero-config is opt-in, never calls a function under NONE, and still validates [gemini.zero-config.json -]', async () => {
    const strict = await open('gm-zero-strict');
    await conflict(strict.ai.models.generateContent({ model: MODEL, contents: 'Hi' }), 'no_match', 'no scripts');
    const { ai } = await open('gm-zero-none', { fallback: 'auto' });
    const none = await ai.models.generateContent({
      model: MODEL,
      contents: 'Weather?',
      config: {
        tools: [{ functionDeclarations: [weather] }],
        toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.NONE } },
      },
    });
    assert.equal(none.functionCalls, undefined);
    assert.equal(none.text, ZERO_CONFIG_TEXT);
    const bad = await apiError(ai.models.generateContent({ model: MODEL, contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] }));
    assert.equal(bad.status, 400);
  });

  test('zero-config streamed: a malformed stream request gets 400, not an answer [gemini.zero-config.stream -]', async () => {
    const { session, ai } = await open('gm-zero-stream-bad', { fallback: 'auto' });
    const bad = await apiError(
      ai.models.generateContentStream({
        model: MODEL,
        contents: 'Weather?',
        config: { tools: [{ functionDeclarations: [{ name: '9lives', parameters: { type: Type.OBJECT } }] }] },
      }),
    );
    assert.deepEqual([bad.status, bad.error.status], [400, 'INVALID_ARGUMENT']);
    const { counters } = await session.journal();
    assert.deepEqual([counters.invalid, counters.matched], [1, 0]);
  });
});

test("VidaiMock's Gemini curl example works verbatim against a zero-config default session [gemini.zero-config.json +]", async () => {
  const server = await startUnderstudy({ defaultSession: { fallback: 'auto' } });
  try {
    // The body exactly as the curl example sends it, with no API key.
    const body = `{"contents": [{"role": "user", "parts": [{"text": "Weather?"}]}],
       "tools": [{"functionDeclarations": [{"name": "get_weather",
                  "parameters": {"type": "OBJECT"}}]}]}`;
    const res = await fetch(`${server.baseUrl}/v1beta/models/gemini-2.5-flash:generateContent`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    assert.equal(res.status, 200);
    const answer = (await res.json()) as { candidates: { content: { role: string; parts: Part[] }; finishReason: string }[] };
    assert.deepEqual(answer.candidates[0].content, { parts: [{ functionCall: { name: 'get_weather', args: {} } }], role: 'model' });
    assert.equal(answer.candidates[0].finishReason, 'STOP');
    const { entries } = await server.defaultSession.journal();
    assert.deepEqual(
      entries.map((e) => [e.status, e.source, e.request?.tools[0].parameters]),
      [[200, 'zero_config', { type: 'object' }]],
    );
  } finally {
    await server.close();
  }
});

// ------------------------------------------------------------------ Vertex AI

describe('Vertex AI', () => {
  /** An auth client that hands out the session key as the bearer token: nothing reaches Google. */
  function vertex(session: UnderstudySession): GoogleGenAI {
    const authClient = { getRequestHeaders: async () => new Headers({ authorization: `Bearer ${session.apiKey}` }) };
    return new GoogleGenAI({
      vertexai: true,
      project: 'my-proj',
      location: 'us-central1',
      httpOptions: { baseUrl: mock.url('vertex'), timeout: 10_000 },
      googleAuthOptions: { authClient: authClient as never },
    });
  }

  test('project/location path with an OAuth bearer, and express mode with an API key [gemini.vertex.json +]', async () => {
    const session = await mock.session('gm-vertex', { clock: 1_767_225_600 });
    session.scenario('hi').replies('Hello from Vertex').replies('Hello, express');
    const response = await vertex(session).models.generateContent({ model: MODEL, contents: 'Hi' });
    assert.equal(response.text, 'Hello from Vertex');
    assert.equal(response.createTime, '2026-01-01T00:00:00.000Z');
    const express = new GoogleGenAI({
      vertexai: true,
      apiKey: session.apiKey,
      httpOptions: { baseUrl: mock.url('vertex'), timeout: 10_000 },
    });
    const second = await express.models.generateContent({ model: MODEL, contents: 'Hi' });
    assert.equal(second.text, 'Hello, express');
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.operation, e.route]),
      [
        [
          'vertex.generateContent',
          `POST /v1beta1/projects/my-proj/locations/us-central1/publishers/google/models/${MODEL}:generateContent`,
        ],
        ['vertex.generateContent', `POST /v1beta1/publishers/google/models/${MODEL}:generateContent`],
      ],
    );
  });

  test('Vertex streaming and a tool round [gemini.vertex.stream +]', async () => {
    const session = await mock.session('gm-vertex-stream');
    session
      .scenario('weather')
      .callsTool('get_weather', { city: 'Lyon' })
      .thenWhenToolResult('get_weather')
      .replies('Lyon is cloudy.', { chunks: ['Lyon', ' is cloudy.'] });
    const ai = vertex(session);
    const config: GenerateContentConfig = { tools: [{ functionDeclarations: [weather] }] };
    const first = await collect(await ai.models.generateContentStream({ model: MODEL, contents: 'Weather in Lyon?', config }));
    assert.deepEqual(first[0].functionCalls, [{ name: 'get_weather', args: { city: 'Lyon' } }]);
    const second = await collect(
      await ai.models.generateContentStream({
        model: MODEL,
        config,
        contents: [
          user('Weather in Lyon?'),
          first[0].candidates?.[0].content as Content,
          { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { sky: 'cloudy' } } }] },
        ],
      }),
    );
    assert.deepEqual(
      second.map((c) => c.text),
      ['Lyon', ' is cloudy.'],
    );
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => [e.operation, e.status]),
      [
        ['vertex.streamGenerateContent', 200],
        ['vertex.streamGenerateContent', 200],
      ],
    );
  });

  test('Vertex answers malformed requests with the same 400 shape [gemini.vertex.json -]', async () => {
    const session = await mock.session('gm-vertex-bad');
    session.scenario('hi').replies('unused');
    const { status, error } = await apiError(
      vertex(session).models.generateContent({ model: MODEL, contents: [{ role: 'robot', parts: [{ text: 'Hi' }] }] }),
    );
    assert.deepEqual([status, error.status, error.message], [400, 'INVALID_ARGUMENT', 'Please use a valid role: user, model.']);
    const { counters } = await session.journal();
    assert.deepEqual([counters.invalid, counters.matched], [1, 0]);
  });

  test('Vertex streaming: a scripted call that fails the schema gets 409; an unknown API version 404 [gemini.vertex.stream -]', async () => {
    const session = await mock.session('gm-vertex-stream-bad');
    session.scenario('bad').callsTool('get_weather', {});
    await conflict(
      vertex(session).models.generateContentStream({
        model: MODEL,
        contents: 'Weather?',
        config: { tools: [{ functionDeclarations: [weather] }] },
      }),
      'fixture_mismatch',
      "must have required property 'city'",
    );
    const res = await fetch(`${mock.baseUrl}/v9/projects/p/locations/l/publishers/google/models/${MODEL}:streamGenerateContent?alt=sse`, {
      method: 'POST',
      signal: AbortSignal.timeout(10_000),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.apiKey}` },
      body: JSON.stringify({ contents: [{ parts: [{ text: 'Hi' }] }] }),
    });
    assert.equal(res.status, 404);
    const body = (await res.json()) as { error: { status: string } };
    assert.equal(body.error.status, 'NOT_FOUND');
  });
});

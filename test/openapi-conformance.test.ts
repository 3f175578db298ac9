// Understudy against OpenAI's own published description of its API (openai/openai-openapi, the
// pinned version's structural facts in test/fixtures/openapi/, written by
// scripts/derive-openapi-facts.mjs). The real `openai` SDK drives Chat Completions and Responses,
// zero-config and scripted, JSON and streaming, through a fetch that keeps a copy of every body:
// each body, each stream chunk and each stream event is validated against the description's
// schema for it, and every error body against its error schema. Where the live API is known to
// differ from its description, Understudy follows the live API: those places are the named
// exceptions below, each with its reason, and each must still be met (a stale one fails).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import OpenAI from 'openai';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import type { Reply } from '../src/core/model.js';
import { forbiddenRequests, type ForbiddenCase } from './support/forbidden-requests.js';
import { describeErrors, descriptionValidators } from './support/description-facts.js';
import { recordedEvents, recordingFetch, type RecordedResponse } from './support/recording-fetch.js';
import type { ErrorObject } from 'ajv/dist/2020.js';

const V = descriptionValidators();
const MODEL = 'gpt-4o-mini';

/**
 * Where Understudy follows the live API rather than the description. `where` is matched against
 * the schema a body is validated against and the instance path inside it
 * (`ResponseCreatedEvent/response/usage`), `keyword` is the rule of the description the live API
 * does not keep.
 */
interface LiveException {
  name: string;
  where: RegExp;
  keyword: string;
  why: string;
}

const LIVE_EXCEPTIONS: LiveException[] = [
  {
    name: 'Response.user is null when no user was sent',
    where: /^Response\w*(\/response)?\/user$/,
    keyword: 'type',
    why:
      'The description types the echoed `user` as a string; the live API echoes `user: null` when the request sent none ' +
      "(wire-formats.md §4, the captured response object), as the document's own examples of every response event do.",
  },
  {
    name: 'usage is null while nothing was counted',
    where: /^Response(Created|InProgress|Failed)Event\/response\/usage$/,
    keyword: 'type',
    why:
      'The description has `usage` as an object (or absent) on every Response; the live API sends `usage: null` in ' +
      "response.created and response.in_progress (issue 16), and the document's own examples of those events and of " +
      'response.failed show `usage: null` too.',
  },
  {
    name: 'an embedding asked for as base64 is a string',
    where: /^CreateEmbeddingResponse\/data\/\d+\/embedding$/,
    keyword: 'type',
    why:
      'The description types `embedding` as a list of numbers; with `encoding_format: base64` the live API sends the ' +
      "vector's little-endian float32 bytes as one base64 string, which the openai SDK asks for by default and decodes " +
      '(wire-formats.md §13, sdk-captures/openai-embeddings.json).',
  },
];

const met = new Set<string>();

function exceptionFor(schema: string, error: ErrorObject): LiveException | undefined {
  const at = `${schema}${error.instancePath}`;
  return LIVE_EXCEPTIONS.find((e) => e.keyword === error.keyword && e.where.test(at));
}

/** Validates one body against a schema of the description, minus the named exceptions. */
function conforms(schema: string, value: unknown, where: string): void {
  const validate = V.schema(schema);
  if (validate(value)) return;
  // With allErrors, a failed branch of an anyOf reports its own errors and then the anyOf's own:
  // the body passes when every error left is explained by an exception or wraps one that is.
  const errors = validate.errors ?? [];
  let explained = 0;
  const unexplained = errors.filter((error) => {
    const exception = exceptionFor(schema, error);
    if (exception) {
      met.add(exception.name);
      explained++;
    }
    return !exception && error.keyword !== 'anyOf' && error.keyword !== 'oneOf';
  });
  if (unexplained.length === 0 && explained > 0) return;
  assert.fail(
    `${where}: does not match the description's ${schema}:\n${describeErrors(unexplained.length ? unexplained : errors)}\n${JSON.stringify(value).slice(0, 600)}`,
  );
}

const ROOT = V.facts.roots;

/** The description's schema for each Responses stream event type, read from ResponseStreamEvent's branches. */
const EVENT_SCHEMAS: Map<string, string> = (() => {
  const map = new Map<string, string>();
  const union = V.facts.schemas[V.facts.roots['responses.event']] as { anyOf?: { $ref: string }[]; oneOf?: { $ref: string }[] };
  for (const branch of union.anyOf ?? union.oneOf ?? []) {
    const name = branch.$ref.split('/').pop() as string;
    const schema = V.facts.schemas[name] as { properties?: { type?: { enum?: string[] } } };
    for (const type of schema.properties?.type?.enum ?? []) map.set(type, name);
  }
  return map;
})();

/** Every body in `recorded`, judged by what it is: a JSON answer, an error, a Chat or a Responses stream. */
function judge(recorded: RecordedResponse[], api: 'chat' | 'responses'): string[] {
  const seen: string[] = [];
  for (const r of recorded) {
    const where = `${r.url} ${r.status}`;
    if (r.status !== 200) {
      conforms(ROOT.error, JSON.parse(r.body), where);
      seen.push(`error ${r.status}`);
      continue;
    }
    // What the SDK sent and Understudy took must be a request the description takes too: a check
    // on how the test reads the document, as much as on the SDK.
    if (r.requestBody !== undefined) {
      const request = REQUESTS.root(`${api}.request`);
      assert.ok(
        request(JSON.parse(r.requestBody)),
        `${where}: the SDK's request is not one the description takes:\n${describeErrors(request.errors)}\n${r.requestBody.slice(0, 400)}`,
      );
      seen.push(`${api}.request`);
    }
    if (r.contentType.startsWith('application/json')) {
      conforms(ROOT[`${api}.response`], JSON.parse(r.body), where);
      seen.push(`${api}.response`);
      continue;
    }
    assert.match(r.contentType, /^text\/event-stream/, where);
    const events = recordedEvents(r);
    for (const [i, e] of events.entries()) {
      if (api === 'chat') {
        if (e.data === '[DONE]') {
          assert.equal(i, events.length - 1, `${where}: [DONE] ends the stream`);
          continue;
        }
        const chunk = JSON.parse(e.data) as Record<string, unknown>;
        if ('error' in chunk) {
          conforms(ROOT.error, chunk, `${where} chunk ${i}`);
          seen.push('chat.error-chunk');
        } else {
          conforms(ROOT['chat.chunk'], chunk, `${where} chunk ${i}`);
          seen.push(Array.isArray(chunk.choices) && chunk.choices.length === 0 ? 'chat.usage-chunk' : 'chat.chunk');
        }
        continue;
      }
      const event = JSON.parse(e.data) as { type: string };
      assert.equal(e.event, event.type, `${where} event ${i}: the event line names the data's type`);
      const schema = EVENT_SCHEMAS.get(event.type);
      assert.ok(schema, `${where} event ${i}: '${event.type}' is not an event type of the description`);
      conforms(schema, event, `${where} event ${i}`);
      seen.push(event.type);
    }
  }
  return seen;
}

let mock: Understudy;

before(async () => {
  mock = await startUnderstudy();
});

after(async () => {
  await mock.close();
});

async function open(name: string): Promise<{ session: UnderstudySession; client: OpenAI; recorded: ReturnType<typeof recordingFetch> }> {
  const session = await mock.session(`openapi-${name}`, { fallback: 'auto' });
  const recorded = recordingFetch();
  const client = new OpenAI({
    baseURL: mock.url('openai'),
    apiKey: session.apiKey,
    maxRetries: 0,
    timeout: 10_000,
    logLevel: 'off',
    fetch: recorded.fetch,
  });
  return { session, client, recorded };
}

const WEATHER = {
  type: 'object',
  properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
  required: ['city', 'unit'],
  additionalProperties: false,
};
const ANSWER = {
  type: 'object',
  properties: { answer: { type: 'string' }, confidence: { type: 'number' } },
  required: ['answer', 'confidence'],
  additionalProperties: false,
};

const chatTools = [{ type: 'function' as const, function: { name: 'weather', parameters: WEATHER, strict: true } }];
const chatSchema = { type: 'json_schema' as const, json_schema: { name: 'answer', schema: ANSWER, strict: true } };
const responsesTools = [{ type: 'function' as const, name: 'weather', parameters: WEATHER, strict: true }];
const responsesSchema = { format: { type: 'json_schema' as const, name: 'answer', schema: ANSWER, strict: true } };

/** Scripted replies every API is asked for, JSON and streamed: text, parallel calls, JSON,
 * reasoning and a length stop. */
const SCRIPTED: { name: string; reply: Reply; tools?: boolean; schema?: boolean }[] = [
  { name: 'text in chunks', reply: { text: 'Paris is sunny.', chunks: ['Paris ', 'is ', 'sunny.'] } },
  {
    name: 'two tool calls',
    tools: true,
    reply: {
      toolCalls: [
        { id: 'call_paris', name: 'weather', arguments: { city: 'Paris', unit: 'celsius' } },
        { id: 'call_rome', name: 'weather', arguments: { city: 'Rome', unit: 'celsius' } },
      ],
    },
  },
  {
    name: 'text and a tool call',
    tools: true,
    reply: { text: 'Checking.', toolCalls: [{ name: 'weather', arguments: { city: 'Oslo', unit: 'celsius' } }] },
  },
  { name: 'structured output', schema: true, reply: { json: { answer: 'Paris', confidence: 0.9 } } },
  { name: 'reasoning', reply: { text: 'Forty-two.', reasoning: 'The user wants the answer.', reasoningTokens: 12 } },
  { name: 'length stop', reply: { text: 'The answer is', finishReason: 'length' } },
];

describe('Chat Completions answers match the description', () => {
  test('zero-config: text, a tool call, structured output, logprobs asked for; JSON and streamed with the usage chunk', async () => {
    const { client, recorded } = await open('chat-zero-config');
    const user = [{ role: 'user' as const, content: 'What is the weather in Paris?' }];
    const asks = [
      { model: MODEL, messages: user },
      { model: MODEL, messages: user, tools: chatTools },
      { model: MODEL, messages: user, response_format: chatSchema },
      { model: MODEL, messages: user, logprobs: true, top_logprobs: 2 },
    ];
    for (const ask of asks) {
      await client.chat.completions.create(ask);
      const stream = await client.chat.completions.create({ ...ask, stream: true, stream_options: { include_usage: true } });
      for await (const _ of stream);
      await client.chat.completions.stream(ask).finalChatCompletion();
    }
    const seen = judge(await recorded.responses(), 'chat');
    assert.ok(seen.includes('chat.usage-chunk'));
    assert.ok(seen.includes('chat.request'), "the SDK's requests were judged too");
    assert.equal(seen.filter((s) => s === 'chat.response').length, asks.length);
  });

  test('scripted: text in chunks, parallel tool calls, structured output, reasoning tokens, a length stop', async () => {
    const { session, client, recorded } = await open('chat-scripted');
    const user = [{ role: 'user' as const, content: 'Hi' }];
    for (const { name, reply, tools, schema } of SCRIPTED) {
      await session.load({ name: `chat ${name}`, replies: [reply, reply] }, { replace: true });
      const ask = { model: MODEL, messages: user, ...(tools && { tools: chatTools }), ...(schema && { response_format: chatSchema }) };
      await client.chat.completions.create(ask);
      await client.chat.completions.stream({ ...ask, stream_options: { include_usage: true } }).finalChatCompletion();
    }
    judge(await recorded.responses(), 'chat');
  });

  test('errors: a refused request, a scripted 429 and 500, and an error inside a stream', async () => {
    const { session, client, recorded } = await open('chat-errors');
    const user = [{ role: 'user' as const, content: 'Hi' }];
    await session.load({
      name: 'errors',
      replies: [
        { error: { status: 429, message: 'Rate limit reached', code: 'rate_limit_exceeded', type: 'requests' } },
        { error: { status: 500, message: 'The server had an error' } },
        { error: { status: 500, message: 'The model crashed', code: 'server_error', inStream: true } },
      ],
    });
    await assert.rejects(client.chat.completions.create({ model: MODEL, messages: user, temperature: 12345 }), OpenAI.BadRequestError);
    await assert.rejects(client.chat.completions.create({ model: MODEL, messages: user }), OpenAI.RateLimitError);
    await assert.rejects(client.chat.completions.create({ model: MODEL, messages: user }), OpenAI.InternalServerError);
    // openai 6 throws the error chunk as an APIError; openai 7 (the current-SDK lane) may end the
    // stream with an abort instead: either way it rejects, and the chunk's bytes are judged below.
    await assert.rejects(async () => {
      for await (const _ of await client.chat.completions.create({ model: MODEL, messages: user, stream: true }));
    });
    const seen = judge(await recorded.responses(), 'chat');
    assert.deepEqual(
      seen.filter((s) => s.startsWith('error') || s === 'chat.error-chunk'),
      ['error 400', 'error 429', 'error 500', 'chat.error-chunk'],
    );
  });
});

test("Understudy's own refusals are OpenAI-shaped errors too: no match, a contract mismatch, a body that is not JSON", async () => {
  const session = await mock.session('openapi-own-errors');
  const recorded = recordingFetch();
  const client = new OpenAI({
    baseURL: mock.url('openai'),
    apiKey: session.apiKey,
    maxRetries: 0,
    timeout: 10_000,
    logLevel: 'off',
    fetch: recorded.fetch,
  });
  const user = [{ role: 'user' as const, content: 'Hi' }];
  await assert.rejects(client.chat.completions.create({ model: MODEL, messages: user }), OpenAI.ConflictError);
  await assert.rejects(client.responses.create({ model: MODEL, input: 'Hi' }), OpenAI.ConflictError);
  await session.load({ name: 'wrong tool', replies: [{ toolCalls: [{ name: 'not_declared', arguments: {} }] }] });
  await assert.rejects(client.chat.completions.create({ model: MODEL, messages: user, tools: chatTools }), OpenAI.ConflictError);
  const answers = await recorded.responses();
  assert.deepEqual(
    answers.map((r) => r.status),
    [409, 409, 409],
  );
  for (const r of answers) conforms(ROOT.error, JSON.parse(r.body), `${r.url} ${r.status}`);
  for (const path of ['/chat/completions', '/responses']) {
    const answer = await fetch(`${mock.url('openai')}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.apiKey}` },
      body: '{"model": "gpt-4o-mini", ',
      signal: AbortSignal.timeout(10_000),
    });
    assert.equal(answer.status, 400);
    conforms(ROOT.error, await answer.json(), `${path} with a body that is not JSON`);
  }
});

describe('Responses answers match the description', () => {
  test('zero-config: text, a function call, structured output; JSON and streamed', async () => {
    const { client, recorded } = await open('responses-zero-config');
    const asks = [
      { model: MODEL, input: 'What is the weather in Paris?' },
      { model: MODEL, input: 'What is the weather in Paris?', tools: responsesTools },
      { model: MODEL, input: 'Answer in JSON.', text: responsesSchema },
    ];
    for (const ask of asks) {
      await client.responses.create(ask);
      await client.responses.stream(ask).finalResponse();
    }
    const seen = judge(await recorded.responses(), 'responses');
    assert.ok(seen.includes('responses.request'), "the SDK's requests were judged too");
    for (const type of [
      'response.created',
      'response.in_progress',
      'response.output_text.delta',
      'response.function_call_arguments.done',
      'response.completed',
    ])
      assert.ok(seen.includes(type), `${type} was sent`);
  });

  test('scripted: text in chunks, parallel function calls, structured output, reasoning, incomplete', async () => {
    const { session, client, recorded } = await open('responses-scripted');
    for (const { name, reply, tools, schema } of SCRIPTED) {
      await session.load({ name: `responses ${name}`, replies: [reply, reply] }, { replace: true });
      const ask = { model: MODEL, input: 'Hi', ...(tools && { tools: responsesTools }), ...(schema && { text: responsesSchema }) };
      await client.responses.create(ask);
      await client.responses.stream(ask).finalResponse();
    }
    const seen = judge(await recorded.responses(), 'responses');
    for (const type of ['response.reasoning_summary_text.delta', 'response.incomplete']) assert.ok(seen.includes(type), `${type} was sent`);
  });

  test('errors: a refused request, a scripted 429, response.failed and the error event', async () => {
    const { session, client, recorded } = await open('responses-errors');
    await session.load({
      name: 'errors',
      replies: [
        { error: { status: 429, message: 'Rate limit reached', code: 'rate_limit_exceeded', type: 'requests' } },
        { error: { status: 500, message: 'The model crashed', code: 'server_error', inStream: true } },
        { error: { status: 400, message: 'Your input exceeds the context window', code: 'context_length_exceeded', inStream: true } },
      ],
    });
    await assert.rejects(client.responses.create({ model: MODEL, input: 'Hi', temperature: 12345 }), OpenAI.BadRequestError);
    await assert.rejects(client.responses.create({ model: MODEL, input: 'Hi' }), OpenAI.RateLimitError);
    const failed = await client.responses.stream({ model: MODEL, input: 'Hi' }).finalResponse();
    assert.equal(failed.status, 'failed');
    // openai 6 yields the error event; openai 7 (the current-SDK lane) throws it as an APIError.
    const types: string[] = [];
    const stream = await client.responses.create({ model: MODEL, input: 'Hi', stream: true });
    try {
      for await (const event of stream) types.push(event.type);
      assert.equal(types.at(-1), 'error');
    } catch (error) {
      assert.ok(error instanceof OpenAI.APIError, String(error));
    }
    const seen = judge(await recorded.responses(), 'responses');
    assert.ok(seen.includes('response.failed') && seen.includes('error') && seen.includes('error 400') && seen.includes('error 429'));
  });
});

// ------------------------------------------------------------------ requests

/** Requests are judged with every oneOf read as anyOf (test/support/description-facts.ts says why). */
const REQUESTS = descriptionValidators(V.facts, { oneOf: 'anyOf' });

const FUNCTION_PARAMETERS = { type: 'object', properties: {} };

/** Each API's smallest valid request; a tool named as the generated samples name theirs (`x`), and
 * the word json in the prompt, so the members that need them are judged on their own rules. */
const REQUEST_APIS = [
  {
    name: 'Chat Completions',
    path: '/chat/completions',
    root: ROOT['chat.request'],
    base: {
      model: MODEL,
      messages: [{ role: 'user', content: 'Answer in json' }],
      tools: [{ type: 'function', function: { name: 'x', parameters: FUNCTION_PARAMETERS } }],
    },
    /** A tool round, whose assistant and tool messages are judged under it. */
    round: [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'x', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'ok' },
    ],
    roundField: 'messages',
    // The examples of forbidden values that were once answered 200, and members only a
    // streamed base or a tool round reaches.
    mustCover: [
      'temperature',
      'top_p',
      'top_logprobs',
      'logprobs',
      'frequency_penalty',
      'n',
      'stop',
      'stream_options.include_usage',
      'messages[1].tool_calls[0].type',
      'messages[2].tool_call_id',
    ],
  },
  {
    name: 'Responses',
    path: '/responses',
    root: ROOT['responses.request'],
    base: {
      model: MODEL,
      input: 'Answer in json',
      store: false,
      tools: [{ type: 'function', name: 'x', parameters: FUNCTION_PARAMETERS, strict: false }],
    },
    round: [
      { role: 'user', content: 'Hi' },
      { type: 'function_call', call_id: 'call_1', name: 'x', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'ok' },
    ],
    roundField: 'input',
    mustCover: [
      'temperature',
      'top_p',
      'top_logprobs',
      'max_output_tokens',
      'truncation',
      'include[0]',
      'reasoning.effort',
      'stream_options.include_obfuscation',
      'input[1].call_id',
      'input[2].output',
    ],
  },
];

async function send(session: UnderstudySession, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${mock.url('openai')}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${session.apiKey}` },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  // A 200 to a streamed base is a stream: only refusals are read as JSON.
  return { status: response.status, body: text && response.status !== 200 ? JSON.parse(text) : undefined };
}

/** Does `param` name the member at `path`, or one that holds it, or one inside it? */
function names(param: unknown, path: string): boolean {
  if (typeof param !== 'string') return false;
  const inside = (outer: string, inner: string) => inner === outer || inner.startsWith(`${outer}.`) || inner.startsWith(`${outer}[`);
  return inside(param, path) || inside(path, param);
}

/** How many cases made from a base that Understudy itself refuses are sent (they can only be
 * refused too; the hosted tools' thousands would only cost time). */
const SENT_UNDER_REFUSED_BASE = 3;

const show = (c: ForbiddenCase) => `${c.path} = ${JSON.stringify(c.value)?.slice(0, 60)} (${c.rule})`;

describe("requests the description forbids are refused with OpenAI's 400", () => {
  for (const api of REQUEST_APIS) {
    test(`${api.name}: every forbidden value the facts yield is a 400 naming the field`, async (t) => {
      const session = await mock.session(`openapi-forbidden-${api.path.slice(1).replace(/\W/g, '-')}`, { fallback: 'auto' });
      const generator = forbiddenRequests(REQUESTS.facts, api.root, REQUESTS.schema(api.root));
      // stream_options is only taken with stream: true, so its members are judged under a streamed
      // base; the items after the first of a conversation, under a tool round.
      const round = { ...api.base, [api.roundField]: api.round };
      const cases = [
        ...generator.cases(api.base),
        ...generator.cases({ ...api.base, stream: true }).filter((c) => c.path.startsWith('stream_options.')),
        ...generator.cases(round).filter((c) => /^(messages|input)\[[12]\]/.test(c.path)),
      ];

      // A case's base is valid by the description; Understudy may still refuse it for a reason of
      // its own (a hosted tool it cannot run, a tool message with no call before it): then the
      // case is a 400 too, but its param is the reason's.
      const baseStatus = new Map<string, number>();
      const accepted: string[] = [];
      const misnamed: string[] = [];
      let judged = 0;
      const judgedPaths = new Set<string>();
      const sentUnder = new Map<string, number>();
      for (const c of cases) {
        const key = JSON.stringify(c.base);
        if (!baseStatus.has(key)) baseStatus.set(key, (await send(session, api.path, c.base)).status);
        // Under a base Understudy refuses, a case can only be that refusal again: a few are sent.
        const sent = sentUnder.get(key) ?? 0;
        if (baseStatus.get(key) !== 200 && sent >= SENT_UNDER_REFUSED_BASE) continue;
        sentUnder.set(key, sent + 1);
        const answer = await send(session, api.path, c.body);
        if (answer.status === 200) {
          accepted.push(show(c));
          continue;
        }
        assert.equal(answer.status, 400, `${show(c)}: ${JSON.stringify(answer.body)}`);
        conforms(ROOT.error, answer.body, show(c));
        assert.equal(answer.body.error.type, 'invalid_request_error', show(c));
        if (baseStatus.get(key) !== 200) continue;
        judged++;
        judgedPaths.add(c.path);
        if (!names(answer.body.error.param, c.path))
          misnamed.push(`${show(c)} → param ${String(answer.body.error.param)}: ${answer.body.error.message}`);
      }
      // Judged, not only sent: the base they were made from was taken, so the 400 is theirs.
      for (const field of api.mustCover) assert.ok(judgedPaths.has(field), `forbidden values for ${field} were judged`);
      assert.deepEqual(accepted, [], `forbidden by the description, answered 200:\n${accepted.join('\n')}`);
      assert.deepEqual(misnamed, [], `refused without naming the field:\n${misnamed.join('\n')}`);
      const refusedBases = [...baseStatus.values()].filter((status) => status !== 200).length;
      t.diagnostic(
        `${cases.length} forbidden requests; ${judged} judged by their param; ${refusedBases} of ${baseStatus.size} valid bases refused by Understudy for its own reasons`,
      );
      assert.ok(judged >= 300, `the facts still yield a few hundred judged cases (${judged})`);
    });
  }

  test('null on an optional member is read as not sent, where the description refuses it too (live-API exception)', async () => {
    // The description refuses null for members it does not mark nullable (`user`, `tools`,
    // `top_logprobs` …); the live API reads a JSON null as not sent (`user: null` is accepted,
    // issue 16), and so does Understudy: the answer is the one the body without the member gets.
    for (const api of REQUEST_APIS) {
      const session = await mock.session(`openapi-null-${api.path.slice(1).replace(/\W/g, '-')}`, { fallback: 'auto' });
      const nulls = forbiddenRequests(REQUESTS.facts, api.root, REQUESTS.schema(api.root)).nullRefused(api.base);
      assert.ok(
        nulls.some((c) => c.path === 'user'),
        `${api.name}: the description refuses user: null`,
      );
      for (const c of nulls) {
        const without = structuredClone(c.base);
        delete without[c.path];
        const [withNull, withoutMember] = [await send(session, api.path, c.body), await send(session, api.path, without)];
        assert.equal(
          withNull.status,
          withoutMember.status,
          `${api.name} ${c.path}: null answered ${withNull.status}, absent ${withoutMember.status}`,
        );
      }
    }
  });

  test('image URLs (format: uri): what the description takes is taken, a string with no scheme is refused (property)', async () => {
    const session = await mock.session('openapi-uri-property', { fallback: 'auto' });
    const uri = REQUESTS.schema('ChatCompletionRequestMessageContentPartImage');
    const chat = (url: string) => ({ model: MODEL, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }] });
    const responses = (url: string) => ({
      model: MODEL,
      store: false,
      input: [{ role: 'user', content: [{ type: 'input_image', image_url: url }] }],
    });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.webUrl(),
          fc.string(),
          fc.string().map((s) => `data:image/png;base64,${s}`),
        ),
        async (url) => {
          const described = uri({ type: 'image_url', image_url: { url } });
          const schemeless = !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(url);
          for (const [path, body, param] of [
            ['/chat/completions', chat(url), 'messages[0].content[0].image_url.url'],
            ['/responses', responses(url), 'input[0].content[0].image_url'],
          ] as const) {
            const answer = await send(session, path, body);
            if (described) assert.equal(answer.status, 200, `${path} ${JSON.stringify(url)}: ${JSON.stringify(answer.body)}`);
            if (schemeless) {
              assert.equal(answer.status, 400, `${path} ${JSON.stringify(url)}`);
              assert.equal(answer.body.error.param, param);
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  test('every tool, tool_choice, tool call and input item type the description lists is decoded or refused as unsupported, never as unknown', async () => {
    // The `type` values of a union's branches, read from the facts: a type the description adds
    // later is met here the day the fixture moves to it.
    const typesOf = (name: string): string[] => {
      const found = new Set<string>();
      const visit = (node: any): void => {
        while (node?.$ref) node = V.facts.schemas[node.$ref.split('/').pop()];
        if (!node || typeof node !== 'object') return;
        if (node.items) visit(node.items);
        for (const branch of node.anyOf ?? node.oneOf ?? []) visit(branch);
        let type = node.properties?.type;
        while (type?.$ref) type = V.facts.schemas[type.$ref.split('/').pop()];
        for (const value of type?.enum ?? []) found.add(value);
      };
      visit(V.facts.schemas[name]);
      assert.ok(found.size > 0, `${name} lists types`);
      return [...found];
    };
    const session = await mock.session('openapi-types', { fallback: 'auto' });
    const chatTool = { type: 'function', function: { name: 'x', parameters: FUNCTION_PARAMETERS } };
    const responsesTool = { type: 'function', name: 'x', parameters: FUNCTION_PARAMETERS, strict: false };
    const checks: { path: string; param: string; body: (type: string) => unknown; types: string[]; decoded: string[] }[] = [
      {
        path: '/chat/completions',
        param: 'tools[0].type',
        body: (type) => ({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], tools: [{ type }] }),
        types: typesOf('ChatCompletionTool').concat(typesOf('CustomToolChatCompletions')),
        decoded: ['function'],
      },
      {
        path: '/chat/completions',
        param: 'tool_choice.type',
        body: (type) => ({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], tools: [chatTool], tool_choice: { type } }),
        types: typesOf('ChatCompletionToolChoiceOption'),
        decoded: ['function'],
      },
      {
        path: '/chat/completions',
        param: 'messages[1].tool_calls[0].type',
        body: (type) => ({
          model: MODEL,
          messages: [
            { role: 'user', content: 'Hi' },
            { role: 'assistant', tool_calls: [{ id: 'call_1', type }] },
          ],
        }),
        types: typesOf('ChatCompletionMessageToolCalls'),
        decoded: ['function'],
      },
      {
        path: '/responses',
        param: 'tools[0].type',
        body: (type) => ({ model: MODEL, input: 'Hi', store: false, tools: [{ type }] }),
        types: typesOf('Tool'),
        decoded: ['function'],
      },
      {
        path: '/responses',
        param: 'tool_choice.type',
        body: (type) => ({ model: MODEL, input: 'Hi', store: false, tools: [responsesTool], tool_choice: { type } }),
        types: typesOf('ToolChoiceParam'),
        decoded: ['function'],
      },
      {
        path: '/responses',
        param: 'input[0].type',
        body: (type) => ({ model: MODEL, store: false, input: [{ type }] }),
        types: typesOf('InputItem'),
        decoded: ['message', 'function_call', 'function_call_output', 'reasoning', 'item_reference'],
      },
    ];
    const unknown: string[] = [];
    for (const check of checks) {
      for (const type of check.types) {
        if (check.decoded.includes(type)) continue;
        const answer = await send(session, check.path, check.body(type));
        assert.equal(answer.status, 400, `${check.path} ${check.param} ${type}`);
        if (answer.body.error.code !== 'unsupported_value' || answer.body.error.param !== check.param) {
          unknown.push(
            `${check.path} ${check.param} '${type}' → ${answer.body.error.code} ${answer.body.error.param}: ${answer.body.error.message}`,
          );
        }
      }
    }
    assert.deepEqual(unknown, [], `types the description lists, refused as unknown:\n${unknown.join('\n')}`);
  });

  test('Embeddings: every answer (float and base64, each input shape) and refusal is one the description takes', async () => {
    const session = await mock.session('openapi-embeddings');
    const request = REQUESTS.root('embeddings.request');
    const bodies = [
      { model: 'text-embedding-3-small', input: 'hi' },
      { model: 'text-embedding-3-small', input: ['hi', 'there'], encoding_format: 'base64' },
      { model: 'text-embedding-3-small', input: [1, 2, 3], encoding_format: 'float', dimensions: 8 },
      { model: 'text-embedding-3-small', input: [[1, 2], [3]], user: 'u' },
    ];
    for (const body of bodies) {
      assert.ok(request(body), `the test's request is not one the description takes:\n${describeErrors(request.errors)}`);
      const response = await fetch(`${mock.url('openai')}/embeddings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${session.apiKey}` },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
      assert.equal(response.status, 200);
      conforms(ROOT['embeddings.response'], await response.json(), `POST /v1/embeddings ${JSON.stringify(body)}`);
    }
    const refused = await send(session, '/embeddings', { model: 'text-embedding-3-small', input: '' });
    assert.equal(refused.status, 400);
    conforms(ROOT.error, refused.body, 'POST /v1/embeddings (empty input)');
  });
});

test('every live-API exception listed was met (none is stale)', () => {
  for (const exception of LIVE_EXCEPTIONS)
    assert.ok(met.has(exception.name), `the exception '${exception.name}' was not needed by any answer`);
});

// Azure AI Foundry as its users reach it with the `openai` client: the v1 routes
// (`/foundry/openai/v1/…`, Chat Completions and Responses) and the model inference route
// (`/models/chat/completions?api-version=2024-05-01-preview`, also under `/foundry/models`). Each
// test asserts what the SDK returned and what Understudy journalled.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import OpenAI from 'openai';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { assertFilterResults, caught, chatCases, CLIENT_TIMEOUT_MS, responsesCases } from './support/azure-family.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(() => mock.close());

const session = () => mock.session();
const INFERENCE_VERSION = '2024-05-01-preview';

function client(s: UnderstudySession, baseURL: string, defaultQuery?: Record<string, string>): OpenAI {
  return new OpenAI({ baseURL, apiKey: s.apiKey, maxRetries: 0, timeout: CLIENT_TIMEOUT_MS, defaultQuery });
}

const inference = (s: UnderstudySession, baseURL = mock.url('foundry-models')) => client(s, baseURL, { 'api-version': INFERENCE_VERSION });
const hello = [{ role: 'user' as const, content: 'Hello' }];

// ---------------------------------------------------------------- v1 routes

chatCases(
  'openai client at Foundry v1',
  {
    operation: 'foundry.chat.completions',
    route: '/foundry/openai/v1/chat/completions',
    model: 'gpt-4o',
    decodedModel: 'gpt-4o',
    client: (s) => client(s, mock.url('foundry')),
  },
  session,
  {
    text: ['[foundry-chat.text.json +]', '[foundry-chat.text.json -]'],
    stream: ['[foundry-chat.text.stream +]', '[foundry-chat.text.stream -]'],
    tools: ['[foundry-chat.tools.json +]', '[foundry-chat.tools.json -]'],
    toolsStream: ['[foundry-chat.tools.stream +]', '[foundry-chat.tools.stream -]'],
    structured: ['[foundry-chat.structured.json +]', '[foundry-chat.structured.json -]'],
    validation: ['[foundry-chat.validation.json +]', '[foundry-chat.validation.json -]'],
  },
);

responsesCases(
  'openai client at Foundry v1, Responses',
  { operation: 'foundry.responses', route: '/foundry/openai/v1/responses', model: 'gpt-4o', client: (s) => client(s, mock.url('foundry')) },
  session,
  {
    text: ['[foundry-responses.text.json +]', '[foundry-responses.text.json -]'],
    stream: ['[foundry-responses.text.stream +]', '[foundry-responses.text.stream -]'],
    tools: ['[foundry-responses.tools.json +]', '[foundry-responses.tools.json -]'],
  },
);

test("Foundry v1 refuses a dated api-version with Azure's 400", async () => {
  const s = await mock.session(undefined, { fallback: 'auto' });
  const error = await caught(
    client(s, mock.url('foundry'), { 'api-version': '2025-04-01-preview' }).chat.completions.create({ model: 'gpt-4o', messages: hello }),
  );
  assert.ok(error instanceof OpenAI.BadRequestError, `got ${String(error)}`);
  assert.deepEqual(error.error, { code: 'BadRequest', message: 'API version not supported' });
});

// ---------------------------------------------------------------- model inference

chatCases(
  'openai client at Foundry model inference',
  {
    operation: 'foundry-models.chat.completions',
    route: '/foundry/models/chat/completions',
    model: 'Llama-3.3-70B-Instruct',
    decodedModel: 'Llama-3.3-70B-Instruct',
    client: (s) => inference(s),
  },
  session,
  {
    text: ['[foundry-models-chat.text.json +]', '[foundry-models-chat.text.json -]'],
    stream: ['[foundry-models-chat.text.stream +]', '[foundry-models-chat.text.stream -]'],
    tools: ['[foundry-models-chat.tools.json +]', '[foundry-models-chat.tools.json -]'],
    toolsStream: ['[foundry-models-chat.tools.stream +]', '[foundry-models-chat.tools.stream -]'],
    structured: ['[foundry-models-chat.structured.json +]', '[foundry-models-chat.structured.json -]'],
    validation: ['[foundry-models-chat.validation.json +]', '[foundry-models-chat.validation.json -]'],
  },
);

test(`Foundry model inference at api-version=${INFERENCE_VERSION}, under /models and /foundry/models [foundry-models-chat.api-version.json +]`, async () => {
  const s = await mock.session(undefined, { fallback: 'auto' });
  for (const baseURL of [`${mock.baseUrl}/models`, mock.url('foundry-models')]) {
    const answer = await inference(s, baseURL).chat.completions.create({ model: 'Phi-4', messages: hello });
    assert.equal(answer.model, 'Phi-4');
    assertFilterResults(answer);
  }
  assert.deepEqual(
    (await s.journal()).entries.map((e) => [e.status, e.route, e.operation]),
    [
      [200, 'POST /models/chat/completions', 'foundry-models.chat.completions'],
      [200, 'POST /foundry/models/chat/completions', 'foundry-models.chat.completions'],
    ],
  );
});

test("Foundry model inference without its api-version, or with another, is the service's 404, and nothing is consumed [foundry-models-chat.api-version.json -]", async () => {
  const s = await session();
  s.scenario('hello').replies('Hello.');
  for (const query of [undefined, { 'api-version': '2024-08-01-preview' }, { 'api-version': '2024-10-21' }]) {
    const error = await caught(client(s, mock.url('foundry-models'), query).chat.completions.create({ model: 'Phi-4', messages: hello }));
    assert.ok(error instanceof OpenAI.NotFoundError, `got ${String(error)}`);
    assert.deepEqual(error.error, { code: '404', message: 'Resource not found' });
  }
  const answer = await inference(s).chat.completions.create({ model: 'Phi-4', messages: hello });
  assert.equal(answer.choices[0]?.message.content, 'Hello.');
  const { entries, counters } = await s.journal();
  assert.deepEqual(
    entries.map((e) => e.status),
    [404, 404, 404, 200],
  );
  assert.equal(counters.matched, 1);
});

/** A Chat Completions request with a member Chat Completions does not define (a Llama option). */
function withTopK(s: UnderstudySession, option: string | undefined) {
  const sdk = new OpenAI({
    baseURL: mock.url('foundry-models'),
    apiKey: s.apiKey,
    maxRetries: 0,
    timeout: CLIENT_TIMEOUT_MS,
    defaultQuery: { 'api-version': INFERENCE_VERSION },
    ...(option !== undefined && { defaultHeaders: { 'extra-parameters': option } }),
  });
  return sdk.chat.completions.create({ model: 'Llama-3.3-70B-Instruct', messages: hello, top_k: 40 } as never);
}

test("Foundry model inference: extra-parameters 'pass-through' and 'drop' let members Chat Completions does not define by [foundry-models-chat.extra-params.json +]", async () => {
  const s = await session();
  s.scenario('hello').onExhausted('repeat_last').replies('Hello, Llama.');
  for (const option of ['pass-through', 'drop']) {
    const answer = await withTopK(s, option);
    assert.equal(answer.choices[0]?.message.content, 'Hello, Llama.');
  }
  assert.deepEqual(
    (await s.journal()).entries.map((e) => [e.status, e.request?.model]),
    [
      [200, 'Llama-3.3-70B-Instruct'],
      [200, 'Llama-3.3-70B-Instruct'],
    ],
  );
});

test("Foundry model inference: without extra-parameters (or with 'error') such a member is refused, an unknown option is the service's 400 [foundry-models-chat.extra-params.json -]", async () => {
  const s = await session();
  s.scenario('hello').replies('Hello, Llama.');
  for (const option of [undefined, 'error']) {
    const error = await caught(withTopK(s, option));
    assert.ok(error instanceof OpenAI.BadRequestError, `got ${String(error)}`);
    assert.match(error.message, /top_k/);
  }
  const unknown = await caught(withTopK(s, 'ignore'));
  assert.ok(unknown instanceof OpenAI.BadRequestError, `got ${String(unknown)}`);
  assert.deepEqual(unknown.error, {
    code: 'BadRequest',
    message: "Unexpected EXTRA_PARAMETERS option ignore, expected options are ['error', 'drop', 'pass-through']",
  });
  const { entries, counters } = await s.journal();
  assert.deepEqual(
    entries.map((e) => e.status),
    [400, 400, 400],
  );
  assert.equal(counters.matched, 0);
});

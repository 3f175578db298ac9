// Azure OpenAI as its users reach it: `AzureOpenAI` from `openai` on the deployment routes (with
// and without its `deployment` option, under `/azure` and without it), the plain `openai` client
// on the v1 routes, and the Vercel AI SDK's Azure provider. Each test asserts what the SDK returned
// and what Understudy journalled.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createAzure } from '@ai-sdk/azure';
import { AzureChatOpenAI } from '@langchain/openai';
import { stepCountIs, streamText, tool } from 'ai';
import OpenAI, { AzureOpenAI } from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { z } from 'zod';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { expectStreamTextRefused, typedWeatherTool } from './support/aisdk.js';
import { assertFilterResults, caught, chatCases, CLIENT_TIMEOUT_MS, responsesCases } from './support/azure-family.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(() => mock.close());

const session = () => mock.session();

function azureClient(
  s: UnderstudySession,
  options: { apiVersion: string; deployment?: string; endpoint?: string; apiKey?: string } = { apiVersion: '2024-10-21' },
): AzureOpenAI {
  return new AzureOpenAI({
    endpoint: options.endpoint ?? mock.url('azure'),
    apiKey: options.apiKey ?? s.apiKey,
    apiVersion: options.apiVersion,
    ...(options.deployment !== undefined && { deployment: options.deployment }),
    maxRetries: 0,
    timeout: CLIENT_TIMEOUT_MS,
  });
}

function v1Client(s: UnderstudySession, defaultQuery?: Record<string, string>): OpenAI {
  return new OpenAI({ baseURL: mock.url('azure-v1'), apiKey: s.apiKey, maxRetries: 0, timeout: CLIENT_TIMEOUT_MS, defaultQuery });
}

const hello = [{ role: 'user' as const, content: 'Hello' }];

// ---------------------------------------------------------------- deployment routes

chatCases(
  'AzureOpenAI, deployment routes',
  {
    operation: 'azure.chat.completions',
    route: '/azure/openai/deployments/my-gpt4o/chat/completions',
    model: 'gpt-4o',
    decodedModel: 'my-gpt4o',
    client: (s) => azureClient(s, { apiVersion: '2024-10-21', deployment: 'my-gpt4o' }),
  },
  session,
  {
    text: ['[azure-chat.text.json +]', '[azure-chat.text.json -]'],
    stream: ['[azure-chat.text.stream +]', '[azure-chat.text.stream -]'],
    tools: ['[azure-chat.tools.json +]', '[azure-chat.tools.json -]'],
    toolsStream: ['[azure-chat.tools.stream +]', '[azure-chat.tools.stream -]'],
    structured: ['[azure-chat.structured.json +]', '[azure-chat.structured.json -]'],
    validation: ['[azure-chat.validation.json +]', '[azure-chat.validation.json -]'],
  },
);

test('AzureOpenAI: both accepted api-versions, with the deployment option and model-as-deployment, under /azure and without it [azure-chat.api-version.json +]', async () => {
  const s = await mock.session(undefined, { fallback: 'auto' });
  const forms = [
    { apiVersion: '2024-10-21', deployment: 'my-gpt4o' },
    { apiVersion: '2025-04-01-preview', deployment: 'my-gpt4o' },
    // No deployment option: the SDK moves the body's model into the path.
    { apiVersion: '2024-10-21' },
    { apiVersion: '2025-04-01-preview', endpoint: mock.baseUrl },
  ];
  for (const form of forms) {
    const answer = await azureClient(s, form).chat.completions.create({ model: 'gpt-4o', messages: hello });
    assert.equal(answer.model, form.deployment ?? 'gpt-4o');
    assertFilterResults(answer);
  }
  const { entries } = await s.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.route, e.operation, e.request?.model]),
    [
      [200, 'POST /azure/openai/deployments/my-gpt4o/chat/completions', 'azure.chat.completions', 'my-gpt4o'],
      [200, 'POST /azure/openai/deployments/my-gpt4o/chat/completions', 'azure.chat.completions', 'my-gpt4o'],
      [200, 'POST /azure/openai/deployments/gpt-4o/chat/completions', 'azure.chat.completions', 'gpt-4o'],
      [200, 'POST /openai/deployments/gpt-4o/chat/completions', 'azure.chat.completions', 'gpt-4o'],
    ],
  );
});

test("deployment routes: a script's model condition sees the deployment, not the body's model", async () => {
  const s = await session();
  s.scenario('by-deployment').whenModel('my-gpt4o').replies('Matched by deployment.');
  const answer = await azureClient(s, { apiVersion: '2024-10-21', deployment: 'my-gpt4o' }).chat.completions.create({
    model: 'gpt-4o',
    messages: hello,
  });
  assert.equal(answer.choices[0]?.message.content, 'Matched by deployment.');
  assert.equal((await s.journal()).entries[0]?.script, 'by-deployment');
});

test('deployment routes: the body may leave the model out (or send null), the path names it', async () => {
  const s = await mock.session(undefined, { fallback: 'auto' });
  for (const body of [{ messages: hello }, { model: null, messages: hello }]) {
    const res = await fetch(`${mock.url('azure')}/openai/deployments/prod-4o/chat/completions?api-version=2024-10-21`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'api-key': s.apiKey },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
    });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { model: string }).model, 'prod-4o');
  }
  assert.deepEqual(
    (await s.journal()).entries.map((e) => e.request?.model),
    ['prod-4o', 'prod-4o'],
  );
});

test("AzureOpenAI: an unknown api-version is Azure's 400, a missing one its 404, and nothing is consumed [azure-chat.api-version.json -]", async () => {
  const s = await session();
  s.scenario('hello').replies('Hello.');
  const unknown = await caught(
    azureClient(s, { apiVersion: '2023-05-15', deployment: 'my-gpt4o' }).chat.completions.create({ model: 'gpt-4o', messages: hello }),
  );
  assert.ok(unknown instanceof OpenAI.BadRequestError, `got ${String(unknown)}`);
  assert.deepEqual(unknown.error, { code: 'BadRequest', message: 'API version not supported' });
  // AzureOpenAI always sends a version; a request without one is raw.
  const missing = await fetch(`${mock.url('azure')}/openai/deployments/my-gpt4o/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'api-key': s.apiKey },
    body: JSON.stringify({ model: 'gpt-4o', messages: hello }),
    signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
  });
  assert.equal(missing.status, 404);
  assert.deepEqual(await missing.json(), { error: { code: '404', message: 'Resource not found' } });
  const answer = await azureClient(s, { apiVersion: '2024-10-21', deployment: 'my-gpt4o' }).chat.completions.create({
    model: 'gpt-4o',
    messages: hello,
  });
  assert.equal(answer.choices[0]?.message.content, 'Hello.');
  const { entries, counters } = await s.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.operation, e.error?.code]),
    [
      [400, 'azure.chat.completions', 'BadRequest'],
      [404, 'azure.chat.completions', '404'],
      [200, 'azure.chat.completions', undefined],
    ],
  );
  assert.equal(counters.matched, 1);
});

test('AzureOpenAI with an Entra ID token provider sends Bearer, which names the session as the api-key header does', async () => {
  const s = await session();
  s.scenario('hello').replies('Hello, token holder.');
  const client = new AzureOpenAI({
    endpoint: mock.url('azure'),
    azureADTokenProvider: async () => s.apiKey,
    apiVersion: '2024-10-21',
    deployment: 'my-gpt4o',
    maxRetries: 0,
    timeout: CLIENT_TIMEOUT_MS,
  });
  const answer = await client.chat.completions.create({ model: 'gpt-4o', messages: hello });
  assert.equal(answer.choices[0]?.message.content, 'Hello, token holder.');
  assert.deepEqual(
    (await s.journal()).entries.map((e) => [e.status, e.operation]),
    [[200, 'azure.chat.completions']],
  );
});

test("a refused key on an Azure route is Azure's 401 body, the client's AuthenticationError", async () => {
  const s = await mock.session(undefined, { requireApiKey: true, fallback: 'auto' });
  const client = new AzureOpenAI({
    endpoint: `${mock.baseUrl}/s/${s.id}/azure`,
    apiKey: 'not-the-key',
    apiVersion: '2024-10-21',
    deployment: 'my-gpt4o',
    maxRetries: 0,
    timeout: CLIENT_TIMEOUT_MS,
  });
  const error = await caught(client.chat.completions.create({ model: 'gpt-4o', messages: hello }));
  assert.ok(error instanceof OpenAI.AuthenticationError, `got ${String(error)}`);
  const body = error.error as { code?: string; message?: string; type?: string };
  assert.equal(body.code, '401');
  assert.equal(body.type, undefined);
});

/** Azure's "On Your Data" extension: a search index the deployment answers from. */
const onYourData = (type: string) => ({
  data_sources: [
    { type, parameters: { endpoint: 'https://search.example', index_name: 'docs', authentication: { type: 'api_key', key: 'k' } } },
  ],
});

test("deployment routes accept Azure's data_sources (On Your Data) [azure-chat.data-sources.json +]", async () => {
  const s = await session();
  s.scenario('grounded').replies('From the index.');
  const answer = await azureClient(s, { apiVersion: '2024-10-21', deployment: 'my-gpt4o' }).chat.completions.create({
    model: 'gpt-4o',
    messages: hello,
    ...onYourData('azure_search'),
  } as never);
  assert.equal((answer as { choices: { message: { content: string } }[] }).choices[0]?.message.content, 'From the index.');
  assert.deepEqual(
    (await s.journal()).entries.map((e) => e.status),
    [200],
  );
});

test("data_sources with an unknown source type is the model's 400, and OpenAI's own routes do not take it [azure-chat.data-sources.json -]", async () => {
  const s = await session();
  s.scenario('grounded').replies('From the index.');
  const unknown = await caught(
    azureClient(s, { apiVersion: '2024-10-21', deployment: 'my-gpt4o' }).chat.completions.create({
      model: 'gpt-4o',
      messages: hello,
      ...onYourData('bing_search'),
    } as never),
  );
  assert.ok(unknown instanceof OpenAI.BadRequestError, `got ${String(unknown)}`);
  assert.equal(unknown.param, 'data_sources[0].type');
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: s.apiKey, maxRetries: 0, timeout: CLIENT_TIMEOUT_MS });
  const elsewhere = await caught(
    openai.chat.completions.create({ model: 'gpt-4o', messages: hello, ...onYourData('azure_search') } as never),
  );
  assert.ok(elsewhere instanceof OpenAI.BadRequestError, `got ${String(elsewhere)}`);
  assert.match(elsewhere.message, /Unrecognized request argument supplied: data_sources/);
  assert.equal((await s.journal()).counters.matched, 0);
});

responsesCases(
  'AzureOpenAI, Responses at /openai/responses',
  {
    operation: 'azure.responses',
    route: '/azure/openai/responses',
    model: 'my-gpt4o',
    client: (s) => azureClient(s, { apiVersion: '2025-04-01-preview' }),
  },
  session,
  {
    text: ['[azure-responses.text.json +]', '[azure-responses.text.json -]'],
    stream: ['[azure-responses.text.stream +]', '[azure-responses.text.stream -]'],
    tools: ['[azure-responses.tools.json +]', '[azure-responses.tools.json -]'],
  },
);

test("Responses on deployment routes: 2024-10-21 predates Azure's Responses API and is refused [azure-responses.api-version.json -]", async () => {
  const s = await session();
  s.scenario('hello').replies('Hello.');
  const error = await caught(azureClient(s, { apiVersion: '2024-10-21' }).responses.create({ model: 'my-gpt4o', input: 'Hello' }));
  assert.ok(error instanceof OpenAI.BadRequestError, `got ${String(error)}`);
  assert.deepEqual(error.error, { code: 'BadRequest', message: 'API version not supported' });
  assert.deepEqual(
    (await s.journal()).entries.map((e) => [e.status, e.route, e.operation]),
    [[400, 'POST /azure/openai/responses', 'azure.responses']],
  );
});

test('Responses on deployment routes at 2025-04-01-preview, under /azure and without it [azure-responses.api-version.json +]', async () => {
  const s = await mock.session(undefined, { fallback: 'auto' });
  for (const endpoint of [mock.url('azure'), mock.baseUrl]) {
    const response = await azureClient(s, { apiVersion: '2025-04-01-preview', endpoint }).responses.create({
      model: 'my-gpt4o',
      input: 'Hello',
    });
    assert.equal(response.status, 'completed');
  }
  assert.deepEqual(
    (await s.journal()).entries.map((e) => [e.status, e.route]),
    [
      [200, 'POST /azure/openai/responses'],
      [200, 'POST /openai/responses'],
    ],
  );
});

// ---------------------------------------------------------------- v1 routes

chatCases(
  'openai client at Azure v1',
  {
    operation: 'azure-v1.chat.completions',
    route: '/azure/openai/v1/chat/completions',
    model: 'gpt-4o',
    decodedModel: 'gpt-4o',
    client: (s) => v1Client(s),
  },
  session,
  {
    text: ['[azure-v1-chat.text.json +]', '[azure-v1-chat.text.json -]'],
    stream: ['[azure-v1-chat.text.stream +]', '[azure-v1-chat.text.stream -]'],
    tools: ['[azure-v1-chat.tools.json +]', '[azure-v1-chat.tools.json -]'],
    toolsStream: ['[azure-v1-chat.tools.stream +]', '[azure-v1-chat.tools.stream -]'],
    structured: ['[azure-v1-chat.structured.json +]', '[azure-v1-chat.structured.json -]'],
    validation: ['[azure-v1-chat.validation.json +]', '[azure-v1-chat.validation.json -]'],
  },
);

responsesCases(
  'openai client at Azure v1, Responses',
  { operation: 'azure-v1.responses', route: '/azure/openai/v1/responses', model: 'gpt-4o', client: (s) => v1Client(s) },
  session,
  {
    text: ['[azure-v1-responses.text.json +]', '[azure-v1-responses.text.json -]'],
    stream: ['[azure-v1-responses.text.stream +]', '[azure-v1-responses.text.stream -]'],
    tools: ['[azure-v1-responses.tools.json +]', '[azure-v1-responses.tools.json -]'],
  },
);

test('Azure v1 takes no version, `v1` or `preview` [azure-v1-chat.api-version.json +]', async () => {
  const s = await mock.session(undefined, { fallback: 'auto' });
  for (const query of [undefined, { 'api-version': 'v1' }, { 'api-version': 'preview' }]) {
    const answer = await v1Client(s, query).chat.completions.create({ model: 'gpt-4o', messages: hello });
    assertFilterResults(answer);
  }
  assert.deepEqual(
    (await s.journal()).entries.map((e) => e.status),
    [200, 200, 200],
  );
});

test("Azure v1 refuses a dated api-version with Azure's 400 [azure-v1-chat.api-version.json -]", async () => {
  const s = await mock.session(undefined, { fallback: 'auto' });
  for (const client of [v1Client(s, { 'api-version': '2024-10-21' })]) {
    const chat = await caught(client.chat.completions.create({ model: 'gpt-4o', messages: hello }));
    assert.ok(chat instanceof OpenAI.BadRequestError, `got ${String(chat)}`);
    assert.deepEqual(chat.error, { code: 'BadRequest', message: 'API version not supported' });
    const responses = await caught(client.responses.create({ model: 'gpt-4o', input: 'Hello' }));
    assert.ok(responses instanceof OpenAI.BadRequestError, `got ${String(responses)}`);
  }
  assert.deepEqual(
    (await s.journal()).entries.map((e) => [e.status, e.operation]),
    [
      [400, 'azure-v1.chat.completions'],
      [400, 'azure-v1.responses'],
    ],
  );
});

test('a scripted content_filter finish reports the completion filtered in content_filter_results [azure-chat.content-filter.json +]', async () => {
  const s = await session();
  s.scenario('filtered').reply({ text: 'I cannot', finishReason: 'content_filter' });
  const answer = await azureClient(s, { apiVersion: '2024-10-21', deployment: 'my-gpt4o' }).chat.completions.create({
    model: 'gpt-4o',
    messages: hello,
  });
  assert.equal(answer.choices[0]?.finish_reason, 'content_filter');
  const results = (answer.choices[0] as unknown as { content_filter_results: Record<string, unknown> }).content_filter_results;
  assert.deepEqual(results.hate, { filtered: true, severity: 'high' });
  assert.deepEqual(results.violence, { filtered: false, severity: 'safe' });
  assert.deepEqual(
    (await s.journal()).entries.map((e) => [e.status, e.reply?.finishReason]),
    [[200, 'content_filter']],
  );
});

test("a prompt the content filter blocks is Azure's 400 content_filter with the filter's verdict, and nothing is consumed [azure-chat.content-filter.json -]", async () => {
  const s = await mock.session(undefined, { chaos: { contentFilter: ['forbidden'] } });
  s.scenario('hello').replies('Hello.');
  const client = azureClient(s, { apiVersion: '2024-10-21', deployment: 'my-gpt4o' });
  const blocked = async (messages: typeof hello) => {
    const error = await caught(client.chat.completions.create({ model: 'gpt-4o', messages }));
    assert.ok(error instanceof OpenAI.BadRequestError, `got ${String(error)}`);
    assert.equal(error.code, 'content_filter');
    assert.equal(error.param, 'prompt');
    const inner = (error.error as { innererror?: { code: string; content_filter_result: Record<string, unknown> } }).innererror;
    assert.equal(inner?.code, 'ResponsibleAIPolicyViolation');
    assert.deepEqual(inner?.content_filter_result.hate, { filtered: true, severity: 'high' });
    assert.deepEqual(inner?.content_filter_result.jailbreak, { filtered: false, detected: false });
  };
  await blocked([{ role: 'user', content: 'a forbidden question' }]);
  // A script's own 400 content_filter comes in the same body.
  const scripted = await mock.session();
  scripted.scenario('blocked').fails(400, 'The prompt was filtered', { code: 'content_filter' });
  const scriptedError = await caught(
    azureClient(scripted, { apiVersion: '2024-10-21', deployment: 'my-gpt4o' }).chat.completions.create({
      model: 'gpt-4o',
      messages: hello,
    }),
  );
  assert.ok(scriptedError instanceof OpenAI.BadRequestError, `got ${String(scriptedError)}`);
  assert.equal((scriptedError.error as { innererror?: { code: string } }).innererror?.code, 'ResponsibleAIPolicyViolation');
  const answer = await client.chat.completions.create({ model: 'gpt-4o', messages: hello });
  assert.equal(answer.choices[0]?.message.content, 'Hello.');
  assert.deepEqual(
    (await s.journal()).entries.map((e) => [e.status, e.error?.code]),
    [
      [400, 'content_filter'],
      [200, undefined],
    ],
  );
});

// ---------------------------------------------------------------- the Azure stream flavour

/** Every chunk of a streamed answer, as the SDK's iterator hands them over. */
async function chunksOf(client: OpenAI): Promise<ChatCompletionChunk[]> {
  const chunks: ChatCompletionChunk[] = [];
  const stream = await client.chat.completions.create({ model: 'gpt-4o', messages: hello, stream: true });
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

function isFlavoured(chunks: ChatCompletionChunk[]): boolean {
  const first = chunks[0] as ChatCompletionChunk & { prompt_filter_results?: unknown[] };
  const filter = chunks.find((c) => c.choices[0] !== undefined && !('delta' in c.choices[0]));
  return first.choices.length === 0 && first.id === '' && Array.isArray(first.prompt_filter_results) && filter !== undefined;
}

test("streamFlavour 'azure': a leading metadata chunk and a content-filter chunk without delta, which the SDK's stream helper tolerates [azure-chat.stream-flavour.stream +]", async () => {
  const s = await mock.session(undefined, { streamFlavour: 'azure' });
  s.scenario('hello').replies('Hello from Azure.', { chunks: ['Hello ', 'from ', 'Azure.'] });
  const client = azureClient(s, { apiVersion: '2024-10-21', deployment: 'my-gpt4o' });
  const stream = client.chat.completions.stream({ model: 'gpt-4o', messages: hello, stream: true });
  const raw: ChatCompletionChunk[] = [];
  stream.on('chunk', (chunk) => raw.push(chunk));
  const final = await stream.finalChatCompletion();
  assert.equal(final.choices[0]?.message.content, 'Hello from Azure.');
  assert.match(final.id, /^chatcmpl-/);
  assert.ok(isFlavoured(raw), JSON.stringify(raw.slice(0, 2)));
  const filter = raw.find((c) => c.choices[0] !== undefined && !('delta' in c.choices[0]))?.choices[0] as unknown as {
    content_filter_offsets: { start_offset: number; end_offset: number };
    content_filter_results: Record<string, unknown>;
  };
  assert.deepEqual(filter.content_filter_offsets, { check_offset: 0, start_offset: 0, end_offset: 'Hello from Azure.'.length });
  assert.deepEqual(filter.content_filter_results.sexual, { filtered: false, severity: 'safe' });
  // The filter chunk comes before the finish chunk.
  const finishAt = raw.findIndex((c) => c.choices[0]?.finish_reason === 'stop');
  assert.ok(raw.indexOf(raw.find((c) => c.choices[0] !== undefined && !('delta' in c.choices[0])) as ChatCompletionChunk) === finishAt - 1);
  const { entries } = await s.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream]),
    [[200, true]],
  );
});

test('streamFlavour switched mid-session (a fixture load) changes the next answer, repeated bodies and templates included [azure-chat.stream-flavour.stream -]', async () => {
  const s = await mock.session();
  const scenario = { name: 'hello', replies: [{ text: 'Hello.' }], exhausted: 'repeat_last' as const };
  await s.load({ scenarios: [scenario] });
  const client = v1Client(s);
  // The same body again and again: the decode memo and the answer templates are in play.
  for (let i = 0; i < 3; i++) assert.equal(isFlavoured(await chunksOf(client)), false, `plain answer ${i + 1}`);
  await s.load({ session: { streamFlavour: 'azure' }, scenarios: [scenario] });
  for (let i = 0; i < 3; i++) assert.equal(isFlavoured(await chunksOf(client)), true, `azure answer ${i + 1}`);
  await s.load({ session: { streamFlavour: 'plain' }, scenarios: [scenario] });
  for (let i = 0; i < 3; i++) assert.equal(isFlavoured(await chunksOf(client)), false, `plain again ${i + 1}`);
  // JSON answers do not change with it.
  const json = await client.chat.completions.create({ model: 'gpt-4o', messages: hello });
  assertFilterResults(json);
  assert.equal((await s.journal()).entries.length, 10);
});

// ---------------------------------------------------------------- Vercel AI SDK

function azureProvider(s: UnderstudySession, options: { useDeploymentBasedUrls?: boolean } = {}) {
  return createAzure({
    baseURL: options.useDeploymentBasedUrls ? `${mock.url('azure')}/openai` : mock.url('azure-v1'),
    apiKey: s.apiKey,
    ...(options.useDeploymentBasedUrls && { useDeploymentBasedUrls: true, apiVersion: '2024-10-21' }),
  });
}

function scriptWeatherRound(s: UnderstudySession): void {
  s.scenario('weather')
    .callsTool('weather', { city: 'Paris' }, 'call_paris')
    .thenWhenToolResult('weather', 'call_paris')
    .replies('Paris is sunny, 21 °C.', { chunks: ['Paris is', ' sunny,', ' 21 °C.'] });
}

async function streamedRound(s: UnderstudySession, model: Parameters<typeof streamText>[0]['model']) {
  const ran: unknown[] = [];
  const errors: unknown[] = [];
  const result = streamText({
    model,
    tools: {
      weather: tool({
        description: 'Current weather for a city',
        inputSchema: z.object({ city: z.string() }),
        execute: async (input) => {
          ran.push(input);
          return 'sunny, 21 °C';
        },
      }),
    },
    stopWhen: stepCountIs(3),
    maxRetries: 0,
    abortSignal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
    prompt: 'What is the weather in Paris?',
    onError: ({ error }) => void errors.push(error),
  });
  const deltas: string[] = [];
  for await (const delta of result.textStream) deltas.push(delta);
  assert.deepEqual(errors, []);
  assert.deepEqual(deltas, ['Paris is', ' sunny,', ' 21 °C.']);
  assert.deepEqual(ran, [{ city: 'Paris' }]);
  assert.equal((await result.steps).length, 2);
  assert.equal(await result.finishReason, 'stop');
  await s.verify();
  return (await s.journal()).entries;
}

test('Vercel AI SDK azure(deployment): streamText completes a tool round over Azure v1 Responses [aisdk-azure.tools.stream +]', async () => {
  const s = await session();
  scriptWeatherRound(s);
  const entries = await streamedRound(s, azureProvider(s).responses('my-gpt4o'));
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream, e.route, e.operation]),
    [
      [200, true, 'POST /azure/openai/v1/responses', 'azure-v1.responses'],
      [200, true, 'POST /azure/openai/v1/responses', 'azure-v1.responses'],
    ],
  );
});

test('Vercel AI SDK azure(deployment): a call that fails the tool schema is APICallError 409 and runs no tool [aisdk-azure.tools.stream -]', async () => {
  const s = await session();
  s.scenario('weather').callsTool('weather', { city: 75001 }).then().replies('Done.');
  const ran: unknown[] = [];
  await expectStreamTextRefused({ model: azureProvider(s).responses('my-gpt4o'), tools: typedWeatherTool('string', ran), ran, session: s });
});

test("Vercel AI SDK azure.chat: streamText completes a tool round over Azure v1 Chat Completions in Azure's stream flavour [aisdk-azure-chat.tools.stream +]", async () => {
  const s = await mock.session(undefined, { streamFlavour: 'azure' });
  scriptWeatherRound(s);
  const entries = await streamedRound(s, azureProvider(s).chat('my-gpt4o'));
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream, e.route, e.operation]),
    [
      [200, true, 'POST /azure/openai/v1/chat/completions', 'azure-v1.chat.completions'],
      [200, true, 'POST /azure/openai/v1/chat/completions', 'azure-v1.chat.completions'],
    ],
  );
});

test('Vercel AI SDK azure.chat with deployment-based URLs: a streamed tool round on the deployment routes', async () => {
  const s = await mock.session(undefined, { streamFlavour: 'azure' });
  scriptWeatherRound(s);
  const entries = await streamedRound(s, azureProvider(s, { useDeploymentBasedUrls: true }).chat('my-gpt4o'));
  assert.deepEqual(
    entries.map((e) => [e.status, e.route, e.request?.model]),
    [
      [200, 'POST /azure/openai/deployments/my-gpt4o/chat/completions', 'my-gpt4o'],
      [200, 'POST /azure/openai/deployments/my-gpt4o/chat/completions', 'my-gpt4o'],
    ],
  );
});

test('Vercel AI SDK azure.chat: a call that fails the tool schema is APICallError 409 and runs no tool [aisdk-azure-chat.tools.stream -]', async () => {
  const s = await mock.session(undefined, { streamFlavour: 'azure' });
  s.scenario('weather').callsTool('weather', { city: 75001 }).then().replies('Done.');
  const ran: unknown[] = [];
  await expectStreamTextRefused({ model: azureProvider(s).chat('my-gpt4o'), tools: typedWeatherTool('string', ran), ran, session: s });
});

// ---------------------------------------------------------------- LangChain

function langchainAzure(s: UnderstudySession): AzureChatOpenAI {
  return new AzureChatOpenAI({
    azureOpenAIApiKey: s.apiKey,
    azureOpenAIEndpoint: mock.url('azure'),
    azureOpenAIApiDeploymentName: 'my-dep',
    azureOpenAIApiVersion: '2024-10-21',
    maxRetries: 0,
    timeout: CLIENT_TIMEOUT_MS,
  });
}

test("LangChain's AzureChatOpenAI: invoke and stream on the deployment routes, the model taken from the path [langchain-azure-chat.text.json +]", async () => {
  const s = await session();
  s.scenario('hello')
    .replies('Hello from Azure.', { chunks: ['Hello ', 'from ', 'Azure.'] })
    .then()
    .replies('Streamed.', { chunks: ['Stream', 'ed.'] });
  const chat = langchainAzure(s);
  const answer = await chat.invoke('Hi');
  assert.equal(answer.content, 'Hello from Azure.');
  const pieces: string[] = [];
  for await (const chunk of await chat.stream('Hi again'))
    if (typeof chunk.content === 'string' && chunk.content) pieces.push(chunk.content);
  assert.deepEqual(pieces, ['Stream', 'ed.']);
  assert.deepEqual(
    (await s.journal()).entries.map((e) => [e.status, e.stream, e.route, e.request?.model]),
    [
      [200, false, 'POST /azure/openai/deployments/my-dep/chat/completions', 'my-dep'],
      [200, true, 'POST /azure/openai/deployments/my-dep/chat/completions', 'my-dep'],
    ],
  );
});

test("LangChain's AzureChatOpenAI: a scripted error surfaces with its status, and an unknown api-version as Azure's 400 [langchain-azure-chat.text.json -]", async () => {
  const s = await session();
  s.scenario('busy').fails(429, 'Requests to this deployment are throttled', { code: 'rate_limit_exceeded' });
  const throttled = await caught(langchainAzure(s).invoke('Hi'));
  assert.ok(throttled instanceof Error);
  assert.equal((throttled as { status?: number }).status, 429);
  assert.match(throttled.message, /throttled/);
  const old = new AzureChatOpenAI({
    azureOpenAIApiKey: s.apiKey,
    azureOpenAIEndpoint: mock.url('azure'),
    azureOpenAIApiDeploymentName: 'my-dep',
    azureOpenAIApiVersion: '2023-05-15',
    maxRetries: 0,
    timeout: CLIENT_TIMEOUT_MS,
  });
  const refused = await caught(old.invoke('Hi'));
  assert.equal((refused as { status?: number }).status, 400);
  assert.match((refused as Error).message, /API version not supported/);
  assert.deepEqual(
    (await s.journal()).entries.map((e) => [e.status, e.error?.code]),
    [
      [429, 'rate_limit_exceeded'],
      [400, 'BadRequest'],
    ],
  );
});

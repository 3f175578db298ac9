// Bedrock InvokeModel with embedding models, judged by @aws-sdk/client-bedrock-runtime, the AI
// SDK's Bedrock embedding model and LangChain's BedrockEmbeddings over HTTP: Titan Text Embeddings
// G1 and V2 (dimensions, embeddingTypes) and Cohere Embed v3 and v4 (embedding_types,
// output_dimension) answer scripted and derived vectors; malformed bodies are ValidationExceptions
// in Bedrock's words; a stream request to an embedding model and a scripted error are refused as
// the client's classes; chat models on the same path are untouched; every request is journalled.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { ThrottlingException, ValidationException } from '@aws-sdk/client-bedrock-runtime';
import { BedrockEmbeddings } from '@langchain/aws';
import { embed, embedMany } from 'ai';

import { cosineSimilarity, derivedVector } from '../src/core/embedding-vectors.js';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { bedrockClient, invoke, invokeStream, thrown } from './support/bedrock-invoke.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const TITAN_V2 = 'amazon.titan-embed-text-v2:0';
const TITAN_V1 = 'amazon.titan-embed-text-v1';
const COHERE_V3 = 'cohere.embed-english-v3';
const COHERE_V4 = 'cohere.embed-v4:0';

let sessions = 0;
async function open(name: string): Promise<{ session: UnderstudySession; client: ReturnType<typeof bedrockClient> }> {
  const session = await mock.session(`${name}-${++sessions}`);
  return { session, client: bedrockClient(mock.url('bedrock'), session.apiKey) };
}

const f32 = (xs: number[]) => xs.map((x) => Math.fround(x));

test('Titan V2: a scripted vector, a derived one of the default 1024 dimensions and of a requested size; embeddingsByType [bedrock-invoke.embeddings-titan.json +]', async () => {
  const { session, client } = await open('titan-v2');
  await session.load({ scenarios: [], embeddings: [{ input: 'alpha', vector: [0.5, -0.25, 0.125] }] });
  const scripted = await invoke(client, TITAN_V2, { inputText: 'alpha' });
  assert.deepEqual(f32(scripted.json.embedding as number[]), f32([0.5, -0.25, 0.125]));
  assert.equal(scripted.json.inputTextTokenCount, 1);
  assert.deepEqual(Object.keys(scripted.json.embeddingsByType as object), ['float'], 'embeddingsByType is always there');
  const derived = await invoke(client, TITAN_V2, { inputText: 'the quick brown fox' });
  assert.equal((derived.json.embedding as number[]).length, 1024);
  assert.deepEqual(
    f32(derived.json.embedding as number[]),
    Array.from(derivedVector('the quick brown fox', TITAN_V2, 1024)),
    'floats as float32, shortest form',
  );
  const sized = await invoke(client, TITAN_V2, {
    inputText: 'the quick brown fox',
    dimensions: 256,
    normalize: true,
    embeddingTypes: ['float', 'binary'],
  });
  const byType = sized.json.embeddingsByType as { float: number[]; binary: number[] };
  assert.equal(byType.float.length, 256);
  assert.deepEqual(
    byType.binary,
    byType.float.map((x) => (x > 0 ? 1 : 0)),
  );
  // Titan G1 takes only inputText and answers 1536 floats.
  const v1 = await invoke(client, TITAN_V1, { inputText: 'hello' });
  assert.equal((v1.json.embedding as number[]).length, 1536);
  assert.equal(v1.json.embeddingsByType, undefined);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.operation, e.status, e.request?.model, e.usage?.inputTokens !== undefined]),
    [
      ['bedrock.invokeModel.embeddings', 200, TITAN_V2, true],
      ['bedrock.invokeModel.embeddings', 200, TITAN_V2, true],
      ['bedrock.invokeModel.embeddings', 200, TITAN_V2, true],
      ['bedrock.invokeModel.embeddings', 200, TITAN_V1, true],
    ],
  );
});

test('Titan: malformed bodies are ValidationExceptions naming the member; nothing derived [bedrock-invoke.embeddings-titan.json -]', async () => {
  const { session, client } = await open('titan-bad');
  for (const [model, body, words] of [
    [TITAN_V2, {}, /required key \[inputText\] not found/],
    [TITAN_V2, { inputText: '' }, /#\/inputText: expected minLength: 1/],
    [TITAN_V2, { inputText: 'a', dimensions: 300 }, /#\/dimensions: 300 is not a valid enum value/],
    [TITAN_V2, { inputText: 'a', embeddingTypes: ['int8'] }, /#\/embeddingTypes\/0: "int8" is not a valid enum value/],
    [TITAN_V2, { inputText: 'a', textGenerationConfig: {} }, /extraneous key \[textGenerationConfig\] is not permitted/],
    [TITAN_V1, { inputText: 'a', dimensions: 256 }, /extraneous key \[dimensions\] is not permitted/],
    [TITAN_V2, { inputText: 7 }, /#\/inputText: expected type: String/],
  ] as const) {
    const error = await thrown(invoke(client, model, body));
    assert.ok(error instanceof ValidationException, `${JSON.stringify(body)}: ${String(error)}`);
    assert.match(error.message, words);
    assert.match(error.message, /please reformat your input and try again\.$/);
  }
  const stream = await thrown(invokeStream(client, TITAN_V2, { inputText: 'a' }));
  assert.ok(stream instanceof ValidationException, String(stream));
  assert.match(stream.message, /embedding model: it does not support InvokeModelWithResponseStream/);
  const { entries, counters } = await session.journal();
  assert.equal(entries.length, 8);
  assert.ok(entries.every((e) => e.status === 400));
  assert.equal(counters.invalid, 8);
});

test('Cohere v3 and v4 on Bedrock: floats, embedding_types, output_dimension; the texts echoed [bedrock-invoke.embeddings-cohere.json +]', async () => {
  const { session, client } = await open('cohere');
  await session.load({ scenarios: [], embeddings: [{ input: { contains: 'refund' }, vector: [0.6, -0.8] }] });
  const plain = await invoke(client, COHERE_V3, { texts: ['refund policy', 'shipping'], input_type: 'search_document' });
  assert.equal(plain.json.response_type, 'embeddings_floats');
  const floats = plain.json.embeddings as number[][];
  assert.deepEqual(f32(floats[0]), f32([0.6, -0.8]));
  assert.equal(floats[1].length, 1024, "embed-english-v3's size");
  assert.deepEqual(plain.json.texts, ['refund policy', 'shipping']);
  const typed = await invoke(client, COHERE_V4, {
    texts: ['shipping times'],
    input_type: 'search_query',
    embedding_types: ['float', 'int8', 'ubinary'],
    output_dimension: 256,
  });
  assert.equal(typed.json.response_type, 'embeddings_by_type');
  const byType = typed.json.embeddings as { float: number[][]; int8: number[][]; ubinary: number[][] };
  assert.equal(byType.float[0].length, 256);
  assert.deepEqual(
    byType.int8[0],
    byType.float[0].map((x) => Math.round(x * 127)),
  );
  assert.equal(byType.ubinary[0].length, 32);
  assert.equal((await session.journal()).entries.length, 2);
});

test('Cohere on Bedrock: input_type required, unknown types and sizes refused; a scripted error is the SDK class of its status [bedrock-invoke.embeddings-cohere.json -]', async () => {
  const { session, client } = await open('cohere-bad');
  for (const [model, body, words] of [
    [COHERE_V3, { texts: ['a'] }, /required key \[input_type\] not found/],
    [COHERE_V3, { texts: [], input_type: 'search_query' }, /#\/texts: expected minimum item count: 1/],
    [COHERE_V3, { texts: ['a'], input_type: 'search_query', embedding_types: ['base64'] }, /"base64" is not a valid enum value/],
    [COHERE_V3, { texts: ['a'], input_type: 'search_query', output_dimension: 256 }, /extraneous key \[output_dimension\]/],
    [COHERE_V4, { texts: ['a'], input_type: 'search_query', output_dimension: 300 }, /#\/output_dimension: 300 is not a valid enum value/],
    [COHERE_V4, { images: ['data:image/png;base64,AAAA'], input_type: 'image' }, /images and mixed inputs are not answered yet/],
  ] as const) {
    const error = await thrown(invoke(client, model, body));
    assert.ok(error instanceof ValidationException, `${JSON.stringify(body)}: ${String(error)}`);
    assert.match(error.message, words);
  }
  await session.load({
    scenarios: [],
    embeddings: [{ input: 'busy', error: { status: 429, message: 'Too many requests, please wait before trying again.' } }],
  });
  const throttled = await thrown(invoke(client, COHERE_V3, { texts: ['fine', 'busy'], input_type: 'search_query' }));
  assert.ok(throttled instanceof ThrottlingException, String(throttled));
  assert.equal((await session.journal()).counters.errorsReturned, 7);
});

test('chat models keep their InvokeModel answers beside embedding models on the same path [bedrock-invoke.embeddings-titan.json +]', async () => {
  const { session, client } = await open('mixed');
  session.scenario('hi').replies('Hello there.');
  const chat = await invoke(client, 'amazon.titan-text-express-v1', { inputText: 'hi', textGenerationConfig: { maxTokenCount: 20 } });
  assert.equal((chat.json.results as { outputText: string }[])[0].outputText, 'Hello there.');
  const vector = await invoke(client, `us.${TITAN_V2}`, { inputText: 'hi' });
  assert.equal((vector.json.embedding as number[]).length, 1024, 'an inference profile of an embedding model embeds');
  const image = await thrown(invoke(client, 'amazon.titan-embed-image-v1', { inputText: 'hi' }));
  assert.ok(image instanceof ValidationException);
  assert.match(image.message, /image and multimodal embeddings are not answered yet/);
});

test("the AI SDK's Bedrock embedding model (Titan, one call per value; Cohere, one batch) and LangChain's BedrockEmbeddings [bedrock-invoke.embeddings-titan.json +]", async () => {
  const { session } = await open('aisdk');
  const bedrock = createAmazonBedrock({
    baseURL: mock.url('bedrock'),
    region: 'us-east-1',
    accessKeyId: session.apiKey,
    secretAccessKey: 'understudy-secret',
  });
  const one = await embed({ model: bedrock.embedding(TITAN_V2), value: 'refund policy', maxRetries: 0 });
  assert.equal(one.embedding.length, 1024);
  assert.equal(one.usage.tokens, 2);
  const many = await embedMany({
    model: bedrock.embedding(TITAN_V2),
    values: ['What is the refund policy?', 'what is the refund policy', 'Bananas are yellow.'],
    maxRetries: 0,
  });
  assert.ok(cosineSimilarity(many.embeddings[0], many.embeddings[1]) > cosineSimilarity(many.embeddings[0], many.embeddings[2]));
  const cohere = await embedMany({ model: bedrock.embedding(COHERE_V3), values: ['a', 'b'], maxRetries: 0 });
  assert.equal(cohere.embeddings.length, 2);
  const langchain = new BedrockEmbeddings({ model: TITAN_V2, client: bedrockClient(mock.url('bedrock'), session.apiKey), maxRetries: 0 });
  const query = await langchain.embedQuery('refund policy');
  assert.deepEqual(query, one.embedding);
  const { entries } = await session.journal();
  assert.equal(entries.length, 1 + 3 + 1 + 1);
});

test('a scripted error through the AI SDK is an APICallError with its status [bedrock-invoke.embeddings-titan.json -]', async () => {
  const { session } = await open('aisdk-error');
  await session.load({
    scenarios: [],
    embeddings: [{ input: 'denied', error: { status: 403, message: 'You do not have access to the model.' } }],
  });
  const bedrock = createAmazonBedrock({
    baseURL: mock.url('bedrock'),
    region: 'us-east-1',
    accessKeyId: session.apiKey,
    secretAccessKey: 'understudy-secret',
  });
  await assert.rejects(
    embed({ model: bedrock.embedding(TITAN_V2), value: 'denied', maxRetries: 0 }),
    (error: Error & { statusCode?: number }) => {
      assert.equal(error.statusCode, 403, String(error));
      assert.match(error.message, /do not have access/);
      return true;
    },
  );
});

// A tool or output schema is compiled once per distinct schema, not once per request: an agent
// loop sends the same tools with a growing conversation on every turn (so the decode memo, which
// only shares identical bodies, does not help), and each dialect checks the schema at decode and
// the contract checks it again. Understudy runs in this process, so the compile counter of
// src/core/schema.ts sees every compile the requests cause.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { schemaCompilations } from '../src/core/schema.js';

const TURNS = 12;
let mock: Understudy;
let session: UnderstudySession;

before(async () => {
  mock = await startUnderstudy();
  session = await mock.session('compile-once', { fallback: 'auto' });
});
after(async () => {
  await mock?.close();
});

/** A schema no other test sends, so its first compile happens here. */
function freshSchema(tag: string): Record<string, unknown> {
  return { type: 'object', title: `${tag}-${process.pid}-${Date.now()}`, properties: { city: { type: 'string' } } };
}

async function compilesOver(turn: (i: number) => Promise<unknown>): Promise<number> {
  const before = schemaCompilations();
  for (let i = 0; i < TURNS; i++) await turn(i);
  return schemaCompilations() - before;
}

// Declared schemas are checked without compiling (core/schema.ts checkSchema); only the schema a
// reply is checked against is compiled: here the response format, once over all the turns.
test('Chat Completions: over many turns the response schema compiles once, the declared tool schema never', async () => {
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const parameters = freshSchema('chat-tool');
  const schema = freshSchema('chat-format');
  const compiles = await compilesOver((i) =>
    openai.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: `turn ${i}` }],
      tools: [{ type: 'function', function: { name: 'weather', parameters } }],
      tool_choice: 'none',
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema } },
    }),
  );
  assert.equal(compiles, 1);
});

test('Responses: the same tool schema over many turns compiles once', async () => {
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const parameters = freshSchema('responses-tool');
  const compiles = await compilesOver((i) =>
    openai.responses.create({
      model: 'gpt-4.1-mini',
      input: `turn ${i}`,
      store: false,
      tools: [{ type: 'function', name: 'weather', parameters, strict: false }],
    }),
  );
  assert.equal(compiles, 1);
});

test('Anthropic Messages: the same tool schema over many turns compiles once', async () => {
  const anthropic = new Anthropic({ baseURL: mock.url('anthropic'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const input_schema = freshSchema('anthropic-tool') as Anthropic.Tool.InputSchema;
  const compiles = await compilesOver((i) =>
    anthropic.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      messages: [{ role: 'user', content: `turn ${i}` }],
      tools: [{ name: 'weather', input_schema }],
    }),
  );
  assert.equal(compiles, 1);
});

test('Gemini: the same declaration over many turns compiles once', async () => {
  const ai = new GoogleGenAI({ apiKey: session.apiKey, httpOptions: { baseUrl: mock.url('gemini'), timeout: 10_000 } });
  const parametersJsonSchema = freshSchema('gemini-tool');
  const compiles = await compilesOver((i) =>
    ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: `turn ${i}`,
      config: { tools: [{ functionDeclarations: [{ name: 'weather', parametersJsonSchema }] }] },
    }),
  );
  assert.equal(compiles, 1);
});

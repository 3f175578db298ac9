// Real answers of every chat dialect, JSON and streamed, made by the dialect's own encoders for a
// reply with text, reasoning and a tool call — and their stream events taken apart and put back
// together, so a test can change any part of an answer and hand it to the reader
// (test/read-answer-never-throws.test.ts).

import assert from 'node:assert/strict';
import { isNeutralError } from '../../src/core/errors.js';
import type { Reply } from '../../src/core/model.js';
import { eventFrame } from '../../src/dialects/bedrock/event-stream.js';
import { readEventStream } from '../../src/dialects/bedrock/read-event-stream.js';
import { chunkFrame } from '../../src/dialects/bedrock-invoke/chunk-frames.js';
import type { AnswerReader, ChatDialect } from '../../src/dialects/dialect.js';
import { DIALECTS } from '../../src/dialects/registry.js';
import { sseData } from '../../src/dialects/wire-kit/recorded-answer.js';
import { resolveReply } from '../../src/engine/resolve.js';
import { joined, wireOf } from './answer-replies.js';

/** How a stream's events are framed: SSE (with `event:` lines from each event's type), NDJSON,
 * one JSON array, AWS event-stream messages (typed by their header), or InvokeModel's chunks. */
export type Framing = 'sse' | 'ndjson' | 'array' | 'frames' | 'chunks';

/** One event of a stream: its data, and its frame's type where the framing names one. */
export interface StreamEvent {
  type?: string;
  data: unknown;
}

export interface AnswerSample {
  name: string;
  reader: AnswerReader;
  json: unknown;
  framing: Framing;
  events: StreamEvent[];
}

const TOOL = { type: 'function', function: { name: 'weather', parameters: { type: 'object' } } };
const USER = 'What is the weather?';

interface Case {
  name: string;
  operation: [json: string, stream: string];
  params?: Record<string, string>;
  query?: [json: string, stream: string];
  body(stream: boolean): object;
  framing: Framing;
  reply?: Reply;
}

const CASES: Case[] = [
  {
    name: 'openai-chat',
    operation: ['openai.chat.completions', 'openai.chat.completions'],
    body: (stream) => ({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: USER }],
      tools: [TOOL],
      stream,
      ...(stream && { stream_options: { include_usage: true } }),
    }),
    framing: 'sse',
  },
  {
    name: 'openai-responses',
    operation: ['openai.responses', 'openai.responses'],
    body: (stream) => ({
      model: 'gpt-4o',
      input: USER,
      tools: [{ type: 'function', name: 'weather', parameters: { type: 'object' } }],
      stream,
    }),
    framing: 'sse',
  },
  {
    name: 'anthropic-messages',
    operation: ['anthropic.messages', 'anthropic.messages'],
    body: (stream) => ({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      messages: [{ role: 'user', content: USER }],
      tools: [{ name: 'weather', input_schema: { type: 'object' } }],
      stream,
    }),
    framing: 'sse',
  },
  {
    name: 'gemini',
    operation: ['gemini.generateContent', 'gemini.streamGenerateContent'],
    params: { model: 'gemini-2.5-flash' },
    body: () => ({
      contents: [{ role: 'user', parts: [{ text: USER }] }],
      tools: [{ functionDeclarations: [{ name: 'weather', parameters: { type: 'object' } }] }],
    }),
    framing: 'sse',
    query: ['', 'alt=sse'],
  },
  {
    name: 'gemini-array',
    operation: ['gemini.generateContent', 'gemini.streamGenerateContent'],
    params: { model: 'gemini-2.5-flash' },
    body: () => ({
      contents: [{ role: 'user', parts: [{ text: USER }] }],
      tools: [{ functionDeclarations: [{ name: 'weather', parameters: { type: 'object' } }] }],
    }),
    framing: 'array',
  },
  {
    name: 'cohere-v2',
    operation: ['cohere.chat', 'cohere.chat'],
    body: (stream) => ({ model: 'command-r-plus', messages: [{ role: 'user', content: USER }], tools: [TOOL], stream }),
    framing: 'sse',
  },
  {
    name: 'cohere-v1',
    operation: ['cohere.v1.chat', 'cohere.v1.chat'],
    body: (stream) => ({ model: 'command-r', message: USER, tools: [{ name: 'weather', description: 'The weather.' }], stream }),
    framing: 'ndjson',
  },
  {
    name: 'ollama',
    operation: ['ollama.chat', 'ollama.chat'],
    body: (stream) => ({ model: 'llama3.2', messages: [{ role: 'user', content: USER }], tools: [TOOL], think: true, stream }),
    framing: 'ndjson',
  },
  {
    name: 'bedrock-converse',
    operation: ['bedrock.converse', 'bedrock.converseStream'],
    params: { modelId: 'anthropic.claude-3-5-sonnet-20240620-v1:0' },
    body: () => ({
      messages: [{ role: 'user', content: [{ text: USER }] }],
      toolConfig: { tools: [{ toolSpec: { name: 'weather', inputSchema: { json: { type: 'object' } } } }] },
    }),
    framing: 'frames',
  },
  {
    name: 'bedrock-invoke-nova',
    operation: ['bedrock.invokeModel', 'bedrock.invokeModelWithResponseStream'],
    params: { modelId: 'amazon.nova-lite-v1:0' },
    body: () => ({ messages: [{ role: 'user', content: [{ text: USER }] }] }),
    framing: 'chunks',
    reply: { text: 'Sunny, 21 °C.', reasoning: 'Look it up.' },
  },
  {
    name: 'bedrock-invoke-titan',
    operation: ['bedrock.invokeModel', 'bedrock.invokeModelWithResponseStream'],
    params: { modelId: 'amazon.titan-text-express-v1' },
    body: () => ({ inputText: USER }),
    framing: 'chunks',
    reply: { text: 'Sunny, 21 °C.', chunks: ['Sunny, ', '21 °C.'] },
  },
  {
    name: 'bedrock-invoke-claude',
    operation: ['bedrock.invokeModel', 'bedrock.invokeModelWithResponseStream'],
    params: { modelId: 'anthropic.claude-3-5-sonnet-20240620-v1:0' },
    body: () => ({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 1024, messages: [{ role: 'user', content: USER }] }),
    framing: 'chunks',
    reply: { text: 'Sunny, 21 °C.', reasoning: 'Look it up.' },
  },
];

const REPLY: Reply = {
  text: 'Sunny, 21 °C.',
  chunks: ['Sunny, ', '21 °C.'],
  reasoning: 'Look it up.',
  toolCalls: [{ id: 'call_1', name: 'weather', arguments: { city: 'Paris', days: [1, 2] } }],
};

function dialectOf(operation: string): ChatDialect {
  for (const registration of DIALECTS) for (const route of registration.routes) if (route.operation === operation) return route.dialect;
  throw new Error(`no route serves ${operation}`);
}

/** A stream's text taken apart into its events. */
export function eventsOf(text: string, framing: Framing): StreamEvent[] {
  switch (framing) {
    case 'sse':
      return sseData(text).map((data) => ({ data: data === '[DONE]' ? data : (JSON.parse(data) as unknown) }));
    case 'ndjson':
      return text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => ({ data: JSON.parse(line) as unknown }));
    case 'array':
      return (JSON.parse(text) as unknown[]).map((data) => ({ data }));
    case 'frames':
    case 'chunks': {
      const messages = readEventStream(text);
      assert.ok(typeof messages !== 'string', messages as string);
      return messages.map(({ headers, payload }) => {
        const value = JSON.parse(payload) as { bytes?: string };
        const data =
          framing === 'chunks' && typeof value.bytes === 'string'
            ? (JSON.parse(Buffer.from(value.bytes, 'base64').toString('utf8')) as unknown)
            : value;
        return { type: headers[':event-type'] ?? '', data };
      });
    }
  }
}

function typeOf(data: unknown): string {
  const type = typeof data === 'object' && data !== null ? (data as Record<string, unknown>).type : undefined;
  return typeof type === 'string' ? type : 'x';
}

/** The events put back together in their framing. */
export function framed(events: StreamEvent[], framing: Framing): string {
  switch (framing) {
    case 'sse':
      return events
        .map((e) => (e.data === '[DONE]' ? 'data: [DONE]\n\n' : `event: ${typeOf(e.data)}\ndata: ${JSON.stringify(e.data)}\n\n`))
        .join('');
    case 'ndjson':
      return events.map((e) => `${JSON.stringify(e.data)}\n`).join('');
    case 'array':
      return JSON.stringify(events.map((e) => e.data));
    case 'frames':
      return events.map((e) => eventFrame(e.type ?? typeOf(e.data), JSON.stringify(e.data) ?? 'null')).join('');
    case 'chunks':
      return events.map((e) => chunkFrame(JSON.stringify(e.data) ?? 'null')).join('');
  }
}

/** Every sample, its answers made by its dialect's encoders. */
export function answerSamples(): AnswerSample[] {
  return CASES.map((c) => {
    const encoded = [false, true].map((stream) => {
      const wire = {
        ...wireOf(c.operation[stream ? 1 : 0], c.params, c.query?.[stream ? 1 : 0] ?? ''),
        headers: { 'anthropic-version': '2023-06-01' },
      };
      const dialect = dialectOf(wire.operation);
      const request = dialect.decode(c.body(stream), wire);
      assert.ok(!isNeutralError(request), `${c.name}: ${JSON.stringify(request)}`);
      const resolved = resolveReply(c.reply ?? REPLY, request, { nextId: () => 'x' });
      const ctx = { wire, responseId: `${dialect.idPrefix}abc`, created: 1_700_000_000, model: request.model, requestId: 'req_1' };
      return {
        dialect,
        text: stream ? joined(dialect.encodeStream(resolved, request, ctx).events) : dialect.encodeResponse(resolved, request, ctx),
      };
    });
    const [json, stream] = encoded as [{ dialect: ChatDialect; text: string }, { dialect: ChatDialect; text: string }];
    assert.ok(json.dialect.readAnswer, `${c.name} has no reader`);
    return {
      name: c.name,
      reader: json.dialect.readAnswer,
      json: JSON.parse(json.text) as unknown,
      framing: c.framing,
      events: eventsOf(stream.text, c.framing),
    };
  });
}

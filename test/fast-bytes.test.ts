// The fast path is derived, not written per dialect (src/transport/answer-bytes.ts): for every
// registered dialect and operation, every reply shape, JSON and stream alike, the bytes of repeated
// answers (built from byte templates, latin1 small bodies, recycled buffers) must equal the dialect's
// plain encoding with the same ids.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deepFreeze } from '../src/core/deep-freeze.js';
import { isNeutralError } from '../src/core/errors.js';
import type { ChatRequest, Reply } from '../src/core/model.js';
import type { AnswerBytes, ChatDialect, DialectEncodeContext, WireContext } from '../src/dialects/dialect.js';
import { DIALECTS } from '../src/dialects/registry.js';
import { resolveReply } from '../src/engine/resolve.js';
import { jsonAnswer, streamAnswer } from '../src/transport/answer-bytes.js';

const REPLIES: Record<string, Reply> = {
  text: { text: 'Hello there, how can I help?' },
  unicode: { text: 'Grüße 😀 漢字 — "quoted" \\ back\nline' },
  tools: {
    text: 'Calling two tools.',
    toolCalls: [
      { id: 'call_a1', name: 'weather', arguments: { city: 'Paris', days: 3 } },
      { id: 'call_b2', name: 'time', arguments: '{"zone":"Europe/Paris"}' },
    ],
  },
  reasoning: { text: 'The answer is 42.', reasoning: 'Six times seven.', reasoningTokens: 12 },
  structured: { json: { name: 'Ada', age: 36, tags: ['math', 'engines'] } },
  chunked: { text: 'one two three', chunks: ['one ', 'two ', 'three'] },
  // Encoded per request where a dialect answers citations (their sources are the request's).
  cited: { text: 'Paris is sunny today.', citations: [{ text: 'sunny', sources: ['doc:0'] }] },
  // Past the 8 KB of latin1 small bodies: a buffer template, recycled.
  long: { text: 'word '.repeat(4000) },
};

/** A request body per operation, the smallest each route takes, asking for a stream or not. */
function bodyFor(operation: string, stream: boolean): unknown {
  const user = 'What is the weather?';
  // OpenAI's and its hosts' (`deepseek.chat.completions`, `openrouter.responses` …).
  if (operation.endsWith('.chat.completions')) return { model: 'gpt-4o', messages: [{ role: 'user', content: user }], stream };
  if (operation.endsWith('.responses')) return { model: 'gpt-4o', input: user, stream };
  if (operation.startsWith('anthropic'))
    return { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: user }], stream };
  if (operation.startsWith('gemini') || operation.startsWith('vertex')) return { contents: [{ role: 'user', parts: [{ text: user }] }] };
  if (operation === 'cohere.v1.chat') return { model: 'command-r-plus', message: user, stream };
  if (operation.startsWith('cohere')) return { model: 'command-a-03-2025', messages: [{ role: 'user', content: user }], stream };
  if (operation === 'ollama.chat') return { model: 'llama3.2', messages: [{ role: 'user', content: user }], stream };
  if (operation === 'ollama.generate') return { model: 'llama3.2', prompt: user, stream };
  // Bedrock: the model id is the route's, and the route says whether it streams.
  if (operation.startsWith('bedrock.converse')) return { messages: [{ role: 'user', content: [{ text: user }] }] };
  if (operation.startsWith('bedrock.invokeModel')) {
    return { anthropic_version: 'bedrock-2023-05-31', max_tokens: 100, messages: [{ role: 'user', content: user }] };
  }
  throw new Error(`no request body for operation ${operation}: add one to test/fast-bytes.test.ts`);
}

/** The query a route requires (Azure's api-version). */
const QUERIES: Record<string, Record<string, string>> = {
  'azure.chat.completions': { 'api-version': '2024-10-21' },
  'azure.responses': { 'api-version': '2025-04-01-preview' },
  'foundry-models.chat.completions': { 'api-version': '2024-05-01-preview' },
};

/** Session stream flavours a route's answers differ by (Azure's Chat routes). */
function flavoursOf(operation: string): ('plain' | 'azure')[] {
  return /^(azure|azure-v1|foundry|foundry-models)\.chat/.test(operation) ? ['plain', 'azure'] : ['plain'];
}

interface Case {
  dialect: ChatDialect;
  operation: string;
  wire: WireContext;
  request: ChatRequest;
}

function casesOf(): Case[] {
  const cases: Case[] = [];
  const seen = new Set<string>();
  for (const registration of DIALECTS) {
    for (const route of registration.routes) {
      const streamed = route.operation.includes('stream') ? [true] : [false, true];
      for (const stream of streamed) {
        for (const alt of route.operation.includes('streamGenerateContent') ? ['sse', ''] : ['']) {
          for (const flavour of flavoursOf(route.operation)) {
            const label = `${route.operation} stream=${stream}${alt ? ' alt=sse' : ''}${flavour === 'plain' ? '' : ` flavour=${flavour}`}`;
            if (seen.has(label)) continue;
            seen.add(label);
            const wire: WireContext = {
              operation: route.operation,
              params: {
                version: route.operation.startsWith('vertex') ? 'v1' : 'v1beta',
                model: 'gemini-2.0-flash',
                project: 'p',
                location: 'us-central1',
                deployment: 'my-gpt4o',
                modelId: 'anthropic.claude-3-haiku-20240307-v1:0',
              },
              query: new URLSearchParams(alt ? { alt } : (QUERIES[route.operation] ?? {})),
              headers: { 'anthropic-version': '2023-06-01', authorization: 'Bearer k' },
              state: { sessionId: 's', store: (_name, create) => create(), zeroConfig: () => false, streamFlavour: () => flavour },
            };
            const decoded = route.dialect.decode(bodyFor(route.operation, stream), wire);
            assert.ok(!isNeutralError(decoded), `${label}: ${JSON.stringify(decoded)}`);
            // The decode memo's request is frozen: the only kind answered from templates.
            cases.push({ dialect: route.dialect, operation: label, wire, request: deepFreeze(decoded) });
          }
        }
      }
    }
  }
  return cases;
}

function bytesOf(answer: AnswerBytes): Buffer {
  if (typeof answer.body !== 'string') return Buffer.from(answer.body);
  return Buffer.from(answer.body, answer.encoding === 'latin1' ? 'latin1' : 'utf8');
}

function plainStream(
  dialect: ChatDialect,
  reply: Parameters<ChatDialect['encodeStream']>[0],
  request: ChatRequest,
  ctx: DialectEncodeContext,
) {
  const events = dialect.encodeStream(reply, request, ctx).events;
  let body = '';
  for (let i = 0; i < events.length; i++) body += events.at(i);
  // A binary stream's events are latin1 strings, one character per byte (ChatDialect.binaryStream).
  return Buffer.from(body, dialect.binaryStream ? 'latin1' : 'utf8');
}

/** A flushed response: what lets a template take its body back. */
const FLUSHED = { writableFinished: true, destroyed: false };

test('every dialect: repeated answers are byte for byte its plain encoding, JSON and stream, every reply shape', () => {
  const cases = casesOf();
  assert.ok(cases.length >= 8, `${cases.length} cases`);
  let compared = 0;
  for (const c of cases) {
    for (const [name, spec] of Object.entries(REPLIES)) {
      const reply = resolveReply(spec, c.request, { nextId: () => 'unused' });
      // Ids of one length that share their first characters, as consecutive ids do, then one that
      // differs throughout: a template rewrites only what changed in a recycled body.
      for (const [i, id] of ['aaaa0001', 'aaaa0002', 'aaaa0003', 'aaab0010', 'zzzz9999', 'aaaa0001'].entries()) {
        const ctx: DialectEncodeContext = {
          wire: c.wire,
          responseId: `${c.dialect.idPrefix}${id}`,
          created: 1_700_000_000,
          model: c.request.model,
          requestId: `req_${i}`,
        };
        const fast = c.request.stream ? streamAnswer(c.dialect, reply, c.request, ctx) : jsonAnswer(c.dialect, reply, c.request, ctx);
        const plain = c.request.stream
          ? plainStream(c.dialect, reply, c.request, ctx)
          : Buffer.from(c.dialect.encodeResponse(reply, c.request, ctx), 'utf8');
        const got = bytesOf(fast);
        if (!got.equals(plain)) {
          assert.fail(
            `${c.operation}, reply "${name}", answer ${i + 1}: the fast bytes differ from the plain encoding\nfast:  ${got.toString('utf8').slice(0, 400)}\nplain: ${plain.toString('utf8').slice(0, 400)}`,
          );
        }
        fast.sentBy?.(FLUSHED);
        compared++;
      }
    }
  }
  assert.ok(compared >= cases.length * Object.keys(REPLIES).length * 6);
});

test('templates are in use: a repeated answer to the memo request is not rendered again', () => {
  const c = casesOf().find((x) => x.operation.startsWith('openai.chat') && !x.request.stream) as Case;
  // A reply of its own: the test above used REPLIES' shapes with every registered operation, up to
  // the templates' limit of keys per shape.
  const reply = resolveReply({ ...(REPLIES.text as Reply) }, c.request, { nextId: () => 'unused' });
  let renders = 0;
  const counting: ChatDialect = { ...c.dialect, encodeResponse: (...args) => (renders++, c.dialect.encodeResponse(...args)) };
  for (let i = 0; i < 10; i++) {
    const ctx: DialectEncodeContext = {
      wire: c.wire,
      responseId: `chatcmpl-${String(i).padStart(8, '0')}`,
      created: 1,
      model: 'gpt-4o',
      requestId: 'r',
    };
    jsonAnswer(counting, reply, c.request, ctx);
  }
  // Once plainly (first sighting), twice to build the template (two ids), then never again.
  assert.equal(renders, 3);
  // A request that is not the memo's (not frozen) is always rendered: its key would never repeat.
  const fresh = { ...c.request };
  renders = 0;
  for (let i = 0; i < 3; i++)
    jsonAnswer(counting, reply, fresh, { wire: c.wire, responseId: `chatcmpl-0000000${i}`, created: 1, model: 'gpt-4o', requestId: 'r' });
  assert.equal(renders, 3);
});

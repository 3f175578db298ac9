// Every chat route reads back its own answers (decision 0017, for record mode): each route's
// dialect has a reader, and the hosts of the OpenAI dialects — which inherit the base dialect's
// reader but rewrite its answers with their rules — still read back as the reply they were encoded
// from, JSON and streamed, for any reply (fast-check, through the host dialect's own encoders).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import type { ChatDialect, WireContext } from '../src/dialects/dialect.js';
import { DIALECTS } from '../src/dialects/registry.js';
import { replies, usages } from './support/answer-replies.js';
import { assertReadBack, countsOf, encodingOf, roundTrips, UNCHECKED } from './support/read-back.js';

const ROUTES = new Map<string, ChatDialect>();
for (const registration of DIALECTS)
  for (const route of registration.routes) if (!ROUTES.has(route.operation)) ROUTES.set(route.operation, route.dialect);

test('every chat route has a reader of its answers', () => {
  const without = [...ROUTES].filter(([, dialect]) => dialect.readAnswer === undefined).map(([operation]) => operation);
  assert.deepEqual(without, []);
});

/** What a host's decoder needs besides an ordinary body: its route's api-version, its model. */
const QUERY: Record<string, string> = {
  'azure.chat.completions': 'api-version=2024-10-21',
  'azure.responses': 'api-version=2025-04-01-preview',
  'foundry-models.chat.completions': 'api-version=2024-05-01-preview',
};
/** Hosts whose models take no tools for this model (Perplexity's Sonar). */
const NO_TOOLS = new Set(['perplexity.chat.completions']);
/** Hosts that refuse `stream_options` (Mistral's streams carry their usage unasked). */
const NO_STREAM_OPTIONS = new Set(['mistral.chat.completions']);

function wireOf(operation: string): WireContext {
  const stores = new Map<string, unknown>();
  return {
    operation,
    params: { deployment: 'my-gpt4o' },
    query: new URLSearchParams(QUERY[operation] ?? ''),
    headers: { authorization: 'Bearer k', 'api-key': 'k' },
    state: {
      sessionId: 's',
      store<T>(name: string, create: () => T): T {
        if (!stores.has(name)) stores.set(name, create());
        return stores.get(name) as T;
      },
    },
  };
}

function bodyOf(operation: string, stream: boolean): object {
  const tools = !NO_TOOLS.has(operation);
  if (operation.endsWith('.responses')) {
    return {
      model: 'gpt-4o',
      input: 'What is the weather?',
      stream,
      ...(tools && { tools: [{ type: 'function', name: 'weather', parameters: { type: 'object' } }] }),
    };
  }
  return {
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'What is the weather?' }],
    stream,
    ...(stream && !NO_STREAM_OPTIONS.has(operation) && { stream_options: { include_usage: true } }),
    ...(tools && { tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object' } } }] }),
  };
}

for (const [operation, dialect] of ROUTES) {
  if (!dialect.id.includes('@')) continue;
  test(`${operation}: the host's answers, JSON and streamed, read back as the reply`, () => {
    const cases = fc.record({ reply: replies({ calls: !NO_TOOLS.has(operation), reasoning: false, finishes: ['length'] }), usage: usages });
    roundTrips(
      dialect,
      (stream) =>
        encodingOf(dialect, wireOf(operation), bodyOf(operation, stream), { responseId: `${dialect.idPrefix}abc`, model: 'gpt-4o' }),
      cases,
      (read, resolved, streamed) =>
        assertReadBack(read, resolved, {
          streamed,
          chunks: 'unchecked',
          reasoning: UNCHECKED,
          usage: { has: countsOf(resolved.usage, 'inputTokens', 'outputTokens') },
        }),
    );
  });
}

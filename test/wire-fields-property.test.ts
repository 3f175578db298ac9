// Property: for a numeric, boolean or string field of each dialect, any JSON value is accepted by
// the decoder exactly when the provider's documented type and range allow it, and refused naming
// that field otherwise. Values are open-ended (fast-check's JSON values, doubles, large and
// fractional numbers), and sent as JSON would carry them (NaN and Infinity become null, which
// every dialect reads as "not set"). The table-driven tests per dialect check the same fields
// over HTTP with the real SDKs; this one looks for values those tables did not think of.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { NeutralError } from '../src/core/errors.js';
import type { WireContext } from '../src/dialects/dialect.js';
import { decodeMessagesRequest } from '../src/dialects/anthropic-messages/decode-request.js';
import { decodeGeminiRequest } from '../src/dialects/gemini/decode-request.js';
import { decodeChatRequest } from '../src/dialects/openai-chat/decode-request.js';
import { decodeResponsesRequest } from '../src/dialects/openai-responses/decode-request.js';

type Decode = (body: unknown) => unknown;

function wire(operation: string, headers: Record<string, string> = {}, params: Record<string, string> = {}): WireContext {
  const stores = new Map<string, unknown>();
  return {
    operation,
    params,
    query: new URLSearchParams(),
    headers,
    state: {
      store<T>(name: string, create: () => T): T {
        if (!stores.has(name)) stores.set(name, create());
        return stores.get(name) as T;
      },
      sessionId: 'property',
      zeroConfig: () => true,
    },
  };
}

const number = (v: unknown): v is number => typeof v === 'number';
const within = (min: number, max: number) => (v: unknown) => number(v) && v >= min && v <= max;
const safeInt = (min: number, max: number) => (v: unknown) => number(v) && Number.isSafeInteger(v) && v >= min && v <= max;
const isBool = (v: unknown) => typeof v === 'boolean';
const isString = (v: unknown) => typeof v === 'string';
/** Gemini's proto3 JSON takes numbers as JSON numbers or numeric strings. */
const protoNumber = (v: unknown): number | undefined =>
  typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined;
const protoInt = (v: unknown): number | undefined =>
  typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : undefined;
const int32 = (n: number | undefined) => n !== undefined && Number.isSafeInteger(n) && n >= -(2 ** 31) && n < 2 ** 31;

interface Field {
  dialect: string;
  field: string;
  decode: Decode;
  body: (v: unknown) => unknown;
  accepts: (v: unknown) => boolean;
  /** Where the refusal names the field: its param, or the start of its message. */
  names: (error: NeutralError, field: string) => boolean;
}

const chat: Decode = (b) => decodeChatRequest(b);
const responses: Decode = (b) => decodeResponsesRequest(b, wire('openai.responses'));
const anthropic: Decode = (b) => decodeMessagesRequest(b, wire('anthropic.messages', { 'anthropic-version': '2023-06-01' }));
const gemini: Decode = (b) => decodeGeminiRequest(b, wire('gemini.generateContent', {}, { model: 'gemini-2.5-flash' }));

const byParam = (e: NeutralError, f: string) => e.param === f;
const byPrefix = (e: NeutralError, f: string) => e.message.startsWith(`${f}: `) || e.message.startsWith(`${f.split('.').pop()}: `);
const byGeminiField = (e: NeutralError, f: string) => e.param === f;

const CHAT = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] };
const RESPONSES = { model: 'gpt-4.1-mini', input: 'hi', store: false };
const ANTHROPIC = { model: 'claude-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] };
const GEMINI = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };

/** Null is "not sent" for an optional field. */
const orNull = (accepts: (v: unknown) => boolean) => (v: unknown) => v === null || accepts(v);
const top = (base: Record<string, unknown>, key: string) => (v: unknown) => ({ ...base, [key]: v });
const generation = (key: string) => (v: unknown) => ({ ...GEMINI, generationConfig: { [key]: v } });

const FIELDS: Field[] = [
  ...(
    [
      ['temperature', within(0, 2)],
      ['top_p', within(0, 1)],
      ['frequency_penalty', within(-2, 2)],
      ['presence_penalty', within(-2, 2)],
      ['seed', safeInt(-Infinity, Infinity)],
      ['top_logprobs', safeInt(0, 20)],
      ['n', (v: unknown) => v === 1],
      ['max_tokens', safeInt(1, Infinity)],
      ['max_completion_tokens', safeInt(1, Infinity)],
      ['logprobs', isBool],
      ['store', isBool],
      ['user', isString],
      ['prompt_cache_key', isString],
    ] as const
  ).map(([field, accepts]): Field => ({
    dialect: 'chat',
    field,
    decode: chat,
    body: top(CHAT, field),
    accepts: orNull(accepts),
    names: byParam,
  })),
  ...(
    [
      ['temperature', within(0, 2)],
      ['top_p', within(0, 1)],
      ['max_output_tokens', safeInt(16, Infinity)],
      ['top_logprobs', safeInt(0, 20)],
      ['max_tool_calls', safeInt(1, Infinity)],
      ['parallel_tool_calls', isBool],
      ['user', isString],
      ['instructions', isString],
    ] as const
  ).map(([field, accepts]): Field => ({
    dialect: 'responses',
    field,
    decode: responses,
    body: top(RESPONSES, field),
    accepts: orNull(accepts),
    names: byParam,
  })),
  ...(
    [
      ['temperature', within(0, 1)],
      ['top_p', within(0, 1)],
      ['top_k', safeInt(0, Infinity)],
      ['max_tokens', safeInt(1, 128_000)],
      ['stream', isBool],
    ] as const
  ).map(([field, accepts]): Field => ({
    dialect: 'anthropic',
    field,
    decode: anthropic,
    body: top(ANTHROPIC, field),
    // The API types these as non-nullable: a null max_tokens, temperature, top_p or top_k is
    // refused (as a missing field or a wrong type); a null stream reads as not set.
    accepts: field === 'stream' ? orNull(accepts) : accepts,
    names: byPrefix,
  })),
  ...(
    [
      ['temperature', (v: unknown) => within(0, 2)(protoNumber(v))],
      ['topP', (v: unknown) => within(0, 1)(protoNumber(v))],
      ['topK', (v: unknown) => int32(protoInt(v)) && protoInt(v)! >= 1],
      ['maxOutputTokens', (v: unknown) => int32(protoInt(v)) && protoInt(v)! >= 0],
      ['seed', (v: unknown) => int32(protoInt(v))],
      ['presencePenalty', (v: unknown) => within(-2, 2)(protoNumber(v))],
      ['responseLogprobs', isBool],
      ['audioTimestamp', isBool],
      ['enableAffectiveDialog', isBool],
    ] as const
  ).map(([field, accepts]): Field => ({
    dialect: 'gemini',
    field: `generation_config.${field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`,
    decode: gemini,
    body: generation(field),
    accepts: orNull(accepts),
    names: byGeminiField,
  })),
];

/** Open-ended values, biased toward the edges a range check gets wrong. */
const VALUES = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.double(),
  fc.integer({ min: -200_000, max: 200_000 }),
  fc.constantFrom(0, -0, 1, 2, 16, 20, 21, 128_000, 128_001, 2 ** 31, 2 ** 53, 1.5e300, -1e-9, 0.5, '1', '0.5', '', true, false, null),
);

for (const f of FIELDS) {
  test(`${f.dialect} ${f.field}: accepted exactly when the documented type and range allow`, () => {
    fc.assert(
      fc.property(VALUES, (raw) => {
        const body = JSON.parse(JSON.stringify(f.body(raw))) as Record<string, unknown>;
        const sent =
          f.dialect === 'gemini'
            ? (body.generationConfig as Record<string, unknown>)[Object.keys(body.generationConfig as object)[0]]
            : body[f.field];
        const value = sent === undefined ? null : sent;
        const result = f.decode(body) as NeutralError | { model: string };
        const refused = 'kind' in result;
        if (f.accepts(value)) {
          assert.ok(!refused, `${JSON.stringify(value)} refused: ${refused ? (result as NeutralError).message : ''}`);
        } else {
          assert.ok(refused, `${JSON.stringify(value)} accepted`);
          assert.equal((result as NeutralError).status, 400);
          assert.ok(
            f.names(result as NeutralError, f.field),
            `${JSON.stringify(value)}: the refusal does not name ${f.field}: ${(result as NeutralError).message}`,
          );
        }
      }),
      { numRuns: 300 },
    );
  });
}

/** Strings biased toward digits, signs, dots and whitespace: what a key or sequence check gets wrong. */
const STRINGS = fc.oneof(
  fc.string(),
  fc.stringMatching(/^[-+ 0-9.e]{0,6}$/),
  fc.constantFrom('', ' ', '\n', '\t \n', '0', '00', '-1', '1.0', '1e3', ' 5', '5 ', '\u00a0', 'END'),
);

test('chat logit_bias: a key is accepted exactly when it is a token id (digits only)', () => {
  fc.assert(
    fc.property(STRINGS, (key) => {
      const result = chat({ ...CHAT, logit_bias: { [key]: 1 } }) as NeutralError | { model: string };
      const refused = 'kind' in result;
      assert.equal(refused, !/^[0-9]+$/.test(key), `${JSON.stringify(key)}: ${refused ? (result as NeutralError).message : 'accepted'}`);
      if (refused) assert.equal((result as NeutralError).param, 'logit_bias');
    }),
    { numRuns: 300 },
  );
});

test('anthropic stop_sequences: a sequence is accepted exactly when it holds something besides whitespace', () => {
  fc.assert(
    fc.property(STRINGS, (sequence) => {
      const result = anthropic({ ...ANTHROPIC, stop_sequences: ['END', sequence] }) as NeutralError | { model: string };
      const refused = 'kind' in result;
      assert.equal(
        refused,
        sequence.trim() === '',
        `${JSON.stringify(sequence)}: ${refused ? (result as NeutralError).message : 'accepted'}`,
      );
      if (refused) assert.equal((result as NeutralError).param, 'stop_sequences');
    }),
    { numRuns: 300 },
  );
});

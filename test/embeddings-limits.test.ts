// OpenAI's token limits on embeddings, judged by the real openai SDK over HTTP: an input over the
// model's context and a request over 300,000 tokens are OpenAI's 400s in its words; an input at the
// context is answered; a model of another family has no such limit; usage counts every input.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import OpenAI from 'openai';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { countTokens } from '../src/core/tokens.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

function clientOf(session: UnderstudySession): OpenAI {
  return new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 30_000 });
}

async function refusal(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof OpenAI.APIError, `expected an APIError, got ${String(error)}`);
    return error;
  }
  assert.fail('the call succeeded');
}

/** A text of exactly `tokens` tokens (" a" is one token in every OpenAI encoding). */
function textOf(tokens: number): string {
  const text = 'a' + ' a'.repeat(tokens - 1);
  assert.equal(countTokens(text), tokens);
  return text;
}

test("an input at the context is answered, one token over is refused in OpenAI's words [openai-embeddings.validation.json -]", async () => {
  const session = await mock.session('limits-context');
  const openai = clientOf(session);
  const at = await openai.embeddings.create({ model: 'text-embedding-3-small', input: [textOf(8192), 'short'] });
  assert.equal(at.usage.prompt_tokens, 8193);
  const over = await refusal(openai.embeddings.create({ model: 'text-embedding-3-small', input: ['short', textOf(8193)] }));
  assert.equal(over.status, 400);
  assert.equal(
    over.message,
    "400 This model's maximum context length is 8192 tokens, however you requested 8193 tokens (8193 in your prompt; 0 for the completion). Please reduce your prompt; or completion length.",
  );
  assert.equal(over.type, 'invalid_request_error');
  const ada = await refusal(openai.embeddings.create({ model: 'text-embedding-ada-002', input: textOf(8192) }));
  assert.match(ada.message, /maximum context length is 8191 tokens, however you requested 8192 tokens/);
  const { entries, counters } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.status),
    [200, 400, 400],
  );
  assert.equal(counters.invalid, 2);
});

test('a request over 300,000 tokens in all is max_tokens_per_request; a model of another family has no limit', async () => {
  const session = await mock.session('limits-request');
  const openai = clientOf(session);
  const inputs = Array.from({ length: 37 }, () => textOf(8192));
  const over = await refusal(openai.embeddings.create({ model: 'text-embedding-3-large', input: inputs }));
  assert.equal(over.status, 400);
  assert.equal(over.code, 'max_tokens_per_request');
  assert.equal(over.type, 'max_tokens_per_request');
  assert.match(over.message, /^400 Requested 303104 tokens, max 300000 tokens per request$/);
  const other = await openai.embeddings.create({ model: 'nomic-embed-text', input: textOf(9000), encoding_format: 'float' });
  assert.equal(other.data[0].embedding.length, 768);
});

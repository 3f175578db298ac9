// CountTokens' hook for InvokeModel bodies (src/dialects/bedrock/count-tokens.ts), before the
// InvokeModel dialect fills it in src/dialects/registry.ts: the route decodes the input's base64
// `body` and hands its text and the model id to the counter, answering its count or its refusal in
// Bedrock's error shape. Called directly: no server registers a counter yet (the SDK tests show
// the refusal while none is given).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { invalidRequest } from '../src/core/errors.js';
import { countTokensRoutes } from '../src/dialects/bedrock/count-tokens.js';
import { countConverseTokens } from '../src/dialects/bedrock-converse/decode-request.js';
import { bedrockConverse } from '../src/dialects/bedrock-converse/index.js';
import type { InfoAnswer, InfoAsk } from '../src/dialects/dialect.js';

const seen: [string, string][] = [];
const [route] = countTokensRoutes({
  dialect: bedrockConverse,
  converse: countConverseTokens,
  invokeModel: (modelId, bodyText) => {
    seen.push([modelId, bodyText]);
    return bodyText.includes('refuse')
      ? invalidRequest('Malformed input request: refused, please reformat your input and try again.')
      : bodyText.length;
  },
});

function ask(body: unknown): InfoAnswer {
  const state = { sessionId: 's', store: <T>(_name: string, create: () => T) => create() };
  const question: InfoAsk = {
    body,
    text: JSON.stringify(body),
    state,
    clock: 0,
    params: { modelId: 'anthropic.claude-3-haiku-20240307-v1:0' },
    requestId: 'req_1',
  };
  return route.answer(question) as InfoAnswer;
}

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

test('an InvokeModel body is decoded from base64 and counted by the hook, with the model id', () => {
  const answer = ask({ input: { invokeModel: { body: base64('{"prompt":"hé"}') } } });
  assert.deepEqual([answer.status, answer.body, answer.headers['x-amzn-requestid']], [200, '{"inputTokens":15}', 'req_1']);
  assert.deepEqual(seen.at(-1), ['anthropic.claude-3-haiku-20240307-v1:0', '{"prompt":"hé"}']);
});

test("the hook's refusal, a body that is not base64 and an unknown member are ValidationExceptions", () => {
  for (const body of [
    { input: { invokeModel: { body: base64('refuse') } } },
    { input: { invokeModel: { body: 'not base64!' } } },
    { input: { invokeModel: { body: base64('{}'), extra: 1 } } },
    { input: { invokeModel: {} } },
  ]) {
    const answer = ask(body);
    assert.equal(answer.status, 400, String(answer.body));
    assert.match(answer.headers['x-amzn-errortype'] ?? '', /^ValidationException:/);
  }
});

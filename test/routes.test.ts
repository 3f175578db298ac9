// The route table's matching of parametrised paths, which keeps the last match of a pattern route
// (routes.ts): a repeated path gets the same answer as a first one, and anything that differs (the
// method, the path, a session prefix) is matched afresh.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { matchRoute, type RouteResult } from '../src/transport/routes.js';

const PATHS = [
  '/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse',
  '/model/amazon.nova-lite-v1%3A0/converse-stream',
  '/bedrock/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A1%3Ainference-profile%2Fus.x/invoke',
  '/v1beta/models/gemini-2.5-flash:generateContent',
  '/openai/deployments/my-gpt/chat/completions',
  '/model/bad%ZZ/converse',
  '/v1/messages',
];

function shapeOf(result: RouteResult): unknown {
  if ('operation' in result) return { operation: result.operation.id, params: { ...result.params }, sessionId: result.sessionId };
  if ('badPath' in result) return { badPath: result.badPath };
  return { notFound: true, dialect: result.dialect.id, allow: result.allow, sessionId: result.sessionId };
}

test('a repeated path is matched as its first time was, whatever came between', () => {
  const first = new Map(PATHS.flatMap((path) => ['POST', 'GET'].map((method) => [`${method} ${path}`, shapeOf(matchRoute(method, path))])));
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.constantFrom(...PATHS), fc.constantFrom('POST', 'GET'), fc.boolean()), { minLength: 1, maxLength: 30 }),
      (asks) => {
        for (const [path, method, prefixed] of asks) {
          const seen = shapeOf(matchRoute(method, prefixed ? `/s/sess-1${path}` : path));
          const expected = first.get(`${method} ${path}`) as Record<string, unknown>;
          assert.deepEqual(
            seen,
            prefixed && !('badPath' in expected) ? { ...expected, sessionId: 'sess-1' } : expected,
            `${method} ${prefixed ? '/s/sess-1' : ''}${path}`,
          );
        }
      },
    ),
    { numRuns: 200, seed: 19 },
  );
});

test("a kept match's params cannot be changed by whoever holds them", () => {
  const result = matchRoute('POST', '/model/amazon.nova-lite-v1%3A0/converse');
  assert.ok('operation' in result);
  assert.equal(result.params.modelId, 'amazon.nova-lite-v1:0');
  assert.ok(Object.isFrozen(result.params));
});

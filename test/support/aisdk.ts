// Shared assertions for the Vercel AI SDK tests of every dialect.

import assert from 'node:assert/strict';
import { APICallError, stepCountIs, streamText, type LanguageModel, type ToolSet } from 'ai';
import type { UnderstudySession } from '../../src/client/index.js';

/** streamText against a reply Understudy refuses (409 fixture_mismatch): the SDK reports one
 * APICallError, streams no text, runs no tool, and the journal holds exactly that refusal. */
export async function expectStreamTextRefused(options: {
  model: LanguageModel;
  tools: ToolSet;
  ran: unknown[];
  session: UnderstudySession;
}): Promise<void> {
  const errors: unknown[] = [];
  const result = streamText({
    model: options.model,
    tools: options.tools,
    stopWhen: stepCountIs(3),
    maxRetries: 0,
    abortSignal: AbortSignal.timeout(10_000),
    prompt: 'Weather?',
    onError: ({ error }) => void errors.push(error),
  });
  let streamed = '';
  for await (const delta of result.textStream) streamed += delta;
  assert.equal(streamed, '');
  assert.equal(errors.length, 1);
  const [error] = errors;
  assert.ok(APICallError.isInstance(error), `got ${String(error)}`);
  assert.equal(error.statusCode, 409);
  assert.deepEqual(options.ran, []);
  const { entries } = await options.session.journal();
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream, e.error?.code]),
    [[409, true, 'fixture_mismatch']],
  );
}

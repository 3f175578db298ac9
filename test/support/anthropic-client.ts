// @anthropic-ai/sdk pointed at a started Understudy for a session (no retries, a timeout), and the
// SDK's own error for a request it was refused.

import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import type { Understudy, UnderstudySession } from '../../src/index.js';

export function anthropicClient(mock: Understudy, session: UnderstudySession, base = mock.url('anthropic')): Anthropic {
  return new Anthropic({ baseURL: base, apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
}

export async function anthropicRejection(request: PromiseLike<unknown>): Promise<InstanceType<typeof Anthropic.APIError>> {
  try {
    await request;
  } catch (error) {
    assert.ok(error instanceof Anthropic.APIError, `expected an Anthropic.APIError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the request to be refused');
}

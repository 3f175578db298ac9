// Issue 5 §6: many parallel requests against one script consume each step exactly once, in
// arrival order; graceful shutdown lets answers in flight finish within a deadline.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import OpenAI from 'openai';
import { startUnderstudy } from '../src/client/index.js';

const ask = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'next' }] };

test('60 parallel requests against a 60-step queue get each reply exactly once', async () => {
  const mock = await startUnderstudy();
  try {
    const session = await mock.session('parallel');
    const replies = Array.from({ length: 60 }, (_, i) => ({ text: `reply ${i}` }));
    await session.load({ scenarios: [{ name: 'queue', replies }] });
    const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 20_000 });
    const answers = await Promise.all(replies.map(() => openai.chat.completions.create(ask)));
    const texts = answers.map((a) => a.choices[0].message.content);
    assert.deepEqual([...texts].sort(), replies.map((r) => r.text).sort());
    assert.equal(new Set(texts).size, 60);
    const { entries } = await session.journal();
    assert.deepEqual(
      entries.map((e) => e.step),
      replies.map((_, i) => `step-${i + 1}`),
      'steps are consumed in arrival order',
    );
    const extra = await openai.chat.completions.create(ask).catch((e: unknown) => e);
    assert.ok(extra instanceof OpenAI.ConflictError && extra.code === 'scenario_exhausted');
  } finally {
    await mock.close();
  }
});

test('a graceful close lets an answer in flight finish, and refuses new connections', async () => {
  const mock = await startUnderstudy();
  const session = await mock.session('graceful');
  session.scenario('slow').replies('warm-up').replies('finished in time', { delayMs: 500 });
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  await openai.chat.completions.create(ask); // the SDK and the connection are warm
  const inFlight = openai.chat.completions.create(ask);
  await new Promise((r) => setTimeout(r, 150));
  const closing = mock.close({ graceMs: 3000 });
  const answer = await inFlight;
  assert.equal(answer.choices[0].message.content, 'finished in time');
  await closing;
  await assert.rejects(fetch(`${mock.baseUrl}/_understudy/health`));
});

test('a close without grace ends answers in flight at once, and they consume nothing', async () => {
  const mock = await startUnderstudy();
  const session = await mock.session('abrupt');
  session.scenario('slow').replies('warm-up').replies('never delivered', { delayMs: 2000 });
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  await openai.chat.completions.create(ask);
  const inFlight = openai.chat.completions.create(ask).catch((e: unknown) => e);
  await new Promise((r) => setTimeout(r, 150));
  const started = performance.now();
  await mock.close();
  assert.ok(performance.now() - started < 1000);
  assert.ok((await inFlight) instanceof OpenAI.APIConnectionError);
  await new Promise((r) => setTimeout(r, 50));
  const report = await session.check();
  assert.ok(
    report.problems.some((p) => p.kind === 'unused_step'),
    'the step was released, not consumed',
  );
});

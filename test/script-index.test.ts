// Scripts that require an exact latest user message are indexed by it; selection must still
// honour script order and exhaustion exactly as a full scan would.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import OpenAI from 'openai';
import { startUnderstudy, type Understudy } from '../src/client/index.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

const say = (openai: OpenAI, content: string) =>
  openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content }] }).then((c) => c.choices[0].message.content);

test('the first script in order wins, whether it is indexed by its exact user text or not', async () => {
  const session = await mock.session('index-order');
  const scenarios = [
    ...Array.from({ length: 500 }, (_, i) => ({
      name: `keyed-${i}`,
      steps: [{ when: { latestUser: `q${i}` }, reply: { text: `keyed ${i}` } }],
    })),
    {
      name: 'contains',
      exhausted: 'repeat_last' as const,
      steps: [{ when: { latestUser: { contains: 'q1' } }, reply: { text: 'contains q1' } }],
    },
    { name: 'late-keyed', steps: [{ when: { latestUser: { equals: 'q10' } }, reply: { text: 'late keyed q10' } }] },
  ];
  await session.load({ scenarios });
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0 });
  assert.equal(await say(openai, 'q10'), 'keyed 10'); // keyed-10 comes first
  assert.equal(await say(openai, 'q10'), 'contains q1'); // keyed-10 done; the unkeyed "contains" is next in order
  assert.equal(await say(openai, 'q499'), 'keyed 499');
  assert.equal(await say(openai, 'q1 and more'), 'contains q1');
  const miss = await say(openai, 'nothing like it').catch((e: unknown) => e);
  assert.ok(miss instanceof OpenAI.ConflictError && miss.code === 'no_match');
  assert.match(miss.message, /Nearest: scenario/);
});

test('an exhausted keyed script still answers its own text by its policy, and reject names it', async () => {
  const session = await mock.session('index-exhausted');
  await session.load({
    scenarios: [
      { name: 'once', steps: [{ when: { latestUser: 'ping' }, reply: { text: 'pong' } }] },
      { name: 'again', exhausted: 'repeat_last', steps: [{ when: { latestUser: 'hello' }, reply: { text: 'hi' } }] },
    ],
  });
  const openai = new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0 });
  assert.equal(await say(openai, 'ping'), 'pong');
  const again = await say(openai, 'ping').catch((e: unknown) => e);
  assert.ok(again instanceof OpenAI.ConflictError && again.code === 'scenario_exhausted');
  assert.match(again.message, /scenario "once"/);
  assert.equal(await say(openai, 'hello'), 'hi');
  assert.equal(await say(openai, 'hello'), 'hi');
});

// Issue 15 §2: awaiting a scenario builder settles: once the scenario is loaded in process, once it
// was sent over HTTP; a `next` naming no step rejects with the problem; a builder made on its own
// rejects with what to do. tsx does not type-check, so these run as a user's untyped test would.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import OpenAI from 'openai';
import { connectUnderstudy, ScenarioBuilder, startUnderstudy, type Understudy } from '../src/client/index.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock?.close();
});

const within = <T>(promise: PromiseLike<T>, what: string) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not settle within 2 s`)), 2000)),
  ]);

async function ask(session: { url(p?: string): string; apiKey: string }, content: string): Promise<string | null> {
  const openai = new OpenAI({ baseURL: session.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
  const completion = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content }] });
  return completion.choices[0]?.message.content ?? null;
}

test('in process: awaiting a builder resolves, and its scenario answers', async () => {
  const session = await mock.session();
  const loaded: unknown = await within(session.scenario('greet').whenLatestUser('hi').replies('hello').then().replies('again'), 'await');
  assert.equal(loaded, undefined);
  assert.equal(await ask(session, 'hi'), 'hello');
  assert.equal(await ask(session, 'more'), 'again');
});

test('over HTTP: awaiting a builder sends it (no push() needed)', async () => {
  const remote = await connectUnderstudy(mock.baseUrl);
  const session = await remote.session();
  await within(session.scenario('remote').replies('sent by await'), 'await');
  assert.equal(await ask(session, 'anything'), 'sent by await');
  const { entries } = await session.journal();
  assert.equal(entries[0]?.script, 'remote');
});

test('a next that names no step: awaiting rejects with the problem, in process and over HTTP', async () => {
  const session = await mock.session();
  await assert.rejects(within(session.scenario('lost').replies('a').goesTo('nowhere'), 'await'), /next.*nowhere|nowhere/);
  const remote = await connectUnderstudy(mock.baseUrl);
  const over = await remote.session();
  await assert.rejects(within(over.scenario('lost').replies('a').goesTo('nowhere'), 'await'), /nowhere/);
});

test('a builder made on its own: awaiting rejects and says what to do', async () => {
  await assert.rejects(within(new ScenarioBuilder('alone').replies('x'), 'await'), /loaded nowhere; pass it to session\.load\(\)/);
});

// A scripted step that misses in `auto` mode is visible (issue 13, item 6): the zero-config answer's
// journal entry names the scenario, step and predicate that nearly matched, and verify() reports
// it — as a warning, or as a problem with failOnNearMiss. Unrelated traffic is no near miss.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';

import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionFunctionTool } from 'openai/resources/chat/completions';

import { startUnderstudy, VerificationError, type Understudy, type UnderstudySession } from '../src/index.js';

const ZERO_CONFIG_TEXT = 'This is a scripted answer from Understudy.';

let mock: Understudy;

before(async () => {
  mock = await startUnderstudy();
});

after(async () => {
  await mock.close();
});

const weather: ChatCompletionFunctionTool = {
  type: 'function',
  function: { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

async function auto(name: string): Promise<{ session: UnderstudySession; openai: OpenAI }> {
  const session = await mock.session(name, { fallback: 'auto' });
  return { session, openai: new OpenAI({ baseURL: mock.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 }) };
}

/** The weather round with the tool result answering `id`. */
function round(id: string): ChatCompletionCreateParamsNonStreaming {
  return {
    model: 'gpt-4o-mini',
    tools: [weather],
    messages: [
      { role: 'user', content: 'What is the weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id, type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }],
      },
      { role: 'tool', tool_call_id: id, content: 'sunny' },
    ],
  };
}

function script(session: UnderstudySession): void {
  session
    .scenario('weather')
    .whenLatestUser({ contains: 'weather in Paris' })
    .callsTool('weather', { city: 'Paris' }, 'call_paris')
    .thenWhenToolResult('weather', 'call_paris')
    .replies('Paris is sunny, 21 °C.');
}

test('a client that drops call ids: the zero-config answer is journalled with the near miss, and verify() reports it', async () => {
  const { session, openai } = await auto('near-miss-ids');
  script(session);
  const first = await openai.chat.completions.create({
    model: 'gpt-4o-mini',
    tools: [weather],
    messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
  });
  assert.equal(first.choices[0].message.tool_calls?.[0].id, 'call_paris');

  // The application answers the call under an id of its own: step 2's toolResult predicate misses.
  const fell = await openai.chat.completions.create(round('call_mine'));
  assert.equal(fell.choices[0].message.content, ZERO_CONFIG_TEXT);

  const { entries, counters } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.source, e.nearMisses?.map((m) => [m.scenario, m.step, m.failed.map((f) => f.predicate)])]),
    [
      ['script', undefined],
      ['zero_config', [['weather', 'step-2', ['toolResult']]]],
    ],
  );
  assert.match(entries[1].nearMisses?.[0].failed[0].expected ?? '', /id "call_paris"/);
  assert.match(entries[1].nearMisses?.[0].failed[0].actual ?? '', /call_mine/);
  assert.equal(counters.nearMisses, 1);

  // Still stuck: step 2 was never used, and the near miss says why.
  const stuck = await session.check();
  assert.equal(stuck.ok, false);
  assert.deepEqual(
    stuck.problems.map((p) => [p.kind, p.step]),
    [['unused_step', 'step-2']],
  );
  assert.deepEqual(
    stuck.warnings.map((p) => [p.kind, p.scenario, p.step, p.requestId]),
    [['near_miss', 'weather', 'step-2', entries[1].requestId]],
  );
  assert.match(stuck.report, /Warnings \(1 zero-config answer to near misses; failOnNearMiss makes them errors\)/);
  assert.match(stuck.report, /nearly matched .*scenario "weather" step "step-2" — toolResult: expected .*call_paris.*got .*call_mine/);

  // The retry with the right id reaches step 2: every step used; the near miss stays a warning…
  const answered = await openai.chat.completions.create(round('call_paris'));
  assert.equal(answered.choices[0].message.content, 'Paris is sunny, 21 °C.');
  const report = await session.check();
  assert.equal(report.ok, true, report.report);
  assert.equal(report.warnings.length, 1);
  await session.verify();
  // …unless failOnNearMiss makes it an error.
  const strict = await session.check({ failOnNearMiss: true });
  assert.equal(strict.ok, false);
  assert.deepEqual(
    strict.problems.map((p) => p.kind),
    ['near_miss'],
  );
  assert.deepEqual(strict.warnings, []);
  await assert.rejects(
    session.verify({ failOnNearMiss: true }),
    (e: unknown) => e instanceof VerificationError && /nearly matched/.test(e.message),
  );
});

test('the control API takes failOnNearMiss and refuses a non-boolean', async () => {
  const { session, openai } = await auto('near-miss-control');
  script(session);
  await openai.chat.completions.create({
    model: 'gpt-4o-mini',
    tools: [weather],
    messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
  });
  await openai.chat.completions.create(round('call_mine'));
  await openai.chat.completions.create(round('call_paris'));
  const verify = async (body: unknown) => {
    const res = await fetch(`${mock.baseUrl}/_understudy/sessions/near-miss-control/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.equal(res.status, 200);
    return (await res.json()) as { ok: boolean; problems: { kind: string }[]; warnings: { kind: string }[] };
  };
  const lenient = await verify({});
  assert.deepEqual([lenient.ok, lenient.warnings.map((p) => p.kind)], [true, ['near_miss']]);
  const failing = await verify({ failOnNearMiss: true });
  assert.deepEqual([failing.ok, failing.problems.map((p) => p.kind)], [false, ['near_miss']]);
  const bad = await fetch(`${mock.baseUrl}/_understudy/sessions/near-miss-control/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ failOnNearMiss: 'yes' }),
  });
  assert.equal(bad.status, 400);
  assert.match(await bad.text(), /failOnNearMiss: expected a boolean/);
});

test('unrelated traffic is no near miss; a scenario not yet started nearly matches when some predicates pass', async () => {
  const { session, openai } = await auto('near-miss-unrelated');
  await session.load({
    scenarios: [{ name: 'paris', steps: [{ when: { latestUser: { contains: 'Paris' }, hasTool: 'weather' }, reply: { text: 'Paris.' } }] }],
  });
  // Shares nothing with the step: not a near miss.
  await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] });
  // Declares the tool but asks about Lyon: one of two predicates passes.
  const lyon = await openai.chat.completions.create({
    model: 'gpt-4o-mini',
    tools: [weather],
    messages: [{ role: 'user', content: 'Weather in Lyon?' }],
  });
  const call = lyon.choices[0].message.tool_calls?.[0];
  assert.ok(call?.type === 'function');
  assert.equal(call.function.arguments, '{"city":""}');
  const { entries, counters } = await session.journal();
  assert.deepEqual(
    entries.map((e) => e.nearMisses?.map((m) => m.failed.map((f) => f.predicate))),
    [undefined, [['latestUser']]],
  );
  assert.equal(counters.nearMisses, 1);
  const report = await session.check();
  assert.deepEqual(
    report.warnings.map((w) => w.scenario),
    ['paris'],
  );
});

test('a session without scripts records no near misses, and a strict session keeps its no_match near misses', async () => {
  const { session, openai } = await auto('near-miss-none');
  await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] });
  const { entries, counters } = await session.journal();
  assert.equal(entries[0].nearMisses, undefined);
  assert.equal(counters.nearMisses, 0);
  assert.deepEqual((await session.check()).warnings, []);

  const strict = await mock.session('near-miss-strict');
  script(strict);
  const client = new OpenAI({ baseURL: mock.url('openai'), apiKey: strict.apiKey, maxRetries: 0, timeout: 10_000 });
  const error = await client.chat.completions
    .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] })
    .catch((e: unknown) => e);
  assert.ok(error instanceof OpenAI.ConflictError);
  const journal = await strict.journal();
  assert.deepEqual(
    journal.entries[0].nearMisses?.map((m) => m.step),
    ['step-1'],
  );
  assert.equal(journal.counters.nearMisses, 0, 'a no_match is counted as unmatched, not as a near miss');
});

test("a completed scenario that repeats: a request that passes some of the repeated step's predicates is a near miss, one that passes none is not", async () => {
  const { session, openai } = await auto('near-miss-repeat');
  await session.load({
    scenarios: [
      {
        name: 'canned',
        exhausted: 'repeat_last',
        steps: [{ id: 'say', when: { model: 'gpt-4o', latestUser: { contains: 'Paris' } }, reply: { text: 'Paris.' } }],
      },
    ],
  });
  const ask = (model: string, content: string) => openai.chat.completions.create({ model, messages: [{ role: 'user', content }] });
  assert.equal((await ask('gpt-4o', 'Paris?')).choices[0].message.content, 'Paris.');
  assert.equal((await ask('gpt-4o', 'Paris again?')).choices[0].message.content, 'Paris.');
  // The model matches, the question does not: a near miss of the repeated step.
  assert.equal((await ask('gpt-4o', 'Lyon?')).choices[0].message.content, ZERO_CONFIG_TEXT);
  // Nothing in common: unrelated.
  assert.equal((await ask('gpt-4o-mini', 'Hello')).choices[0].message.content, ZERO_CONFIG_TEXT);
  const { entries } = await session.journal();
  assert.deepEqual(
    entries.map((e) => [e.source, e.nearMisses?.map((m) => [m.scenario, m.step, m.failed.map((f) => f.predicate)])]),
    [
      ['script', undefined],
      ['repeat_last', undefined],
      ['zero_config', [['canned', 'say', ['latestUser']]]],
      ['zero_config', undefined],
    ],
  );
});

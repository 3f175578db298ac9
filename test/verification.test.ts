// Issue 3: verify(), near misses, the bounded journal, token accounting, prompt-cache identity,
// configuration snapshots and cancellation — all through the real openai SDK.

import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { after, before, test } from 'node:test';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import OpenAI from 'openai';
import { startUnderstudy, VerificationError, type Understudy } from '../src/client/index.js';
import type { FixtureSpec } from '../src/engine/spec.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

function sdk(apiKey: string, maxRetries = 0) {
  return new OpenAI({ baseURL: mock.url('openai'), apiKey, maxRetries, timeout: 15_000 });
}

const weatherTool = {
  type: 'function' as const,
  function: { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};
const searchTool = {
  type: 'function' as const,
  function: { name: 'search', parameters: { type: 'object', properties: { q: { type: 'string' } } } },
};

async function toolRound(openai: OpenAI, city: string, result: string) {
  const first = await openai.chat.completions.create({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: `weather in ${city}?` }],
    tools: [weatherTool, searchTool],
  });
  const call = first.choices[0].message.tool_calls![0];
  assert.equal(call.type, 'function');
  return openai.chat.completions.create({
    model: 'gpt-4o',
    messages: [
      { role: 'user', content: `weather in ${city}?` },
      { role: 'assistant', content: null, tool_calls: [call] },
      { role: 'tool', tool_call_id: call.id, content: result },
    ],
    tools: [weatherTool, searchTool],
  });
}

function weatherScenario(session: Awaited<ReturnType<Understudy['session']>>) {
  session
    .scenario('weather')
    .whenLatestUser({ contains: 'weather in Paris' })
    .callsTool('weather', { city: 'Paris' }, 'call_paris')
    .thenWhenToolResult('weather', 'call_paris')
    .replies('Paris is sunny, 21 °C.');
}

test('verify() passes for a fully used script, with tool expectations met', async () => {
  const session = await mock.session('verify-pass');
  weatherScenario(session);
  const answer = await toolRound(sdk(session.apiKey), 'Paris', '{"temperature":21,"condition":"sunny"}');
  assert.equal(answer.choices[0].message.content, 'Paris is sunny, 21 °C.');
  await session.verify({
    toolCalled: [
      { name: 'weather', id: 'call_paris', arguments: { city: 'Paris' }, result: { condition: 'sunny', temperature: 21 }, times: 1 },
    ],
    toolNotCalled: ['search'],
    toolOrder: ['weather'],
  });
  const report = await session.check();
  assert.equal(report.ok, true);
  assert.match(report.report, /verified/);
});

test('verify() fails with one readable report naming every problem and the request behind it', async () => {
  const session = await mock.session('verify-fail');
  weatherScenario(session);
  session.scenario('json').whenLatestUser('give json').repliesJson({ wrong: true });
  session.scenario('once').whenLatestUser('only once').replies('first and last');
  const openai = sdk(session.apiKey);

  // no match: the application asks about Lyon
  await assert.rejects(
    openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'weather in Lyon?' }], tools: [weatherTool] }),
    (e: unknown) => e instanceof OpenAI.ConflictError && e.code === 'no_match',
  );
  // contract mismatch: JSON that fails the requested schema
  await assert.rejects(
    openai.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'give json' }],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'answer', schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } },
      },
    }),
    (e: unknown) => e instanceof OpenAI.ConflictError && e.code === 'fixture_mismatch',
  );
  // a request after the script completed
  await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'only once' }] });
  await assert.rejects(
    openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'only once' }] }),
    (e: unknown) => e instanceof OpenAI.ConflictError && e.code === 'scenario_exhausted',
  );
  // an invalid request
  await assert.rejects(openai.chat.completions.create({ model: 'gpt-4o', messages: [] }), OpenAI.BadRequestError);

  const error = await session
    .verify({ toolCalled: [{ name: 'weather', arguments: { city: 'Paris' } }], toolNotCalled: ['search'] })
    .catch((e: unknown) => e);
  assert.ok(error instanceof VerificationError);
  const { problems, report } = error.result;
  const kinds = problems.map((p) => p.kind);
  assert.deepEqual(
    [...new Set(kinds)].sort(),
    ['fixture_mismatch', 'invalid_request', 'no_match', 'scenario_exhausted', 'tool_expectation', 'unused_step'].sort(),
  );
  assert.match(report, /scenario "weather" step "step-1" was never used/);
  assert.match(
    report,
    /no_match: no script matched this request\. Nearest: scenario "weather" step "step-1" — latestUser: expected contains "weather in Paris", got "weather in Lyon\?"/,
  );
  assert.match(report, /request: model "gpt-4o", 1 messages, latest user "weather in Lyon\?", tools weather/);
  assert.match(report, /fixture_mismatch: scenario "json" step "step-1": .*ok/);
  assert.match(report, /scenario_exhausted/);
  assert.match(report, /expected tool "weather" with arguments \{"city":"Paris"\} to be called at least once; matching calls: 0/);
  for (const p of problems.filter((x) => x.kind !== 'unused_step' && x.kind !== 'tool_expectation')) {
    assert.match(p.requestId ?? '', /^req_/, `${p.kind} names its request`);
  }
});

test('tool expectations: wrong arguments, wrong result, a count, an order and a forbidden tool each fail', async () => {
  const session = await mock.session('verify-tools');
  weatherScenario(session);
  await toolRound(sdk(session.apiKey), 'Paris', '{"temperature":30}');
  const report = await session.check({
    toolCalled: [
      { name: 'weather', arguments: { city: 'Lyon' } },
      { name: 'weather', result: { temperature: 21 } },
      { name: 'weather', times: 2 },
    ],
    toolNotCalled: ['weather'],
    toolOrder: ['search', 'weather'],
  });
  assert.equal(report.ok, false);
  const messages = report.problems.filter((p) => p.kind === 'tool_expectation').map((p) => p.message);
  assert.equal(messages.length, 5, messages.join('\n'));
  assert.match(
    messages[0],
    /arguments \{"city":"Lyon"\}.*matching calls: 0\. Calls: weather\(\{"city":"Paris"\}\) id call_paris, result "\{\\"temperature\\":30\}"/,
  );
  assert.match(messages[1], /result \{"temperature":21\}/);
  assert.match(messages[2], /2 times; matching calls: 1/);
  assert.match(messages[3], /never to be called; it was called 1 time/);
  assert.match(messages[4], /order search → weather; actual order weather/);
});

test('a near miss is journalled with each failed predicate, expected and actual', async () => {
  const session = await mock.session('near-miss');
  session.scenario('exact').whenModel('gpt-4o').whenLatestUser({ equals: 'ping' }).replies('pong');
  session.scenario('other').whenLatestUser({ matches: '^status' }).replies('ok');
  await assert.rejects(
    sdk(session.apiKey).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'pong?' }] }),
    (e: unknown) => e instanceof OpenAI.ConflictError && /model: expected equals "gpt-4o", got "gpt-4o-mini"/.test(e.message),
  );
  const { entries, counters } = await session.journal();
  assert.equal(counters.unmatched, 1);
  const near = entries[0].nearMisses!;
  assert.deepEqual(
    near.map((n) => [n.scenario, n.failed.length]),
    [
      ['other', 1],
      ['exact', 2],
    ],
    'nearest first: fewest failed predicates',
  );
  const exact = near[1];
  assert.deepEqual(exact.failed.map((f) => f.predicate).sort(), ['latestUser', 'model']);
  assert.deepEqual(
    exact.failed.find((f) => f.predicate === 'latestUser'),
    {
      predicate: 'latestUser',
      expected: 'equals "ping"',
      actual: '"pong?"',
    },
  );
  assert.equal(entries[0].event, 'error_returned');
});

test('the journal stays within its entry and byte bounds under a long run with large bodies', async () => {
  setFlagsFromString('--expose_gc');
  const gc = runInNewContext('gc') as () => void;
  const session = await mock.session('journal-bounds', { journalLimit: 200, journalBytes: 2 * 1024 * 1024, journalEntryBytes: 64 * 1024 });
  session.scenario('echo').onExhausted('repeat_last').replies('ok');
  const openai = sdk(session.apiKey);
  const big = 'x'.repeat(100 * 1024); // over the per-entry limit: kept truncated
  const medium = 'y'.repeat(30 * 1024); // under it: kept whole, so the byte bound bites
  const run = async (n: number) => {
    for (let i = 0; i < n; i++) {
      await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: i % 2 ? big : medium }] });
    }
  };
  await run(100);
  gc();
  const heapAfterWarmup = process.memoryUsage().heapUsed;
  await run(400);
  gc();
  const heapAfterRun = process.memoryUsage().heapUsed;
  const { entries, counters } = await session.journal();
  assert.equal(counters.requests, 500);
  assert.ok(entries.length <= 200);
  const textOf = (e: (typeof entries)[number]) =>
    e.request ? e.request.messages.reduce((n, m) => n + m.parts.reduce((k, p) => k + (p.type === 'text' ? p.text.length : 0), 0), 0) : 0;
  const bytes = entries.reduce((sum, e) => sum + textOf(e) + (e.requestPreview?.length ?? 0), 0);
  assert.ok(bytes <= 2 * 1024 * 1024, `journal keeps ${bytes} bytes of requests`);
  assert.ok(entries.length < 200, `the byte bound evicted entries before the count bound: ${entries.length} kept`);
  assert.equal(counters.evicted, 500 - entries.length);
  const truncated = entries.filter((e) => e.truncated);
  assert.ok(truncated.length > 0);
  for (const e of truncated) {
    assert.equal(e.request, undefined);
    assert.equal(e.requestPreview?.length, 4096);
  }
  assert.ok(entries.some((e) => !e.truncated && e.request?.messages[0].parts[0].type === 'text'));
  assert.ok(heapAfterRun - heapAfterWarmup < 8 * 1024 * 1024, `heap grew ${heapAfterRun - heapAfterWarmup} bytes`);
});

test('repeated identical requests keep their own id, sequence, status and body in the journal, across eviction', async () => {
  const session = await mock.session('journal-repeats', { journalLimit: 7 });
  session.scenario('s').onExhausted('repeat_last').replies('same every time');
  const openai = sdk(session.apiKey);
  const ask = (content: string, stream = false) =>
    stream
      ? openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content }], stream: true }).then(async (s) => {
          for await (const _ of s);
          return undefined;
        })
      : openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content }] }).then((r) => r._request_id);
  const ids: (string | null | undefined)[] = [];
  for (let i = 0; i < 5; i++) ids.push(await ask('hello'));
  ids.push(await ask('a longer question than hello'));
  ids.push(await ask('hello', true));
  const bad = await openai.chat.completions.create({ model: 'gpt-4o', messages: [] }).catch((e: unknown) => e);
  assert.ok(bad instanceof OpenAI.BadRequestError);
  for (let i = 0; i < 2; i++) ids.push(await ask('hello'));
  ids.push(await ask('world')); // as many tokens as hello: only the body tells them apart

  const { entries, counters } = await session.journal();
  assert.equal(counters.requests, 11);
  assert.equal(counters.evicted, 4);
  assert.deepEqual(
    entries.map((e) => e.seq),
    [5, 6, 7, 8, 9, 10, 11],
  );
  const replies = entries.filter((e) => e.event === 'reply_returned');
  assert.equal(new Set(entries.map((e) => e.requestId)).size, 7);
  assert.equal(replies[0].requestId, ids[4]);
  assert.equal(replies[1].requestId, ids[5]);
  assert.deepEqual(
    replies.slice(3).map((e) => e.requestId),
    ids.slice(7),
  );
  assert.deepEqual(
    entries.map((e) => [e.status, e.stream, e.event]),
    [
      [200, false, 'reply_returned'],
      [200, false, 'reply_returned'],
      [200, true, 'reply_returned'],
      [400, false, 'error_returned'],
      [200, false, 'reply_returned'],
      [200, false, 'reply_returned'],
      [200, false, 'reply_returned'],
    ],
  );
  const texts = entries.map((e) => (e.request?.messages[0]?.parts[0] as { text?: string } | undefined)?.text);
  assert.deepEqual(texts, ['hello', 'a longer question than hello', 'hello', undefined, 'hello', 'hello', 'world']);
  assert.equal(entries[1].usage!.inputTokens > entries[0].usage!.inputTokens, true);
  assert.equal(entries[6].usage!.inputTokens, entries[5].usage!.inputTokens);
  assert.equal(entries[0].reply!.content, 'same every time');
  for (let i = 1; i < entries.length; i++) assert.ok(entries[i].time >= entries[i - 1].time);
});

test('journal snapshots are copies: changing one changes nothing', async () => {
  const session = await mock.session('journal-copies');
  session.scenario('a').replies('hello');
  await sdk(session.apiKey).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
  const first = await session.journal();
  first.entries[0].reply!.content = 'tampered';
  first.counters.requests = 99;
  const second = await session.journal();
  assert.equal(second.entries[0].reply!.content, 'hello');
  assert.equal(second.counters.requests, 1);
});

test('token counts are deterministic and equal the o200k tokenizer count for known inputs', async () => {
  const text = 'The quick brown fox jumps over the lazy dog.';
  const reply = 'Ünïcödé and emoji 🦊 count as BPE says.';
  const usages = [];
  for (const id of ['tokens-1', 'tokens-2']) {
    const session = await mock.session(id);
    session.scenario('t').replies(reply);
    const completion = await sdk(session.apiKey).chat.completions.create({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: text },
      ],
    });
    usages.push(completion.usage);
  }
  assert.deepEqual(usages[0], usages[1]);
  // framing: 3 per request, 3 per message plus its role
  const expectedPrompt = 3 + (3 + countTokens('system') + countTokens('Be brief.')) + (3 + countTokens('user') + countTokens(text));
  assert.equal(usages[0]!.prompt_tokens, expectedPrompt);
  assert.equal(usages[0]!.completion_tokens, countTokens(reply));
  assert.equal(usages[0]!.total_tokens, expectedPrompt + countTokens(reply));
});

test('scripted errors and rejected requests report input usage only', async () => {
  const session = await mock.session('usage-errors');
  session.scenario('fail').fails(500, 'boom');
  session.scenario('bad').whenLatestUser('mismatch').callsTool('nope', {});
  const openai = sdk(session.apiKey);
  await assert.rejects(
    openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'anything' }] }),
    OpenAI.InternalServerError,
  );
  await assert.rejects(
    openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'mismatch' }], tools: [weatherTool] }),
    OpenAI.ConflictError,
  );
  const { entries } = await session.journal();
  for (const e of entries) {
    assert.ok((e.usage?.inputTokens ?? 0) > 0);
    assert.equal(e.usage?.outputTokens, 0);
  }
});

test('a repeated prompt prefix reports cached tokens; a mismatch does not warm the cache', async () => {
  const session = await mock.session('prompt-cache', { promptCache: { minTokens: 32, granularity: 1 } });
  session.scenario('cached').onExhausted('repeat_last').whenLatestUser({ contains: 'question' }).replies('answer');
  session.scenario('broken').whenLatestUser({ contains: 'mismatch' }).callsTool('undeclared', {});
  const openai = sdk(session.apiKey);
  const system = { role: 'system' as const, content: 'You are a careful assistant. '.repeat(20) };

  const cold = await openai.chat.completions.create({ model: 'gpt-4o', messages: [system, { role: 'user', content: 'first question' }] });
  assert.equal(cold.usage?.prompt_tokens_details?.cached_tokens, 0);
  const warm = await openai.chat.completions.create({ model: 'gpt-4o', messages: [system, { role: 'user', content: 'second question' }] });
  const systemPrefix = 3 + 3 + countTokens('system') + countTokens(system.content);
  assert.equal(warm.usage?.prompt_tokens_details?.cached_tokens, systemPrefix);

  // A mismatched request with a new system prompt is refused, and does not warm its prefix.
  const other = { role: 'system' as const, content: 'A different persona entirely. '.repeat(20) };
  await assert.rejects(
    openai.chat.completions.create({ model: 'gpt-4o', messages: [other, { role: 'user', content: 'mismatch' }] }),
    OpenAI.ConflictError,
  );
  const afterMismatch = await openai.chat.completions.create({
    model: 'gpt-4o',
    messages: [other, { role: 'user', content: 'a question' }],
  });
  assert.equal(afterMismatch.usage?.prompt_tokens_details?.cached_tokens, 0);

  // A different model does not share the prefix.
  const otherModel = await openai.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [system, { role: 'user', content: 'question' }],
  });
  assert.equal(otherModel.usage?.prompt_tokens_details?.cached_tokens, 0);

  // Reset clears it.
  await session.reset();
  const afterReset = await openai.chat.completions.create({ model: 'gpt-4o', messages: [system, { role: 'user', content: 'question' }] });
  assert.equal(afterReset.usage?.prompt_tokens_details?.cached_tokens, 0);
});

test('the default prompt cache follows OpenAI: nothing below 1024 tokens, then 128-token steps', async () => {
  const session = await mock.session('prompt-cache-default');
  session.scenario('any').onExhausted('repeat_last').replies('ok');
  const openai = sdk(session.apiKey);
  const shortSystem = { role: 'system' as const, content: 'short prompt' };
  await openai.chat.completions.create({ model: 'gpt-4o', messages: [shortSystem, { role: 'user', content: 'a' }] });
  const again = await openai.chat.completions.create({ model: 'gpt-4o', messages: [shortSystem, { role: 'user', content: 'b' }] });
  assert.equal(again.usage?.prompt_tokens_details?.cached_tokens, 0);
  const longSystem = { role: 'system' as const, content: 'lorem ipsum dolor sit amet '.repeat(300) };
  await openai.chat.completions.create({ model: 'gpt-4o', messages: [longSystem, { role: 'user', content: 'a' }] });
  const cached = await openai.chat.completions.create({ model: 'gpt-4o', messages: [longSystem, { role: 'user', content: 'b' }] });
  const n = cached.usage?.prompt_tokens_details?.cached_tokens ?? 0;
  assert.ok(n >= 1024, `cached ${n}`);
  assert.equal(n % 128, 0);
});

test('loading copies the script: later changes to the caller objects have no effect', async () => {
  const session = await mock.session('snapshot');
  const fixture: FixtureSpec = { scenarios: [{ name: 's', steps: [{ reply: { text: 'original' } }] }] };
  await session.load(fixture);
  fixture.scenarios[0].steps![0].reply.text = 'changed';
  fixture.scenarios.push({ name: 'extra', replies: [{ text: 'extra' }] });
  const completion = await sdk(session.apiKey).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] });
  assert.equal(completion.choices[0].message.content, 'original');
  await session.verify();
});

test('an aborted streaming request consumes nothing: the next request gets the same reply', async () => {
  const session = await mock.session('abort-stream');
  session.scenario('q').replies('first reply', { delayMs: 300 }).replies('second reply');
  const openai = sdk(session.apiKey);
  const controller = new AbortController();
  const aborted = openai.chat.completions.create(
    { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], stream: true },
    { signal: controller.signal },
  );
  setTimeout(() => controller.abort(), 50);
  await assert.rejects(aborted);
  await new Promise((r) => setTimeout(r, 350));
  const final = await openai.chat.completions
    .stream({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], stream: true })
    .finalChatCompletion();
  assert.equal(final.choices[0].message.content, 'first reply');
  const next = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] });
  assert.equal(next.choices[0].message.content, 'second reply');
  await session.verify();
});

test('the exact reserved step is released even when other requests moved on meanwhile', async () => {
  const session = await mock.session('abort-exact');
  session.scenario('q').replies('one', { delayMs: 300 }).replies('two').replies('three');
  const openai = sdk(session.apiKey);
  const controller = new AbortController();
  const aborted = openai.chat.completions.create(
    { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] },
    { signal: controller.signal },
  );
  await new Promise((r) => setTimeout(r, 30));
  // Meanwhile another request takes the next step.
  const second = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] });
  assert.equal(second.choices[0].message.content, 'two');
  controller.abort();
  await assert.rejects(aborted);
  await new Promise((r) => setTimeout(r, 350));
  // "one" was released, not lost; then "three".
  const third = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] });
  const fourth = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] });
  assert.deepEqual([third.choices[0].message.content, fourth.choices[0].message.content].sort(), ['one', 'three']);
  const { counters } = await session.journal();
  assert.equal(counters.matched, 3, 'three replies delivered, the aborted one not counted');
  await session.verify();
});

test('a refused request whose provider gives no error code reads "answered 400: …" in the report, with no empty code', async () => {
  const session = await mock.session('verify-no-code');
  session.scenario('s').replies('unused');
  const response = await fetch(`${mock.url('bedrock')}/model/amazon.nova-lite-v1%3A0/converse`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${session.apiKey}` },
    body: JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'hi' }] }], inferenceConfig: { temperature: 7 } }),
    signal: AbortSignal.timeout(10_000),
  });
  assert.equal(response.status, 400);
  const report = await session.check();
  const refused = report.problems.find((p) => p.kind === 'invalid_request');
  assert.ok(refused, JSON.stringify(report.problems));
  assert.match(refused.message, /answered 400: 1 validation error detected/);
});

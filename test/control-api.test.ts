// The control API under /_understudy, driven with plain fetch the way a Python or .NET suite would,
// with the real openai SDK as the application whose requests the scripts answer.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import OpenAI from 'openai';
import { startUnderstudy, type Understudy } from '../src/client/index.js';

let mock: Understudy;
let control: string;

before(async () => {
  mock = await startUnderstudy();
  control = `${mock.baseUrl}/_understudy`;
});

after(async () => {
  await mock?.close();
});

interface Reply {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

async function call(method: string, path: string, body?: unknown, raw?: string): Promise<Reply> {
  const init: RequestInit = { method };
  if (raw !== undefined) {
    init.body = raw;
    init.headers = { 'content-type': 'application/json' };
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { 'content-type': 'application/json' };
  }
  const response = await fetch(`${control}${path}`, init);
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

function expectControlError(
  reply: Reply,
  status: number,
  code: string,
  message?: RegExp,
): { message: string; problems?: { file: string; path: string; message: string }[] } {
  assert.equal(reply.status, status, `status; body: ${reply.text}`);
  assert.match(reply.headers.get('content-type') ?? '', /^application\/json/);
  const error = reply.body?.error;
  assert.ok(error, `no error object in ${reply.text}`);
  assert.equal(error.status, status);
  assert.equal(error.code, code, reply.text);
  assert.equal(typeof error.message, 'string');
  if (message) assert.match(error.message, message);
  return error;
}

function sdk(apiKey: string, baseURL = mock.url('openai')): OpenAI {
  return new OpenAI({ baseURL, apiKey, maxRetries: 0, timeout: 10_000 });
}

async function ask(client: OpenAI, content: string) {
  return client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content }] });
}

async function askError(client: OpenAI, content: string): Promise<InstanceType<typeof OpenAI.APIError>> {
  return ask(client, content).then(
    () => assert.fail(`"${content}" was answered`),
    (e: unknown) => {
      assert.ok(e instanceof OpenAI.APIError, String(e));
      return e;
    },
  );
}

const GREETING = {
  scenarios: [{ name: 'greet', steps: [{ id: 'hello', when: { latestUser: { contains: 'hello' } }, reply: { text: 'Hi there.' } }] }],
};

test('health', async () => {
  const health = await call('GET', '/health');
  assert.equal(health.status, 200);
  assert.match(health.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(health.body.ok, true);
  // The package's own version (it was a constant in the control API, left behind by releases).
  assert.equal(
    health.body.version,
    (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version,
  );
  assert.equal(typeof health.body.sessions, 'number');
  assert.ok(health.body.sessions >= 1);
  assert.ok(health.body.routes.includes('POST /v1/chat/completions'), health.text);
  expectControlError(await call('POST', '/health', {}), 405, 'method_not_allowed');
});

test('create a session with id, apiKey, fallback, clock and a fixture; then it answers', async () => {
  const created = await call('POST', '/sessions', {
    id: 'ctl-create',
    apiKey: 'key-create',
    fallback: 'strict',
    clock: 1_700_000_000,
    seed: 'seed-1',
    journalLimit: 50,
    fixture: GREETING,
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.body.id, 'ctl-create');
  assert.equal(created.body.apiKey, 'key-create');
  assert.equal(created.body.fallback, 'strict');
  assert.equal(created.body.clock, 1_700_000_000);
  assert.deepEqual(created.body.scripts, [{ name: 'greet', steps: 1, replies: 0, complete: false }]);
  assert.equal(created.body.urls.openai, `${mock.baseUrl}/v1`);
  assert.equal(created.body.pathPrefixUrls.openai, `${mock.baseUrl}/s/ctl-create/v1`);

  const client = sdk(created.body.apiKey, created.body.urls.openai);
  const reply = await ask(client, 'hello!');
  assert.equal(reply.choices[0].message.content, 'Hi there.');
  assert.equal(reply.created, 1_700_000_000, 'the clock sets created');
  // The path-prefix URL reaches the same session whatever key is sent.
  const viaPrefix = await askError(sdk('anything', created.body.pathPrefixUrls.openai), 'hello again');
  assert.equal(viaPrefix.status, 409);
  assert.equal(viaPrefix.code, 'scenario_exhausted');
  const journal = await call('GET', '/sessions/ctl-create/journal');
  assert.equal(journal.body.entries.length, 2);

  // Without an id: a generated id and key, strict by default, default clock.
  const anonymous = await call('POST', '/sessions', {});
  assert.equal(anonymous.status, 201, anonymous.text);
  assert.match(anonymous.body.id, /^[A-Za-z0-9._-]+$/);
  assert.ok(anonymous.body.apiKey.length > 0);
  assert.notEqual(anonymous.body.apiKey, 'understudy');
  assert.equal(anonymous.body.fallback, 'strict');
  // An empty body is the same as {}.
  const empty = await call('POST', '/sessions');
  assert.equal(empty.status, 201, empty.text);
  assert.notEqual(empty.body.id, anonymous.body.id);
  assert.notEqual(empty.body.apiKey, anonymous.body.apiKey);
});

test('the clock option changes created; the default clock is 2026-01-01', async () => {
  const a = await call('POST', '/sessions', { id: 'clock-a', fallback: 'auto', clock: 1_234_567_890 });
  const b = await call('POST', '/sessions', { id: 'clock-b', fallback: 'auto' });
  assert.equal(a.status, 201);
  assert.equal(b.status, 201);
  const ra = await ask(sdk(a.body.apiKey), 'what time is it?');
  const rb = await ask(sdk(b.body.apiKey), 'what time is it?');
  assert.equal(ra.created, 1_234_567_890);
  assert.equal(rb.created, 1_767_225_600);
  assert.equal(b.body.clock, 1_767_225_600);
  // Streaming chunks carry the same clock.
  const stream = await sdk(a.body.apiKey).chat.completions.create({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'stream it' }],
    stream: true,
  });
  let chunks = 0;
  for await (const chunk of stream) {
    assert.equal(chunk.created, 1_234_567_890);
    chunks++;
  }
  assert.ok(chunks > 0);
});

test('duplicate id or apiKey → 409, and nothing is created', async () => {
  const first = await call('POST', '/sessions', { id: 'ctl-dup', apiKey: 'key-dup' });
  assert.equal(first.status, 201);
  const count = (await call('GET', '/sessions')).body.sessions.length;
  expectControlError(await call('POST', '/sessions', { id: 'ctl-dup' }), 409, 'session_conflict', /"ctl-dup" already exists/);
  expectControlError(
    await call('POST', '/sessions', { id: 'ctl-dup-2', apiKey: 'key-dup' }),
    409,
    'session_conflict',
    /API key .*"ctl-dup"/,
  );
  // The default session's key is taken too.
  expectControlError(await call('POST', '/sessions', { id: 'ctl-dup-3', apiKey: 'understudy' }), 409, 'session_conflict', /"default"/);
  expectControlError(await call('POST', '/sessions', { id: 'default' }), 409, 'session_conflict');
  assert.equal((await call('GET', '/sessions')).body.sessions.length, count);
  expectControlError(await call('GET', '/sessions/ctl-dup-2'), 404, 'session_not_found');
});

test('bad session fields → 400 naming the field and what was expected', async () => {
  const count = (await call('GET', '/sessions')).body.sessions.length;
  const cases: [unknown, RegExp][] = [
    [
      { colour: 'red' },
      /\/colour: unknown field; expected one of id, apiKey, fallback, clock, seed, journalLimit, journalBytes, journalEntryBytes, promptCache, requireApiKey, streamFlavour, models, chaos, videoCapacity, record, fixture/,
    ],
    [{ id: 42 }, /\/id: expected .*string.*found 42/],
    [{ id: 'has spaces' }, /\/id: expected .*letters, digits.*found "has spaces"/],
    [{ id: '' }, /\/id: expected/],
    [{ apiKey: '' }, /\/apiKey: expected a non-empty string, found ""/],
    [{ streamFlavour: 'vanilla' }, /\/streamFlavour: expected "plain" or "azure", found "vanilla"/],
    [{ models: ['llama3.2', ''] }, /\/models: expected a list of non-empty model names/],
    [{ apiKey: 7 }, /\/apiKey: expected a non-empty string, found 7/],
    [{ fallback: 'lenient' }, /\/fallback: expected "strict" or "auto", found "lenient"/],
    [{ clock: 'noon' }, /\/clock: expected an integer number of seconds since the epoch, found "noon"/],
    [{ clock: -1 }, /\/clock: expected an integer/],
    [{ clock: 1.5 }, /\/clock: expected an integer/],
    [{ seed: false }, /\/seed: expected a string, found false/],
    [{ journalLimit: 'many' }, /\/journalLimit: expected an integer >= 0, found "many"/],
  ];
  for (const [body, message] of cases) {
    expectControlError(await call('POST', '/sessions', body), 400, 'invalid_body', message);
  }
  expectControlError(await call('POST', '/sessions', [1, 2]), 400, 'invalid_body', /expected a JSON object/);
  expectControlError(await call('POST', '/sessions', 'ctl'), 400, 'invalid_body', /expected a JSON object/);
  assert.equal((await call('GET', '/sessions')).body.sessions.length, count, 'no session was created');
});

test('list and get', async () => {
  await call('POST', '/sessions', { id: 'ctl-list', apiKey: 'key-list' });
  const list = await call('GET', '/sessions');
  assert.equal(list.status, 200);
  const ids = list.body.sessions.map((s: { id: string }) => s.id);
  assert.ok(ids.includes('default'));
  assert.ok(ids.includes('ctl-list'));
  const listed = list.body.sessions.find((s: { id: string }) => s.id === 'ctl-list');
  assert.equal(listed.apiKey, 'key-list');
  const one = await call('GET', '/sessions/ctl-list');
  assert.equal(one.status, 200);
  assert.deepEqual(one.body, listed);
  const dflt = await call('GET', '/sessions/default');
  assert.equal(dflt.body.apiKey, 'understudy');
  expectControlError(await call('GET', '/sessions/nope'), 404, 'session_not_found', /"nope"/);
  expectControlError(await call('PATCH', '/sessions/ctl-list'), 405, 'method_not_allowed');
});

test('scripts: POST adds, PUT replaces, and the SDK is answered by them', async () => {
  const created = await call('POST', '/sessions', { id: 'ctl-scripts' });
  const client = sdk(created.body.apiKey);
  const first = await call('POST', '/sessions/ctl-scripts/scripts', GREETING);
  assert.equal(first.status, 200, first.text);
  assert.deepEqual(
    first.body.scripts.map((s: { name: string }) => s.name),
    ['greet'],
  );
  const added = await call('POST', '/sessions/ctl-scripts/scripts', {
    scenarios: [
      {
        name: 'weather',
        steps: [
          {
            when: { latestUser: { contains: 'weather' } },
            reply: { toolCalls: [{ id: 'call_w', name: 'weather', arguments: { city: 'Paris' } }] },
          },
        ],
      },
    ],
  });
  assert.deepEqual(
    added.body.scripts.map((s: { name: string }) => s.name),
    ['greet', 'weather'],
  );
  const tool = await client.chat.completions.create({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'weather in Paris?' }],
    tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
  });
  const call0 = tool.choices[0].message.tool_calls?.[0];
  assert.ok(call0 && call0.type === 'function');
  assert.equal(call0.id, 'call_w');
  assert.deepEqual(JSON.parse(call0.function.arguments), { city: 'Paris' });
  assert.equal(tool.choices[0].finish_reason, 'tool_calls');
  assert.equal((await ask(client, 'hello')).choices[0].message.content, 'Hi there.');

  const replaced = await call('PUT', '/sessions/ctl-scripts/scripts', {
    scenarios: [{ name: 'queue', replies: [{ text: 'one' }, { text: 'two' }] }],
  });
  assert.equal(replaced.status, 200, replaced.text);
  assert.deepEqual(replaced.body.scripts, [{ name: 'queue', steps: 2, replies: 0, complete: false }]);
  assert.equal((await ask(client, 'hello')).choices[0].message.content, 'one', 'greet was replaced');
  assert.equal((await ask(client, 'anything')).choices[0].message.content, 'two');
  const exhausted = await askError(client, 'more');
  assert.equal(exhausted.status, 409);
  assert.equal(exhausted.code, 'scenario_exhausted');
  expectControlError(await call('DELETE', '/sessions/ctl-scripts/scripts'), 405, 'method_not_allowed');
  expectControlError(await call('POST', '/sessions/nope/scripts', GREETING), 404, 'session_not_found');
});

test('an invalid fixture → 400 whose problems name the path inside the body and what was expected', async () => {
  await call('POST', '/sessions', { id: 'ctl-invalid', fixture: GREETING });
  const bad = await call('POST', '/sessions/ctl-invalid/scripts', {
    scenarios: [
      { name: 'ok', replies: [{ text: 'fine' }] },
      { name: 'broken', exhausted: 'repeat', steps: [{ reply: { toolCalls: [{ arguments: {} }] } }] },
    ],
  });
  const error = expectControlError(bad, 400, 'invalid_fixture');
  assert.ok(Array.isArray(error.problems) && error.problems.length >= 2, bad.text);
  const exhausted = error.problems.find((p) => p.path === '/scenarios/1/exhausted');
  assert.ok(exhausted, bad.text);
  assert.match(exhausted.message, /expected one of reject, repeat_last, restart; found "repeat"/);
  const name = error.problems.find((p) => p.path.startsWith('/scenarios/1/steps/0/reply/toolCalls/0'));
  assert.ok(name, bad.text);
  assert.match(name.message, /name/);
  assert.match(error.problems[0].file, /\/_understudy\/sessions\/ctl-invalid\/scripts/);
  // Nothing was loaded, not even the valid scenario.
  const view = await call('GET', '/sessions/ctl-invalid');
  assert.deepEqual(
    view.body.scripts.map((s: { name: string }) => s.name),
    ['greet'],
  );

  const notFixture = expectControlError(await call('PUT', '/sessions/ctl-invalid/scripts', { scenario: [] }), 400, 'invalid_fixture');
  assert.ok(
    notFixture.problems?.some((p) => p.path === '/scenario' || p.path === '/scenarios' || p.path === '/'),
    JSON.stringify(notFixture.problems),
  );

  // At creation the paths point into the body, under /fixture, and no session is created.
  const atCreate = await call('POST', '/sessions', {
    id: 'ctl-invalid-2',
    fixture: { scenarios: [{ name: 'x', exhausted: 'never', replies: [{ text: 'a' }] }] },
  });
  const createError = expectControlError(atCreate, 400, 'invalid_fixture');
  assert.ok(
    createError.problems?.some(
      (p) => p.path === '/fixture/scenarios/0/exhausted' && /expected one of reject, repeat_last, restart/.test(p.message),
    ),
    atCreate.text,
  );
  expectControlError(await call('GET', '/sessions/ctl-invalid-2'), 404, 'session_not_found');
});

test('reset rewinds cursors and clears the journal; {scripts: true} removes the scripts', async () => {
  const created = await call('POST', '/sessions', {
    id: 'ctl-reset',
    fixture: { scenarios: [{ name: 'queue', replies: [{ text: 'first' }, { text: 'second' }] }] },
  });
  const client = sdk(created.body.apiKey);
  const before = await ask(client, 'a');
  assert.equal(before.choices[0].message.content, 'first');
  assert.equal((await call('GET', '/sessions/ctl-reset/journal')).body.entries.length, 1);

  const reset = await call('POST', '/sessions/ctl-reset/reset');
  assert.equal(reset.status, 200, reset.text);
  assert.deepEqual(reset.body.scripts, [{ name: 'queue', steps: 2, replies: 0, complete: false }]);
  const journal = await call('GET', '/sessions/ctl-reset/journal');
  assert.equal(journal.body.entries.length, 0);
  assert.equal(journal.body.counters.requests, 0);
  const again = await ask(client, 'a');
  assert.equal(again.choices[0].message.content, 'first', 'the cursor was rewound');
  assert.equal(again.id, before.id, 'ids restart after a reset (deterministic bytes)');

  expectControlError(
    await call('POST', '/sessions/ctl-reset/reset', { scripts: 'yes' }),
    400,
    'invalid_body',
    /\/scripts: expected a boolean/,
  );
  expectControlError(
    await call('POST', '/sessions/ctl-reset/reset', { everything: true }),
    400,
    'invalid_body',
    /\/everything: unknown field/,
  );
  expectControlError(await call('GET', '/sessions/ctl-reset/reset'), 405, 'method_not_allowed');

  const wiped = await call('POST', '/sessions/ctl-reset/reset', { scripts: true });
  assert.equal(wiped.status, 200);
  assert.deepEqual(wiped.body.scripts, []);
  const noMatch = await askError(client, 'a');
  assert.equal(noMatch.status, 409);
  assert.equal(noMatch.code, 'no_match');
});

test('the journal shows each request with time, session, route, decoded request, reply or error, usage, script and step', async () => {
  const created = await call('POST', '/sessions', {
    id: 'ctl-journal',
    fixture: {
      scenarios: [{ name: 'weather', steps: [{ id: 'ask', when: { latestUser: { contains: 'weather' } }, reply: { text: 'Sunny.' } }] }],
    },
  });
  const client = sdk(created.body.apiKey);
  const t0 = Date.now();
  await client.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'weather?' },
    ],
    temperature: 0,
  });
  await askError(client, 'unrelated');
  await askError(client, 'weather again');
  await client.chat.completions.create({ model: 'gpt-4o', messages: [] }).catch(() => undefined);

  const journal = await call('GET', '/sessions/ctl-journal/journal');
  assert.equal(journal.status, 200);
  const [ok, noMatch, exhausted, invalid] = journal.body.entries;
  assert.equal(journal.body.entries.length, 4);

  assert.equal(ok.status, 200);
  assert.equal(ok.session, 'ctl-journal');
  assert.equal(ok.route, 'POST /v1/chat/completions');
  assert.equal(ok.operation, 'openai.chat.completions');
  assert.match(ok.requestId, /^req_/);
  assert.ok(Math.abs(Date.parse(ok.time) - t0) < 60_000, `time ${ok.time}`);
  assert.equal(ok.stream, false);
  assert.equal(ok.request.model, 'gpt-4o-mini');
  assert.deepEqual(
    ok.request.messages.map((m: { role: string }) => m.role),
    ['system', 'user'],
  );
  assert.deepEqual(ok.request.messages[1].parts, [{ type: 'text', text: 'weather?' }]);
  assert.equal(ok.reply.content, 'Sunny.');
  assert.equal(ok.reply.finishReason, 'stop');
  assert.equal(ok.script, 'weather');
  assert.equal(ok.step, 'ask');
  assert.equal(ok.source, 'script');
  assert.ok(ok.usage.inputTokens > 0);
  assert.ok(ok.usage.outputTokens > 0);
  assert.equal(ok.error, undefined);

  assert.equal(noMatch.status, 409);
  assert.equal(noMatch.error.code, 'no_match');
  assert.match(noMatch.error.message, /weather/, 'names the nearest script');
  assert.equal(noMatch.reply, undefined);
  assert.equal(noMatch.request.messages[0].parts[0].text, 'unrelated');
  assert.ok(noMatch.usage.inputTokens > 0);

  assert.equal(exhausted.status, 409);
  assert.equal(exhausted.error.code, 'scenario_exhausted');
  assert.equal(exhausted.script, 'weather');

  assert.equal(invalid.status, 400);
  assert.equal(invalid.error.code, 'empty_array');
  assert.equal(invalid.request, undefined);

  assert.equal(journal.body.counters.requests, 4);
  assert.equal(journal.body.counters.matched, 1);
  assert.equal(journal.body.counters.unmatched, 1);
  assert.equal(journal.body.counters.exhausted, 1);
  assert.equal(journal.body.counters.invalid, 1);
  assert.ok(entriesIncreasing(journal.body.entries));
  expectControlError(await call('POST', '/sessions/ctl-journal/journal'), 405, 'method_not_allowed');
});

function entriesIncreasing(entries: { seq: number }[]): boolean {
  return entries.every((e, i) => i === 0 || e.seq > entries[i - 1].seq);
}

test('verify returns {ok, problems, report}', async () => {
  const created = await call('POST', '/sessions', {
    id: 'ctl-verify',
    fixture: {
      scenarios: [
        {
          name: 'two',
          steps: [
            { id: 'one', reply: { text: '1' } },
            { id: 'two', reply: { text: '2' } },
          ],
        },
      ],
    },
  });
  const client = sdk(created.body.apiKey);
  await ask(client, 'go');
  const partial = await call('POST', '/sessions/ctl-verify/verify');
  assert.equal(partial.status, 200);
  assert.equal(partial.body.ok, false);
  assert.deepEqual(
    partial.body.problems.map((p: { kind: string; scenario: string; step: string }) => [p.kind, p.scenario, p.step]),
    [['unused_step', 'two', 'two']],
  );
  assert.match(partial.body.report, /scenario "two" step "two" was never used/);

  await ask(client, 'go on');
  const done = await call('POST', '/sessions/ctl-verify/verify');
  assert.deepEqual(done.body.problems, []);
  assert.equal(done.body.ok, true);
  assert.match(done.body.report, /verified/);

  await askError(client, 'one more');
  const after = await call('GET', '/sessions/ctl-verify/verify');
  assert.equal(after.body.ok, false);
  assert.equal(after.body.problems[0].kind, 'scenario_exhausted');
  assert.match(after.body.problems[0].requestId, /^req_/);
});

test('delete → 204, then 404; the default session cannot be deleted', async () => {
  const created = await call('POST', '/sessions', { id: 'ctl-delete', apiKey: 'key-delete', fallback: 'auto' });
  assert.equal(created.status, 201);
  const deleted = await fetch(`${control}/sessions/ctl-delete`, { method: 'DELETE' });
  assert.equal(deleted.status, 204);
  assert.equal(await deleted.text(), '');
  expectControlError(await call('GET', '/sessions/ctl-delete'), 404, 'session_not_found');
  expectControlError(await call('DELETE', '/sessions/ctl-delete'), 404, 'session_not_found');
  expectControlError(await call('GET', '/sessions/ctl-delete/journal'), 404, 'session_not_found');
  // Its path prefix is gone; its key now lands in the default session.
  const prefixed = await askError(sdk('key-delete', `${mock.baseUrl}/s/ctl-delete/v1`), 'hi');
  assert.equal(prefixed.status, 404);
  assert.equal(prefixed.code, 'session_not_found');
  const before = (await call('GET', '/sessions/default/journal')).body.entries.length;
  await askError(sdk('key-delete'), 'hi').catch(() => undefined);
  assert.equal((await call('GET', '/sessions/default/journal')).body.entries.length, before + 1);
  // The id and key can be used again.
  assert.equal((await call('POST', '/sessions', { id: 'ctl-delete', apiKey: 'key-delete' })).status, 201);

  const dflt = expectControlError(await call('DELETE', '/sessions/default'), 400, 'cannot_delete');
  assert.match(dflt.message, /default session cannot be deleted/);
  assert.equal((await call('GET', '/sessions/default')).status, 200);
});

test('unknown control paths → 404; malformed JSON → 400', async () => {
  expectControlError(await call('GET', ''), 404, 'not_found');
  expectControlError(await call('GET', '/nope'), 404, 'not_found');
  expectControlError(await call('GET', '/sessions/default/nope'), 404, 'not_found');
  expectControlError(await call('GET', '/sessions/default/journal/extra'), 400, 'invalid_path', /sequence number/);
  expectControlError(await call('GET', '/sessions/default/journal/1/more'), 404, 'not_found');
  expectControlError(await call('POST', '/sessions', undefined, '{"id": "x",'), 400, 'invalid_json', /not valid JSON/);
  expectControlError(await call('POST', '/sessions/default/scripts', undefined, 'scenarios: []'), 400, 'invalid_json');
  expectControlError(await call('POST', '/sessions/default/reset', undefined, '{'), 400, 'invalid_json');
  // Nesting deep enough to exhaust the stack is refused cleanly, not answered with a 500.
  let deep = '"x"';
  for (let i = 0; i < 10_000; i++) deep = `{"a":${deep}}`;
  expectControlError(
    await call('POST', '/sessions/default/scripts', undefined, `{"scenarios":[{"name":"deep","replies":[{"json":${deep}}]}]}`),
    400,
    'json_too_deep',
  );
  // The server is fine afterwards.
  assert.equal((await call('GET', '/health')).status, 200);
});

// Issue 23's data, as the dashboard and `understudy journal --follow` read it, judged through the
// real SDKs: the live feed (GET /_understudy/events), one entry whole with its wire bodies
// (GET …/journal/SEQ), a session's scripts as a graph (GET …/scripts), each entry's timing, fault
// and pacing, and the access rules of the new routes.

import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

const WEATHER = {
  scenarios: [
    {
      name: 'weather',
      steps: [
        {
          id: 'ask',
          when: { latestUser: { contains: 'weather' } },
          reply: { toolCalls: [{ id: 'call_1', name: 'weather', arguments: { city: 'Paris' } }] },
        },
        { id: 'answer', when: { toolResult: { id: 'call_1' } }, reply: { text: 'Sunny, 21 °C.' } },
      ],
    },
  ],
};
const TOOLS = [
  { type: 'function' as const, function: { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
];

interface FeedEvent {
  event: string;
  id?: string;
  data: any;
}

/** Reads server-sent events from a fetch response until `enough` says so (or 10 s pass). */
async function readEvents(res: Response, enough: (events: FeedEvent[]) => boolean): Promise<FeedEvent[]> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: FeedEvent[] = [];
  const timer = setTimeout(() => void reader.cancel(), 10_000);
  let text = '';
  try {
    while (!enough(events)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
      for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n')) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        const fields = Object.fromEntries(
          block
            .split('\n')
            .filter((line) => !line.startsWith(':'))
            .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
        );
        if (fields.event) events.push({ event: fields.event, id: fields.id, data: JSON.parse(fields.data) });
      }
    }
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => {});
  }
  return events;
}

/** A GET with the headers exactly as given (fetch will not send another Host). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function openaiOf(session: UnderstudySession): OpenAI {
  return new OpenAI({ baseURL: session.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
}

describe('the live feed and the entry view', { timeout: 60_000 }, () => {
  let mock: Understudy;
  let control: (path: string, init?: RequestInit) => Promise<Response>;
  before(async () => {
    mock = await startUnderstudy({ journalBodies: true });
    control = (path, init) => fetch(`${mock.baseUrl}/_understudy${path}`, init);
  });
  after(() => mock.close());

  test('[observe.feed.live +] entries appear on the feed as they are answered, with the step, status, timing and usage', async () => {
    const session = await mock.session('feed-live', { fallback: 'strict' });
    await session.load(WEATHER);
    const feed = await control('/events?session=feed-live');
    assert.equal(feed.status, 200);
    assert.match(feed.headers.get('content-type') ?? '', /^text\/event-stream/);
    const reading = readEvents(feed, (events) => events.filter((e) => e.event === 'entry').length >= 3);
    const openai = openaiOf(session);
    const refused = await openai.chat.completions
      .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hello' }] })
      .catch((e) => e);
    assert.equal(refused.status, 409);
    const first = await openai.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'weather in Paris?' }],
      tools: TOOLS,
    });
    const call = first.choices[0].message.tool_calls![0];
    await openai.chat.completions.create({
      model: 'gpt-4o',
      tools: TOOLS,
      messages: [
        { role: 'user', content: 'weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: 'call_1', content: '{"sky":"clear"}' },
      ],
    });
    const entries = (await reading).filter((e) => e.event === 'entry');
    assert.deepEqual(
      entries.map((e) => [e.id, e.data.status, e.data.script, e.data.step, e.data.event]),
      [
        ['feed-live/1', 409, undefined, undefined, 'error_returned'],
        ['feed-live/2', 200, 'weather', 'ask', 'reply_returned'],
        ['feed-live/3', 200, 'weather', 'answer', 'reply_returned'],
      ],
    );
    const [missed, , answered] = entries.map((e) => e.data);
    assert.equal(answered.route, 'POST /v1/chat/completions');
    assert.equal(answered.usage.outputTokens > 0, true);
    assert.ok(Number.isInteger(answered.ms) && answered.ms >= 0 && answered.firstByteMs <= answered.ms);
    assert.equal(answered.request, undefined, 'the feed carries no decoded request');
    assert.equal(missed.error.code, 'no_match');
    assert.equal(missed.nearMisses[0].scenario, 'weather');
  });

  test('[observe.feed.live -] a feed for one session sees no other session; a bad query or an unknown session is refused', async () => {
    const mine = await mock.session('feed-mine', { fallback: 'auto' });
    const other = await mock.session('feed-other', { fallback: 'auto' });
    const feed = await control('/events?session=feed-mine');
    const reading = readEvents(feed, (events) => events.some((e) => e.event === 'entry'));
    await openaiOf(other).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'not mine' }] });
    await openaiOf(mine).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'mine' }] });
    const entries = (await reading).filter((e) => e.event === 'entry');
    assert.deepEqual(
      entries.map((e) => e.data.session),
      ['feed-mine'],
    );
    const badQuery = await control('/events?sesion=feed-mine');
    assert.equal(badQuery.status, 400);
    assert.match((await badQuery.json()).error.message, /sesion: unknown query parameter/);
    const badBacklog = await control('/events?backlog=yes');
    assert.equal(badBacklog.status, 400);
    const unknown = await control('/events?session=nobody');
    assert.equal(unknown.status, 404);
    assert.equal((await unknown.json()).error.code, 'session_not_found');
    assert.equal((await control('/events', { method: 'POST' })).status, 405);
  });

  test('with backlog=1 the feed starts with the kept entries in order, then says live, then follows; session changes are told', async () => {
    const session = await mock.session('feed-backlog', { fallback: 'auto' });
    const openai = openaiOf(session);
    for (const text of ['one', 'two'])
      await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: text }] });
    const feed = await control('/events?backlog=1&session=feed-backlog');
    const reading = readEvents(feed, (events) => events.some((e) => e.event === 'session' && e.data.change === 'reset'));
    await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'three' }] });
    await session.load(WEATHER);
    await session.reset();
    const events = await reading;
    assert.deepEqual(
      events.map((e) => (e.event === 'entry' ? `entry ${e.data.seq}` : e.event === 'session' ? `session ${e.data.change}` : e.event)),
      ['entry 1', 'entry 2', 'live', 'entry 3', 'session loaded', 'session reset'],
    );
  });

  test('a backlog over every session holds the newest 1000 entries in arrival order and says how many it left out', async () => {
    const separate = await startUnderstudy();
    try {
      for (const id of ['many-a', 'many-b']) {
        const session = await separate.session(id, { fallback: 'auto' });
        const body = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: id }] });
        for (let i = 0; i < 600; i++) {
          const res = await fetch(`${session.url('openai')}/chat/completions`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${session.apiKey}` },
            body,
          });
          await res.arrayBuffer();
        }
      }
      const feed = await fetch(`${separate.baseUrl}/_understudy/events?backlog=1`);
      const events = await readEvents(feed, (seen) => seen.some((e) => e.event === 'live'));
      const entries = events.filter((e) => e.event === 'entry');
      assert.equal(entries.length, 1000);
      assert.deepEqual(events.at(-1), { event: 'live', id: undefined, data: { omitted: 200 } });
      assert.deepEqual([entries[0].data.session, entries[0].data.seq], ['many-a', 201], 'the oldest 200 are left out');
      assert.deepEqual([entries.at(-1)!.data.session, entries.at(-1)!.data.seq], ['many-b', 600]);
      const times = entries.map((e) => Date.parse(e.data.time));
      assert.ok(
        times.every((t, i) => i === 0 || t >= times[i - 1]),
        'in arrival order',
      );
    } finally {
      await separate.close();
    }
  });

  test('[observe.entry.wire +] one entry whole: the decoded request, the request body with user ids redacted, the answer body as written', async () => {
    const session = await mock.session('entry-wire');
    await session.load(WEATHER);
    const openai = openaiOf(session);
    const answer = await openai.chat.completions.create({
      model: 'gpt-4o',
      user: 'alice@example.com',
      messages: [{ role: 'user', content: 'weather in Paris?' }],
      tools: TOOLS,
    });
    const view = await (await control('/sessions/entry-wire/journal/1')).json();
    assert.equal(view.seq, 1);
    assert.equal(view.step, 'ask');
    assert.equal(view.request.messages[0].parts[0].text, 'weather in Paris?');
    assert.equal(view.reply.toolCalls[0].name, 'weather');
    const wireRequest = JSON.parse(view.wire.request);
    assert.equal(wireRequest.user, '[redacted]');
    assert.ok(!view.wire.request.includes('alice@example.com'));
    assert.equal(view.wire.responseKept, true);
    assert.equal(JSON.parse(view.wire.response).id, answer.id, 'the body the SDK read');

    const stream = await openai.chat.completions.create({
      model: 'gpt-4o',
      stream: true,
      messages: [
        { role: 'user', content: 'weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: answer.choices[0].message.tool_calls },
        { role: 'tool', tool_call_id: 'call_1', content: '{"sky":"clear"}' },
      ],
      tools: TOOLS,
    });
    for await (const _chunk of stream);
    const streamed = await (await control('/sessions/entry-wire/journal/2')).json();
    assert.equal(streamed.stream, true);
    assert.match(streamed.wire.response, /^data: \{.*\n\n[\s\S]*data: \[DONE\]\n\n$/);
  });

  test('[observe.entry.wire -] an entry not kept is a 404, a sequence that is not a number a 400; without journalBodies no answer body is kept', async () => {
    const plain = await startUnderstudy();
    try {
      const session = await plain.session('entry-plain', { fallback: 'auto' });
      await openaiOf(session).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
      const view = await (await fetch(`${plain.baseUrl}/_understudy/sessions/entry-plain/journal/1`)).json();
      assert.equal(view.wire.responseKept, false);
      assert.equal(view.wire.response, undefined);
      assert.ok(view.wire.request.includes('"hi"'));
      const gone = await fetch(`${plain.baseUrl}/_understudy/sessions/entry-plain/journal/2`);
      assert.equal(gone.status, 404);
      assert.equal((await gone.json()).error.code, 'entry_not_found');
      for (const bad of ['0', '-1', '1.5', 'first', '99999999999999999999']) {
        const res = await fetch(`${plain.baseUrl}/_understudy/sessions/entry-plain/journal/${bad}`);
        assert.equal(res.status, 400, bad);
        assert.equal((await res.json()).error.code, 'invalid_path');
      }
      await session.reset();
      assert.equal((await fetch(`${plain.baseUrl}/_understudy/sessions/entry-plain/journal/1`)).status, 404, 'reset clears it');
    } finally {
      await plain.close();
    }
  });

  test('a refused request keeps its body as it came: not JSON, a wrong type, a wrong content type', async () => {
    const session = await mock.session('refused-bodies', { fallback: 'auto' });
    const send = (body: string, type = 'application/json') =>
      fetch(`${session.url('openai')}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': type, authorization: `Bearer ${session.apiKey}` },
        body,
      }).then((res) => res.arrayBuffer().then(() => res.status));
    const notJson = '{"model":"gpt-4o","messages":[';
    const wrongType = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], temperature: 'hot' });
    assert.deepEqual([await send(notJson), await send(wrongType), await send('hello', 'text/plain')], [400, 400, 400]);
    const wire = async (seq: number) => (await (await control(`/sessions/refused-bodies/journal/${seq}`)).json()).wire;
    assert.equal((await wire(1)).request, notJson);
    assert.equal(JSON.parse((await wire(2)).request).temperature, 'hot');
    assert.equal((await wire(3)).request, 'hello');
    assert.match((await wire(2)).response, /temperature/, 'and the error the client got');
  });

  test('the graph: steps with their conditions and next steps, and the cursor moving as they answer', async () => {
    const session = await mock.session('graph');
    await session.load(WEATHER);
    const before = (await (await control('/sessions/graph/scripts')).json()).scripts[0];
    assert.deepEqual(before.candidates, ['ask']);
    assert.deepEqual(
      before.steps.map((s: any) => [s.id, s.next, s.used, s.reply]),
      [
        ['ask', ['answer'], 0, { toolCalls: ['weather'] }],
        ['answer', [], 0, { text: 'Sunny, 21 °C.' }],
      ],
    );
    assert.deepEqual(before.steps[0].when, { latestUser: { contains: 'weather' } });
    await openaiOf(session).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'weather?' }], tools: TOOLS });
    const moved = (await (await control('/sessions/graph/scripts')).json()).scripts[0];
    assert.deepEqual([moved.candidates, moved.lastStep, moved.replies, moved.complete], [['answer'], 'ask', 1, false]);
    assert.equal(moved.steps[0].used, 1);
  });

  test('a fault and pacing are in the entry: a scripted cut, an injected status, a paced stream', async () => {
    const session = await mock.session('faults', { fallback: 'strict' });
    await session.load({
      scenarios: [
        {
          name: 'cut',
          steps: [
            {
              when: { latestUser: 'cut' },
              reply: { text: 'one two three four', chunks: ['one ', 'two ', 'three ', 'four'], fault: { kind: 'close', afterChunks: 2 } },
            },
          ],
        },
        {
          name: 'paced',
          steps: [
            { when: { latestUser: 'slow' }, reply: { text: 'a b', chunks: ['a ', 'b'], pacing: { ttftMs: 30, chunksPerSecond: 50 } } },
          ],
        },
      ],
    });
    const anthropic = new Anthropic({ baseURL: session.url('anthropic'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
    const cut = await (async () => {
      const stream = anthropic.messages.stream({
        model: 'claude-sonnet-4-5',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'cut' }],
      });
      for await (const _event of stream);
    })().catch((e) => e);
    assert.ok(cut instanceof Error, 'the SDK saw the cut');
    const slow = anthropic.messages.stream({ model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'slow' }] });
    assert.equal((await slow.finalMessage()).content[0].type, 'text');
    await fetch(`${mock.baseUrl}/_understudy/sessions/faults/chaos`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 503 }),
    });
    const injected = await anthropic.messages
      .create({ model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'x' }] })
      .catch((e) => e);
    assert.equal(injected.status, 503);
    const { entries } = await (await control('/sessions/faults/journal')).json();
    assert.deepEqual(
      entries.map((e: any) => [e.status, e.fault]),
      [
        [200, 'close after 2 chunks'],
        [200, undefined],
        [503, 'injected 503'],
      ],
    );
    // The kept answer of the cut one is what was written: its first two events, not the rest.
    const kept = (await (await control('/sessions/faults/journal/1')).json()).wire;
    assert.equal(kept.responseKept, true);
    assert.deepEqual(
      [...(kept.response as string).matchAll(/^event: (\w+)$/gm)].map((m) => m[1]),
      ['message_start', 'content_block_start'],
    );
    assert.deepEqual(entries[1].pacing, { ttftMs: 30, chunksPerSecond: 50 });
    assert.ok(entries[1].firstByteMs >= 25, `the first byte of a paced stream waits for its ttft (${entries[1].firstByteMs} ms)`);
    assert.ok(entries[1].ms >= entries[1].firstByteMs);
  });
});

describe('the new routes keep the control API access rules', { timeout: 60_000 }, () => {
  let mock: Understudy;
  before(async () => {
    mock = await startUnderstudy({ controlToken: 'secret-token' });
  });
  after(() => mock.close());

  test('data routes need the token; the dashboard files do not; a web page on another origin gets none of them', async () => {
    for (const path of ['/events', '/metrics', '/sessions/default/scripts', '/sessions/default/journal/1']) {
      const res = await fetch(`${mock.baseUrl}/_understudy${path}`);
      assert.equal(res.status, 401, path);
      await res.body?.cancel();
      const foreign = await fetch(`${mock.baseUrl}/_understudy${path}`, {
        headers: { origin: 'http://evil.example', authorization: 'Bearer secret-token' },
      });
      assert.equal(foreign.status, 403, path);
      await foreign.body?.cancel();
    }
    const metrics = await fetch(`${mock.baseUrl}/_understudy/metrics`, { headers: { authorization: 'Bearer secret-token' } });
    assert.equal(metrics.status, 200);
    const redirect = await fetch(`${mock.baseUrl}/_understudy/ui`, { redirect: 'manual' });
    assert.equal(redirect.status, 301);
    assert.equal(redirect.headers.get('location'), '/_understudy/ui/');
    const page = await fetch(`${mock.baseUrl}/_understudy/ui/`);
    assert.notEqual(page.status, 401, 'the page itself needs no token');
    await page.body?.cancel();
  });

  test('without a token, a Host that is not loopback (a DNS-rebinding page) gets neither the feed nor the dashboard files', async () => {
    const open = await startUnderstudy();
    try {
      for (const path of ['/events', '/metrics', '/ui/', '/ui/index.html']) {
        const res = await rawGet(`${open.baseUrl}/_understudy${path}`, { host: 'attacker.example' });
        assert.equal(res.status, 403, path);
        assert.equal(JSON.parse(res.body).error.code, 'host_not_allowed');
      }
      const traversal = await fetch(`${open.baseUrl}/_understudy/ui/..%2Fpackage.json`);
      assert.equal(traversal.status, 404);
      const hidden = await fetch(`${open.baseUrl}/_understudy/ui/.env`);
      assert.equal(hidden.status, 404);
    } finally {
      await open.close();
    }
  });
});

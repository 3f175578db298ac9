// Issue 23: a reader of the live feed (GET /_understudy/events) that stops reading is not buffered
// for. Once more than 8 MiB wait unsent its connection is closed, while the requests the feed
// reports are answered as usual; a new reader gets the kept entries with backlog=1.

import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, test } from 'node:test';
import OpenAI from 'openai';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

let mock: Understudy;
let session: UnderstudySession;

before(async () => {
  mock = await startUnderstudy();
  session = await mock.session('slow-reader');
  // A scenario with a name of 100,000 characters: every entry of the feed names it, so each is
  // some 100 KB, and a stalled reader passes the bound in a few hundred requests.
  await session.load({ scenarios: [{ name: `s${'n'.repeat(100_000)}`, exhausted: 'repeat_last', replies: [{ text: 'x' }] }] });
});

after(async () => {
  await mock?.close();
});

/** Opens the feed on a raw socket, reads its response head, then stops reading. */
async function stalledReader(): Promise<Socket> {
  const { hostname, port } = new URL(mock.baseUrl);
  const socket = connect({ host: hostname, port: Number(port) });
  socket.on('error', () => undefined);
  socket.write(`GET /_understudy/events?session=slow-reader HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
  const head = await new Promise<string>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no response head in 10 s: ${text}`)), 10_000);
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (text.includes('\r\n\r\n')) {
        clearTimeout(timer);
        socket.off('data', onData);
        socket.pause();
        resolve(text);
      }
    };
    socket.on('data', onData);
  });
  assert.match(head, /^HTTP\/1\.1 200 /);
  assert.match(head, /content-type: text\/event-stream/i);
  return socket;
}

/** Reads what is left on `socket` until the server closes it, or `ms` pass; counts the entries. */
function drain(socket: Socket, ms: number): Promise<{ closed: boolean; entries: number }> {
  return new Promise((resolve) => {
    let entries = 0;
    let tail = '';
    const done = (closed: boolean) => {
      clearTimeout(timer);
      socket.removeAllListeners('data');
      resolve({ closed, entries });
    };
    const timer = setTimeout(() => done(false), ms);
    socket.on('data', (chunk: Buffer) => {
      const text = tail + chunk.toString('latin1');
      entries += text.split('event: entry\n').length - 1;
      tail = text.slice(-16);
    });
    socket.once('close', () => done(true));
    socket.resume();
  });
}

const REQUESTS = 300;

test(
  'a feed reader that stops reading is closed past 8 MiB unsent; the requests are answered and a new reader catches up',
  { timeout: 60_000 },
  async () => {
    const socket = await stalledReader();
    const openai = new OpenAI({ baseURL: session.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
    // Some 30 MB of entries: past the 8 MiB bound and whatever the two sockets' buffers hold.
    for (let sent = 0; sent < REQUESTS; sent += 10) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, () =>
          openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
        ),
      );
      for (const completion of batch) assert.equal(completion.choices[0].message.content, 'x');
    }
    const read = await drain(socket, 10_000);
    assert.ok(
      read.closed,
      `the stalled reader was still connected after ${REQUESTS} entries of some 100 KB each (it read ${read.entries})`,
    );
    assert.ok(read.entries < REQUESTS, `the reader got all ${read.entries} entries: the server buffered them for it`);
    assert.ok(read.entries >= 40, `closed after ${read.entries} entries: sooner than 8 MiB of them`);
    socket.destroy();

    // Nothing was lost to the journal, and a new reader starts from the kept entries.
    const journal = await session.journal();
    assert.equal(journal.counters.requests, REQUESTS);
    assert.equal(journal.entries.at(-1)?.seq, REQUESTS);
    const res = await fetch(`${mock.baseUrl}/_understudy/events?session=slow-reader&backlog=1`);
    assert.equal(res.status, 200);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    const timer = setTimeout(() => void reader.cancel(), 10_000);
    // Some 30 MB: only the newest text is searched for the end of the backlog.
    const pieces: string[] = [];
    let tail = '';
    while (!tail.includes('event: live')) {
      const { value, done } = await reader.read();
      if (done) break;
      pieces.push(value);
      tail = (tail + value).slice(-64);
    }
    const seen = pieces.join('');
    clearTimeout(timer);
    await reader.cancel();
    assert.ok(seen.includes('event: live'), 'the new reader got its backlog and went live');
    const ids = [...seen.matchAll(/^id: slow-reader\/(\d+)$/gm)].map((m) => Number(m[1]));
    assert.deepEqual(
      ids,
      journal.entries.map((e) => e.seq),
      'the backlog holds every entry the journal keeps',
    );
  },
);

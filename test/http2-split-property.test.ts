// The protocol split (src/transport/protocol-split.ts) decides from a connection's first bytes,
// however the network cuts them: an HTTP/1.1 request or an HTTP/2 preface written in any number of
// pieces is served on its protocol, and first bytes that are neither are answered by node:http's
// front door (a 4xx, or the connection closed) without ever stopping the server.

import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { startUnderstudy, type Understudy } from '../src/client/index.js';
import { dataOf, frame, literal } from './support/h2-raw.js';

let mock: Understudy;
let port: number;
before(async () => {
  mock = await startUnderstudy({ headersTimeoutMs: 400, requestTimeoutMs: 800 });
  port = Number(new URL(mock.baseUrl).port);
});
after(async () => {
  await mock.close();
});

const H1 = Buffer.from('GET /_understudy/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n', 'latin1');
const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

function h2Bytes(): Buffer {
  const block = Buffer.concat([
    Buffer.from([0x82, 0x86]), // :method GET, :scheme http
    literal(4, '/_understudy/health'),
    literal(1, `127.0.0.1:${port}`),
  ]);
  return Buffer.concat([PREFACE, frame(0x4, 0, 0, Buffer.alloc(0)), frame(0x1, 0x5, 1, block)]);
}

/** Writes `bytes` cut at `cuts` (a few ms between pieces), collects what comes back until the
 * server closes, `enough` says it has all it needs, or `ms` pass. */
function exchange(bytes: Buffer, cuts: number[], enough: (got: Buffer) => boolean, ms = 2000): Promise<{ got: Buffer; closed: boolean }> {
  const points = [...new Set(cuts.filter((c) => c > 0 && c < bytes.length))].sort((a, b) => a - b);
  const pieces = [0, ...points].map((from, i) => bytes.subarray(from, points[i] ?? bytes.length));
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let got = Buffer.alloc(0);
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ got, closed });
    };
    const timer = setTimeout(() => finish(false), ms);
    socket.on('data', (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      if (enough(got)) finish(false);
    });
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('connect', async () => {
      for (const piece of pieces) {
        if (settled) return;
        socket.write(piece);
        await new Promise((r) => setTimeout(r, 3));
      }
    });
  });
}

const cuts = (length: number) => fc.array(fc.integer({ min: 1, max: length - 1 }), { maxLength: 5 });

test('an HTTP/1.1 request cut anywhere is served over HTTP/1.1', async () => {
  await fc.assert(
    fc.asyncProperty(cuts(H1.length), async (at) => {
      const { got } = await exchange(H1, at, (g) => g.includes('"ok":true'));
      const text = got.toString('latin1');
      assert.match(text, /^HTTP\/1\.1 200 /, `cut at ${at}: ${text.slice(0, 80)}`);
    }),
    { numRuns: 40 },
  );
});

test('two pipelined HTTP/1.1 requests in the first bytes, cut anywhere, both get their answers', async () => {
  const first = Buffer.from('GET /_understudy/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 'latin1');
  const both = Buffer.concat([first, H1]);
  const answers = (g: Buffer) => g.toString('latin1').match(/HTTP\/1\.1 200 /g)?.length ?? 0;
  await fc.assert(
    fc.asyncProperty(cuts(both.length), async (at) => {
      const { got } = await exchange(both, at, (g) => answers(g) === 2 && g.toString('latin1').endsWith('}'));
      assert.equal(answers(got), 2, `cut at ${at}: ${got.toString('latin1').slice(0, 120)}`);
    }),
    { numRuns: 25 },
  );
});

test('an HTTP/2 preface and request cut anywhere (inside the preface too) are served over HTTP/2', async () => {
  const bytes = h2Bytes();
  await fc.assert(
    fc.asyncProperty(cuts(bytes.length), async (at) => {
      const { got } = await exchange(bytes, at, (g) => dataOf(g.subarray(0)).includes('"ok":true'));
      assert.match(dataOf(got), /"ok":true/, `cut at ${at}`);
    }),
    { numRuns: 40 },
  );
});

test('first bytes that are neither get a 4xx or a closed connection, and the server goes on', async () => {
  const notPreface = fc
    .uint8Array({ minLength: 1, maxLength: 40 })
    .filter((b) => !PREFACE.subarray(0, b.length).equals(Buffer.from(b.subarray(0, PREFACE.length))));
  await fc.assert(
    fc.asyncProperty(notPreface, cuts(40), async (bytes, at) => {
      const { got, closed } = await exchange(Buffer.from(bytes), at, (g) => g.includes('\r\n\r\n'), 3000);
      const text = got.toString('latin1');
      assert.ok(
        closed || /^HTTP\/1\.1 4\d\d /.test(text),
        `${Buffer.from(bytes).toString('hex')}: ${closed ? 'closed' : 'open'}, ${JSON.stringify(text.slice(0, 80))}`,
      );
      assert.doesNotMatch(text, /^HTTP\/1\.1 5/);
    }),
    { numRuns: 25 },
  );
  const { got } = await exchange(H1, [], (g) => g.includes('"ok":true'));
  assert.match(got.toString('latin1'), /^HTTP\/1\.1 200 /);
  // The start of a preface and then nothing: node:http's 408 once the headers timeout passes.
  const { got: partial } = await exchange(PREFACE.subarray(0, 8), [], (g) => g.includes('\r\n\r\n'), 3000);
  assert.match(partial.toString('latin1'), /^HTTP\/1\.1 408 /);
});

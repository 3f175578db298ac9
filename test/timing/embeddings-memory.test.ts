// Memory stays bounded under a run of embedding requests: 10,000 requests with distinct inputs
// (each journalled, each answered with a 1536-dimension vector) leave the heap and the memory
// outside it (vectors' ArrayBuffers) where 1,000 left them, give or take a generous margin: the
// journal holds its last 1,000 entries and nothing else keeps per-request state.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { startUnderstudy } from '../../src/client/index.js';

const CONCURRENCY = 16;

/** The heap and the memory outside it (a vector's ArrayBuffer is not on the heap). */
function used(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

test(
  '10,000 embedding requests leave heap and external memory within a margin of where 1,000 left them',
  { timeout: 120_000 },
  async () => {
    setFlagsFromString('--expose_gc');
    const gc = runInNewContext('gc') as () => void;
    const mock = await startUnderstudy();
    try {
      const session = await mock.session('embed-memory');
      const url = `${mock.url('openai')}/embeddings`;
      let next = 0;
      const run = async (until: number) => {
        const worker = async () => {
          while (next < until) {
            const i = next++;
            const response = await fetch(url, {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${session.apiKey}` },
              body: JSON.stringify({
                model: 'text-embedding-3-small',
                input: [`document number ${i} about topic ${i % 97}`],
                encoding_format: i % 2 ? 'base64' : 'float',
              }),
              signal: AbortSignal.timeout(30_000),
            });
            assert.equal(response.status, 200);
            await response.arrayBuffer();
          }
        };
        await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      };
      await run(1_000);
      gc();
      const after1k = used();
      await run(10_000);
      gc();
      const after10k = used();
      const { counters, entries } = await session.journal();
      assert.equal(counters.requests, 10_000);
      assert.equal(entries.length, 1_000);
      const grown = after10k - after1k;
      assert.ok(grown < 24 * 1024 * 1024, `heap and external memory grew by ${(grown / 1e6).toFixed(1)} MB from 1,000 to 10,000 requests`);
    } finally {
      await mock.close();
    }
  },
);

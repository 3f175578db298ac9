// Memory stays bounded under a run of image requests, by the rule test/embeddings-memory.test.ts
// follows: 10,000 requests with distinct prompts (each journalled; a third answered as URLs, whose
// images the session keeps within its bounds; the rest as base64, at two sizes) leave the heap and
// the memory outside it (image bytes) where 1,000 left them, give or take a generous margin.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { startUnderstudy } from '../../src/client/index.js';
import { IMAGE_URL_LIMITS } from '../../src/dialects/images-kit/image-urls.js';

const CONCURRENCY = 16;

function used(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

function bodyOf(i: number): Record<string, unknown> {
  const prompt = `picture number ${i} of subject ${i % 89}`;
  if (i % 3 === 0) return { model: 'dall-e-2', prompt, size: '256x256' };
  if (i % 3 === 1) return { model: 'dall-e-2', prompt, size: '512x512', response_format: 'b64_json' };
  return { model: 'gpt-image-1', prompt, size: '1024x1024', quality: 'low' };
}

test('10,000 image requests leave heap and external memory within a margin of where 1,000 left them', { timeout: 180_000 }, async (t) => {
  setFlagsFromString('--expose_gc');
  const gc = runInNewContext('gc') as () => void;
  const mock = await startUnderstudy();
  try {
    const session = await mock.session('images-memory');
    const url = `${mock.url('openai')}/images/generations`;
    let next = 0;
    let lastUrl = '';
    const run = async (until: number) => {
      const worker = async () => {
        while (next < until) {
          const i = next++;
          const response = await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${session.apiKey}` },
            body: JSON.stringify(bodyOf(i)),
            signal: AbortSignal.timeout(30_000),
          });
          assert.equal(response.status, 200);
          const body = (await response.json()) as { data: { url?: string }[] };
          if (body.data[0].url) lastUrl = body.data[0].url;
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
    assert.equal((await fetch(lastUrl, { signal: AbortSignal.timeout(10_000) })).status, 200, 'the latest URL image is kept');
    const oldest = lastUrl.replace(/img-\d+/, 'img-000001');
    assert.equal(
      (await fetch(oldest, { signal: AbortSignal.timeout(10_000) })).status,
      404,
      `only the latest ${IMAGE_URL_LIMITS.images} are kept`,
    );
    const grown = after10k - after1k;
    t.diagnostic(`grew by ${(grown / 1e6).toFixed(1)} MB from 1,000 to 10,000 requests`);
    assert.ok(grown < 24 * 1024 * 1024, `heap and external memory grew by ${(grown / 1e6).toFixed(1)} MB from 1,000 to 10,000 requests`);
  } finally {
    await mock.close();
  }
});

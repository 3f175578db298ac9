// Several fixture files given at start are one configuration: `serve --fixtures a.yaml b.yaml` and
// `startUnderstudy({ fixtures })` join the files' scenarios and scripted lists in file order (the
// earlier file's entry matches first) and let a later file's session options override; judged by
// the openai SDK. Before, the later file's embeddings list replaced the earlier one's silently.

import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import OpenAI from 'openai';

import { startUnderstudy } from '../src/client/index.js';
import { CLIS, killChildren, serveCli } from './support/cli-process.js';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'understudy-several-'));
});
after(async () => {
  killChildren();
  await rm(dir, { recursive: true, force: true });
});

const FIRST = `
scenarios: []
embeddings:
  - { input: alpha, vector: [1, 0] }
  - { input: overload, error: { status: 429, message: Slow down. } }
speech:
  - { input: hello, audio: UklGRg== }
`;
const SECOND = `
session: { models: [text-embedding-3-small, tts-1] }
scenarios: []
embeddings:
  - { input: alpha, vector: [0, 1] }
  - { input: beta, vector: [0.5, 0.5] }
`;

async function check(openai: OpenAI): Promise<void> {
  const answer = await openai.embeddings.create({ model: 'text-embedding-3-small', input: ['alpha', 'beta'], encoding_format: 'float' });
  assert.deepEqual(
    answer.data.map((d) => d.embedding),
    [
      [1, 0],
      [0.5, 0.5],
    ],
    "the first file's entry wins; the second file's other entries are there",
  );
  await assert.rejects(openai.embeddings.create({ model: 'text-embedding-3-small', input: 'overload' }), OpenAI.RateLimitError);
  const speech = await openai.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'hello', response_format: 'wav' });
  assert.deepEqual(Buffer.from(await speech.arrayBuffer()), Buffer.from('UklGRg==', 'base64'), "the first file's speech list is kept");
  await assert.rejects(
    openai.embeddings.create({ model: 'text-embedding-3-large', input: 'x' }),
    OpenAI.NotFoundError,
    "the second file's catalogue applies",
  );
}

test("serve --fixtures a b: both files' embeddings and speech lists answer, in file order, and the later session options apply", async () => {
  const first = join(dir, 'first.yaml');
  const second = join(dir, 'second.yaml');
  await writeFile(first, FIRST);
  await writeFile(second, SECOND);
  const served = await serveCli(CLIS[0], ['--port', '0', '--fixtures', first, second]);
  try {
    await check(new OpenAI({ baseURL: `${served.url}/v1`, apiKey: 'understudy', maxRetries: 0, timeout: 10_000 }));
  } finally {
    await served.stop();
  }
});

test('startUnderstudy({ fixtures: [a, b] }) joins them the same way', async () => {
  const { parse } = await import('yaml');
  const mock = await startUnderstudy({ fixtures: [parse(FIRST), parse(SECOND)] });
  try {
    await check(new OpenAI({ baseURL: mock.url('openai'), apiKey: 'understudy', maxRetries: 0, timeout: 10_000 }));
  } finally {
    await mock.close();
  }
});

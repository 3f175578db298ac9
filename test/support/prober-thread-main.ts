// The worker side of prober-thread.ts: while probing, a health check and a small chat through the
// openai SDK every `everyMs`, each timed from when it was sent to when its answer was read.

import { parentPort, workerData } from 'node:worker_threads';
import OpenAI from 'openai';
import type { Probe, ProberOptions } from './prober-thread.js';

const options = workerData as ProberOptions;
const openai = new OpenAI({ baseURL: options.openaiUrl, apiKey: options.apiKey, maxRetries: 0, timeout: 30_000 });

async function chat(): Promise<void> {
  const completion = await openai.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: 'are you there?' }],
  });
  const content = completion.choices[0].message.content;
  if (content !== options.expected) throw new Error(`the chat probe was answered "${content}", not "${options.expected}"`);
}

let probing = false;
let probes: Probe[] = [];
let pending: Promise<void>[] = [];
let failure: string | undefined;

function timed(kind: Probe['kind'], send: () => Promise<unknown>): Promise<void> {
  const sent = performance.now();
  return send().then(
    () => void probes.push({ kind, ms: performance.now() - sent }),
    (error: unknown) => void (failure ??= `${kind}: ${String(error)}`),
  );
}

function tick(): void {
  if (!probing) return;
  pending.push(
    timed('health', () => fetch(`${options.baseUrl}/_understudy/health`).then((r) => r.text())),
    timed('chat', chat),
  );
  setTimeout(tick, options.everyMs);
}

parentPort?.on('message', (message: 'start' | 'stop') => {
  if (message === 'start') {
    probes = [];
    pending = [];
    failure = undefined;
    probing = true;
    parentPort?.postMessage({ started: true });
    tick();
  } else {
    probing = false;
    void Promise.all(pending).then(() => parentPort?.postMessage({ probes, error: failure }));
  }
});

await chat();
parentPort?.postMessage({ ready: true });

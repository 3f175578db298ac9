// Runs Understudy in a worker thread, so that a test can measure the server's event loop from its
// own: while the server is busy, the test's timers and requests still go out on time.

import { Worker } from 'node:worker_threads';
import type { ServerOptions } from '../../src/server/understudy-server.js';

export interface UnderstudyThread {
  baseUrl: string;
  close(): Promise<void>;
}

export async function startUnderstudyThread(options: ServerOptions = {}): Promise<UnderstudyThread> {
  // Node 20 does not hand the tsx loader to workers: the worker registers it, then loads its module.
  const tsx = import.meta.resolve('tsx/esm/api');
  const main = new URL('./understudy-thread-main.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(main)}); })`;
  // The stack of a main thread (~1 MB; a worker's default is 4 MB), where `understudy serve` and
  // most test runners run the server: what overflows there must overflow here.
  const worker = new Worker(boot, { eval: true, workerData: options, resourceLimits: { stackSizeMb: 1 } });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    worker.once('message', (message: { baseUrl: string }) => resolve(message.baseUrl));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the Understudy thread exited (${code}) before it listened`)));
  });
  return {
    baseUrl,
    async close() {
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage('close');
      await exited;
    },
  };
}

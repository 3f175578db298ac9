// Sends small parallel requests from a worker thread of its own and times them (the bounded-work
// timing tests). The thread holds nothing but its requests, so its event loop answers on time even
// while the test's own thread collects the garbage of building a 15 MB body: a probe timed from
// that thread measured the test's pauses as well as the server's.

import { Worker } from 'node:worker_threads';

export interface Probe {
  kind: 'health' | 'chat';
  ms: number;
}

export interface ProberOptions {
  /** Understudy's base URL: GET /_understudy/health is one probe. */
  baseUrl: string;
  /** The OpenAI base URL and key of a session whose script answers every chat with `expected`. */
  openaiUrl: string;
  apiKey: string;
  expected: string;
  /** How often both probes are sent. */
  everyMs: number;
}

export interface Prober {
  /** Starts probing; resolves once the thread has begun. */
  start(): Promise<void>;
  /** Stops probing and resolves with every probe once all are answered (rejects on a wrong answer). */
  stop(): Promise<Probe[]>;
  close(): Promise<void>;
}

type FromProber = { ready: true } | { started: true } | { probes: Probe[]; error?: string };

export async function startProberThread(options: ProberOptions): Promise<Prober> {
  const tsx = import.meta.resolve('tsx/esm/api');
  const main = new URL('./prober-thread-main.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(main)}); })`;
  const worker = new Worker(boot, { eval: true, workerData: options });
  const next = () =>
    new Promise<FromProber>((resolve, reject) => {
      const onError = (error: Error) => reject(error);
      worker.once('error', onError);
      worker.once('message', (message: FromProber) => {
        worker.off('error', onError);
        resolve(message);
      });
    });
  await next(); // ready: the SDK is loaded and has been answered once
  return {
    async start() {
      const started = next();
      worker.postMessage('start');
      await started;
    },
    async stop() {
      const stopped = next();
      worker.postMessage('stop');
      const message = (await stopped) as { probes: Probe[]; error?: string };
      if (message.error) throw new Error(`a parallel request failed: ${message.error}`);
      return message.probes;
    },
    async close() {
      await worker.terminate();
    },
  };
}

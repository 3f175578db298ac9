// The worker side of understudy-thread.ts.

import { parentPort, workerData } from 'node:worker_threads';
import { startUnderstudy } from '../../src/client/index.js';
import type { ServerOptions } from '../../src/server/understudy-server.js';

const mock = await startUnderstudy(workerData as ServerOptions);
parentPort?.on('message', (message) => {
  if (message === 'close') void mock.close().then(() => process.exit(0));
});
parentPort?.postMessage({ baseUrl: mock.baseUrl });

// An Understudy server in a child process whose memory a test can read: started by
// `startMemoryServer()` with --expose-gc, it reports its URL, then answers "mem" with its memory
// after a full collection and the highest resident set size it ever had.

import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface Memory {
  /** Resident set size after gc, bytes. */
  rss: number;
  /** JavaScript heap and off-heap (Buffers, strings' external data) after gc, bytes. */
  heap: number;
  /** Highest resident set size of the process so far (the kernel's count), bytes. */
  peakRss: number;
}

export interface MemoryServer {
  url: string;
  memory(): Promise<Memory>;
  stop(): Promise<void>;
}

type Message = { url: string } | ({ kind: 'mem' } & Memory);

/** Starts the child; `args` become ServerOptions as JSON. */
export async function startMemoryServer(options: Record<string, unknown> = {}): Promise<MemoryServer> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [JSON.stringify(options)], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () =>
    new Promise<Message>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the memory server did not answer within 30 s')), 30_000);
      child.once('message', (m) => {
        clearTimeout(timer);
        resolve(m as Message);
      });
    });
  const first = await next();
  if (!('url' in first)) throw new Error('the memory server did not report its URL');
  return {
    url: first.url,
    async memory() {
      const reply = next();
      child.send('mem');
      const m = await reply;
      if (!('kind' in m)) throw new Error('unexpected message from the memory server');
      return { rss: m.rss, heap: m.heap, peakRss: m.peakRss };
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function serve(): Promise<void> {
  const { startUnderstudy } = await import('../../src/client/index.js');
  const mock = await startUnderstudy(JSON.parse(process.argv[2] ?? '{}') as Record<string, never>);
  const gc = (globalThis as { gc?: () => void }).gc as () => void;
  process.on('message', (m) => {
    if (m !== 'mem') return;
    // Twice, with a turn between: what a close released becomes garbage only once its callbacks ran.
    gc();
    setImmediate(() => {
      gc();
      const u = process.memoryUsage();
      process.send?.({ kind: 'mem', rss: u.rss, heap: u.heapUsed + u.external, peakRss: process.resourceUsage().maxRSS * 1024 });
    });
  });
  process.once('SIGTERM', () => void mock.close().then(() => process.exit(0)));
  // A test process that dies without stopping it takes it along.
  process.once('disconnect', () => process.exit(0));
  process.send?.({ url: mock.baseUrl });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) void serve();

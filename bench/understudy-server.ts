// Understudy as a benchmark child, from the built package (dist/, what `understudy serve` and users
// run; bench/run.ts builds it first). The default session is set up from the JSON config given as
// the first argument (see UnderstudyChildConfig in bench/scenarios.ts): the repeating bench script,
// decoy scripts in front of it, or no script at all (zero-config).
//
// It starts the server the way startUnderstudy() does (new UnderstudyServer(options), listen()),
// keeping the server object so that, with `stats`, it can report its memory (before and after a
// full GC, when started with --expose-gc) and its journal over the IPC channel.
//
// Run as a child: node --import tsx bench/understudy-server.ts '{"script":"bench"}'

import { announce, exitOnSignal, understudyFixture, type UnderstudyChildConfig } from './scenarios.js';

const config = JSON.parse(process.argv[2] ?? '{"script":"bench"}') as UnderstudyChildConfig;
const distEntry = new URL('../dist/index.js', import.meta.url).href;
const { UnderstudyServer } = (await import(distEntry)) as typeof import('../src/index.js');
const fixture = understudyFixture(config);
const server = new UnderstudyServer({
  fixtures: fixture.scenarios.length ? [fixture] : [],
  ...(config.fallback && { defaultSession: { fallback: config.fallback } }),
  ...(config.metrics === false && { metrics: false }),
});
const { port } = await server.listen();

if (config.stats && process.send) {
  process.on('message', (message: { stats?: boolean }) => {
    if (!message?.stats) return;
    const journal = server.registry.defaultSession.journal;
    const memory = process.memoryUsage();
    // With --expose-gc: the same figures after a full collection, i.e. what is really retained.
    const collect = (globalThis as { gc?: () => void }).gc;
    if (collect) collect();
    process.send!({
      stats: {
        memory,
        afterGc: collect ? process.memoryUsage() : null,
        journal: journal.usage(),
        counters: journal.counters,
        scripts: server.registry.defaultSession.scripts.length,
      },
    });
  });
}

announce('understudy', port);
exitOnSignal(() => server.close());

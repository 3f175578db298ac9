// Understudy as a benchmark child: the repeating bench script in the default session, started
// in process with startUnderstudy() from the built package (dist/, what `understudy serve` and
// users run); bench/run.ts builds it first.
//
// Run as a child: node --import tsx bench/understudy-server.ts

import { announce, exitOnSignal, UNDERSTUDY_FIXTURE } from './scenarios.js';

const distEntry = new URL('../dist/index.js', import.meta.url).href;
const { startUnderstudy } = (await import(distEntry)) as typeof import('../src/index.js');
const understudy = await startUnderstudy({ fixtures: [UNDERSTUDY_FIXTURE] });
announce('understudy', Number(new URL(understudy.baseUrl).port));
exitOnSignal(() => understudy.close());

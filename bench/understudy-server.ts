// Understudy as a benchmark child: the repeating bench script in the default session, started the
// way tests start it (startUnderstudy, from src/ through tsx).
//
// Run as a child: node --import tsx bench/understudy-server.ts

import { startUnderstudy } from '../src/client/index.js';
import { announce, exitOnSignal, UNDERSTUDY_FIXTURE } from './scenarios.js';

const understudy = await startUnderstudy({ fixtures: [UNDERSTUDY_FIXTURE] });
announce('understudy', Number(new URL(understudy.baseUrl).port));
exitOnSignal(() => understudy.close());

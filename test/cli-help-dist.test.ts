// The command-line help cases (test/support/cli-help-cases.ts) against the built bin, dist/cli/main.js;
// test/cli-help.test.ts runs them from source.

import { after } from 'node:test';
import { describeCliHelp } from './support/cli-help-cases.js';
import { CLIS, killChildren } from './support/cli-process.js';

after(killChildren);

describeCliHelp(CLIS[1]);

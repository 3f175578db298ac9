// The closed-pipe cases of test/support/cli-help-cases.ts from the current source, in a file of their
// own: with the usage cases they came near the suite's minute per file on a loaded machine.

import { after } from 'node:test';
import { describeCliHelp } from './support/cli-help-cases.js';
import { CLIS, killChildren } from './support/cli-process.js';

after(killChildren);

describeCliHelp(CLIS[0], ['pipes']);

// The usage cases of test/support/cli-help-cases.ts (a mistyped command or flag, bad values, output
// into a closed pipe) from the current source; test/cli-help.test.ts runs the help cases.

import { after } from 'node:test';
import { describeCliHelp } from './support/cli-help-cases.js';
import { CLIS, killChildren } from './support/cli-process.js';

after(killChildren);

describeCliHelp(CLIS[0], ['usage']);

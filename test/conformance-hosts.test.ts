// The dialect conformance suite (test/conformance.test.ts) over the hosts of the OpenAI dialects: a file of its own so
// that each file of the suite stays well within its timeout.

import { HOST_DRIVERS } from './support/conformance/index.js';
import { conformanceSuites } from './support/conformance/suite.js';

conformanceSuites(HOST_DRIVERS);

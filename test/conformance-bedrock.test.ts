// The dialect conformance suite (test/conformance.test.ts) over Amazon Bedrock's operations: a file of its own so
// that each file of the suite stays well within its timeout.

import { BEDROCK_DRIVERS } from './support/conformance/index.js';
import { conformanceSuites } from './support/conformance/suite.js';

conformanceSuites(BEDROCK_DRIVERS);

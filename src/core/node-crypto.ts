// node:crypto takes a while to load (docs/performance.md) and only some paths need it (a session created without an API
// key, a control-token check), so it is required on first use rather than imported at start-up.

import type * as Crypto from 'node:crypto';
import { createRequire } from 'node:module';

let cryptoModule: typeof Crypto | undefined;

export function nodeCrypto(): typeof Crypto {
  return (cryptoModule ??= createRequire(import.meta.url)('node:crypto') as typeof Crypto);
}

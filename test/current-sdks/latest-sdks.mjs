// The current-SDK lane (issue 16 §1): the suite's SDK test files run again under Node 22 with each
// SDK's latest release, installed beside the pinned one under an alias (latest-sdks.json). This
// hook makes `import 'openai'` and the others in those files load the alias.
import { register } from 'node:module';

register('./resolve-latest.mjs', import.meta.url);

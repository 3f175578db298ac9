// The current-SDK lane (issue 16 §1): the suite's SDK test files run again under Node 22 with each
// SDK's latest major, installed beside the pinned one under an alias (package.json: openai-latest
// is openai 7.x). This hook makes `import 'openai'` in those files load the alias.
import { register } from 'node:module';

register('./resolve-latest.mjs', import.meta.url);

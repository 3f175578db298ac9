// llm-understudy/ai-sdk: a Vercel AI SDK language model answered by a session's scripts in this
// process, with no HTTP (docs/in-process.md).

import type { UnderstudySession } from '../../index.js';
import { UnderstudyLanguageModel, type UnderstudyModelOptions } from './language-model.js';

export { UnderstudyLanguageModel, type UnderstudyModelOptions };
export { UnderstudyFaultError, UnderstudyModelError } from '../../index.js';

/** The session's scripts as an AI SDK model: `generateText({ model: understudyModel(session), … })`. */
export function understudyModel(session: UnderstudySession, options: UnderstudyModelOptions = {}): UnderstudyLanguageModel {
  return new UnderstudyLanguageModel(session, options);
}

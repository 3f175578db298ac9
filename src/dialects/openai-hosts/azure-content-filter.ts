// Azure's content filter results on Chat Completions answers: `prompt_filter_results` for the
// prompt and `content_filter_results` on each choice, every category passed. Scripts never filter
// here: a filtered answer is a scripted error (kind content_filter) or finish reason.

import type { JsonObject } from './host.js';

const SAFE = { filtered: false, severity: 'safe' };
const NOT_DETECTED = { filtered: false, detected: false };

function promptFilterResults(): JsonObject[] {
  return [
    { prompt_index: 0, content_filter_results: { hate: SAFE, jailbreak: NOT_DETECTED, self_harm: SAFE, sexual: SAFE, violence: SAFE } },
  ];
}

function completionFilterResults(): JsonObject {
  return {
    hate: SAFE,
    protected_material_code: NOT_DETECTED,
    protected_material_text: NOT_DETECTED,
    self_harm: SAFE,
    sexual: SAFE,
    violence: SAFE,
  };
}

/** Adds Azure's filter results to a Chat Completions answer, in place. */
export function addFilterResults(answer: JsonObject): void {
  answer.prompt_filter_results = promptFilterResults();
  for (const choice of answer.choices as JsonObject[]) choice.content_filter_results = completionFilterResults();
}

// What the scripted lists of a fixture share (embeddings, images, speech, transcriptions, videos):
// entries found by a text (an exact string or a text match) and an optional model, the first that
// matches winning, compiled once when the fixture is loaded; and a scripted error as the provider
// error the request gets.

import type { NeutralError } from '../core/errors.js';
import type { ScriptedError } from '../core/model.js';
import { textMatcher } from './predicates.js';
import type { TextMatchSpec } from './spec.js';

/** A scripted `error` as the neutral error of the route's provider shape. */
export function scriptedError(e: ScriptedError): NeutralError {
  return {
    kind: 'scripted',
    status: e.status,
    code: e.code ?? null,
    type: e.type,
    message: e.message,
    headers: e.headers,
    ...(e.inStream && { inStream: true }),
    ...(e.extra && { extra: e.extra }),
  };
}

interface Entry<Answer> {
  test(text: string): boolean;
  model: string | undefined;
  answer: Answer;
}

export class ScriptedList<Spec, Answer> {
  private readonly entries: readonly Entry<Answer>[];

  /** `specs` as loaded (what `serve --workers` sends the replicas); `read` gives each its text,
   * model and compiled answer. */
  constructor(
    readonly specs: readonly Spec[],
    read: (spec: Spec) => { text: string | TextMatchSpec; model: string | undefined; answer: Answer },
  ) {
    this.entries = specs.map((spec) => {
      const { text, model, answer } = read(spec);
      return { test: textMatcher(text).test, model, answer };
    });
  }

  /** The answer of the first entry matching `text` and `model`; undefined when none does. */
  find(text: string, model: string): Answer | undefined {
    for (const entry of this.entries) {
      if ((entry.model === undefined || entry.model === model) && entry.test(text)) return entry.answer;
    }
    return undefined;
  }
}

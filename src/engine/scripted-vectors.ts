// The vectors a fixture scripts for chosen embedding inputs (the fixture's `embeddings` list),
// compiled once when the fixture is loaded: the first entry whose input (and model, when it names
// one) matches gives the vector, as float32 — or, for an entry with `error`, the provider error
// the request gets instead; an entry may add a delay and a fault to the answer.

import type { NeutralError } from '../core/errors.js';
import type { AnswerAct } from '../core/model.js';
import { textMatcher } from './predicates.js';
import { scriptedError } from './scripted-list.js';
import type { ScriptedVectorSpec } from './spec.js';

interface CompiledVector {
  test(text: string): boolean;
  model: string | undefined;
  answer: Float32Array | NeutralError;
  act: AnswerAct | undefined;
}

export class ScriptedVectors {
  private readonly entries: readonly CompiledVector[];
  /** Whether any entry scripts a delay or a fault (most fixtures: none, and nothing is looked up). */
  private readonly acting: boolean;

  /** As loaded: what `serve --workers` sends the replicas. */
  constructor(readonly specs: readonly ScriptedVectorSpec[]) {
    this.entries = specs.map((spec) => ({
      test: textMatcher(spec.input).test,
      model: spec.model,
      // The format's rule gives every entry exactly one of vector and error.
      answer: spec.error ? scriptedError(spec.error) : Float32Array.from(spec.vector ?? []),
      act: spec.delayMs !== undefined || spec.fault ? { delayMs: spec.delayMs, fault: spec.fault } : undefined,
    }));
    this.acting = this.entries.some((entry) => entry.act !== undefined);
  }

  /** The scripted vector (or error) of `text` for `model`; undefined when no entry matches. */
  vectorOf(text: string, model: string): Float32Array | NeutralError | undefined {
    return this.entryOf(text, model)?.answer;
  }

  /** The delay and fault of the first input whose entry scripts any. */
  actOf(texts: readonly string[], model: string): AnswerAct | undefined {
    if (!this.acting) return undefined;
    for (const text of texts) {
      const act = this.entryOf(text, model)?.act;
      if (act) return act;
    }
    return undefined;
  }

  private entryOf(text: string, model: string): CompiledVector | undefined {
    for (const entry of this.entries) {
      if ((entry.model === undefined || entry.model === model) && entry.test(text)) return entry;
    }
    return undefined;
  }
}

export const NO_SCRIPTED_VECTORS = new ScriptedVectors([]);

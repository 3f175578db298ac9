// The vectors a fixture scripts for chosen embedding inputs (the fixture's `embeddings` list),
// compiled once when the fixture is loaded: the first entry whose input (and model, when it names
// one) matches gives the vector, as float32 — or, for an entry with `error`, the provider error
// the request gets instead; an entry may add a delay and a fault to the answer.

import type { NeutralError } from '../core/errors.js';
import type { AnswerAct } from '../core/model.js';
import { ScriptedList, scriptedError } from './scripted-list.js';
import type { ScriptedVectorSpec } from './spec.js';

interface VectorAnswer {
  vector: Float32Array | NeutralError;
  act: AnswerAct | undefined;
}

export class ScriptedVectors extends ScriptedList<ScriptedVectorSpec, VectorAnswer> {
  /** Whether any entry scripts a delay or a fault (most fixtures: none, and nothing is looked up). */
  private readonly acting: boolean;

  constructor(specs: readonly ScriptedVectorSpec[]) {
    super(specs, (spec) => ({
      text: spec.input,
      model: spec.model,
      answer: {
        // The format's rule gives every entry exactly one of vector and error.
        vector: spec.error ? scriptedError(spec.error) : Float32Array.from(spec.vector ?? []),
        act: spec.delayMs !== undefined || spec.fault ? { delayMs: spec.delayMs, fault: spec.fault } : undefined,
      },
    }));
    this.acting = specs.some((spec) => spec.delayMs !== undefined || spec.fault !== undefined);
  }

  /** The scripted vector (or error) of `text` for `model`; undefined when no entry matches. */
  vectorOf(text: string, model: string): Float32Array | NeutralError | undefined {
    return this.find(text, model)?.vector;
  }

  /** The delay and fault of the first input whose entry scripts any. */
  actOf(texts: readonly string[], model: string): AnswerAct | undefined {
    if (!this.acting) return undefined;
    for (const text of texts) {
      const act = this.find(text, model)?.act;
      if (act) return act;
    }
    return undefined;
  }
}

export const NO_SCRIPTED_VECTORS = new ScriptedVectors([]);

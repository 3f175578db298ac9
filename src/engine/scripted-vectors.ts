// The vectors a fixture scripts for chosen embedding inputs (the fixture's `embeddings` list),
// compiled once when the fixture is loaded: the first entry whose input (and model, when it names
// one) matches gives the vector, as float32.

import { textMatcher } from './predicates.js';
import type { ScriptedVectorSpec } from './spec.js';

interface CompiledVector {
  test(text: string): boolean;
  model: string | undefined;
  vector: Float32Array;
}

export class ScriptedVectors {
  private readonly entries: readonly CompiledVector[];

  constructor(specs: readonly ScriptedVectorSpec[]) {
    this.entries = specs.map((spec) => ({
      test: textMatcher(spec.input).test,
      model: spec.model,
      vector: Float32Array.from(spec.vector),
    }));
  }

  get size(): number {
    return this.entries.length;
  }

  /** The scripted vector of `text` for `model`; undefined when no entry matches. */
  vectorOf(text: string, model: string): Float32Array | undefined {
    for (const entry of this.entries) {
      if ((entry.model === undefined || entry.model === model) && entry.test(text)) return entry.vector;
    }
    return undefined;
  }
}

export const NO_SCRIPTED_VECTORS = new ScriptedVectors([]);

// What the framework-tool entries (ai-sdk.ts, langchain.ts) share, with no framework import: which
// definition a source offers and what its tool executes.

import type { PresetName } from './catalogue.js';
import type { PresetDefinition, PresetFixture } from './preset-tool.js';
import type { PresetArguments, PresetErrorResult, PresetResult } from './types.js';

/** What a preset tool's execute may give back: the success result or the error envelope. */
export type PresetToolOutput<N extends PresetName> = PresetResult<N> | PresetErrorResult;

export type PresetExecute<N extends PresetName> = (args: PresetArguments<N>) => PresetToolOutput<N> | PromiseLike<PresetToolOutput<N>>;

/** A definition, or a fixture (whose definition is offered and whose scripted result a default
 * execute gives back). */
export type PresetSource<N extends PresetName> = PresetDefinition<N> | PresetFixture<N>;

function isFixture<N extends PresetName>(source: PresetSource<N>): source is PresetFixture<N> {
  return 'definition' in source && 'call' in source;
}

/** The definition to offer and the execute to run: the given one, else the fixture's scripted
 * result (a copy, so the tool cannot change the fixture), else none. */
export function presetToolParts<N extends PresetName>(
  source: PresetSource<N>,
  execute?: PresetExecute<N>,
): { definition: PresetDefinition<N>; execute?: PresetExecute<N> } {
  if (!isFixture(source)) return { definition: source, ...(execute && { execute }) };
  const scripted = source.result;
  return { definition: source.definition, execute: execute ?? (() => structuredClone(scripted)) };
}

// llm-understudy/presets/langchain: a preset as a LangChain tool, in one line:
// `tools: langchainTools(weather, sum)` for createAgent, bindTools or a ToolNode. The only module of
// the package that imports @langchain/core (an optional peer dependency): the main entry and
// llm-understudy/presets do not.

import { tool, type DynamicStructuredTool } from '@langchain/core/tools';
import type { PresetName } from './catalogue.js';
import { presetToolParts, type PresetExecute, type PresetSource } from './framework-tool.js';
import type { PresetFixture } from './preset-tool.js';

export type { PresetExecute, PresetSource, PresetToolOutput } from './framework-tool.js';

/** A LangChain structured tool named for the preset. */
export type PresetLangchainTool<N extends PresetName> = DynamicStructuredTool<any, any, any, string, any, N>;

/**
 * A LangChain `tool()` offering the preset: its name, description and the catalogue's parameters
 * schema as JSON Schema (LangChain checks the model's arguments against it before the tool runs).
 * The tool gives back the result as JSON text, the tool message's content. From a fixture, the
 * default execute returns the fixture's scripted result; a bare definition needs an execute.
 */
export function langchainTool<N extends PresetName>(source: PresetSource<N>, execute?: PresetExecute<N>): PresetLangchainTool<N> {
  const { definition, execute: run } = presetToolParts(source, execute);
  if (!run) throw new Error(`langchainTool(${definition.name}): a definition needs an execute (a fixture brings its result)`);
  const { name, description } = definition;
  return tool(async (args: unknown) => JSON.stringify(await run(args as Parameters<PresetExecute<N>>[0])), {
    name,
    description,
    schema: structuredClone(definition.parameters) as Record<string, unknown>,
  }) as unknown as PresetLangchainTool<N>;
}

/** The fixtures' tools, in order; each executes to its fixture's result. */
export function langchainTools<const F extends readonly PresetFixture[]>(
  ...fixtures: F
): { -readonly [K in keyof F]: PresetLangchainTool<F[K]['definition']['name']> } {
  return fixtures.map((fixture) => langchainTool(fixture as PresetFixture)) as {
    -readonly [K in keyof F]: PresetLangchainTool<F[K]['definition']['name']>;
  };
}

// llm-understudy/presets/ai-sdk: a preset as a Vercel AI SDK tool, in one line:
// `tools: aiSdkTools(weather, sum)` for generateText / streamText. The only module of the package
// that imports `ai` (an optional peer dependency): the main entry and llm-understudy/presets do not.

import { jsonSchema, tool, type JSONSchema7, type Tool } from 'ai';
import type { PresetName } from './catalogue.js';
import { presetToolParts, type PresetExecute, type PresetSource, type PresetToolOutput } from './framework-tool.js';
import type { PresetFixture } from './preset-tool.js';
import type { PresetArguments } from './types.js';

export type { PresetExecute, PresetSource, PresetToolOutput } from './framework-tool.js';

/**
 * An AI SDK `tool()` offering the preset: its description and the catalogue's parameters schema
 * as given (`jsonSchema`, so the model is offered the same schema the catalogue holds). From a
 * fixture, the default execute returns the fixture's scripted result; from a bare definition with
 * no execute, the tool has none (the SDK then stops at the call, as with any client-side tool).
 */
export function aiSdkTool<N extends PresetName>(
  source: PresetSource<N>,
  execute?: PresetExecute<N>,
): Tool<PresetArguments<N>, PresetToolOutput<N>> {
  const parts = presetToolParts(source, execute);
  const run = parts.execute;
  return tool<PresetArguments<N>, PresetToolOutput<N>>({
    description: parts.definition.description,
    inputSchema: jsonSchema<PresetArguments<N>>(structuredClone(parts.definition.parameters) as JSONSchema7),
    ...(run && { execute: async (args: PresetArguments<N>) => run(args) }),
  } as Tool<PresetArguments<N>, PresetToolOutput<N>>);
}

type NamesOf<F extends readonly PresetFixture[]> = F[number]['definition']['name'];

/** The fixtures' tools by function name, for `tools:`; each executes to its fixture's result.
 * Two fixtures of one preset would share a name: give a record by hand then. */
export function aiSdkTools<const F extends readonly PresetFixture[]>(
  ...fixtures: F
): { [N in NamesOf<F>]: Tool<PresetArguments<N>, PresetToolOutput<N>> } {
  const tools: Record<string, Tool> = {};
  for (const fixture of fixtures) {
    const { name } = fixture.definition;
    if (name in tools) throw new Error(`aiSdkTools: two fixtures of preset "${name}"; give each tool its own name by hand`);
    tools[name] = aiSdkTool(fixture as PresetFixture);
  }
  return tools as { [N in NamesOf<F>]: Tool<PresetArguments<N>, PresetToolOutput<N>> };
}

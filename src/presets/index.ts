// llm-understudy/presets: twelve well-known function tools (calculator, weather, web_search …) as
// typed, checked builders of scripted calls and results, and the read-only catalogue they come from.

import { PRESET_NAMES, type PresetName } from './catalogue.js';
import { PresetTool } from './preset-tool.js';

export {
  PRESET_CATALOGUE,
  PRESET_DESCRIPTORS,
  PRESET_ERROR_SCHEMA,
  PRESET_NAMES,
  type JsonSchemaObject,
  type PresetDescriptor,
  type PresetName,
} from './catalogue.js';
export { PresetValueError, type PresetPart } from './check.js';
export {
  PresetTool,
  type FixtureOptions,
  type PresetCall,
  type PresetDefinition,
  type PresetFailure,
  type PresetFixture,
  type PresetSuccess,
} from './preset-tool.js';
export type * from './types.js';
export { anthropicTool, bedrockTool, geminiFunctionDeclaration, openaiChatTool, responsesTool } from './offer.js';

/** The builders, by function name: `presets.weather.call({ location: 'Paris' })`. */
export const presets: { readonly [N in PresetName]: PresetTool<N> } = Object.freeze(
  Object.fromEntries(Object.keys(PRESET_NAMES).map((name) => [name, new PresetTool(name as PresetName)])) as {
    [N in PresetName]: PresetTool<N>;
  },
);

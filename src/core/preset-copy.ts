// The presets as the engine knows them: the generated copy of the catalogue
// (preset-catalogue.generated.ts, plain data) and checks of a value against a preset's schemas with
// the server's Ajv, the same schemas `llm-understudy/presets` checks with when a test builds a value.

import {
  PRESET_COPIES,
  PRESET_ERROR_SCHEMA_COPY,
  PRESET_NAME_LIST,
  type PresetCopy,
  type PresetNameInCopy,
} from './preset-catalogue.generated.js';
import { compileSchema, isSchemaError } from './schema.js';

/** What of a preset a value is: its call's arguments, its success result, or the `error` of its failure envelope. */
export type PresetValuePart = 'arguments' | 'result' | 'error';

export { PRESET_COPIES, PRESET_ERROR_SCHEMA_COPY, PRESET_NAME_LIST, type PresetCopy, type PresetNameInCopy };

export function isPresetName(name: unknown): name is PresetNameInCopy {
  return typeof name === 'string' && Object.hasOwn(PRESET_COPIES, name);
}

/** The tool-result content a failure carries: the envelope around the error. */
export function presetErrorContent(error: unknown): { error: unknown } {
  return { error };
}

/** The schema's problems with the value (`at /unit: must be …`); [] when it is valid. For `error`,
 * the value is the envelope's inner object, checked inside the envelope (paths start /error). */
export function presetValueProblems(name: PresetNameInCopy, part: PresetValuePart, value: unknown): string[] {
  const copy = PRESET_COPIES[name];
  const schema = part === 'arguments' ? copy.parameters : part === 'result' ? copy.result : PRESET_ERROR_SCHEMA_COPY;
  const compiled = compileSchema(schema);
  if (isSchemaError(compiled)) return [`the preset's ${part} schema does not compile: ${compiled.error}`];
  return compiled.validate(part === 'error' ? presetErrorContent(value) : value);
}

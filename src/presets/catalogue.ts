// The read-only catalogue: one descriptor per preset, with the JSON Schemas of its arguments, its
// result and the shared error envelope, all generated from descriptions.ts. Everything here is
// frozen, so a test cannot change what another test offers.

import { z } from 'zod';
import { deepFreeze } from '../core/deep-freeze.js';
import { PRESET_DESCRIPTIONS, PRESET_ERROR_DESCRIPTION } from './descriptions.js';

export type PresetName = keyof typeof PRESET_DESCRIPTIONS;

/** A JSON Schema object (what the catalogue's schemas all are; assignable where a tool's parameters go). */
export type JsonSchemaObject = { [key: string]: unknown };

/** The function names, as constants: `PRESET_NAMES.weather === 'weather'`. */
export const PRESET_NAMES = deepFreeze(
  Object.fromEntries(Object.keys(PRESET_DESCRIPTIONS).map((name) => [name, name])) as { readonly [N in PresetName]: N },
);

export interface PresetDescriptor<N extends PresetName = PresetName> {
  readonly name: N;
  readonly description: string;
  /** JSON Schema (2020-12) of the call's arguments: what a tool definition offers as its parameters. */
  readonly parameters: JsonSchemaObject;
  /** JSON Schema of a success result, the tool-result content. */
  readonly resultSchema: JsonSchemaObject;
  /** JSON Schema of the error envelope a failure gives back instead (the same for every preset). */
  readonly errorSchema: JsonSchemaObject;
}

/** The description's JSON Schema, without `$schema`: a tool's parameters do not carry one (2020-12 is
 * what Understudy compiles a schema without it as). */
function jsonSchemaOf(schema: z.ZodType): JsonSchemaObject {
  const { $schema: _draft, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' });
  return rest;
}

export const PRESET_ERROR_SCHEMA: JsonSchemaObject = deepFreeze(jsonSchemaOf(PRESET_ERROR_DESCRIPTION));

function descriptor<N extends PresetName>(name: N): PresetDescriptor<N> {
  const described = PRESET_DESCRIPTIONS[name];
  return deepFreeze({
    name,
    description: described.description,
    parameters: jsonSchemaOf(described.arguments),
    resultSchema: jsonSchemaOf(described.result),
    errorSchema: PRESET_ERROR_SCHEMA,
  });
}

export const PRESET_CATALOGUE: { readonly [N in PresetName]: PresetDescriptor<N> } = deepFreeze(
  Object.fromEntries(Object.keys(PRESET_DESCRIPTIONS).map((name) => [name, descriptor(name as PresetName)])) as {
    [N in PresetName]: PresetDescriptor<N>;
  },
);

/** Every descriptor, in the catalogue's order. */
export const PRESET_DESCRIPTORS: readonly PresetDescriptor[] = deepFreeze(Object.values(PRESET_CATALOGUE));

// A preset's definition in each provider's own tool shape, so a test offers it with the real SDK in
// one line: `tools: [openaiChatTool(presets.weather.definition())]`. Plain objects of the wire's
// shape; the SDKs' own types accept them as they are.

import type { JsonValue } from '../core/model.js';
import type { JsonSchemaObject } from './catalogue.js';
import type { PresetDefinition } from './preset-tool.js';

/** OpenAI Chat Completions (and its hosts, Ollama's and Cohere v2's tools): `tools[].function`. */
export function openaiChatTool({ name, description, parameters }: PresetDefinition) {
  return { type: 'function' as const, function: { name, description, parameters } };
}

/** OpenAI Responses: a flat function tool (not strict: the catalogue's optional fields stay optional). */
export function responsesTool({ name, description, parameters }: PresetDefinition) {
  return { type: 'function' as const, name, description, parameters, strict: false };
}

/** Anthropic Messages: `input_schema`. */
export function anthropicTool({ name, description, parameters }: PresetDefinition) {
  return { name, description, input_schema: parameters as JsonSchemaObject & { type: 'object' } };
}

/** Gemini: one function declaration, its schema as JSON Schema (`parametersJsonSchema`); put it in
 * `tools: [{ functionDeclarations: [...] }]`. */
export function geminiFunctionDeclaration({ name, description, parameters }: PresetDefinition) {
  return { name, description, parametersJsonSchema: parameters };
}

/** Amazon Bedrock Converse: `toolConfig.tools[].toolSpec`. */
export function bedrockTool({ name, description, parameters }: PresetDefinition) {
  return { toolSpec: { name, description, inputSchema: { json: parameters as { [key: string]: JsonValue } } } };
}

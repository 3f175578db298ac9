// What LangChain binds to a call, in neutral terms: tools (LangChain tools, OpenAI-style tool
// dicts, `{name, parameters | input_schema | schema}`) with JSON Schema parameters, the tool
// choice, and the OpenAI-style `response_format` that withStructuredOutput and createAgent's
// provider strategy bind.

import type { BindToolsInput } from '@langchain/core/language_models/chat_models';
import { convertToOpenAITool, isLangChainTool } from '@langchain/core/utils/function_calling';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import { isSerializableSchema } from '@langchain/core/utils/standard_schema';
import { isInteropZodSchema } from '@langchain/core/utils/types';
import type { JsonSchema, OutputFormat, ToolChoice, ToolDefinition } from '../../core/model.js';

/** The structured output an OpenAI-style `response_format` asks for. */
export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; json_schema: { name?: string; description?: string; schema: unknown; strict?: boolean | null } };

type Dict = Record<string, unknown>;

/** A bound tool as a function-tool dict ({type: 'function', function: {...}}), schemas made JSON
 * Schema once, at bind time. */
export function boundTool(tool: BindToolsInput, index: number): Dict {
  if (isLangChainTool(tool)) return convertToOpenAITool(tool) as unknown as Dict;
  const dict = tool as Dict;
  const fn = (dict.type === 'function' && typeof dict.function === 'object' ? dict.function : dict) as Dict;
  const parameters = fn.parameters ?? fn.input_schema ?? fn.schema;
  if (typeof fn.name !== 'string' || parameters === undefined) {
    throw new TypeError(
      `tools[${index}]: not a function tool (a LangChain tool, {type: "function", function: {name, parameters}}, or {name, parameters | input_schema | schema}); got ${JSON.stringify(tool)?.slice(0, 200)}`,
    );
  }
  const definition: Dict = { name: fn.name, parameters: jsonSchemaOf(parameters) };
  if (typeof fn.description === 'string') definition.description = fn.description;
  if (typeof fn.strict === 'boolean') definition.strict = fn.strict;
  return { type: 'function', function: definition };
}

export function toolDefinitions(tools: readonly unknown[] | undefined, strict: boolean | undefined): ToolDefinition[] {
  if (!tools) return [];
  return tools.map((tool, i) => {
    const fn = ((tool as Dict).type === 'function' ? (tool as Dict).function : boundTool(tool as BindToolsInput, i).function) as Dict;
    const definition: ToolDefinition = { name: fn.name as string, parameters: jsonSchemaOf(fn.parameters) };
    if (typeof fn.description === 'string' && fn.description !== '') definition.description = fn.description;
    const isStrict = strict ?? fn.strict;
    if (typeof isStrict === 'boolean') definition.strict = isStrict;
    return definition;
  });
}

/** LangChain's tool_choice ("auto", "any", "required", "none", a tool's name, or an OpenAI- or
 * Anthropic-style object) as the neutral choice; a named tool must be bound. */
export function toolChoiceOf(choice: unknown, tools: ToolDefinition[]): ToolChoice | undefined {
  if (choice === undefined || choice === null) return undefined;
  const neutral = neutralChoice(choice);
  if (neutral.type === 'named' && !tools.some((t) => t.name === neutral.name)) {
    throw new TypeError(
      `tool_choice names "${neutral.name}", which is not a bound tool (bound: ${tools.map((t) => t.name).join(', ') || 'none'})`,
    );
  }
  return neutral;
}

function neutralChoice(choice: unknown): ToolChoice {
  if (typeof choice === 'string') {
    if (choice === 'auto' || choice === 'none' || choice === 'required') return { type: choice };
    if (choice === 'any') return { type: 'required' };
    return { type: 'named', name: choice };
  }
  const dict = choice as Dict;
  const fn = dict.function as Dict | undefined;
  if (typeof fn?.name === 'string') return { type: 'named', name: fn.name };
  if ((dict.type === 'tool' || dict.type === 'function') && typeof dict.name === 'string') return { type: 'named', name: dict.name };
  if (dict.type === 'auto' || dict.type === 'none' || dict.type === 'required') return { type: dict.type };
  if (dict.type === 'any') return { type: 'required' };
  throw new TypeError(`tool_choice ${JSON.stringify(choice)} is not one Understudy maps (auto, any, required, none, a tool's name)`);
}

export function outputOf(format: ResponseFormat | undefined): OutputFormat | undefined {
  if (format === undefined || format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  if (format.type === 'json_schema') {
    const { name, schema, strict } = format.json_schema;
    const output: OutputFormat = { type: 'json_schema', schema: jsonSchemaOf(schema) };
    if (name !== undefined) output.name = name;
    if (typeof strict === 'boolean') output.strict = strict;
    return output;
  }
  throw new TypeError(`response_format ${JSON.stringify(format)} is not one Understudy maps (text, json_object, json_schema)`);
}

/** A zod or Standard JSON schema as JSON Schema; a JSON Schema as it is. */
export function jsonSchemaOf(schema: unknown): JsonSchema {
  if (isInteropZodSchema(schema) || isSerializableSchema(schema)) return toJsonSchema(schema) as JsonSchema;
  return schema as JsonSchema;
}

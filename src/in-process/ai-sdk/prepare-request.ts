// An AI SDK call (LanguageModelV3CallOptions) as the neutral request the engine answers: its
// prompt, function tools with their JSON Schemas, tool choice, JSON response format and limit.

import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import type { ChatRequest, OutputFormat, ToolChoice, ToolDefinition } from '../../core/model.js';
import { neutralRequest } from '../neutral-request.js';
import { convertPrompt } from './convert-prompt.js';

export function prepareRequest(modelId: string, options: LanguageModelV3CallOptions, stream: boolean): ChatRequest {
  return neutralRequest({
    model: modelId,
    messages: convertPrompt(options.prompt),
    tools: toolsOf(options.tools),
    toolChoice: toolChoiceOf(options.toolChoice),
    output: outputOf(options.responseFormat),
    stream,
    ...(options.maxOutputTokens !== undefined && { maxOutputTokens: options.maxOutputTokens }),
  });
}

function toolsOf(tools: LanguageModelV3CallOptions['tools']): ToolDefinition[] {
  const out: ToolDefinition[] = [];
  for (const tool of tools ?? []) {
    if (tool.type !== 'function') {
      throw new Error(`the in-process AI SDK model offers function tools only; "${tool.name}" is a provider tool (${tool.id})`);
    }
    const definition: ToolDefinition = { name: tool.name, parameters: tool.inputSchema as ToolDefinition['parameters'] };
    if (tool.description !== undefined) definition.description = tool.description;
    if (tool.strict !== undefined) definition.strict = tool.strict;
    out.push(definition);
  }
  return out;
}

function toolChoiceOf(choice: LanguageModelV3CallOptions['toolChoice']): ToolChoice {
  if (!choice) return { type: 'auto' };
  if (choice.type === 'tool') return { type: 'named', name: choice.toolName };
  return { type: choice.type };
}

function outputOf(format: LanguageModelV3CallOptions['responseFormat']): OutputFormat {
  if (!format || format.type === 'text') return { type: 'text' };
  if (!format.schema) return { type: 'json_object' };
  const output: OutputFormat = { type: 'json_schema', schema: format.schema as Record<string, unknown> };
  if (format.name !== undefined) output.name = format.name;
  return output;
}

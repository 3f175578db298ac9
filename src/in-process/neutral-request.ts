// What a framework-native model hands the engine: a ChatRequest made from the framework's own
// call, with every member a dialect's decoder would set, and tool results named after their calls
// (frameworks, like some wires, send a result with its call id only).

import type { ChatRequest, JsonValue, Message, OutputFormat, ToolChoice, ToolDefinition } from '../core/model.js';

export interface NeutralRequestParts {
  model: string;
  messages: Message[];
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  output?: OutputFormat;
  stream: boolean;
  maxOutputTokens?: number;
}

export function neutralRequest(parts: NeutralRequestParts): ChatRequest {
  const request: ChatRequest = {
    model: parts.model,
    messages: namedToolResults(parts.messages),
    tools: parts.tools ?? [],
    toolChoice: parts.toolChoice ?? { type: 'auto' },
    parallelToolCalls: parts.parallelToolCalls ?? true,
    output: parts.output ?? { type: 'text' },
    stream: parts.stream,
    streamUsage: parts.stream,
    promptCaching: 'automatic',
  };
  if (parts.maxOutputTokens !== undefined) request.maxOutputTokens = parts.maxOutputTokens;
  return request;
}

/** Gives each tool result without a name the name of the call with its id earlier in the history. */
function namedToolResults(messages: Message[]): Message[] {
  const names = new Map<string, string>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === 'tool_call') names.set(part.id, part.name);
      else if (part.type === 'tool_result' && part.name === undefined) part.name = names.get(part.callId);
    }
  }
  return messages;
}

/** The arguments text a framework gave as a value or as JSON text, parsed where it is JSON. */
export function toolArguments(value: unknown): { argumentsText: string; arguments: JsonValue | undefined } {
  if (typeof value === 'string') {
    try {
      return { argumentsText: value, arguments: JSON.parse(value) };
    } catch {
      return { argumentsText: value, arguments: undefined };
    }
  }
  return { argumentsText: JSON.stringify(value ?? {}), arguments: (value ?? {}) as JsonValue };
}

// The AI SDK's prompt (LanguageModelV3Prompt) as neutral messages: system text, user text and
// images, assistant text, reasoning and tool calls, and tool results with their call ids.

import type { LanguageModelV3DataContent, LanguageModelV3Prompt, LanguageModelV3ToolResultOutput } from '@ai-sdk/provider';
import type { Message, Part } from '../../core/model.js';
import { toolArguments } from '../neutral-request.js';

export function convertPrompt(prompt: LanguageModelV3Prompt): Message[] {
  const messages: Message[] = [];
  for (const message of prompt) {
    switch (message.role) {
      case 'system':
        messages.push({ role: 'system', parts: [{ type: 'text', text: message.content }] });
        break;
      case 'user': {
        const parts: Part[] = [];
        for (const part of message.content) {
          if (part.type === 'text') parts.push({ type: 'text', text: part.text });
          else parts.push(imagePart(part.data, part.mediaType));
        }
        messages.push({ role: 'user', parts });
        break;
      }
      case 'assistant': {
        const parts: Part[] = [];
        for (const part of message.content) {
          if (part.type === 'text') parts.push({ type: 'text', text: part.text });
          else if (part.type === 'reasoning') parts.push({ type: 'reasoning', text: part.text });
          else if (part.type === 'tool-call')
            parts.push({ type: 'tool_call', id: part.toolCallId, name: part.toolName, ...toolArguments(part.input) });
          else if (part.type === 'file') parts.push(imagePart(part.data, part.mediaType));
          // A provider-executed tool's result inside the assistant turn: no neutral counterpart.
        }
        messages.push({ role: 'assistant', parts });
        break;
      }
      case 'tool': {
        const parts: Part[] = [];
        for (const part of message.content) {
          if (part.type !== 'tool-result') continue;
          parts.push({ type: 'tool_result', callId: part.toolCallId, name: part.toolName, ...resultContent(part.output) });
        }
        messages.push({ role: 'tool', parts });
        break;
      }
    }
  }
  return messages;
}

function imagePart(data: LanguageModelV3DataContent, mediaType: string): Part {
  if (!mediaType.startsWith('image/')) {
    throw new Error(`the in-process AI SDK model maps image files only; this prompt has a file of media type ${mediaType}`);
  }
  if (data instanceof URL) return { type: 'image', url: data.href, mediaType };
  const base64 = typeof data === 'string' ? data : Buffer.from(data).toString('base64');
  return { type: 'image', url: `data:${mediaType};base64,${base64}`, mediaType };
}

/** A tool result as the text a wire would carry, and whether it reports a failure. */
function resultContent(output: LanguageModelV3ToolResultOutput): { content: string; isError: boolean } {
  switch (output.type) {
    case 'text':
      return { content: output.value, isError: false };
    case 'json':
      return { content: JSON.stringify(output.value), isError: false };
    case 'error-text':
      return { content: output.value, isError: true };
    case 'error-json':
      return { content: JSON.stringify(output.value), isError: true };
    case 'execution-denied':
      return { content: output.reason ?? 'Tool execution denied.', isError: true };
    case 'content':
      return { content: output.value.map((item) => (item.type === 'text' ? item.text : '')).join(''), isError: false };
  }
}

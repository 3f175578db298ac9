// LangChain messages as neutral messages: system (developer when LangChain marks it so), human with
// text and image blocks, AI with its text, reasoning and tool calls, and tool results with their
// call id and error status. Content a neutral message cannot hold is refused by name.

import type { BaseMessage } from '@langchain/core/messages';
import type { Message, Part, Role } from '../../core/model.js';
import { toolArguments } from '../neutral-request.js';

type Block = Record<string, unknown>;

export function neutralMessages(messages: BaseMessage[]): Message[] {
  return messages.map((message, i) => neutralMessage(message, `messages[${i}]`));
}

function neutralMessage(message: BaseMessage, where: string): Message {
  const type = message.type;
  if (type === 'system') return { role: systemRole(message), parts: contentParts(message.content, where, false) };
  if (type === 'human') return { role: 'user', parts: contentParts(message.content, where, true) };
  if (type === 'ai') return { role: 'assistant', parts: assistantParts(message, where) };
  if (type === 'tool') return { role: 'tool', parts: [toolResult(message)] };
  if (type === 'generic') {
    const role = genericRole((message as BaseMessage & { role?: unknown }).role, where);
    return { role, parts: contentParts(message.content, where, role === 'user') };
  }
  throw new TypeError(
    `${where}: a "${type}" message has no neutral counterpart (system, human, ai, tool or a chat message of a known role)`,
  );
}

function systemRole(message: BaseMessage): Role {
  return message.additional_kwargs?.__openai_role__ === 'developer' ? 'developer' : 'system';
}

const GENERIC_ROLES: Record<string, Role> = {
  system: 'system',
  developer: 'developer',
  user: 'user',
  human: 'user',
  assistant: 'assistant',
  ai: 'assistant',
};

function genericRole(role: unknown, where: string): Role {
  const neutral = typeof role === 'string' ? GENERIC_ROLES[role] : undefined;
  if (!neutral) throw new TypeError(`${where}: a chat message of role ${JSON.stringify(role)} has no neutral counterpart`);
  return neutral;
}

function contentParts(content: BaseMessage['content'], where: string, images: boolean): Part[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  const parts: Part[] = [];
  content.forEach((block, i) => {
    const part = contentPart(block as Block, `${where}.content[${i}]`, images);
    if (part) parts.push(part);
  });
  return parts;
}

function contentPart(block: Block, where: string, images: boolean): Part | undefined {
  if (block.type === 'text') return { type: 'text', text: String(block.text ?? '') };
  if (images && (block.type === 'image_url' || block.type === 'image')) return imagePart(block, where);
  throw new TypeError(
    `${where}: a "${String(block.type)}" content block is not mapped to the neutral request (text${images ? ', image_url, image' : ''})`,
  );
}

function imagePart(block: Block, where: string): Part {
  if (block.type === 'image_url') {
    const value = block.image_url;
    const url = typeof value === 'string' ? value : (value as { url?: unknown } | undefined)?.url;
    if (typeof url === 'string') return { type: 'image', url };
  } else {
    const mediaType = (block.mimeType ?? block.mime_type) as string | undefined;
    if (typeof block.url === 'string') return { type: 'image', url: block.url, ...(mediaType && { mediaType }) };
    if (typeof block.data === 'string') {
      const type = mediaType ?? 'image/png';
      return { type: 'image', url: `data:${type};base64,${block.data}`, mediaType: type };
    }
  }
  throw new TypeError(`${where}: an image block needs a URL or base64 data`);
}

function assistantParts(message: BaseMessage, where: string): Part[] {
  const parts: Part[] = [];
  const reasoning = message.additional_kwargs?.reasoning_content;
  if (typeof reasoning === 'string' && reasoning !== '') parts.push({ type: 'reasoning', text: reasoning });
  if (typeof message.content === 'string') {
    if (message.content !== '') parts.push({ type: 'text', text: message.content });
  } else {
    message.content.forEach((raw, i) => {
      const block = raw as Block;
      if (block.type === 'text') parts.push({ type: 'text', text: String(block.text ?? '') });
      else if (block.type === 'reasoning' || block.type === 'thinking') {
        parts.push({ type: 'reasoning', text: String(block.reasoning ?? block.thinking ?? '') });
      } else if (block.type !== 'tool_use' && block.type !== 'tool_call' && block.type !== 'function_call') {
        // Tool calls in content repeat `tool_calls`, which is what is sent.
        throw new TypeError(`${where}.content[${i}]: a "${String(block.type)}" block of an AI message is not mapped (text, reasoning)`);
      }
    });
  }
  const ai = message as BaseMessage & {
    tool_calls?: { id?: string; name: string; args: unknown }[];
    invalid_tool_calls?: { id?: string; name?: string; args?: string }[];
  };
  for (const call of ai.tool_calls ?? [])
    parts.push({ type: 'tool_call', id: call.id ?? '', name: call.name, ...toolArguments(call.args) });
  for (const call of ai.invalid_tool_calls ?? []) {
    parts.push({ type: 'tool_call', id: call.id ?? '', name: call.name ?? '', ...toolArguments(call.args ?? '') });
  }
  return parts;
}

function toolResult(message: BaseMessage): Part {
  const tool = message as BaseMessage & { tool_call_id: string; status?: 'success' | 'error' };
  const content =
    typeof message.content === 'string'
      ? message.content
      : message.content
          .map((block) => ((block as Block).type === 'text' ? String((block as Block).text ?? '') : JSON.stringify(block)))
          .join('');
  return { type: 'tool_result', callId: tool.tool_call_id, name: message.name, content, isError: tool.status === 'error' };
}

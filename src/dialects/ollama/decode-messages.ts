// `messages`, `images` and `tools` of an Ollama request, as the neutral conversation. Tool calls
// carry their arguments as a JSON object; a tool result names its tool (`tool_name`) and, from
// newer clients, the call it answers (`tool_call_id`). A result without that id answers the
// latest call of its tool that no result answered yet. Calls sent without an id get one from
// their place in the conversation, so a script can still pair them.

import type { ImagePart, JsonValue, Message, Part, Role, ToolDefinition } from '../../core/model.js';
import { given, isObject } from '../wire-kit/values.js';
import { reject } from '../wire-kit/wire-error.js';
import { expectArray, expectInteger, expectObject, expectString, goPath, refusal, typeError, type GoField } from './wording.js';

const ROLES: Record<string, Role> = { system: 'system', user: 'user', assistant: 'assistant', tool: 'tool' };

function at(struct: string, path: string, where: string): string {
  return goPath({ struct, path, at: where } satisfies GoField);
}

function optionalString(value: unknown, struct: string, path: string, where: string): string | undefined {
  return given(value) ? expectString(value, at(struct, path, where)) : undefined;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** What the bytes of a base64 image say they are, from their first characters. */
function mediaTypeOf(data: string): string {
  if (data.startsWith('iVBOR')) return 'image/png';
  if (data.startsWith('/9j/')) return 'image/jpeg';
  if (data.startsWith('R0lG')) return 'image/gif';
  if (data.startsWith('UklG')) return 'image/webp';
  return 'application/octet-stream';
}

/** `images`: base64 strings, as Go decodes a []byte (standard alphabet, padded). */
export function decodeImages(raw: unknown, struct: string, path: string, where: string): ImagePart[] {
  if (!given(raw)) return [];
  const list = expectArray(raw, at(struct, path, where), '[]api.ImageData');
  return list.map((item, i) => {
    if (item === null) return { type: 'image', url: 'data:application/octet-stream;base64,', mediaType: 'application/octet-stream' };
    const data = expectString(item, at(struct, path, `${where}[${i}]`), 'api.ImageData');
    if (!BASE64.test(data) || data.length % 4 !== 0) {
      const bad = data.search(/[^A-Za-z0-9+/=]/);
      reject(refusal(`illegal base64 data at input byte ${bad >= 0 ? bad : Math.floor(data.length / 4) * 4}`, `${where}[${i}]`));
    }
    const mediaType = mediaTypeOf(data);
    return { type: 'image', url: `data:${mediaType};base64,${data}`, mediaType };
  });
}

interface PendingCall {
  id: string;
  name: string;
  answered: boolean;
}

function decodeToolCalls(raw: unknown, where: string, m: number, calls: PendingCall[]): Part[] {
  if (!given(raw)) return [];
  const list = expectArray(raw, at('Message', 'messages.tool_calls', `${where}.tool_calls`), '[]api.ToolCall');
  return list.map((item, c): Part => {
    const callAt = `${where}.tool_calls[${c}]`;
    const call = expectObject(item ?? {}, at('Message', 'messages.tool_calls', callAt), 'api.ToolCall');
    const sentId = optionalString(call.id, 'ToolCall', 'messages.tool_calls.id', `${callAt}.id`);
    const id = sentId || `call_${m}_${c}`;
    const fn = given(call.function)
      ? expectObject(call.function, at('ToolCall', 'messages.tool_calls.function', `${callAt}.function`), 'api.ToolCallFunction')
      : {};
    if (given(fn.index)) expectInteger(fn.index, at('ToolCallFunction', 'messages.tool_calls.function.index', `${callAt}.function.index`));
    const name = optionalString(fn.name, 'ToolCallFunction', 'messages.tool_calls.function.name', `${callAt}.function.name`) ?? '';
    let args: Record<string, JsonValue> = {};
    if (given(fn.arguments)) {
      if (!isObject(fn.arguments)) {
        const field = { struct: 'ToolCallFunction', path: 'messages.tool_calls.function.arguments', at: `${callAt}.function.arguments` };
        reject(typeError(field, fn.arguments, 'map[string]interface {}'));
      }
      args = fn.arguments as Record<string, JsonValue>;
    }
    calls.push({ id, name, answered: false });
    return { type: 'tool_call', id, name, argumentsText: JSON.stringify(args), arguments: args, ...(!sentId && { idMade: true as const }) };
  });
}

/** The call a tool result answers: the one it names, else the latest unanswered call of its tool. */
function answeredCall(calls: PendingCall[], id: string | undefined, name: string | undefined): PendingCall | undefined {
  if (id) return calls.find((call) => call.id === id);
  for (let i = calls.length - 1; i >= 0; i--) {
    const call = calls[i];
    if (!call.answered && (name === undefined || call.name === name)) return call;
  }
  return undefined;
}

export function decodeMessages(raw: unknown): Message[] {
  if (!given(raw)) return [];
  const list = expectArray(raw, at('ChatRequest', 'messages', 'messages'), '[]api.Message');
  const calls: PendingCall[] = [];
  return list.map((item, m): Message => {
    const where = `messages[${m}]`;
    const message = expectObject(item ?? {}, at('ChatRequest', 'messages', where), 'api.Message');
    const roleText = (optionalString(message.role, 'Message', 'messages.role', `${where}.role`) ?? '').toLowerCase();
    const role = ROLES[roleText] ?? 'user';
    const content = optionalString(message.content, 'Message', 'messages.content', `${where}.content`) ?? '';
    const thinking = optionalString(message.thinking, 'Message', 'messages.thinking', `${where}.thinking`);
    const images = decodeImages(message.images, 'Message', 'messages.images', `${where}.images`);
    const toolName = optionalString(message.tool_name, 'Message', 'messages.tool_name', `${where}.tool_name`) || undefined;
    const toolCallId = optionalString(message.tool_call_id, 'Message', 'messages.tool_call_id', `${where}.tool_call_id`) || undefined;
    const toolCalls = decodeToolCalls(message.tool_calls, where, m, calls);
    if (role === 'tool') {
      const call = answeredCall(calls, toolCallId, toolName);
      if (call) call.answered = true;
      const callId = toolCallId ?? call?.id ?? `call_${m}`;
      const made = toolCallId === undefined && { callIdMade: true as const };
      return { role, parts: [{ type: 'tool_result', callId, name: toolName ?? call?.name, content, isError: false, ...made }] };
    }
    const parts: Part[] = [];
    if (thinking) parts.push({ type: 'reasoning', text: thinking });
    if (content !== '' || (images.length === 0 && toolCalls.length === 0)) parts.push({ type: 'text', text: content });
    parts.push(...images, ...toolCalls);
    return { role, parts };
  });
}

/** `tools`: function tools, each with its JSON Schema as sent. */
export function decodeTools(raw: unknown): ToolDefinition[] {
  if (!given(raw)) return [];
  const list = expectArray(raw, at('ChatRequest', 'tools', 'tools'), 'api.Tools');
  return list.map((item, i) => {
    const where = `tools[${i}]`;
    const tool = expectObject(item ?? {}, at('ChatRequest', 'tools', where), 'api.Tool');
    if (given(tool.type)) expectString(tool.type, at('Tool', 'tools.type', `${where}.type`));
    const fn = given(tool.function)
      ? expectObject(tool.function, at('Tool', 'tools.function', `${where}.function`), 'api.ToolFunction')
      : {};
    const name = optionalString(fn.name, 'ToolFunction', 'tools.function.name', `${where}.function.name`) ?? '';
    const description = optionalString(fn.description, 'ToolFunction', 'tools.function.description', `${where}.function.description`);
    let parameters: Record<string, unknown> = { type: 'object', properties: {} };
    if (given(fn.parameters)) {
      parameters = expectObject(
        fn.parameters,
        at('ToolFunction', 'tools.function.parameters', `${where}.function.parameters`),
        'api.ToolFunctionParameters',
      );
      if (given(parameters.required)) {
        const required = expectArray(
          parameters.required,
          at('ToolFunctionParameters', 'tools.function.parameters.required', `${where}.function.parameters.required`),
          '[]string',
        );
        required.forEach((entry, r) => {
          if (entry !== null)
            expectString(
              entry,
              at('ToolFunctionParameters', 'tools.function.parameters.required', `${where}.function.parameters.required[${r}]`),
            );
        });
      }
      if (given(parameters.properties)) {
        expectObject(
          parameters.properties,
          at('ToolFunctionParameters', 'tools.function.parameters.properties', `${where}.function.parameters.properties`),
          'api.ToolPropertiesMap',
        );
      }
    }
    return { name, ...(description !== undefined && description !== '' && { description }), parameters };
  });
}

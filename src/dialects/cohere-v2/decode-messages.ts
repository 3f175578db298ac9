// `messages` to neutral messages. Roles are system, user, assistant and tool; content is a string
// or a list of typed items. An assistant turn's `tool_plan` (and any `thinking` item) becomes a
// reasoning part, its `tool_calls` tool-call parts; a tool turn answers one call by
// `tool_call_id`, its text and documents joined as the result's text. Citations an assistant turn
// echoes are accepted and left out of the neutral record.

import type { JsonValue, Message, Part } from '../../core/model.js';
import { given } from '../wire-kit/values.js';
import { expectArray, expectEnum, expectLength, expectObject, expectString, fail, requiredMember } from '../cohere/wording.js';

const ROLES = ['system', 'user', 'assistant', 'tool'] as const;
const NOT_EMPTY = { min: 1 };

function parsed(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

/** A list of `{type:"text",text}` items (system turns, and the text of the others). */
function textItem(item: Record<string, unknown>, path: string): string {
  return expectString(requiredMember(item, 'text', path), `${path}.text`);
}

function systemParts(content: unknown, path: string): Part[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return expectArray(content, path, 'a string or a list of content items').map((raw, i) => {
    const item = expectObject(raw, `${path}.${i}`);
    expectEnum(requiredMember(item, 'type', `${path}.${i}`), ['text'], `${path}.${i}.type`);
    return { type: 'text', text: textItem(item, `${path}.${i}`) };
  });
}

function userParts(content: unknown, path: string): Part[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return expectArray(content, path, 'a string or a list of content items').map((raw, i): Part => {
    const at = `${path}.${i}`;
    const item = expectObject(raw, at);
    const type = expectEnum(requiredMember(item, 'type', at), ['text', 'image_url'], `${at}.type`);
    if (type === 'text') return { type: 'text', text: textItem(item, at) };
    const image = expectObject(requiredMember(item, 'image_url', at), `${at}.image_url`);
    if (given(image.detail)) expectEnum(image.detail, ['auto', 'low', 'high'], `${at}.image_url.detail`);
    return { type: 'image', url: expectString(requiredMember(image, 'url', `${at}.image_url`), `${at}.image_url.url`) };
  });
}

function assistantParts(m: Record<string, unknown>, path: string, callNames: Map<string, string>): Part[] {
  const parts: Part[] = [];
  if (given(m.tool_plan)) parts.push({ type: 'reasoning', text: expectString(m.tool_plan, `${path}.tool_plan`) });
  const content = m.content;
  if (typeof content === 'string') parts.push({ type: 'text', text: content });
  else if (given(content)) {
    expectArray(content, `${path}.content`, 'a string or a list of content items').forEach((raw, i) => {
      const at = `${path}.content.${i}`;
      const item = expectObject(raw, at);
      const type = expectEnum(requiredMember(item, 'type', at), ['text', 'thinking'], `${at}.type`);
      if (type === 'text') parts.push({ type: 'text', text: textItem(item, at) });
      else parts.push({ type: 'reasoning', text: expectString(requiredMember(item, 'thinking', at), `${at}.thinking`) });
    });
  }
  if (given(m.tool_calls)) {
    expectArray(m.tool_calls, `${path}.tool_calls`).forEach((raw, i) => {
      const at = `${path}.tool_calls.${i}`;
      const call = expectObject(raw, at);
      const id = expectString(requiredMember(call, 'id', at), `${at}.id`);
      if (given(call.type)) expectEnum(call.type, ['function'], `${at}.type`);
      const fn = expectObject(requiredMember(call, 'function', at), `${at}.function`);
      const name = expectString(requiredMember(fn, 'name', `${at}.function`), `${at}.function.name`);
      const argumentsText = given(fn.arguments) ? expectString(fn.arguments, `${at}.function.arguments`) : '{}';
      callNames.set(id, name);
      parts.push({ type: 'tool_call', id, name, argumentsText, arguments: parsed(argumentsText) });
    });
  }
  if (given(m.citations)) expectArray(m.citations, `${path}.citations`);
  if (parts.length === 0) fail(path, 'message must not be empty in a turn');
  return parts;
}

function toolResultText(content: unknown, path: string): string {
  if (typeof content === 'string') return content;
  let text = '';
  expectArray(content, path, 'a string or a list of content items').forEach((raw, i) => {
    const at = `${path}.${i}`;
    const item = expectObject(raw, at);
    const type = expectEnum(requiredMember(item, 'type', at), ['text', 'document'], `${at}.type`);
    if (type === 'text') {
      text += textItem(item, at);
      return;
    }
    const document = expectObject(requiredMember(item, 'document', at), `${at}.document`);
    const data = requiredMember(document, 'data', `${at}.document`);
    if (given(document.id)) expectString(document.id, `${at}.document.id`);
    text += typeof data === 'string' ? data : JSON.stringify(expectObject(data, `${at}.document.data`, 'an object or a string'));
  });
  return text;
}

export function decodeMessages(raw: unknown): Message[] {
  const list = expectLength(expectArray(raw, 'messages'), 'messages', NOT_EMPTY);
  const callNames = new Map<string, string>();
  return list.map((rawMessage, i): Message => {
    const path = `messages.${i}`;
    const m = expectObject(rawMessage, path);
    const role = expectEnum(requiredMember(m, 'role', path), ROLES, `${path}.role`);
    switch (role) {
      case 'system':
        return { role, parts: systemParts(requiredMember(m, 'content', path), `${path}.content`) };
      case 'user':
        return { role, parts: userParts(requiredMember(m, 'content', path), `${path}.content`) };
      case 'assistant':
        return { role, parts: assistantParts(m, path, callNames) };
      default: {
        const callId = expectString(requiredMember(m, 'tool_call_id', path), `${path}.tool_call_id`);
        const name = callNames.get(callId);
        if (name === undefined)
          fail(`${path}.tool_call_id`, `tool_call_id '${callId}' does not match a tool call of an earlier assistant message`);
        const content = toolResultText(requiredMember(m, 'content', path), `${path}.content`);
        return { role, parts: [{ type: 'tool_result', callId, name, content, isError: false }] };
      }
    }
  });
}

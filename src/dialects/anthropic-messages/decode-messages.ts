// `messages` and `system` to neutral messages. A user message's `tool_result` blocks each become
// a neutral `tool` message (so "after the latest user message" means what it means on the other
// wires), its other blocks a `user` message, in wire order; `thinking` blocks become reasoning
// parts; documents, search results and redacted thinking are accepted and left out of the neutral
// record. Tool uses and results must pair up turn by turn, as the API requires.

import type { JsonValue, Message, Part } from '../../core/model.js';
import { given, isObject } from '../wire-kit/values.js';
import { VERSION_2026 } from './api-version.js';
import { cacheControl } from './cache-control.js';
import { expectArray, expectBoolean, expectEnum, expectObject, expectString, fail, requiredMember, tag } from './wording.js';
import { pushUserTurn } from '../wire-kit/user-turn.js';

const BLOCK_TAGS = [
  'text',
  'image',
  'document',
  'search_result',
  'thinking',
  'redacted_thinking',
  'tool_use',
  'tool_result',
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'tool_search_tool_result',
  'container_upload',
];
const SERVER_BLOCKS = new Set(BLOCK_TAGS.slice(8));
const TOOL_RESULT_TAGS = ['text', 'image', 'search_result', 'document', 'tool_reference'];
const IMAGE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
const ROLES = ['user', 'assistant'] as const;
/** SDK 1.x (anthropic-version 2026-10-21) types system messages inside `messages`. */
const ROLES_2026 = ['user', 'assistant', 'system'] as const;
const SYSTEM_ROLE =
  'Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.';
const TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;
/** Holds something besides whitespace (what `trim() !== ''` asks, without the copy). */
const NOT_BLANK = /\S/;

interface Turn {
  role: 'user' | 'assistant' | 'system';
  /** Made on the first tool use or result: most turns have neither, and a long conversation would
   * otherwise allocate two arrays per turn in the one turn of the event loop its decode runs in. */
  uses?: { id: string; message: number }[];
  results?: { id: string; path: string }[];
}

export interface Scope {
  v2026: boolean;
  /** Tool names by call id, from the tool_use blocks seen so far. */
  callNames: Map<string, string>;
}

function imagePart(block: Record<string, unknown>, path: string): Part {
  const source = expectObject(requiredMember(block, 'source', path), `${path}.source`);
  const kind = tag(source, ['base64', 'url', 'file'], `${path}.source`);
  cacheControl(block.cache_control, `${path}.cache_control`);
  if (kind === 'base64') {
    const mediaType = expectEnum(requiredMember(source, 'media_type', `${path}.source`), IMAGE_MEDIA_TYPES, `${path}.source.media_type`);
    const data = expectString(requiredMember(source, 'data', `${path}.source`), `${path}.source.data`);
    return { type: 'image', url: `data:${mediaType};base64,${data}`, mediaType };
  }
  if (kind === 'url') return { type: 'image', url: expectString(requiredMember(source, 'url', `${path}.source`), `${path}.source.url`) };
  return { type: 'image', url: `file:${expectString(requiredMember(source, 'file_id', `${path}.source`), `${path}.source.file_id`)}` };
}

/** A document's source, as the API types it: a base64 PDF, plain text, content blocks, a URL or a file. */
function documentSource(source: Record<string, unknown>, path: string): void {
  switch (tag(source, ['base64', 'text', 'content', 'url', 'file'], path)) {
    case 'base64':
      expectEnum(requiredMember(source, 'media_type', path), ['application/pdf'], `${path}.media_type`);
      expectString(requiredMember(source, 'data', path), `${path}.data`);
      break;
    case 'text':
      expectEnum(requiredMember(source, 'media_type', path), ['text/plain'], `${path}.media_type`);
      expectString(requiredMember(source, 'data', path), `${path}.data`);
      break;
    case 'content': {
      const content = requiredMember(source, 'content', path);
      if (typeof content !== 'string') expectArray(content, `${path}.content`);
      break;
    }
    case 'url':
      expectString(requiredMember(source, 'url', path), `${path}.url`);
      break;
    default:
      expectString(requiredMember(source, 'file_id', path), `${path}.file_id`);
  }
}

function textBlock(block: Record<string, unknown>, path: string, role: string, finalAssistant: boolean, scope: Scope): string {
  const text = expectString(requiredMember(block, 'text', path), `${path}.text`);
  cacheControl(block.cache_control, `${path}.cache_control`);
  if (given(block.citations)) {
    const citations = expectArray(block.citations, `${path}.citations`);
    if (scope.v2026 && role === 'user' && citations.length > 0) {
      fail(`${path}.citations`, `citations on user text blocks are not accepted under anthropic-version ${VERSION_2026}`);
    }
  }
  if (!finalAssistant) {
    if (text.length === 0) fail('messages', 'text content blocks must be non-empty');
    if (text.trim() === '') fail('messages', 'text content blocks must contain non-whitespace text');
  }
  return text;
}

function toolResultContent(value: unknown, path: string): string {
  if (!given(value)) return '';
  if (typeof value === 'string') return value;
  let text = '';
  expectArray(value, path).forEach((raw, i) => {
    const p = `${path}.${i}`;
    const block = expectObject(raw, p);
    const type = tag(block, TOOL_RESULT_TAGS, p);
    if (type === 'text') text += expectString(requiredMember(block, 'text', p), `${p}.text`);
    else if (type === 'image') imagePart(block, p);
    else if (type === 'tool_reference') expectString(requiredMember(block, 'tool_name', p), `${p}.tool_name`);
    cacheControl(block.cache_control, `${p}.cache_control`);
  });
  return text;
}

/** Decodes one block into `parts`, recording tool uses and results on the turn. */
function decodeBlock(
  raw: unknown,
  path: string,
  role: Turn['role'],
  index: number,
  finalAssistant: boolean,
  turn: Turn,
  scope: Scope,
): Part | null {
  const block = expectObject(raw, path);
  const type = tag(block, role === 'system' ? ['text'] : BLOCK_TAGS, path);
  if (SERVER_BLOCKS.has(type)) {
    fail(path, `Understudy does not support server tools, so '${type}' blocks cannot appear in the conversation`);
  }
  const onlyIn = (wanted: 'user' | 'assistant') => {
    if (role !== wanted) fail(path, `'${type}' blocks are only allowed in ${wanted} messages`);
  };
  switch (type) {
    case 'text': {
      const text = textBlock(block, path, role, finalAssistant, scope);
      return text.length > 0 ? { type: 'text', text } : null;
    }
    case 'image':
      return imagePart(block, path);
    case 'document':
      if (scope.v2026 && role === 'assistant') {
        fail(path, `document blocks are not accepted in assistant messages under anthropic-version ${VERSION_2026}`);
      }
      documentSource(expectObject(requiredMember(block, 'source', path), `${path}.source`), `${path}.source`);
      cacheControl(block.cache_control, `${path}.cache_control`);
      return null;
    case 'search_result':
      expectString(requiredMember(block, 'source', path), `${path}.source`);
      expectString(requiredMember(block, 'title', path), `${path}.title`);
      expectArray(requiredMember(block, 'content', path), `${path}.content`);
      cacheControl(block.cache_control, `${path}.cache_control`);
      return null;
    case 'thinking':
      onlyIn('assistant');
      expectString(requiredMember(block, 'signature', path), `${path}.signature`);
      return { type: 'reasoning', text: expectString(requiredMember(block, 'thinking', path), `${path}.thinking`) };
    case 'redacted_thinking':
      onlyIn('assistant');
      expectString(requiredMember(block, 'data', path), `${path}.data`);
      return null;
    case 'tool_use': {
      onlyIn('assistant');
      const id = expectString(requiredMember(block, 'id', path), `${path}.id`);
      if (!TOOL_USE_ID.test(id)) fail(`${path}.id`, "String should match pattern '^[a-zA-Z0-9_-]+$'");
      if (scope.callNames.has(id)) fail(path, `\`tool_use\` ids must be unique; "${id}" is used twice`);
      const name = expectString(requiredMember(block, 'name', path), `${path}.name`);
      const input = expectObject(requiredMember(block, 'input', path), `${path}.input`);
      cacheControl(block.cache_control, `${path}.cache_control`);
      scope.callNames.set(id, name);
      (turn.uses ??= []).push({ id, message: index });
      return { type: 'tool_call', id, name, argumentsText: JSON.stringify(input), arguments: input as JsonValue };
    }
    case 'tool_result': {
      onlyIn('user');
      const id = expectString(requiredMember(block, 'tool_use_id', path), `${path}.tool_use_id`);
      if (!TOOL_USE_ID.test(id)) fail(`${path}.tool_use_id`, "String should match pattern '^[a-zA-Z0-9_-]+$'");
      const content = toolResultContent(block.content, `${path}.content`);
      const isError = !given(block.is_error) ? false : expectBoolean(block.is_error, `${path}.is_error`);
      cacheControl(block.cache_control, `${path}.cache_control`);
      (turn.results ??= []).push({ id, path });
      return { type: 'tool_result', callId: id, name: scope.callNames.get(id), content, isError };
    }
    default:
      return null;
  }
}

function endsWithWhitespace(content: unknown): boolean {
  if (typeof content === 'string') return /\s$/.test(content);
  if (!Array.isArray(content) || content.length === 0) return false;
  const last: unknown = content[content.length - 1];
  return isObject(last) && last.type === 'text' && typeof last.text === 'string' && /\s$/.test(last.text);
}

export function decodeMessages(raw: unknown, scope: Scope): Message[] {
  if (raw === undefined) fail('messages', 'Field required');
  const wire = expectArray(raw, 'messages');
  if (wire.length === 0) fail('messages', 'at least one message is required');
  const messages: Message[] = [];
  const turns: Turn[] = [];

  wire.forEach((rawMessage, i) => {
    // The common case, a user or assistant message whose content is text with something besides
    // whitespace, cannot fail: it is decoded without the paths the checks below would name.
    if (isObject(rawMessage) && typeof rawMessage.content === 'string' && NOT_BLANK.test(rawMessage.content)) {
      const role = rawMessage.role;
      if (role === 'user' || role === 'assistant') {
        const turn = turns[turns.length - 1];
        if (!turn || turn.role !== role) turns.push({ role });
        messages.push({ role, parts: [{ type: 'text', text: rawMessage.content }] });
        return;
      }
    }
    const path = `messages.${i}`;
    const m = expectObject(rawMessage, path);
    const wireRole = requiredMember(m, 'role', path);
    if (wireRole === 'system' && !scope.v2026) fail('messages', SYSTEM_ROLE);
    const role = expectEnum(wireRole, scope.v2026 ? ROLES_2026 : ROLES, `${path}.role`);
    const content = requiredMember(m, 'content', path);
    const finalAssistant = role === 'assistant' && i === wire.length - 1;

    // The API combines consecutive user or assistant turns; tool pairing is checked per turn.
    let turn = turns[turns.length - 1];
    if (!turn || turn.role !== role || role === 'system') turns.push((turn = { role }));

    const parts: Part[] = [];
    if (typeof content === 'string') {
      if (content.length === 0 && !finalAssistant) {
        fail(path, 'all messages must have non-empty content except for the optional final assistant message');
      }
      if (content.length > 0 && content.trim() === '' && !finalAssistant)
        fail('messages', 'text content blocks must contain non-whitespace text');
      if (content.length > 0) parts.push({ type: 'text', text: content });
    } else {
      const blocks = expectArray(content, `${path}.content`);
      if (blocks.length === 0 && !finalAssistant) {
        fail(path, 'all messages must have non-empty content except for the optional final assistant message');
      }
      blocks.forEach((block, j) => {
        const part = decodeBlock(block, `${path}.content.${j}`, role, i, finalAssistant, turn, scope);
        if (part) parts.push(part);
      });
    }

    if (role !== 'user') {
      messages.push({ role, parts });
      return;
    }
    pushUserTurn(parts, messages);
  });

  for (let t = 0; t < turns.length; t++) {
    const turn = turns[t];
    if (turn.role === 'user' && turn.results) {
      const previous = turns[t - 1];
      const allowed = new Set(previous?.role === 'assistant' ? (previous.uses ?? []).map((u) => u.id) : []);
      for (const result of turn.results) {
        if (!allowed.has(result.id)) {
          fail(
            result.path,
            `unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${result.id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
          );
        }
      }
    }
    if (turn.role === 'assistant' && turn.uses) {
      const next = turns[t + 1];
      const answered = new Set(next?.role === 'user' ? (next.results ?? []).map((r) => r.id) : []);
      const missing = turn.uses.filter((u) => !answered.has(u.id));
      if (missing.length > 0) {
        fail(
          `messages.${missing[0].message}`,
          `\`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.map((u) => u.id).join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
        );
      }
    }
  }

  const last = expectObject(wire[wire.length - 1], `messages.${wire.length - 1}`);
  if (last.role === 'assistant' && endsWithWhitespace(last.content)) {
    fail('messages', 'final assistant content cannot end with trailing whitespace');
  }
  return messages;
}

export function decodeSystem(raw: unknown): Message | null {
  if (!given(raw)) return null;
  if (typeof raw === 'string') return raw.length > 0 ? { role: 'system', parts: [{ type: 'text', text: raw }] } : null;
  if (!Array.isArray(raw)) fail('system', 'Input should be a valid string or a list of text blocks');
  const parts: Part[] = [];
  raw.forEach((rawBlock, i) => {
    const path = `system.${i}`;
    const block = expectObject(rawBlock, path);
    tag(block, ['text'], path);
    const text = expectString(requiredMember(block, 'text', path), `${path}.text`);
    cacheControl(block.cache_control, `${path}.cache_control`);
    if (given(block.citations)) expectArray(block.citations, `${path}.citations`);
    if (text.length === 0) fail('system', 'text content blocks must be non-empty');
    parts.push({ type: 'text', text });
  });
  return parts.length > 0 ? { role: 'system', parts } : null;
}
